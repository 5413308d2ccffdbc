// glTF joints for a skinned igz model (see model_joints.h and model_skin.cc for the sources).
#include "model_joints.h"

#include <fmt/format.h>

#include <cmath>

#include "diag_util.h"

namespace assay::igz {

namespace {

using detail::err;

constexpr model::Mat4 kIdentity{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

// The bones' bind-pose world matrices (parents come first: read_bone checks it).
Result<std::vector<model::Mat4>> bone_worlds(const Skeleton& sk) {
  std::vector<model::Mat4> world(sk.bones.size());
  for (std::size_t i = 0; i < sk.bones.size(); ++i) {
    const SkeletonBone& b = sk.bones[i];
    if (b.blend_matrix >= 0) {
      auto w = model::inverse_affine(sk.inverse_joints[static_cast<std::size_t>(b.blend_matrix)]);
      if (!w) return err(fmt::format("igSkeleton2[{}] _inverseJointArray", sk.object), kNoOffset,
                         fmt::format("matrix {} (bone '{}') is singular", b.blend_matrix, b.name));
      world[i] = *w;
    } else {
      model::Mat4 t = kIdentity;
      t[12] = b.translation[0], t[13] = b.translation[1], t[14] = b.translation[2];
      world[i] = b.parent >= 0 ? model::multiply(world[static_cast<std::size_t>(b.parent)], t) : t;
    }
  }
  return world;
}

}  // namespace

// Skin joint index per blend matrix index (-1: no bone has it); joints in blend matrix order.
std::vector<int> joint_of_blend(const Skeleton& sk) {
  std::vector<int> bone_of(sk.inverse_joints.size(), -1), out(sk.inverse_joints.size(), -1);
  for (std::size_t i = 0; i < sk.bones.size(); ++i)
    if (const std::int32_t b = sk.bones[i].blend_matrix; b >= 0 && bone_of[b] < 0) bone_of[b] = static_cast<int>(i);
  int next = 0;
  for (std::size_t b = 0; b < out.size(); ++b)
    if (bone_of[b] >= 0) out[b] = next++;
  return out;
}

Result<std::optional<DrawJoints>> draw_joints(const Model& m, const DrawCall& d, const DrawGeometry& g) {
  if (!m.skeleton || g.blend_indices.empty() || g.blend_weights.size() != g.blend_indices.size())
    return std::optional<DrawJoints>{};
  const std::vector<int> joint = joint_of_blend(*m.skeleton);
  const std::string what = fmt::format("{}[{}] BLENDINDICES", d.source, d.object);
  DrawJoints out;
  for (std::size_t v = 0; v < g.blend_indices.size(); ++v) {
    std::array<std::uint16_t, 4> j{};
    model::Vec4 w = g.blend_weights[v];
    const float sum = w[0] + w[1] + w[2] + w[3];
    if (!(sum > 0)) return err(what, d.position, fmt::format("vertex {}: its weights sum to {:g}", v, sum));
    for (unsigned k = 0; k < 4; ++k) {
      w[k] /= sum;
      if (w[k] == 0) continue;  // an unused slot: joint 0
      const std::uint32_t slot = g.blend_indices[v][k];
      if (slot >= d.blend_count) return err(what, d.position, fmt::format("vertex {}: index {} ≥ _blendVectorCount {}", v, slot, d.blend_count));
      const std::size_t at = std::size_t{d.blend_offset} + slot;
      if (at >= m.blend_matrix_indices.size())
        return err(what, d.position, fmt::format("vertex {}: _blendMatrixIndices[{}] is past its {} entries", v, at, m.blend_matrix_indices.size()));
      const std::int32_t b = m.blend_matrix_indices[at];
      if (b < 0 || static_cast<std::size_t>(b) >= joint.size() || joint[static_cast<std::size_t>(b)] < 0)
        return err(what, d.position, fmt::format("vertex {}: blend matrix {} has no bone", v, b));
      j[k] = static_cast<std::uint16_t>(joint[static_cast<std::size_t>(b)]);
    }
    out.joints.push_back(j);
    out.weights.push_back(w);
  }
  return std::optional<DrawJoints>(std::move(out));
}

Result<void> add_skin(const Skeleton& sk, std::uint32_t root, model::Scene& s) {
  ASSAY_TRY(std::vector<model::Mat4> world, bone_worlds(sk));
  const auto base = static_cast<std::uint32_t>(s.nodes.size());
  std::vector<model::Node> nodes;
  for (std::size_t i = 0; i < sk.bones.size(); ++i) {
    const SkeletonBone& b = sk.bones[i];
    model::Node n;
    n.name = b.name;
    n.parent = b.parent >= 0 ? base + static_cast<std::uint32_t>(b.parent) : root;
    model::Mat4 local = world[i];
    if (b.parent >= 0) {
      auto up = model::inverse_affine(world[static_cast<std::size_t>(b.parent)]);
      if (!up) return err(fmt::format("igSkeleton2[{}]", sk.object), kNoOffset, fmt::format("bone '{}' has a singular parent", b.name));
      local = model::multiply(*up, world[i]);
    }
    const model::Trs t = model::decompose(local);
    n.translation = t.translation, n.rotation = t.rotation, n.scale = t.scale;
    nodes.push_back(std::move(n));
  }
  model::Skin skin;
  skin.name = sk.name;
  const std::vector<int> joint = joint_of_blend(sk);
  for (std::size_t b = 0; b < joint.size(); ++b) {
    if (joint[b] < 0) continue;
    for (std::size_t i = 0; i < sk.bones.size(); ++i)
      if (sk.bones[i].blend_matrix == static_cast<std::int32_t>(b)) {
        skin.joints.push_back(base + static_cast<std::uint32_t>(i));
        skin.inverse_bind.push_back(sk.inverse_joints[b]);
        break;
      }
  }
  if (skin.joints.empty()) return err(fmt::format("igSkeleton2[{}]", sk.object), kNoOffset, "no bone has a blend matrix");
  s.nodes.insert(s.nodes.end(), nodes.begin(), nodes.end());
  s.skins.push_back(std::move(skin));
  return {};
}

}  // namespace assay::igz
