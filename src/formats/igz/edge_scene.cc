// Skins of PS3 EDGE geometry (edge.h gives the fields and sources; the skeleton and the glTF skin
// are the igModelData skins', model_skin.cc and model_joints.cc). What zap.pak's actor shows and the
// reader relies on: each vertex's four weights sum to 255, its palette indices stay below the size
// of the igBlendMatrixSelect's _blendMatrixIndices above its geometry, and the inverse joint array
// holds one matrix per bone with a blend matrix index (31 of its 32 bones).
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "assay/core/hash.h"

#include "assay/formats/igz/edge.h"
#include "diag_util.h"
#include "edge_parts.h"
#include "model_fields.h"
#include "model_joints.h"

namespace assay::igz {

namespace {

using detail::err;
using detail::field_at;
using detail::list_elements;
using detail::memory_at;
using detail::or_zero;
using detail::pointer_at;

// The drawn objects (igPS3EdgeGeometry, igGeometryAttr) in the scene graph below `from`: a node's
// children (_childList igNodeList at 0x20) and attributes (_attributes igAttrList at 0x24, as
// igGeometry's), an igEdgeGeometryAttr's _geometry (0x10).
std::vector<std::size_t> geometries_below(const IgzFile& f, const Graph& g, std::size_t from) {
  std::vector<std::size_t> found;
  std::unordered_set<std::size_t> seen;  // grows with what is below, not with the file
  std::vector<std::size_t> todo{from};
  auto push_list = [&](const Object& o, std::uint32_t field, std::string_view type) {
    const std::size_t list = pointer_at(f, g, o, field);
    if (list != kNoObject && g.objects[list].type_name == type)
      for (std::size_t k : list_elements(f, g, g.objects[list])) todo.push_back(k);
  };
  while (!todo.empty()) {
    const std::size_t o = todo.back();
    todo.pop_back();
    if (o >= g.objects.size() || !seen.insert(o).second) continue;
    const Object& obj = g.objects[o];
    if (obj.type_name == "igPS3EdgeGeometry" || obj.type_name == "igGeometryAttr") found.push_back(o);
    if (obj.type_name == "igEdgeGeometryAttr") {
      todo.push_back(pointer_at(f, g, obj, 0x10));
      continue;
    }
    push_list(obj, 0x20, "igNodeList");
    push_list(obj, 0x24, "igAttrList");
  }
  return found;
}

// The igFxMaterialNode's material handle (its RHND external): "namespace::name", each hash turned
// back into text where a TDEP namespace or the node's own _name has it (FNV-1a of the lower case,
// as the samples' handles show: zapwave's 61ea6045::8cbcc515 is zapwave_igb_materials::ZapWave).
// Each object's first valid EXID reference and its strings, indexed once for the nodes.
struct NodeRefs {
  std::unordered_map<std::size_t, const ExternalRef*> exid;
  std::unordered_multimap<std::size_t, const StringRef*> strings;
  explicit NodeRefs(const Graph& g) {
    for (const ExternalRef& r : g.externals)
      if (r.kind == "exid" && r.valid) exid.emplace(r.from, &r);
    for (const StringRef& s : g.strings)
      if (s.text) strings.emplace(s.from, &s);
  }
};

std::string material_handle(const Fixups& fx, const NodeRefs& refs, std::size_t node) {
  const auto x = refs.exid.find(node);
  if (x == refs.exid.end() || x->second->index >= fx.external_ids.size()) return {};
  const ExternalId& id = fx.external_ids[x->second->index];
  std::string ns = fmt::format("{:08x}", id.namespace_hash), name = fmt::format("{:08x}", id.name_hash);
  for (const Dependency& d : fx.dependencies)
    if (fnv1a32(d.name_space, true) == id.namespace_hash) ns = std::string(d.name_space);
  for (auto [it, end] = refs.strings.equal_range(node); it != end; ++it)
    if (fnv1a32(*it->second->text, true) == id.name_hash) name = std::string(*it->second->text);
  return ns + "::" + name;
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

// The igGeometry's igAABox (_bound 0x0C: min at 0x08, max at 0x14) for each igPS3EdgeGeometry and
// igGeometryAttr its attribute list draws.
void add_bounds(const IgzFile& f, const Graph& g, const Object& o, EdgeSceneIndex& index) {
  const std::size_t box = pointer_at(f, g, o, 0x0C);
  const auto at = box != kNoObject ? field_at(f, g.objects[box], 0x08, 24) : std::nullopt;
  if (!at) return;
  model::Vec4 lo{0, 0, 0, 1}, hi{0, 0, 0, 1};
  for (unsigned k = 0; k < 3; ++k)
    lo[k] = or_zero(f.reader().f32(*at + 4 * k, "igAABox")), hi[k] = or_zero(f.reader().f32(*at + 12 + 4 * k, "igAABox"));
  const std::size_t attrs = pointer_at(f, g, o, 0x24);
  if (attrs == kNoObject || g.objects[attrs].type_name != "igAttrList") return;
  for (std::size_t a : list_elements(f, g, g.objects[attrs])) {
    if (a == kNoObject) continue;
    if (g.objects[a].type_name == "igGeometryAttr") index.bounds.emplace(a, std::pair{lo, hi});
    if (g.objects[a].type_name == "igEdgeGeometryAttr")
      if (const std::size_t e = pointer_at(f, g, g.objects[a], 0x10); e != kNoObject) index.bounds.emplace(e, std::pair{lo, hi});
  }
}

// Each select's skin: its _blendMatrixIndices (igIntList at 0xB4) and the file's igSkeleton2, the
// skeleton read once.
void add_skins(const IgzFile& f, const Fixups& fx, const Graph& g, const std::vector<std::size_t>& selects, EdgeSceneIndex& index) {
  const auto skeleton = std::find_if(g.objects.begin(), g.objects.end(), [](const Object& o) { return o.type_name == "igSkeleton2"; });
  if (skeleton == g.objects.end()) return;
  auto sk = read_skeleton_object(FieldReader(f, fx, g), static_cast<std::size_t>(skeleton - g.objects.begin()));
  if (!sk) return;
  for (std::size_t select : selects) {
    const std::size_t list = pointer_at(f, g, g.objects[select], 0xB4);
    if (list == kNoObject) continue;
    EdgeSkin skin{select, int_list(f, g.objects[list]), *sk};
    if (!skin.palette.empty()) index.skins.emplace(select, std::move(skin));
  }
}

}  // namespace

EdgeSceneIndex index_edge_scene(const IgzFile& f, const Fixups& fx, const Graph& g) {
  EdgeSceneIndex index;
  std::vector<std::size_t> selects;
  std::optional<NodeRefs> refs;  // built at the first material node
  for (std::size_t i = 0; i < g.objects.size(); ++i) {
    const Object& o = g.objects[i];
    if (o.type_name == "igBlendMatrixSelect") {
      const std::vector<std::size_t> below = geometries_below(f, g, i);
      for (std::size_t e : below) index.select.emplace(e, i);
      if (!below.empty()) selects.push_back(i);
    } else if (o.type_name == "igFxMaterialNode") {
      if (!refs) refs.emplace(g);
      if (std::string m = material_handle(fx, *refs, i); !m.empty())
        for (std::size_t e : geometries_below(f, g, i)) index.material.emplace(e, m);
    } else if (o.type_name == "igGeometry") {
      add_bounds(f, g, o, index);
    }
  }
  if (!selects.empty()) add_skins(f, fx, g, selects, index);
  return index;
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
  const std::vector<int> joint_of = joint_of_blend(skin.skeleton);  // blend matrix -> skin joint
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
      if (m < 0 || static_cast<std::size_t>(m) >= joint_of.size() || joint_of[m] < 0)
        return err(what, s.skin_weights->offset + 8 * v + 2 * k + 1, fmt::format("vertex {}: blend matrix {} belongs to no bone", v, m));
      out.joints[v][k] = static_cast<std::uint16_t>(joint_of[m]);
      out.weights[v][k] = weight;
      sum += weight;
    }
    if (sum == 0) return err(what, s.skin_weights->offset + 8 * v, fmt::format("vertex {} has no weight", v));
    for (float& x : out.weights[v]) x /= static_cast<float>(sum);
  }
  return out;
}

}  // namespace assay::igz
