// What `extract` writes for a model entry, for every family with models.
#pragma once

#include <string>

#include "assay/core/extract_each.h"
#include "assay/core/output.h"
#include "assay/model/scene.h"

namespace assay {

// `glb_path` (NAME.glb) holding the scene as binary glTF; with `gltf` NAME.gltf, NAME.bin and one
// PNG per texture instead.
Result<ExtractCount> write_model_files(const model::Scene& s, const std::string& glb_path, const OutputDir& dir, bool gltf);

}  // namespace assay
