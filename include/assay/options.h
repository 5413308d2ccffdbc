// The options of the reading verbs, extract and the edits, as the CLI, Python and the viewer give
// them to the library (include/assay/container.h, family.h, ops.h).
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "assay/core/diag.h"
#include "assay/core/extract_each.h"
#include "assay/core/input.h"
#include "assay/core/output.h"
#include "assay/core/progress.h"

namespace assay {

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
  bool gltf = false;                  // models: NAME.gltf + NAME.bin + PNG files instead of NAME.glb
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

}  // namespace assay
