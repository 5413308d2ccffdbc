// Draw calls decoded from their vertex and index buffers, as a model::Scene, and the stored
// bounds and primitive counts checked against them (see model.h).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "json.h"
#include "assay/formats/igz/model.h"
#include "diag_util.h"
#include "model_joints.h"
#include "formats/serialise.h"

namespace assay::igz {

namespace {

using detail::err;

constexpr std::uint32_t kDrawTriangles = 3, kDrawTriangleStrip = 4;  // IG_GFX_DRAW (metaenums.xml)

std::string draw_what(const DrawCall& d) { return fmt::format("{}[{}]", d.source, d.object); }

Error unsupported(std::string structure, std::uint64_t offset, std::string message) {
  Error e = err(structure, offset, std::move(message));
  e.kind = ErrorKind::unsupported;
  return e;
}

bool finite3(const model::Vec4& v) { return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]); }

// Why an element is left out, or "" when it is decoded.
std::string element_skip(const VertexElement& e, std::uint32_t stride) {
  const unsigned size = vertex_type_size(e.type);
  const std::string name = fmt::format("{} {} at +{}", vertex_usage_name(e.usage), vertex_type_name(e.type), e.offset);
  if (e.stream != 0) return name + ": stream " + std::to_string(e.stream) + " is not decoded";
  if (size == 0) return fmt::format("{}: vertex type {} is not decoded", name, e.type);
  if (std::uint32_t{e.offset} + size > stride) return fmt::format("{}: ends past the {}-byte vertex", name, stride);
  return {};
}

// BLENDINDICES: whole numbers 0-65535 (UBYTE4 and the like); components the type lacks are 0.
Result<std::array<std::uint16_t, 4>> blend_indices(const model::Vec4& v, unsigned components, std::uint64_t at,
                                                   std::uint32_t vertex, const DrawCall& d) {
  std::array<std::uint16_t, 4> out{};
  for (unsigned k = 0; k < components && k < 4; ++k) {
    if (!(v[k] >= 0 && v[k] <= 65535 && v[k] == std::floor(v[k])))
      return err(draw_what(d) + " BLENDINDICES", at, fmt::format("vertex {}: {:g} is no joint index", vertex, v[k]));
    out[k] = static_cast<std::uint16_t>(v[k]);
  }
  return out;
}

// BLENDWEIGHTS: with fewer than 4 components the next weight is 1 - the others (Direct3D's
// convention for n - 1 stored weights; assumed), the rest 0.
model::Vec4 blend_weights(const model::Vec4& v, unsigned components) {
  model::Vec4 w{0, 0, 0, 0};
  float sum = 0;
  for (unsigned k = 0; k < components && k < 4; ++k) w[k] = std::isfinite(v[k]) ? v[k] : 0, sum += w[k];
  if (components < 4) w[components] = std::max(0.0f, 1.0f - sum);
  return w;
}

// One decoded value of element `e` for vertex `i` (at file position `at`) into the geometry.
Result<void> store_value(const DrawCall& d, const VertexElement& e, model::Vec4 v, std::uint64_t at, std::uint32_t i,
                         DrawGeometry& g) {
  if (e.usage == vertex_usage::kPosition) {
    // SHORT4N positions hold a scale in w: x / w (igRewrite7 igVertexBuffer.cs, igModelTool ScaleToShortBounds)
    if (e.type == vertex_type::kShort4N) {
      if (v[3] == 0) return err(draw_what(d) + " POSITION", at, fmt::format("vertex {}: SHORT4N scale w is 0", i));
      v = {v[0] / v[3], v[1] / v[3], v[2] / v[3], 1};
    }
    if (!finite3(v)) return err(draw_what(d) + " POSITION", at, fmt::format("vertex {} is not finite", i));
    g.positions.push_back({v[0], v[1], v[2]});
  } else if (e.usage == vertex_usage::kNormal) {
    g.normals.push_back({v[0], v[1], v[2]});
  } else if (e.usage == vertex_usage::kTexcoord) {
    g.texcoords[e.usage_index].push_back({std::isfinite(v[0]) ? v[0] : 0, std::isfinite(v[1]) ? v[1] : 0});
  } else if (e.usage == vertex_usage::kBlendIndices) {
    ASSAY_TRY(auto idx, blend_indices(v, vertex_type_components(e.type), at, i, d));
    g.blend_indices.push_back(idx);
  } else if (e.usage == vertex_usage::kBlendWeights) {
    g.blend_weights.push_back(blend_weights(v, vertex_type_components(e.type)));
  } else {  // COLOR 0
    auto c = [](float x) { return static_cast<std::uint8_t>(std::lround(std::clamp(std::isfinite(x) ? x : 0.0f, 0.0f, 1.0f) * 255)); };
    g.colors.push_back({c(v[0]), c(v[1]), c(v[2]), c(v[3])});
  }
  return {};
}

// One element's values for every vertex into the geometry.
Result<void> decode_element(const IgzFile& f, const DrawCall& d, const VertexElement& e, DrawGeometry& g) {
  const VertexBufferInfo& vb = d.vertices;
  const unsigned size = vertex_type_size(e.type);
  if (e.usage == vertex_usage::kTexcoord && g.texcoords.size() <= e.usage_index) g.texcoords.resize(e.usage_index + 1u);
  for (std::uint32_t i = 0; i < vb.count; ++i) {
    const std::uint64_t at = vb.data.offset + std::uint64_t{i} * vb.stride + e.offset;
    ASSAY_TRY(model::Vec4 v, decode_vertex_value(e.type, f.bytes().subspan(at, size), f.header().endian));
    ASSAY_CHECK(store_value(d, e, v, at, i, g));
  }
  return {};
}

// The elements exported: POSITION 0, NORMAL 0, TEXCOORD 0-7, COLOR 0, BLENDINDICES 0, BLENDWEIGHTS 0.
bool exported(const VertexElement& e) {
  switch (e.usage) {
    case vertex_usage::kTexcoord: return e.usage_index < 8;
    case vertex_usage::kPosition: case vertex_usage::kNormal: case vertex_usage::kColor: case vertex_usage::kBlendIndices: case vertex_usage::kBlendWeights:
      return e.usage_index == 0;
    default: return false;
  }
}

// A second element of a usage already decoded.
bool already_decoded(const VertexElement& e, const DrawGeometry& g, bool seen_position) {
  switch (e.usage) {
    case vertex_usage::kPosition: return seen_position;
    case vertex_usage::kNormal: return !g.normals.empty();
    case vertex_usage::kColor: return !g.colors.empty();
    case vertex_usage::kBlendIndices: return !g.blend_indices.empty();
    case vertex_usage::kBlendWeights: return !g.blend_weights.empty();
    default: return e.usage_index < g.texcoords.size() && !g.texcoords[e.usage_index].empty();
  }
}

// Normals made unit length; dropped (with a note) when one is zero or not finite.
void normalize_normals(DrawGeometry& g) {
  for (model::Vec3& n : g.normals) {
    const float len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!std::isfinite(len) || len < 1e-6f) {
      g.normals.clear();
      g.notes.emplace_back("NORMAL: a zero-length normal; normals left out");
      return;
    }
    n = {n[0] / len, n[1] / len, n[2] / len};
  }
}

Result<void> decode_vertices(const IgzFile& f, const DrawCall& d, DrawGeometry& g) {
  const VertexBufferInfo& vb = d.vertices;
  const std::uint64_t need = std::uint64_t{vb.count} * vb.stride;
  const std::string what = fmt::format("igVertexBuffer[{}] _data", vb.object);
  if (vb.count > 0 && vb.stride == 0) return err(fmt::format("igVertexFormat[{}] _vertexSize", vb.format_object), kNoOffset, "is 0");
  if (need > vb.data.size)
    return err(what, vb.data.offset, fmt::format("{} vertices of {} bytes need {} bytes, the memory holds {}", vb.count, vb.stride, need, vb.data.size));
  bool seen_position = false;
  for (const VertexElement& e : vb.elements) {
    if (!exported(e)) {
      const std::string why = element_skip(e, vb.stride);
      g.notes.push_back(!why.empty() ? why : fmt::format("{} {} at +{}: not exported", vertex_usage_name(e.usage), vertex_type_name(e.type), e.offset));
      continue;
    }
    const bool position = e.usage == vertex_usage::kPosition;
    const bool duplicate = already_decoded(e, g, seen_position);
    if (std::string why = element_skip(e, vb.stride); !why.empty() || duplicate) {
      if (position) return unsupported(fmt::format("igVertexFormat[{}] POSITION", vb.format_object), kNoOffset, why.empty() ? "a second POSITION element" : why);
      g.notes.push_back(why.empty() ? fmt::format("{} {}: a second element of the usage, left out", vertex_usage_name(e.usage), e.usage_index) : why);
      continue;
    }
    ASSAY_CHECK(decode_element(f, d, e, g));
    seen_position = seen_position || position;
  }
  if (!seen_position) return unsupported(fmt::format("igVertexFormat[{}]", vb.format_object), kNoOffset, "no POSITION element");
  normalize_normals(g);
  for (std::size_t k = 0; k < g.texcoords.size(); ++k)  // TEXCOORD_n only after TEXCOORD_0 .. n-1
    if (g.texcoords[k].empty()) {
      g.notes.push_back(fmt::format("TEXCOORD {} and later left out (no TEXCOORD {})", k, k));
      g.texcoords.resize(k);
      break;
    }
  return {};
}

Result<std::vector<std::uint32_t>> read_indices(const IgzFile& f, const DrawCall& d) {
  const IndexBufferInfo& ib = d.indices;
  std::vector<std::uint32_t> out;
  if (ib.object == kNoObject) {  // no index buffer: the vertices in order
    out.resize(d.vertices.count);
    for (std::uint32_t i = 0; i < d.vertices.count; ++i) out[i] = i;
    return out;
  }
  const std::string what = fmt::format("igIndexBuffer[{}] _data", ib.object);
  if (ib.index_size == 0) return unsupported(fmt::format("igIndexBuffer[{}] _format", ib.object), kNoOffset, fmt::format("index format '{}' is not known", ib.format));
  const std::uint64_t need = std::uint64_t{ib.count} * ib.index_size;
  if (need > ib.data.size) return err(what, ib.data.offset, fmt::format("{} indices of {} bytes need {} bytes, the memory holds {}", ib.count, ib.index_size, need, ib.data.size));
  const ByteReader r = f.reader();
  out.reserve(ib.count);
  for (std::uint32_t i = 0; i < ib.count; ++i) {
    const std::uint64_t at = ib.data.offset + std::uint64_t{i} * ib.index_size;
    const std::uint32_t v = ib.index_size == 1 ? r.at_unchecked<std::uint8_t>(at)
                            : ib.index_size == 2 ? r.at_unchecked<std::uint16_t>(at) : r.at_unchecked<std::uint32_t>(at);
    if (v >= d.vertices.count) return err(what, at, fmt::format("index {} is {}, past the {} vertices", i, v, d.vertices.count));
    out.push_back(v);
  }
  return out;
}

// Triangles from a list or a strip (IG_GFX_DRAW of the index buffer, else of the vertex buffer).
Result<std::vector<std::uint32_t>> triangles(const DrawCall& d, std::vector<std::uint32_t> idx) {
  const std::uint32_t type = d.indices.object != kNoObject ? d.indices.primitive_type : d.vertices.primitive_type;
  if (type == kDrawTriangles) {
    if (idx.size() % 3 != 0) return err(draw_what(d), kNoOffset, fmt::format("{} triangle-list indices are no multiple of 3", idx.size()));
    return idx;
  }
  if (type != kDrawTriangleStrip) return unsupported(draw_what(d), kNoOffset, fmt::format("primitive type {} (IG_GFX_DRAW) is not decoded", type));
  std::vector<std::uint32_t> out;
  for (std::size_t i = 2; i < idx.size(); ++i) {
    const bool odd = (i % 2) != 0;  // every other triangle is wound the other way
    const std::uint32_t a = idx[i - 2], b = odd ? idx[i] : idx[i - 1], c = odd ? idx[i - 1] : idx[i];
    if (a != b && b != c && a != c) out.insert(out.end(), {a, b, c});
  }
  return out;
}

struct Bounds {
  model::Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
  bool empty = true;
  void add(const model::Vec3& p) {
    for (unsigned k = 0; k < 3; ++k) lo[k] = std::min(lo[k], p[k]), hi[k] = std::max(hi[k], p[k]);
    empty = false;
  }
  void add(const Bounds& b) {
    if (!b.empty) add(b.lo), add(b.hi);
  }
};

Bounds bounds_of(const std::vector<model::Vec3>& ps) {
  Bounds b;
  for (const model::Vec3& p : ps) b.add(p);
  return b;
}

// Stored bounds equal to decoded ones within float rounding (1e-4 of the extent, at least 1e-5).
bool same_bounds(const model::Vec4& lo, const model::Vec4& hi, const Bounds& b) {
  for (unsigned k = 0; k < 3; ++k) {
    const double tol = std::max(1e-5, 1e-4 * (static_cast<double>(b.hi[k]) - b.lo[k]));
    if (std::abs(static_cast<double>(lo[k]) - b.lo[k]) > tol || std::abs(static_cast<double>(hi[k]) - b.hi[k]) > tol) return false;
  }
  return true;
}

std::string vec3_text(const model::Vec3& v) { return fmt::format("({:g}, {:g}, {:g})", v[0], v[1], v[2]); }
std::string vec3_text(const model::Vec4& v) { return fmt::format("({:g}, {:g}, {:g})", v[0], v[1], v[2]); }

void check_draw(const DrawCall& d, const DrawGeometry& g, const DiagSink& sink) {
  using detail::report;
  const std::uint64_t pos = d.position;
  const Bounds b = bounds_of(g.positions);
  if (d.stored_bounds && !b.empty && !same_bounds(d.min, d.max, b))
    report(sink, Severity::warning, draw_what(d) + " _min/_max", pos + d.min_field,
           fmt::format("stored bounds {}..{} differ from its {} vertices' bounds {}..{}", vec3_text(d.min), vec3_text(d.max),
                       g.positions.size(), vec3_text(b.lo), vec3_text(b.hi)));
  const std::size_t tris = g.triangles.size() / 3;
  if (d.primitive_count < 0 || static_cast<std::size_t>(d.primitive_count) != tris)
    report(sink, Severity::warning, draw_what(d) + " _primitiveCount", pos + d.primitive_count_field,
           fmt::format("says {} primitives, the index buffer holds {} triangles", d.primitive_count, tris));
  if (d.stored_properties && d.indices.object != kNoObject && d.indices.index_size != 0 && d.index_type() != d.indices.index_size)
    report(sink, Severity::warning, draw_what(d) + " _indexBufferType", pos + d.properties_field,
           fmt::format("says {}-byte indices (IG_INDEX_TYPE {}), the index buffer's format '{}' holds {}-byte indices",
                       d.index_type(), d.index_type(), d.indices.format, d.indices.index_size));
  for (const VertexElement& e : d.vertices.elements)  // an element past the vertex size is the file's mistake
    if (const unsigned size = vertex_type_size(e.type); size != 0 && std::uint32_t{e.offset} + size > d.vertices.stride)
      report(sink, Severity::warning, fmt::format("igVertexFormat[{}] _elements", d.vertices.format_object), kNoOffset,
             fmt::format("{} {} at +{} ends past the {}-byte vertex (_vertexSize)", vertex_usage_name(e.usage),
                         vertex_type_name(e.type), e.offset, d.vertices.stride));
  for (const std::string& n : g.notes) report(sink, Severity::note, draw_what(d), pos, "vertex element " + n);
}

}  // namespace

Result<DrawGeometry> decode_draw(const IgzFile& f, const DrawCall& d) {
  DrawGeometry g;
  ASSAY_CHECK(decode_vertices(f, d, g));
  ASSAY_TRY(std::vector<std::uint32_t> idx, read_indices(f, d));
  ASSAY_TRY(g.triangles, triangles(d, std::move(idx)));
  return g;
}

namespace {

// The draw call's mesh (its geometry moved in) and node; a skinned one drawn by skin `skin`.
std::pair<model::Mesh, model::Node> draw_mesh(const Model& m, std::size_t i, DrawGeometry g, std::optional<std::uint32_t> skin,
                                              std::map<std::string, std::uint32_t>& materials, model::Scene& s) {
  const DrawCall& d = m.draws[i];
  model::Mesh mesh;
  mesh.name = d.name.value_or(fmt::format("drawcall{}", i));
  model::Node n;
  n.name = mesh.name;
  n.parent = 0;
  if (d.transform && m.transforms[*d.transform]) {
    const model::Trs t = model::decompose(*m.transforms[*d.transform]);
    n.translation = t.translation, n.rotation = t.rotation, n.scale = t.scale;
  }
  auto joints = skin ? draw_joints(m, d, g) : Result<std::optional<DrawJoints>>(std::nullopt);
  if (joints && *joints) {  // a skinned mesh node is a scene root without a transform of its own
    mesh.joints = std::move((*joints)->joints), mesh.weights = std::move((*joints)->weights);
    n = model::Node{.name = n.name, .skin = skin};
  }
  mesh.positions = std::move(g.positions);
  mesh.normals = std::move(g.normals);
  mesh.texcoords = std::move(g.texcoords);
  mesh.colors = std::move(g.colors);
  model::Primitive p;
  p.indices = std::move(g.triangles);
  if (!d.material.empty()) {
    auto [it, added] = materials.emplace(d.material, static_cast<std::uint32_t>(s.materials.size()));
    if (added) s.materials.push_back(model::Material{.name = d.material, .extras = {{"handle", d.material}}});
    p.material = it->second;
  }
  mesh.primitives.push_back(std::move(p));
  mesh.extras["igz_object"] = static_cast<double>(d.object);
  return {std::move(mesh), std::move(n)};
}

}  // namespace

// Blend data that does not lead to the skeleton's joints, or that has no skeleton to lead to.
void check_joints(const Model& m, const DrawCall& d, const DrawGeometry& g, const DiagSink& sink) {
  if (g.blend_indices.empty()) return;
  if (!m.skeleton) {
    detail::report(sink, Severity::note, draw_what(d), d.position,
                   "BLENDINDICES not exported: no CGraphicsSkinInfo in the file names the igModelData (its skeleton is elsewhere)");
    return;
  }
  if (auto j = draw_joints(m, d, g); !j)
    detail::report(sink, Severity::warning, j.error().structure, j.error().offset, "left unskinned: " + j.error().message);
}

Result<model::Scene> model_scene(const IgzFile& f, const Model& m) {
  model::Scene s;
  s.name = m.name;
  model::Node root;
  root.name = m.name;
  s.nodes.push_back(root);
  std::optional<std::uint32_t> skin;  // a skeleton that does not make a skin leaves the meshes unskinned
  if (m.skeleton && add_skin(*m.skeleton, 0, s)) skin = 0;
  std::map<std::string, std::uint32_t> materials;
  for (std::size_t i = 0; i < m.draws.size(); ++i) {
    ASSAY_TRY(DrawGeometry g, decode_draw(f, m.draws[i]));
    if (g.triangles.empty()) continue;  // nothing to draw (glTF has no empty primitive)
    auto [mesh, node] = draw_mesh(m, i, std::move(g), skin, materials, s);
    node.mesh = static_cast<std::uint32_t>(s.meshes.size());
    s.meshes.push_back(std::move(mesh));
    s.nodes.push_back(std::move(node));
  }
  if (s.meshes.empty()) return err(fmt::format("{}[{}]", "igModelData", m.data_object), kNoOffset, "no draw call has triangles");
  return s;
}

void check_model(const IgzFile& f, const Model& m, const DiagSink& sink) {
  for (const std::string& n : m.notes)
    detail::report(sink, Severity::note, fmt::format("igModelData[{}]", m.data_object), kNoOffset, n);
  if (model::Scene bones; m.skeleton)
    if (auto skin = add_skin(*m.skeleton, 0, bones); !skin)
      detail::report(sink, Severity::warning, skin.error().structure, skin.error().offset, "skin left out: " + skin.error().message);
  Bounds all;
  bool transformed = false;
  for (const DrawCall& d : m.draws) {
    auto g = decode_draw(f, d);
    if (!g) {
      detail::report(sink, g.error().kind == ErrorKind::unsupported ? Severity::note : Severity::error, g.error());
      continue;
    }
    check_draw(d, *g, sink);
    check_joints(m, d, *g, sink);
    all.add(bounds_of(g->positions));
    transformed = transformed || d.transform.has_value();
  }
  // The model's bounds against its draw calls' (only where no draw call has a transform of its own).
  if (m.stored_bounds && !all.empty && !transformed && !same_bounds(m.min, m.max, all))
    detail::report(sink, Severity::warning, fmt::format("igModelData[{}] _min/_max", m.data_object), kNoOffset,
                   fmt::format("stored bounds {}..{} differ from its draw calls' bounds {}..{}", vec3_text(m.min), vec3_text(m.max),
                               vec3_text(all.lo), vec3_text(all.hi)));
}


}  // namespace assay::igz
