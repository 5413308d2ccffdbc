// The warriors family's internal functions, shared by its files (family.cc, container.cc, the
// verbs of warriors.h): identify, info, classify, verify, the demo files.
#pragma once

#include "assay/formats/warriors/load.h"

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "assay/container.h"
#include "assay/family.h"
#include "assay/options.h"
#include "assay/formats/warriors/classify.h"
#include "assay/formats/warriors/disc.h"
#include "assay/formats/warriors/chunks.h"
#include "formats/serialise.h"

namespace assay::warriors {

// Confidence from the bytes and the name (identify.cc): a disc (100), an exact pack (90), a loose
// container (50), a .lev that breaks the container rules (10; open() says what is wrong).
int identify_input(const Input& in);

// A disc and the names given (--names).
struct OpenedDisc {
  Disc disc;
  NameTable names;
};
inline Result<OpenedDisc> open_disc(const Input& in, const Siblings& siblings, const ReadOptions& opt) {
  ASSAY_TRY(Disc d, Disc::open(in, siblings));
  ASSAY_TRY(NameTable n, NameTable::load(opt.names_files));
  return OpenedDisc{std::move(d), std::move(n)};
}

// Each row's kind (spec: warriors.md#wr-8-1), `names` adding K2's own-name check; in parallel
// (classify_disc.cc).
std::vector<EntryKind> classify_entries(const Disc& disc, const NameTable& names, unsigned threads);

// JSON (json.cc). `info` fields of a disc (without "format"): source, sizes, a truncated WAD's
// warning; of a loose container (without "format"); the kinds' counts and bytes (classify).
Json disc_info_fields(const Disc& disc);
Result<Json> chunk_info_fields(const Input& in);
Json kind_counts_json(const Disc& disc, std::span<const EntryKind> kinds);

// `assay warriors classify DISC`: {"format","entries","counts":{kind:n},"bytes":{kind:n}}.
Result<Json> classify_disc(const Input& in, const ReadOptions& opt);
// The same with the disc's siblings given (a DIR inside an archive: the archive's entries).
Result<Json> classify_disc(const Input& in, const Siblings& siblings, const ReadOptions& opt);

// One change of a disc edit (edit.cc): the row's index and old size for replace and remove, the
// new size for replace and add.
struct DiscEditLine {
  const char* op = "";                // "replace", "add", "remove"
  std::optional<std::string> name;    // as given, or the known name of a 0xHASH; null when unknown
  std::uint32_t hash = 0;
  std::optional<std::uint32_t> index;
  std::optional<std::uint64_t> old_size, new_size;
};
// {"format": "warriors", "input", "output", "in_place", "entry_count", "wad_bytes",
// "changes": [{"op", "name", "hash", "index", "old_size", "new_size"}]} (absent fields left out).
Json disc_edit_json(std::string_view input, std::string_view output, bool in_place, std::uint64_t entry_count,
                    std::uint64_t wad_bytes, const std::vector<DiscEditLine>& changes);

// A truncated WAD as `info` and `list` show it: {"warning": message, "problems":
// [that warning]}; {} for a whole WAD. `verify` reports the same diagnostic as an error.
Json wad_truncation_fields(const Disc& disc);

// `assay warriors load DISC:NAME | DISC:0xHASH | FILE` (the spec resolved by ops_reports.cc). A
// failed load is the report's result.error; an Error is returned only for I/O or usage problems.
// The entry `sel` (NAME, 0xHASH, <8 hex>.bin) of the disc `disc`, its WAD among `siblings`:
Result<LoadReport> load_disc_entry(const Input& disc, const Siblings& siblings, const std::string& spec,
                                   const std::string& sel, ContainerShape shape, const ReadOptions& opt);
// A container file (`spec` as given):
LoadReport load_container_input(const Input& in, const std::string& spec, ContainerShape shape);

// The family's edit (assay replace/add/remove DISC -o OUTDIR | --in-place): names are
// hashed with the WAD hash (spec #wr-2-2; "0x" + hex for a raw hash); --names only labels the
// report. OUTDIR receives WARRIORS.DIR and WARRIORS.WAD.
Result<Json> edit_format(const Input& in, const EditRequest& req);

// Verify (verify.cc). Every problem of an open disc whose rows were classified (spec:
// warriors.md#wr-2-5, #wr-10); of a loose container (spec: #wr-3), also one that does not open;
// of a disc or a loose container that may not open, the WAD from `siblings`.
void verify_disc(const Disc& disc, const NameTable& names, std::span<const EntryKind> kinds, const ReadOptions& opt,
                 Diagnostics& out);
void verify_chunks(const Input& in, Diagnostics& out);
void verify_input(const Input& in, const Siblings& siblings, const ReadOptions& opt, Diagnostics& out);

// The demo files (samples.cc): a disc (warriors/WARRIORS.DIR, .WAD) and a level container.
Result<std::vector<std::string>> write_sample_files(const std::filesystem::path& dir);

}  // namespace assay::warriors
