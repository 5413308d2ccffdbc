// Internal: the base colour textures of a model file's materials (material.h), found through
// the open context: the model's TDEP names the material igz, the material's TDEP the texture igz;
// both are looked for anywhere in the container the model came from (Siblings::open_anywhere).
// The base colour is the texture bound at unit 0 (assumed: no source at hand names the shaders'
// samplers; in zap.pak unit 0 holds the igz built from the material's _textureName_diffuse).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "assay/core/input.h"
#include "assay/formats/igz/material.h"
#include "assay/model/scene.h"

namespace assay {
class Siblings;
}

namespace assay::igz::detail {

struct MaterialTexture {
  std::string material_file;       // "zapwave_igb_materials.igz", "" when the model's TDEP has none
  std::vector<TextureBinding> bindings;
  std::optional<TextureBinding> base;  // the binding taken as base colour
  std::optional<Input> image_file;     // the igz holding its igImage2
  std::string note;                    // why there is no texture, or what was assumed
};
using MaterialTextures = std::map<std::string, MaterialTexture>;  // by handle ("namespace::name")

MaterialTextures find_material_textures(const Fixups& model_fixups, const std::vector<std::string>& handles,
                                        const Siblings& siblings);

// Gives the scene's materials (matched by their "handle" extra) their base colour texture as a
// PNG image, and the facts found as extras; a texture that does not decode becomes a note.
void apply_material_textures(const MaterialTextures& found, model::Scene& s);

}  // namespace assay::igz::detail
