// Skins of PS3 EDGE geometry (edge.h gives the fields and sources). What zap.pak's actor shows and
// the reader relies on: each vertex's four weights sum to 255, its palette indices stay below the
// size of the igBlendMatrixSelect's _blendMatrixIndices above its geometry, and the inverse joint
// array holds one matrix per bone with a blend matrix index (31 of its 32 bones).
#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "assay/formats/igz/edge.h"
#include "diag_util.h"
#include "edge_parts.h"

namespace assay::igz {

namespace {

using detail::err;
using detail::field_at;
using detail::list_elements;
using detail::memory_at;
using detail::or_zero;
using detail::pointer_at;

// Whether `target` lies in the scene graph below `from`: a node's children (_childList igNodeList
// at 0x20) and attributes (_attributes igAttrList at 0x24, as igGeometry's), an igEdgeGeometryAttr's
// _geometry (0x10).
bool reaches(const IgzFile& f, const Graph& g, std::size_t from, std::size_t target) {
  std::vector<bool> seen(g.objects.size());
  std::vector<std::size_t> todo{from};
  auto push_list = [&](const Object& o, std::uint32_t field, std::string_view type) {
    const std::size_t list = pointer_at(f, g, o, field);
    if (list != kNoObject && g.objects[list].type_name == type)
      for (std::size_t k : list_elements(f, g, g.objects[list])) todo.push_back(k);
  };
  while (!todo.empty()) {
    const std::size_t o = todo.back();
    todo.pop_back();
    if (o == target) return true;
    if (o >= g.objects.size() || seen[o]) continue;
    seen[o] = true;
    const Object& obj = g.objects[o];
    if (obj.type_name == "igEdgeGeometryAttr") {
      todo.push_back(pointer_at(f, g, obj, 0x10));
      continue;
    }
    push_list(obj, 0x20, "igNodeList");
    push_list(obj, 0x24, "igAttrList");
  }
  return false;
}

// An igIntList's values (igDataList: count 0x08, igMemory 0x10).
std::vector<std::int32_t> int_list(const IgzFile& f, const Object& list) {
  std::vector<std::int32_t> out;
  const auto count = field_at(f, list, 0x08, 4);
  const auto data = memory_at(f, list, 0x10);
  if (!count || !data) return out;
  const std::uint32_t n = or_zero(f.reader().u32(*count, "igIntList"));
  for (std::uint32_t i = 0; i < n && std::uint64_t{i} * 4 + 4 <= data->size; ++i)
    out.push_back(static_cast<std::int32_t>(or_zero(f.reader().u32(data->offset + std::uint64_t{i} * 4, "igIntList"))));
  return out;
}

std::string string_field(const Graph& g, const Object& o, std::uint32_t field) {
  for (const StringRef& s : g.strings)
    if (s.from != kNoObject && &g.objects[s.from] == &o && s.field == o.serialized + field && s.text) return std::string(*s.text);
  return {};
}

bool read_skeleton(const IgzFile& f, const Graph& g, EdgeSkin& skin) {
  const auto it = std::find_if(g.objects.begin(), g.objects.end(), [](const Object& o) { return o.type_name == "igSkeleton2"; });
  if (it == g.objects.end()) return false;
  const std::size_t list = pointer_at(f, g, *it, 0x0C);
  if (list == kNoObject) return false;
  for (std::size_t b : list_elements(f, g, g.objects[list])) {
    if (b == kNoObject || g.objects[b].type_name != "igSkeletonBone") return false;
    const Object& bone = g.objects[b];
    const auto at = field_at(f, bone, 0x0C, 8);
    if (!at) return false;
    skin.bones.push_back({string_field(g, bone, 0x08), static_cast<std::int32_t>(or_zero(f.reader().u32(*at, "igSkeletonBone"))),
                          static_cast<std::int32_t>(or_zero(f.reader().u32(*at + 4, "igSkeletonBone")))});
  }
  const auto inv = memory_at(f, *it, 0x10);
  if (!inv) return false;
  for (std::uint64_t k = 0; (k + 1) * 64 <= inv->size; ++k) {
    model::Mat4 m{};
    for (unsigned i = 0; i < 16; ++i) m[i] = or_zero(f.reader().f32(inv->offset + 64 * k + 4 * i, "_inverseJointArray"));
    skin.inverse_joints.push_back(m);
  }
  for (std::size_t i = 0; i < skin.bones.size(); ++i) {  // parents before children, blend matrices inside the array
    const EdgeSkin::Bone& b = skin.bones[i];
    if (b.parent >= static_cast<std::int32_t>(i) || b.blend_matrix >= static_cast<std::int32_t>(skin.inverse_joints.size())) return false;
  }
  return !skin.bones.empty();
}

}  // namespace

std::optional<EdgeSkin> read_edge_skin(const IgzFile& f, const Graph& g, std::size_t edge_object) {
  for (std::size_t i = 0; i < g.objects.size(); ++i) {
    if (g.objects[i].type_name != "igBlendMatrixSelect" || !reaches(f, g, i, edge_object)) continue;
    const std::size_t list = pointer_at(f, g, g.objects[i], 0xB4);
    if (list == kNoObject) return std::nullopt;
    EdgeSkin skin;
    skin.select = i;
    skin.palette = int_list(f, g.objects[list]);
    if (skin.palette.empty() || !read_skeleton(f, g, skin)) return std::nullopt;
    return skin;
  }
  return std::nullopt;
}

Result<SegmentWeights> edge_segment_weights(const IgzFile& f, const EdgeSegment& s, const EdgeSkin& skin) {
  const std::string what = fmt::format("igPS3EdgeGeometrySegment[{}] skin weights", s.object);
  if (s.skinning_flavor != 1) {  // only flavour 1's layout has been seen (zap.pak's actor)
    Error e = err(what, s.position, fmt::format("skinning flavour {}: its weights are not decoded (flavour 1 is)", s.skinning_flavor));
    e.kind = ErrorKind::unsupported;
    e.code = "igz.edge-geometry";
    return e;
  }
  const std::uint64_t need = std::uint64_t{s.vertex_count} * 8;
  if (!s.skin_weights || s.skin_weights->size < need)
    return err(what, s.position + 0x50, fmt::format("{} bytes, {} vertices need {}", s.skin_weights ? s.skin_weights->size : 0, s.vertex_count, need));
  ASSAY_TRY(const ByteView w, f.reader().bytes(s.skin_weights->offset, need, "skin weights"));
  std::vector<std::int32_t> bone_of(skin.inverse_joints.size(), -1);  // blend matrix -> bone
  for (std::size_t b = 0; b < skin.bones.size(); ++b)
    if (skin.bones[b].blend_matrix >= 0) bone_of[skin.bones[b].blend_matrix] = static_cast<std::int32_t>(b);
  SegmentWeights out;
  out.joints.resize(s.vertex_count), out.weights.resize(s.vertex_count);
  for (std::size_t v = 0; v < s.vertex_count; ++v) {
    unsigned sum = 0;
    for (unsigned k = 0; k < 4; ++k) {
      const std::uint8_t weight = w[8 * v + 2 * k], index = w[8 * v + 2 * k + 1];
      if (weight == 0) continue;
      if (index >= skin.palette.size())
        return err(what, s.skin_weights->offset + 8 * v + 2 * k + 1, fmt::format("vertex {} names palette entry {} of {}", v, index, skin.palette.size()));
      const std::int32_t m = skin.palette[index];
      if (m < 0 || static_cast<std::size_t>(m) >= bone_of.size() || bone_of[m] < 0)
        return err(what, s.skin_weights->offset + 8 * v + 2 * k + 1, fmt::format("vertex {}: blend matrix {} belongs to no bone", v, m));
      out.joints[v][k] = static_cast<std::uint16_t>(bone_of[m]);
      out.weights[v][k] = weight;
      sum += weight;
    }
    if (sum == 0) return err(what, s.skin_weights->offset + 8 * v, fmt::format("vertex {} has no weight", v));
    for (float& x : out.weights[v]) x /= static_cast<float>(sum);
  }
  return out;
}

}  // namespace assay::igz
