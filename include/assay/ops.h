// Library operations: what `assay`, the Python module and the viewer do, written once here and
// called by each (they only parse arguments and print the results).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "assay/container.h"
#include "assay/document.h"
#include "assay/core/extract_each.h"
#include "assay/core/progress.h"
#include "assay/formats/igz/dump.h"
#include "assay/formats/oni/level_set.h"
#include "assay/formats/warriors/load.h"
#include "assay/formats/renderware/walker.h"

namespace assay {

// The error for input no family recognises: "unrecognised file format", code "unrecognised",
// naming `file` (and `structure`, e.g. how much of it was looked at).
Error unrecognised_error(std::string file, std::string_view structure = {});

// ---- verify --------------------------------------------------------------------------------
struct VerifyOutcome {
  std::optional<std::string> family;  // nullopt: no family recognised the input
  Diagnostics diags;                  // every problem (an input that does not open: why)
  std::string hint;                   // for unrecognised input: a sentence pointing to the fix
};
// `assay verify FILE|A::B`: through its container (and its inner files to `deep->depth` levels
// when deep is given) when it opens, else the family's account of why it does not. An Error only
// when the input cannot be read at all (a missing file, a bad option).
Result<VerifyOutcome> verify_file(const std::string& spec, const ContainerOptions& opt, const DeepOptions* deep);
// The same over bytes already read (`family` forces one; empty: identified).
VerifyOutcome verify_input(const Input& in, const ContainerOptions& opt, const DeepOptions* deep,
                           std::string_view family = {});

// ---- extract ---------------------------------------------------------------------------------
// The extract items of `c` (core/extract_each.h): globs match an entry's name and the path it is
// written at; --skip-existing looks at that path; progress counts the sizes.
std::vector<ExtractItem> extract_items(const Container& c, bool stored = false);
// x's selection over `c`: exact names through find() (hash spellings, build paths, "#INDEX"),
// globs folding case where the container does, the container's threads and progress.
ExtractPolicy extract_policy(const Container& c, const ExtractOptions& x);
// Writes every selected entry through Container::write_entry (stored bytes, or converted: PNG
// with mips, .oni, ...) in one loop: a bad entry is in ExtractStats::failed and the others are
// written. `findings` receives the problems of the file itself (Container::extract_findings);
// an Error means nothing could start (Container::extractable).
Result<ExtractStats> extract(const Container& c, const ExtractOptions& x, const OutputDir& dir, Diagnostics& findings);

// extract_each over c's entries with another writer of one entry (default: write_entry).
ExtractStats extract_entries(const Container& c, const ExtractOptions& x, const OutputDir& dir,
                             const WriteItem& write = {});

// ---- edit ----
// The scratch folder of fold_nested_changes, removed with this.
struct NestedEdit {
  std::filesystem::path folder;
  NestedEdit() = default;
  NestedEdit(const NestedEdit&) = delete;
  NestedEdit& operator=(const NestedEdit&) = delete;
  ~NestedEdit();
};
// Changes named MEMBER::NAME (`replace zap.pak -o OUT 'textures\x.igz::_Zap_E'=new.png`): each
// MEMBER is edited by its own family (its data read from the change's source file when not given),
// then `req` replaces MEMBER with the result; the other changes stay as they are.
Result<void> fold_nested_changes(const Input& in, EditRequest& req, NestedEdit& scratch);

// ---- pack ----------------------------------------------------------------------------------
// `assay pack igarchive -o OUT DIR [--like ORIGINAL] [options]`. With `like` and no converting
// option, an edit of the original (unchanged files keep their stored bytes); with one, a
// conversion (the original's names, order and times; every file re-encoded).
struct IgArchivePack {
  std::filesystem::path out, dir, like;
  std::optional<std::string> compression;  // lzma (default), deflate, lz4, none, stored
  std::optional<std::uint32_t> version;    // default 0x0B
  std::optional<bool> big_endian, case_insensitive;
  unsigned threads = 0;
  bool force = false;
  std::function<ProgressFn(std::uint64_t total)> start_progress;  // bytes to encode -> the reporter
};
struct PackReport {
  std::uint64_t files = 0, bytes = 0;  // in the archive written
  std::uint64_t kept = 0;              // files whose stored bytes were copied
  std::uint64_t encoded = 0;           // files encoded (with --like: of the original's; added: `added`)
  std::vector<std::string> added;      // files of DIR that ORIGINAL does not have
  bool converted = false;              // --like with converting options
  std::uint32_t version = 0;
  Endian endian = Endian::little;
};
Result<PackReport> pack_igarchive(const IgArchivePack& p);
// The Warriors resource hash of `pack warriors-container --name`: a 0xHASH as given, else the
// crc32 of the name as given (spec: warriors.md#wr-3-4).
std::uint32_t warriors_resource_hash(std::string_view name);

// ---- The family verbs' reports -----------------------------------------------------------------
// What their --json prints (docs/cli.md); the CLI prints it, Python returns it as a dict.
struct Report {
  JsonDocument document;
  Diagnostics diags;    // the problems (also in the document's "problems" where the verb prints them there)
  bool failed = false;  // the data stopped the work (the document's "error" says where)
  [[nodiscard]] bool ok() const { return !failed && !diags.has_errors(); }
};

// `assay oni check INPUT...`: the level set of folders and files, with the layouts the options
// choose (--layouts, --exe, else built in); the layout source's warnings join the report's.
Result<oni::CheckReport> oni_check_report(const std::vector<std::filesystem::path>& inputs, const ReadOptions& ro,
                                          bool progress = false);
Result<Report> oni_check(const std::vector<std::filesystem::path>& inputs, const ReadOptions& ro);

// `assay igz dump SPEC` read once: igz::print_dump prints it through the text or the JSON printer.
struct IgzDump {
  Input input;  // holds the bytes the dump views
  igz::Dump dump;
  Diagnostics diags;  // the problems found on the way
};
Result<IgzDump> read_igz_dump(const std::string& spec, const ReadOptions& ro);
Result<IgzDump> read_igz_dump(Input in, const ReadOptions& ro);
// Its --json document without "problems" (ops_json.h with_problems adds them).
Result<Report> igz_dump(const std::string& spec, const ReadOptions& ro);
// The same of an igz already read.
Result<Report> igz_dump(const Input& in, const ReadOptions& ro);

// `assay rw tree SPEC --json`, held in memory (the CLI streams the same rows: ops_json.h).
Result<Report> rw_tree(const std::string& spec);

// `assay warriors load SPEC`: DISC::NAME, DISC::0xHASH or a container file.
enum class LoadShape : std::uint8_t { automatic, flat, grouped };
// The typed report (warriors::print_load_report prints it through any printer).
Result<warriors::LoadReport> warriors_load_report(const std::string& spec, LoadShape shape, const ReadOptions& ro);
// Its --json document.
Result<Report> warriors_load(const std::string& spec, LoadShape shape, const ReadOptions& ro);
// `assay warriors classify DISC`: {"format", "entries", "counts": {kind: n}, "bytes": {kind: n}}.
Result<Report> warriors_classify(const Input& disc, const ReadOptions& ro);
// The same of a disc named as every verb's input: a folder, a DIR or ISO file, or an inner file
// A::B (its WAD found beside it in its container).
Result<Report> warriors_classify(const std::string& spec, const ReadOptions& ro);

}  // namespace assay
