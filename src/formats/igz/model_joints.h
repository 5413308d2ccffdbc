// Internal: a skinned model's joints for glTF (model_joints.cc): bone nodes and the skin from the
// Skeleton, and each draw call's JOINTS_0 / WEIGHTS_0 from its BLENDINDICES / BLENDWEIGHTS.
#pragma once

#include <array>
#include <vector>

#include "assay/formats/igz/model.h"

namespace assay::igz {

struct DrawJoints {
  std::vector<std::array<std::uint16_t, 4>> joints;  // indices into the skin's joints
  std::vector<model::Vec4> weights;                  // each sums to 1
};

// Skin joint index per blend matrix index (-1: no bone has it); add_skin's joints are in blend
// matrix order.
std::vector<int> joint_of_blend(const Skeleton& sk);

// The draw call's joints: BLENDINDICES value v -> blend matrix _blendMatrixIndices[_blendVectorOffset
// + v] (v < _blendVectorCount) -> the skin joint of the bone with that _blendMatrixIndex. nullopt when
// the draw call has no BLENDINDICES and BLENDWEIGHTS or the model no skeleton; an error when a value
// leads nowhere.
Result<std::optional<DrawJoints>> draw_joints(const Model& m, const DrawCall& d, const DrawGeometry& g);

// Appends one node per bone (roots under node `root`; local transforms from the bind pose: each
// bone's world matrix the inverse of its inverse joint matrix, or its parent's moved by _translation
// when it has none) and the skin (joints: the bones with a blend matrix, in blend matrix order).
Result<void> add_skin(const Skeleton& sk, std::uint32_t root, model::Scene& s);

}  // namespace assay::igz
