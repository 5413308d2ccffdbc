// Writes a model::Scene as glTF 2.0: one binary .glb, or a .gltf with its .bin and PNG images.
// What it writes passes the Khronos glTF validator with no error and no warning when the scene
// keeps the rules scene.h states (tests/model run the validator).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "assay/core/error.h"
#include "assay/model/scene.h"

namespace assay::model {

// A GLB file: the JSON chunk and one binary chunk holding every buffer and image.
Result<ByteBuffer> write_glb(const Scene& scene);

struct GltfFile {
  std::string name;  // "<stem>.gltf", "<stem>.bin", "<stem>_<image>.png"
  ByteBuffer bytes;
};
// The .gltf first, then its .bin and one PNG per image, referenced by relative names.
Result<std::vector<GltfFile>> write_gltf(const Scene& scene, std::string_view stem);

}  // namespace assay::model
