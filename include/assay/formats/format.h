// The one interface between the CLI and the formats. Each format fills in a Format record
// (src/formats/<name>/format.cc); the CLI dispatches the common verbs through it and holds
// no format logic. Entries and info are JSON values so `--json` and the text printer share them.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "assay/core/diag.h"
#include "assay/core/extract_each.h"
#include "assay/core/input.h"
#include "assay/core/output.h"
#include "assay/core/progress.h"

namespace assay {

using Json = nlohmann::ordered_json;

struct ReadOptions {
  std::vector<std::string> names_files;  // name lists that turn hashes back into names
  std::map<std::string, std::string> family;  // family options: "layouts", "exe", ...
  unsigned threads = 0;                  // 0 = all cores
  bool deep = false;                     // verify --deep: also verify inner files
  bool progress = false;                 // draw progress on stderr
};

struct ExtractOptions {
  std::vector<std::string> globs;  // empty = everything
  bool mips = false;               // textures: write every mip level
  std::vector<std::string> excludes;  // --exclude GLOB
  bool skip_existing = false;         // leave a file already there alone (counted)
  bool stop_on_error = false;         // stop at the first entry that cannot be extracted
  bool stored = false;                // the bytes as stored, not converted (PNG, .oni, ...)
};

struct ExtractStats {
  std::uint64_t files = 0;
  std::uint64_t bytes = 0;
  std::uint64_t selected = 0;          // entries the globs and excludes chose
  std::uint64_t skipped = 0;           // left alone by skip_existing
  std::vector<std::string> unmatched;  // globs that matched no entry
  std::vector<ExtractFailure> failed;  // entries not extracted (the others were written)
};

// The shared extract loop's policy for a family's extract (core/extract_each.h).
inline ExtractPolicy extract_policy(const ExtractOptions& x, const ReadOptions& ro) {
  ExtractPolicy p;
  p.globs = x.globs;
  p.excludes = x.excludes;
  p.skip_existing = x.skip_existing;
  p.stop_on_error = x.stop_on_error;
  p.progress = ro.progress;
  return p;
}
inline ExtractStats extract_stats(ExtractReport r) {
  return {r.files, r.bytes, r.selected, r.skipped, std::move(r.unmatched), std::move(r.failed)};
}

// A targeted edit of a container (`assay replace/add/remove`): the family rewrites
// only what the changes touch and writes the result itself (one file, or a folder of several).
enum class EditOp : std::uint8_t { replace, add, remove };
struct EditChange {
  EditOp op = EditOp::replace;
  std::string name;  // the entry, in the family's terms (hash spellings as for list/extract)
  ByteBuffer data;   // the new bytes (replace, add)
};
struct EditRequest {
  std::vector<EditChange> changes;
  std::filesystem::path output;  // a file, or a folder for families stored as several files
  bool in_place = false;         // write beside the input; rename over it once written and read back
  bool force = false;            // overwrite an existing output
  ReadOptions read;              // --names, --threads, family options ("compression", ...)
  ProgressFn progress;           // bytes of new data encoded (empty: no progress); families may ignore it
};

struct Format {
  std::string_view name;         // "igarchive", "igz", "renderware", "warriors", "oni"
  std::string_view description;  // one line for `assay formats`
  // Confidence that `in` is this format: 0 = no; 100 = magic matched.
  int (*identify)(const Input& in) = nullptr;
  // Header fields as JSON (`info --json`); must include "format".
  Result<Json> (*info)(const Input& in, const ReadOptions& opt) = nullptr;
  // {"format": name, ...family fields..., "entries": [...]} (`list --json`).
  Result<Json> (*list)(const Input& in, const ReadOptions& opt) = nullptr;
  // Every problem found, with severities; an Error returned by open goes in as an error.
  void (*verify)(const Input& in, const ReadOptions& opt, Diagnostics& out) = nullptr;
  // Writes selected entries under `dir` through extract_each (core/extract_each.h): a bad entry
  // is in ExtractStats::failed and the others are written; an Error means nothing could start.
  Result<ExtractStats> (*extract)(const Input& in, const ReadOptions& opt,
                                  const ExtractOptions& x, const OutputDir& dir,
                                  Diagnostics& diags) = nullptr;
  // Writes small demo files of this format into `dir` with our own writers (for the README's
  // demo command); returns the names written.
  Result<std::vector<std::string>> (*write_samples)(const std::filesystem::path& dir) = nullptr;
  // Entry fields printed, in order, by the text form of `list`.
  std::vector<std::string> list_columns;
  // Applies `req` to the container `in` and writes the result (never over the input unless
  // req.in_place; nothing is left behind on failure). Returns {"format", "input", "output",
  // "in_place", "changes": [...], ...family fields}. nullptr: the family cannot be edited.
  Result<Json> (*edit)(const Input& in, const EditRequest& req) = nullptr;
};

// Every format, in identify order.
const std::vector<const Format*>& all_formats();
const Format* find_format(std::string_view name);
// The most confident format for `in`, or nullptr.
const Format* identify_format(const Input& in);

// The per-format records (defined in src/formats/<name>/format.cc).
extern const Format kIgArchiveFormat;
extern const Format kIgzFormat;
extern const Format kRenderWareFormat;
extern const Format kWarriorsFormat;
extern const Format kOniFormat;

}  // namespace assay
