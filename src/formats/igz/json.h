// Internal: the igz family's JSON (docs/cli.md#igz), all built in json.cc: a texture's and a
// model's details and the edit report (the dump prints through dump.h's printer).
#pragma once

#include "assay/options.h"
#include "assay/formats/igz/graph.h"
#include "assay/formats/igz/image.h"
#include "assay/formats/igz/edge.h"
#include "assay/formats/igz/model.h"
#include "model_materials.h"
#include "formats/serialise.h"
#include "core/json_text.h"

namespace assay::igz {

// The texture entry's details (docs/cli.md#igz): width, height, mips, format, platform, depth,
// images, name, data {where, offset, size | reference}.
Json image_details_json(const Image2& img);

// The model entry's details (docs/cli.md#igz): draw calls with counts, vertex format and bounds.
Json model_details_json(const Model& m);
// A PS3 EDGE model entry's details: {"edge_geometry": object, "min", "max" (the igGeometry's
// igAABox, null when not found), "segments": [{"object", "vertices", "indices", "indexes_flavor",
// "input_format", "skinning_flavor"}]}.
Json edge_details_json(const EdgeGeometry& e);

// The materials of a model entry and what was found for each (docs/cli.md#igz): [{"handle",
// "material_file" (null when the model's TDEP has none), "texture_units": [{"unit", "image",
// "file"}], "base_color_texture" (unit 0's file, null when none was found), "note" (null or why)}].
// A material's bindings: [{"unit", "image", "file" (null when no TDEP names the namespace)}].
Json texture_units_json(const std::vector<TextureBinding>& bindings);
Json materials_json(const std::vector<std::pair<std::string, const detail::MaterialTexture*>>& materials);

// One image an edit re-encoded (image_edit.cc), a line of the edit report.
struct ImageReplaced {
  std::string name;           // as the change named it
  const Image2* image = nullptr;
  std::uint64_t bytes = 0;    // of pixels written over its _data
  double psnr_db = 0;         // decoded back against the PNG; infinite when exact
};
// {"format": "igz", "input", "output", "in_place", "changes": [{"name", "op": "replace", "pixel_format",
// "width", "height", "levels", "bytes", "psnr_db" (null when exact), "exact"}]}
Json edit_json(std::string_view input, std::string_view output, bool in_place, const std::vector<ImageReplaced>& changes);

// `assay replace X.igz -o OUT IMAGE=PNG` (and --in-place): each named image re-encoded from a PNG
// into its own format, size and levels (mips box-filtered from the PNG), written over its _data in
// the pool; every other byte of the file is kept.
Result<Json> edit_format(const Input& in, const EditRequest& req);

}  // namespace assay::igz
