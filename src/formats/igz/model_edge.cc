// PS3 EDGE geometry (edge.h): segments read, decoded and made a glTF scene.
//
// igPS3EdgeGeometrySegment (igRewrite8 Resources/metaobjects.txt, 32-bit; the offsets match the
// ROFS fields of zap.pak's zapwave.igz), each an igMemory {size word, pointer}: _spuConfigInfo
// 0x08, _indexes 0x10, _spuVertexes0 0x1C, _spuVertexes1 0x24, _rsxOnlyVertexes 0x38,
// _rsxOnlyStreamDesc 0x78 (zap.pak's actor: a secondary input format 0xFF whose description at
// 0x68 gives NORMAL and TANGENT X11Y11Z10N in 8 bytes, the _spuVertexes1 size / 8 = its vertex
// count). _spuConfigInfo (EdgeGeomSpuConfigInfo, Noesis plugin): u8 flags,
// holeSize, inputFormat, secondaryInputFormat, outputFormat, deltaFormat,
// indexesFlavorAndSkinningFlavor, matrixFormat, u16 numVertexes, u16 numIndexes, u32
// indexesOffset. A stream description: u8 count, u8 stride, 6 bytes, then per attribute
// {offset, format, componentCount, attributeId, size, slot, fixed, pad}.
// The scene graph around it (zap.pak): igGeometry (_bound igAABox at 0x0C, _attributes igAttrList
// at 0x24) -> igEdgeGeometryAttr (_geometry at 0x10) -> igPS3EdgeGeometry; igAABox min at 0x08,
// max at 0x14. igObjectList: count 0x08, igMemory of pointers 0x10.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "assay/formats/igz/edge.h"
#include "diag_util.h"
#include "edge_parts.h"
#include "model_joints.h"

namespace assay::igz {

namespace {

using detail::err;
using detail::field_at;
using detail::list_elements;
using detail::memory_at;
using detail::or_zero;
using detail::pointer_at;

constexpr std::uint8_t kInputF32c3 = 0;  // SPU input format 0: x, y, z big-endian floats
constexpr std::uint8_t kCompressedCw = 2, kCompressedCcw = 3, kU16Cw = 0, kU16Ccw = 1;  // indexes flavours
enum EdgeFormat : std::uint8_t { kI16N = 1, kF32, kF16, kU8N, kI16, kX11Y11Z10N, kU8 };
enum EdgeAttribute : std::uint8_t { kPosition = 1, kNormal, kTangent, kBinormal, kUv0, kUv1, kUv2, kUv3, kColor };

Result<EdgeSegment> read_segment(const IgzFile& f, const Graph& g, std::size_t object) {
  const Object& o = g.objects[object];
  EdgeSegment s;
  s.object = object, s.position = o.position;
  const auto c = memory_at(f, o, 0x08);
  if (!c || c->size < 16) return err(fmt::format("igPS3EdgeGeometrySegment[{}] _spuConfigInfo", object), o.position + 0x08, "no 16-byte SPU config info");
  const ByteReader r = f.reader();
  s.flags = or_zero(r.u8(c->offset, "spuConfigInfo"));
  s.input_format = or_zero(r.u8(c->offset + 2, "spuConfigInfo"));
  s.secondary_input_format = or_zero(r.u8(c->offset + 3, "spuConfigInfo"));
  const std::uint8_t flavours = or_zero(r.u8(c->offset + 6, "spuConfigInfo"));
  s.indexes_flavor = flavours >> 4, s.skinning_flavor = flavours & 0x0F;
  s.vertex_count = or_zero(r.u16(c->offset + 8, "spuConfigInfo"));
  s.index_count = or_zero(r.u16(c->offset + 10, "spuConfigInfo"));
  s.indexes = memory_at(f, o, 0x10);
  s.spu_vertexes0 = memory_at(f, o, 0x1C);
  s.spu_vertexes1 = memory_at(f, o, 0x24);
  s.rsx_vertexes = memory_at(f, o, 0x38);
  s.skin_weights = memory_at(f, o, 0x50);
  s.spu_stream_desc0 = memory_at(f, o, 0x60);
  s.spu_stream_desc1 = memory_at(f, o, 0x68);
  s.rsx_stream_desc = memory_at(f, o, 0x78);
  return s;
}

std::string segment_what(const EdgeSegment& s) { return fmt::format("igPS3EdgeGeometrySegment[{}]", s.object); }

Error not_decoded(const EdgeSegment& s, std::string why) {
  Error e = err(segment_what(s), s.position, "PS3 EDGE geometry not decoded: " + std::move(why));
  e.kind = ErrorKind::unsupported;
  e.code = "igz.edge-geometry";
  return e;
}

Result<ByteView> span_bytes(const IgzFile& f, const std::optional<MemorySpan>& m, std::uint64_t need, const EdgeSegment& s, std::string_view name) {
  if (!m || m->size < need)
    return err(segment_what(s) + " " + std::string(name), s.position,
               fmt::format("{} bytes, {} vertices need {}", m ? m->size : 0, s.vertex_count, need));
  return f.reader().bytes(m->offset, need, name);
}

Result<std::vector<std::uint32_t>> segment_triangles(const IgzFile& f, const EdgeSegment& s) {
  if (!s.indexes) return err(segment_what(s) + " _indexes", s.position + 0x10, "no index stream");
  ASSAY_TRY(const ByteView idx, f.reader().bytes(s.indexes->offset, s.indexes->size, "_indexes"));
  std::vector<std::uint32_t> out;
  if (s.indexes_flavor == kCompressedCcw || s.indexes_flavor == kCompressedCw) {
    auto d = decompress_edge_indexes(idx, s.index_count);
    if (!d) {
      Error e = std::move(d).error();
      e.structure = segment_what(s) + " _indexes", e.offset += s.indexes->offset;
      return e;
    }
    out = std::move(*d);
  } else if (s.indexes_flavor == kU16Ccw || s.indexes_flavor == kU16Cw) {
    if (idx.size() < std::uint64_t{s.index_count} * 2 || s.index_count % 3 != 0)
      return err(segment_what(s) + " _indexes", s.indexes->offset, fmt::format("{} bytes hold no {} 16-bit indices", idx.size(), s.index_count));
    for (std::uint32_t i = 0; i < s.index_count; ++i) out.push_back(load<std::uint16_t>(&idx[2 * i], Endian::big));
  } else {
    return not_decoded(s, fmt::format("indexes flavour {}", s.indexes_flavor));
  }
  if (s.indexes_flavor == kCompressedCw || s.indexes_flavor == kU16Cw)  // glTF fronts are counter-clockwise
    for (std::size_t t = 0; t + 2 < out.size(); t += 3) std::swap(out[t + 1], out[t + 2]);
  for (std::size_t i = 0; i < out.size(); ++i)
    if (out[i] >= s.vertex_count)
      return err(segment_what(s) + " _indexes", s.indexes->offset, fmt::format("index {} is {}, past the segment's {} vertices", i, out[i], s.vertex_count));
  return out;
}

float snorm(std::int32_t v, unsigned bits) { return std::max(-1.0f, static_cast<float>(v) / static_cast<float>((1 << (bits - 1)) - 1)); }
std::int32_t sign_extend(std::uint32_t v, unsigned bits) { return static_cast<std::int32_t>(v << (32 - bits)) >> (32 - bits); }

// Component `k` of an attribute value at `p`, as a float.
std::optional<float> component(std::uint8_t format, const std::uint8_t* p, unsigned k) {
  switch (format) {
    case kF32: return std::bit_cast<float>(load<std::uint32_t>(p + 4 * k, Endian::big));
    case kF16: return half_to_float(load<std::uint16_t>(p + 2 * k, Endian::big));
    case kI16N: return snorm(load<std::int16_t>(p + 2 * k, Endian::big), 16);
    case kI16: return static_cast<float>(load<std::int16_t>(p + 2 * k, Endian::big));
    case kU8N: return p[k] / 255.0f;
    case kU8: return static_cast<float>(p[k]);
    case kX11Y11Z10N: {
      const std::uint32_t w = load<std::uint32_t>(p, Endian::big);
      if (k == 0) return snorm(sign_extend(w & 0x7FF, 11), 11);
      if (k == 1) return snorm(sign_extend((w >> 11) & 0x7FF, 11), 11);
      return snorm(sign_extend(w >> 22, 10), 10);
    }
    default: return std::nullopt;
  }
}
unsigned format_size(std::uint8_t format, unsigned count) {
  switch (format) {
    case kF32: return 4 * count;
    case kF16: case kI16N: case kI16: return 2 * count;
    case kU8N: case kU8: return count;
    case kX11Y11Z10N: return 4;
    default: return 0;
  }
}

struct StreamAttribute {
  std::uint8_t offset = 0, format = 0, count = 0, id = 0;
};

struct Layout {
  unsigned stride = 0;
  std::vector<StreamAttribute> attributes;
};

// A stream's stride and attributes from its description (`name` its field).
Result<Layout> stream_layout(const IgzFile& f, const EdgeSegment& s, const std::optional<MemorySpan>& desc, std::string_view name) {
  const std::string what = segment_what(s) + " " + std::string(name);
  if (!desc || desc->size < 8) return err(what, s.position, "no stream description");
  ASSAY_TRY(const ByteView b, f.reader().bytes(desc->offset, desc->size, name));
  const unsigned count = b[0], stride = b[1];
  if (8 * (count + 1) > b.size()) return err(what, desc->offset, fmt::format("{} attributes in {} bytes", count, b.size()));
  Layout l{stride, {}};
  for (unsigned i = 0; i < count; ++i) {
    const std::uint8_t* a = b.data() + 8 * (i + 1);
    StreamAttribute at{a[0], a[1], a[2], a[3]};
    const unsigned size = format_size(at.format, at.count);
    if (size == 0) return not_decoded(s, fmt::format("{} attribute {} has format {}", name, at.id, at.format));
    if (at.offset + size > stride)
      return err(what, desc->offset + 8 * (i + 1), fmt::format("attribute {} at +{} ({} bytes) ends past the {}-byte vertex", at.id, at.offset, size, stride));
    l.attributes.push_back(at);
  }
  return l;
}

// One attribute of a stream: its vertices' values as floats.
struct AttributeValues {
  ByteView v;
  unsigned stride;
  StreamAttribute a;
  [[nodiscard]] float at(std::size_t i, unsigned k) const { return component(a.format, &v[i * stride + a.offset], k).value_or(0.0f); }
  [[nodiscard]] unsigned components() const { return a.format == kX11Y11Z10N ? 3 : a.count; }
};

void put_normals(const AttributeValues& x, std::size_t n, DrawGeometry& g) {
  g.normals.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const model::Vec3 nv{x.at(i, 0), x.at(i, 1), x.at(i, 2)};
    const float len = std::sqrt(nv[0] * nv[0] + nv[1] * nv[1] + nv[2] * nv[2]);
    g.normals[i] = len > 0 ? model::Vec3{nv[0] / len, nv[1] / len, nv[2] / len} : model::Vec3{0, 0, 1};
  }
}

void put_colors(const AttributeValues& x, std::size_t n, DrawGeometry& g) {
  g.colors.resize(n);
  const bool unit = x.a.format != kU8 && x.a.format != kI16;  // normalised formats: 0..1
  for (std::size_t i = 0; i < n; ++i)
    for (unsigned k = 0; k < 4; ++k) {
      const float c = k < x.components() ? x.at(i, k) : 1.0f;
      g.colors[i][k] = static_cast<std::uint8_t>(std::lround(std::clamp(unit ? c * 255.0f : c, 0.0f, 255.0f)));
    }
}

// The attributes of one stream of `stride`-byte vertices into g (positions, normals, UVs, colour).
Result<void> stream_attributes(const IgzFile& f, const EdgeSegment& s, const std::optional<MemorySpan>& data, const Layout& l,
                               std::string_view name, DrawGeometry& g) {
  ASSAY_TRY(ByteView v, span_bytes(f, data, std::uint64_t{l.stride} * s.vertex_count, s, name));
  const std::size_t n = s.vertex_count;
  for (const StreamAttribute& a : l.attributes) {
    const AttributeValues x{v, l.stride, a};
    if (a.id == kPosition && x.components() >= 3) {
      g.positions.resize(n);
      for (std::size_t i = 0; i < n; ++i) g.positions[i] = {x.at(i, 0), x.at(i, 1), x.at(i, 2)};
    } else if (a.id == kNormal && x.components() >= 3) {
      put_normals(x, n, g);
    } else if (a.id >= kUv0 && a.id <= kUv3 && x.components() >= 2) {
      auto& uv = g.texcoords.emplace_back(n);
      for (std::size_t i = 0; i < n; ++i) uv[i] = {x.at(i, 0), x.at(i, 1)};
    } else if (a.id == kColor && x.components() >= 3) {
      put_colors(x, n, g);
    } else {
      g.notes.push_back(fmt::format("{} attribute {} (format {} x{}) left out", name, a.id, a.format, a.count));
    }
  }
  return {};
}

constexpr std::uint8_t kCustomFormat = 0xFF;

// SPU stream 0 (input format 0: three floats; 0xFF: by its description) and SPU stream 1 (0xFF by
// its description; none when it is empty).
Result<void> spu_attributes(const IgzFile& f, const EdgeSegment& s, DrawGeometry& g) {
  if (s.input_format == kInputF32c3) {
    const Layout l{12, {StreamAttribute{0, kF32, 3, kPosition}}};
    ASSAY_CHECK(stream_attributes(f, s, s.spu_vertexes0, l, "_spuVertexes0", g));
  } else if (s.input_format == kCustomFormat) {
    ASSAY_TRY(const Layout l, stream_layout(f, s, s.spu_stream_desc0, "_spuInputStreamDescs0"));
    ASSAY_CHECK(stream_attributes(f, s, s.spu_vertexes0, l, "_spuVertexes0", g));
  } else {
    return not_decoded(s, fmt::format("SPU input format {} (0, three floats, and 0xFF, described, are decoded)", s.input_format));
  }
  if (!s.spu_vertexes1) return {};
  if (s.secondary_input_format != kCustomFormat)
    return not_decoded(s, fmt::format("secondary SPU input format {} (0xFF, described, is decoded)", s.secondary_input_format));
  ASSAY_TRY(const Layout l, stream_layout(f, s, s.spu_stream_desc1, "_spuInputStreamDescs1"));
  return stream_attributes(f, s, s.spu_vertexes1, l, "_spuVertexes1", g);
}

}  // namespace

Result<EdgeGeometry> read_edge_geometry(const IgzFile& f, const Fixups& fx, const Graph& g, std::size_t object) {
  return read_edge_geometry(f, g, object, index_edge_scene(f, fx, g));
}

Result<EdgeGeometry> read_edge_geometry(const IgzFile& f, const Graph& g, std::size_t object, const EdgeSceneIndex& index) {
  if (object >= g.objects.size() || g.objects[object].type_name != "igPS3EdgeGeometry")
    return err("igPS3EdgeGeometry", kNoOffset, fmt::format("object {} is no igPS3EdgeGeometry", object));
  if (f.header().pointer_size != 4) return err(fmt::format("igPS3EdgeGeometry[{}]", object), g.objects[object].position, "PS3 EDGE geometry with 64-bit pointers");
  EdgeGeometry e;
  e.object = object;
  for (std::size_t k : list_elements(f, g, g.objects[object])) {
    if (k == kNoObject || g.objects[k].type_name != "igPS3EdgeGeometrySegment") continue;
    ASSAY_TRY(EdgeSegment s, read_segment(f, g, k));
    e.segments.push_back(std::move(s));
  }
  if (e.segments.empty()) return err(fmt::format("igPS3EdgeGeometry[{}]", object), g.objects[object].position, "no segment");
  if (const auto b = index.bounds.find(object); b != index.bounds.end()) e.min = b->second.first, e.max = b->second.second;
  if (const auto m = index.material.find(object); m != index.material.end()) e.material = m->second;
  const auto select = index.select.find(object);
  const auto skin = select != index.select.end() ? index.skins.find(select->second) : index.skins.end();
  if (skin != index.skins.end() &&
      std::any_of(e.segments.begin(), e.segments.end(), [](const EdgeSegment& s) { return s.skinning_flavor != 0; }))
    e.skin = skin->second;
  return e;
}

Result<DrawGeometry> decode_edge_segment(const IgzFile& f, const EdgeSegment& s) {
  DrawGeometry g;
  ASSAY_CHECK(spu_attributes(f, s, g));
  if (s.rsx_vertexes) {
    ASSAY_TRY(const Layout l, stream_layout(f, s, s.rsx_stream_desc, "_rsxOnlyStreamDesc"));
    ASSAY_CHECK(stream_attributes(f, s, s.rsx_vertexes, l, "_rsxOnlyVertexes", g));
  }
  if (g.positions.size() != s.vertex_count) return not_decoded(s, "no stream holds the positions");
  ASSAY_TRY(g.triangles, segment_triangles(f, s));
  return g;
}

Result<model::Scene> edge_scene(const IgzFile& f, const EdgeGeometry& e, const std::string& name) {
  model::Scene s;
  s.name = name;
  s.nodes.push_back(model::Node{.name = name});
  if (e.skin) ASSAY_CHECK(add_skin(e.skin->skeleton, 0, s));
  if (!e.material.empty()) s.materials.push_back(model::Material{.name = e.material, .extras = {{"handle", e.material}}});
  for (std::size_t k = 0; k < e.segments.size(); ++k) {
    const EdgeSegment& seg = e.segments[k];
    ASSAY_TRY(DrawGeometry g, decode_edge_segment(f, seg));
    if (g.triangles.empty()) continue;
    model::Mesh mesh;
    mesh.name = fmt::format("segment{}", k);
    mesh.positions = std::move(g.positions);
    mesh.normals = std::move(g.normals);
    mesh.texcoords = std::move(g.texcoords);
    mesh.colors = std::move(g.colors);
    mesh.primitives.push_back(model::Primitive{.indices = std::move(g.triangles)});
    if (!e.material.empty()) mesh.primitives.back().material = 0;
    mesh.extras["igz_object"] = static_cast<double>(seg.object);
    if (!g.notes.empty()) {
      std::string text;
      for (const std::string& n : g.notes) text += (text.empty() ? "" : "; ") + n;
      mesh.extras["notes"] = std::move(text);
    }
    model::Node n{.name = mesh.name, .parent = 0, .mesh = static_cast<std::uint32_t>(s.meshes.size())};
    if (e.skin && seg.skinning_flavor != 0) {
      auto w = edge_segment_weights(f, seg, *e.skin);
      if (!w && w.error().kind != ErrorKind::unsupported) return std::move(w).error();
      if (w) {
        mesh.joints = std::move(w->joints), mesh.weights = std::move(w->weights);
        n.parent.reset(), n.skin = 0;  // a skinned mesh's node is a scene root (glTF: its transform is not used)
      } else {
        mesh.extras["notes"] = w.error().message;  // the bind pose without weights
      }
    }
    s.nodes.push_back(std::move(n));
    s.meshes.push_back(std::move(mesh));
  }
  if (s.meshes.empty()) return err(fmt::format("igPS3EdgeGeometry[{}]", e.object), kNoOffset, "no segment has triangles");
  return s;
}

namespace {

// Warns where the igGeometry's igAABox differs from the decoded positions' bounds (within 1e-4 of
// the extent).
void check_bounds(const EdgeGeometry& e, const model::Vec3& lo, const model::Vec3& hi, const DiagSink& sink) {
  if (!e.min || !e.max) return;
  const float extent = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], 1.0f});
  for (unsigned k = 0; k < 3; ++k)
    if (std::fabs(lo[k] - (*e.min)[k]) > 1e-4f * extent || std::fabs(hi[k] - (*e.max)[k]) > 1e-4f * extent) {
      detail::report(sink, Severity::warning, fmt::format("igPS3EdgeGeometry[{}] igGeometry _bound", e.object), kNoOffset,
                     fmt::format("stored bounds ({:g}, {:g}, {:g})..({:g}, {:g}, {:g}) differ from the decoded positions' ({:g}, {:g}, {:g})..({:g}, {:g}, {:g})",
                                 (*e.min)[0], (*e.min)[1], (*e.min)[2], (*e.max)[0], (*e.max)[1], (*e.max)[2], lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]));
      return;
    }
}

void check_skin(const IgzFile& f, const EdgeGeometry& e, const EdgeSegment& s, const DiagSink& sink) {
  if (s.skinning_flavor == 0) return;
  if (!e.skin) {
    detail::report(sink, Severity::note, segment_what(s), s.position,
                   fmt::format("skinning flavour {}: no igBlendMatrixSelect and igSkeleton2 read, so the vertices as stored (the bind pose) without weights", s.skinning_flavor));
    return;
  }
  if (auto w = edge_segment_weights(f, s, *e.skin); !w)
    detail::report(sink, w.error().kind == ErrorKind::unsupported ? Severity::note : Severity::error, w.error());
}

}  // namespace

void check_edge_geometry(const IgzFile& f, const EdgeGeometry& e, const DiagSink& sink) {
  model::Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
  for (const EdgeSegment& s : e.segments) {
    auto g = decode_edge_segment(f, s);
    if (!g) {
      detail::report(sink, g.error().kind == ErrorKind::unsupported ? Severity::note : Severity::error, g.error());
      return;
    }
    for (const model::Vec3& p : g->positions)
      for (unsigned k = 0; k < 3; ++k) lo[k] = std::min(lo[k], p[k]), hi[k] = std::max(hi[k], p[k]);
    for (const std::string& n : g->notes) detail::report(sink, Severity::note, segment_what(s), s.position, n);
    check_skin(f, e, s, sink);
  }
  check_bounds(e, lo, hi, sink);
}

}  // namespace assay::igz
