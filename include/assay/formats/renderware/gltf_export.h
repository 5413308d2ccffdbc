// A decoded clump (model.h) as a model::Scene for glTF (model/gltf.h): frames to nodes under one
// root that turns RenderWare's Z-up into glTF's Y-up, each geometry to a mesh with one primitive
// per material, morph targets, prelit and night colours, skins with their HAnim joints, and
// materials with their textures from the given dictionaries.
#pragma once

#include <string>
#include <vector>

#include "assay/formats/renderware/model.h"
#include "assay/formats/renderware/texture.h"
#include "assay/model/scene.h"

namespace assay::rw {

// What the export had to change or leave out, for the user (counted, not per item).
struct ExportNotes {
  std::uint64_t degenerate_triangles = 0;  // a repeated vertex: dropped
  std::uint64_t unit_normals = 0;          // normals scaled to length 1 (zero ones set to +Z)
  std::uint64_t reweighted_vertices = 0;   // skin weights that did not sum to 1, or named a missing bone
  std::vector<std::string> missing_textures;  // material textures no dictionary holds
  std::vector<std::string> skipped;           // atomics or skins left out, with the reason
};

// The dictionaries searched for material textures, in order (names compared without case).
struct TextureSources {
  std::vector<const TextureDictionary*> dictionaries;
};

// `name` names the scene and its root node. The clump's arrays move into the scene.
Result<model::Scene> clump_scene(ClumpModel clump, const std::string& name, const TextureSources& textures,
                                 ExportNotes& notes);

// The clump's name for its file: the root frame's node name, else the first named frame of an
// atomic, else "" (the caller numbers it).
std::string clump_name(const ClumpModel& clump);

}  // namespace assay::rw
