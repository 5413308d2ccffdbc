// The oni family's functions shared by its descriptor (family.cc), its Container (container.cc)
// and the Format record (format.cc).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "assay/container.h"
#include "assay/family.h"
#include "assay/core/diag.h"
#include "assay/core/input.h"
#include "assay/formats/oni/instance_file.h"
#include "assay/formats/oni/layout.h"
#include "assay/formats/oni/level_set.h"
#include "formats/serialise.h"

namespace assay::oni {

// Confidence that `in` is an Oni instance file (spec: oni.md#oni-3-1): 100 for VR31/VR32, 60 for
// the 3.3 headers it shows and then refuses (spec: oni.md#oni-3-3).
int identify_input(const Input& in);

// What an Oni file takes from its siblings while it opens (OpenContext::siblings; each Input owns
// its bytes, so they outlive a parent container).
struct SiblingFiles {
  std::string file_name;          // Input::file_name(): the level number and .raw/.sep stem (spec: oni.md#oni-2-1)
  Companions companions;          // NAME.raw, NAME.sep (spec: oni.md#oni-6-4)
  std::optional<Input> level0;    // level0_Final.dat, for another level's links (spec: oni.md#oni-7-1)
  Companions level0_companions;   // its .raw/.sep: the pixels of a placeholder TXMP's level-0 copy
  std::optional<Input> layouts;   // oni-layouts.txt (docs/cli.md)
  std::optional<Error> layouts_error;
};
// `level_file`: a VR31 file, which needs its companions and level 0 (a .oni holds its raw block).
SiblingFiles take_siblings(const Input& in, const Siblings& siblings, const assay::ContainerOptions& opt, bool level_file);
// The layouts for walking: --exe, --layouts, the oni-layouts.txt taken, or the built-in sets.
Result<LayoutSource> walk_layouts(const SiblingFiles& sib, const ReadOptions& opt, Diagnostics* warnings);

// The header fields of `info` (without "format"), `file_name` naming the file (level number from it).
Json info_fields(const InstanceFile& f, std::string_view file_name);
// `list --json` of the Format record: {"format": "oni", "entries": [index, tag, name, size, flags, placeholder]}.
Json list_document(const InstanceFile& f);
// spec: oni.md#oni-10-1 for one file, linked with level 0 among its siblings when present.
void verify_input(const Input& in, const SiblingFiles& sib, const ReadOptions& opt, Diagnostics& out);

// The family's edit: replace only (add/remove would renumber instances; edit.cc).
Result<Json> edit_format(const Input& in, const EditRequest& req);
// One instance an edit replaced: from raw instance bytes, an .oni file or a PNG (a TXMP).
struct InstanceEditLine {
  std::string name;
  std::uint32_t index = 0;
  const char* source = "";  // "raw", "oni", "png"
  std::optional<std::uint64_t> instances, old_size, new_size;  // raw and oni
  std::optional<std::uint64_t> width, height, pixel_format, mips, pixel_offset, pixel_bytes;  // png
};
struct InstanceEditReport {
  std::string input, output;
  bool in_place = false;
  std::uint64_t instances = 0, bytes = 0, raw_appended = 0, sep_appended = 0;
  std::vector<InstanceEditLine> changes;
};
// {"format": "oni", "input", "output", "in_place", "instances", "bytes", "raw_appended",
// "sep_appended", "changes": [{"op": "replace", "name", "index", "source", and the line's fields}]}
Json edit_json(const InstanceEditReport& r);

}  // namespace assay::oni
