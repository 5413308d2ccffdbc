// The igModelInfo graph of a decoded igz, field by field: the offsets per layout are
// model_layout.cc's tables (32-bit, 64-bit version 9, 64-bit NST and CTR); pointers, handles and
// igMemory words are pointer-sized, the version 10 igMemory {u32 size, u32 flags, u64 pointer}
// (spec: alchemy.md#corrections C4). Every pointer is checked to be a ROFS entry naming an object of
// the type the metadata gives before it is followed.
#include <fmt/format.h>

#include <algorithm>

#include "assay/core/hash.h"
#include "assay/formats/igz/model.h"
#include "diag_util.h"
#include "model_fields.h"

namespace assay::igz {

namespace {

using detail::err;

// "i16_cafe" -> 2: igIndexFormat::GetFormatName (igRewrite8 igIndexFormat.cs) spells the name
// "i8" | "i16" | "i32", "d" when dynamic, then "_" + the IG_GFX_PLATFORM name after
// "IG_GFX_PLATFORM_" unless DEFAULT, lower-cased; the EXID holds its FNV-1a. Version 10 adds NX
// (kishimisu/Crash-NST-Level-Editor Enums.cs EIG_GFX_PLATFORM).
std::optional<std::pair<std::string, unsigned>> index_format_for_hash(std::uint32_t hash) {
  static constexpr std::string_view kPlatforms[] = {"", "_dx", "_wii", "_durango", "_aspen", "_xenon", "_ps3",
                                                    "_osx", "_dx11", "_cafe", "_raspi", "_null", "_android",
                                                    "_metal", "_wgl", "_lgtv", "_ps4", "_linux", "_nx"};
  static constexpr std::pair<std::string_view, unsigned> kTypes[] = {{"i8", 1}, {"i16", 2}, {"i32", 4}};
  for (const auto& [t, size] : kTypes)
    for (std::string_view d : {"", "d"})
      for (std::string_view p : kPlatforms) {
        std::string n = fmt::format("{}{}{}", t, d, p);
        if (fnv1a32(n, true) == hash) return std::pair{std::move(n), size};
      }
  return std::nullopt;
}
constexpr std::uint32_t kIndexFormatsNamespace = 0xC3927E65;  // fnv1a32("indexformats")

Result<void> read_elements(const FieldReader& r, std::size_t fmt_obj, VertexBufferInfo& vb) {
  ASSAY_TRY(vb.stride, r.u32(fmt_obj, r.fields().format_size, "_vertexSize"));
  ASSAY_TRY(MemorySpan m, r.memory(fmt_obj, r.fields().format_elements, "_elements"));
  const ByteReader rd = r.file().reader();
  for (std::uint64_t k = 0; k + kVertexElementSize <= m.size; k += kVertexElementSize) {
    ASSAY_TRY(ByteView b, rd.bytes(m.offset + k, kVertexElementSize, r.what(fmt_obj, "_elements")));
    const VertexElement e = parse_vertex_element(b, rd.endian());
    if (e.type == vertex_type::kUnused) break;  // the list's terminator
    vb.elements.push_back(e);
  }
  return {};
}

// The igVertexBuffer or igIndexBuffer a graphics buffer points at, with its count, _data and
// _primitiveType.
struct BufferRead {
  std::size_t object = kNoObject;
  std::uint32_t count = 0, primitive_type = 0;
  MemorySpan data;
};
// An igVertexBuffer / igIndexBuffer: its count, _data and _primitiveType.
Result<BufferRead> read_buffer_object(const FieldReader& r, std::size_t object, const BufferFields& at, std::string_view count_name) {
  BufferRead b;
  b.object = object;
  ASSAY_TRY(b.count, r.u32(b.object, at.count, count_name));
  ASSAY_TRY(b.data, r.data(b.object, at.data, "_data"));
  ASSAY_TRY(b.primitive_type, r.u32(b.object, at.primitive_type, "_primitiveType"));
  return b;
}
// The same behind an igGraphicsVertexBuffer / igGraphicsIndexBuffer.
Result<BufferRead> read_buffer(const FieldReader& r, std::size_t graphics, std::string_view field, std::string_view type,
                               const BufferFields& at, std::string_view count_name) {
  ASSAY_TRY(std::size_t object, r.ref(graphics, r.fields().graphics_buffer, field, type));
  if (object == kNoObject) return err(r.what(graphics, field), r.graph().objects[graphics].position, fmt::format("no {}", type));
  return read_buffer_object(r, object, at, count_name);
}

Result<VertexBufferInfo> vertex_buffer_info(const FieldReader& r, const BufferRead& b) {
  const BufferFields& at = r.fields().vertex_buffer;
  VertexBufferInfo vb;
  vb.object = b.object, vb.count = b.count, vb.data = b.data, vb.primitive_type = b.primitive_type;
  ASSAY_TRY(vb.format_object, r.ref(vb.object, at.format, "_format", "igVertexFormat"));
  if (vb.format_object == kNoObject) return err(r.what(vb.object, "_format"), r.graph().objects[vb.object].position, "no vertex format");
  ASSAY_CHECK(read_elements(r, vb.format_object, vb));
  return vb;
}

IndexBufferInfo index_buffer_info(const FieldReader& r, const BufferRead& b) {
  IndexBufferInfo ib;
  ib.object = b.object, ib.count = b.count, ib.data = b.data, ib.primitive_type = b.primitive_type;
  if (const ExternalRef* x = r.external(ib.object, r.fields().index_buffer.format)) {
    ib.format = x->name;
    const auto& ids = r.fixups().external_ids;
    if (x->kind == "exid" && x->index < ids.size() && ids[x->index].namespace_hash == kIndexFormatsNamespace)
      if (auto n = index_format_for_hash(ids[x->index].name_hash)) ib.format = n->first, ib.index_size = n->second;
  }
  return ib;
}

Result<VertexBufferInfo> read_vertex_buffer(const FieldReader& r, std::size_t gvb) {
  ASSAY_TRY(BufferRead b, read_buffer(r, gvb, "_vertexBuffer", "igVertexBuffer", r.fields().vertex_buffer, "_vertexCount"));
  return vertex_buffer_info(r, b);
}

Result<IndexBufferInfo> read_index_buffer(const FieldReader& r, std::size_t gib) {
  ASSAY_TRY(BufferRead b, read_buffer(r, gib, "_indexBuffer", "igIndexBuffer", r.fields().index_buffer, "_indexCount"));
  return index_buffer_info(r, b);
}

Result<DrawCall> read_draw_call(const FieldReader& r, std::size_t o) {
  const ModelFields& at = r.fields();
  DrawCall d;
  d.object = o;
  d.position = r.graph().objects[o].position;
  d.name = r.name(o);
  d.min_field = at.draw_min, d.primitive_count_field = at.draw_primitive_count, d.properties_field = at.draw_properties;
  ASSAY_TRY(d.min, r.vec4(o, at.draw_min, "_min"));
  ASSAY_TRY(d.max, r.vec4(o, at.draw_max, "_max"));
  if (const ExternalRef* x = r.external(o, at.draw_material)) d.material = x->name;
  ASSAY_TRY(std::size_t gvb, r.ref(o, at.draw_vertex_buffer, "_graphicsVertexBuffer", "igGraphicsVertexBuffer"));
  ASSAY_TRY(std::size_t gib, r.ref(o, at.draw_index_buffer, "_graphicsIndexBuffer", "igGraphicsIndexBuffer"));
  ASSAY_TRY(d.blend_offset, r.u16(o, at.draw_blend_offset, "_blendVectorOffset"));
  ASSAY_TRY(d.blend_count, r.u16(o, at.draw_blend_count, "_blendVectorCount"));
  ASSAY_TRY(std::uint32_t count, r.u32(o, at.draw_primitive_count, "_primitiveCount"));
  d.primitive_count = static_cast<std::int32_t>(count);
  ASSAY_TRY(d.properties, r.u32(o, at.draw_properties, "_propertiesBitField"));
  if (gvb == kNoObject) return err(r.what(o, "_graphicsVertexBuffer"), r.graph().objects[o].position, "no vertex buffer");
  ASSAY_TRY(d.vertices, read_vertex_buffer(r, gvb));
  if (gib != kNoObject) {
    ASSAY_TRY(d.indices, read_index_buffer(r, gib));
  }
  return d;
}

// 16 floats at `field`: rows of a row-vector matrix (translation in the last row), which is glTF's
// column-major order read as it is (igAnimatedTransform::_matrix, igSkeleton2's inverse joints).
Result<model::Mat4> read_matrix(const FieldReader& r, std::size_t o, std::uint32_t field, std::string_view name) {
  model::Mat4 m{};
  for (std::uint32_t i = 0; i < 4; ++i) {
    ASSAY_TRY(model::Vec4 row, r.vec4(o, field + 16 * i, name));
    for (unsigned j = 0; j < 4; ++j) m[4 * i + j] = row[j];
  }
  return m;
}

Result<void> read_transforms(const FieldReader& r, std::size_t o, Model& m) {
  ASSAY_TRY(auto transforms, r.vector(o, r.fields().data_transforms, "_transforms", r.pointer_size()));
  for (std::uint32_t i = 0; i < transforms.first; ++i) {
    ASSAY_TRY(std::size_t t, r.vector_ref(o, transforms.second, i, "_transforms", "igAnimatedTransform"));
    if (t == kNoObject) {
      m.transforms.emplace_back();
      continue;
    }
    ASSAY_TRY(model::Mat4 matrix, read_matrix(r, t, r.fields().transform_matrix, "_matrix"));
    m.transforms.emplace_back(matrix);
  }
  return {};
}

// An igVector of 4-byte integers (_drawCallTransformIndices, _blendMatrixIndices).
Result<std::vector<std::int32_t>> read_ints(const FieldReader& r, std::size_t o, std::uint32_t field, std::string_view name) {
  ASSAY_TRY(auto v, r.vector(o, field, name, 4));
  std::vector<std::int32_t> out;
  out.reserve(v.first);
  for (std::uint32_t i = 0; i < v.first; ++i) {
    ASSAY_TRY(std::uint32_t x, r.file().reader().u32(v.second.offset + std::uint64_t{i} * 4, fmt::format("{}[{}]", r.what(o, name), i)));
    out.push_back(static_cast<std::int32_t>(x));
  }
  return out;
}

Result<void> read_model_data(const FieldReader& r, std::size_t o, Model& m) {
  const ModelFields& at = r.fields();
  ASSAY_TRY(m.min, r.vec4(o, at.data_min, "_min"));
  ASSAY_TRY(m.max, r.vec4(o, at.data_max, "_max"));
  ASSAY_CHECK(read_transforms(r, o, m));
  ASSAY_TRY(auto draws, r.vector(o, at.data_draw_calls, "_drawCalls", r.pointer_size()));
  ASSAY_TRY(auto indices, read_ints(r, o, at.data_transform_indices, "_drawCallTransformIndices"));
  // Only skins need _blendMatrixIndices: a list that does not read is a note, not a lost model.
  if (auto blend = read_ints(r, o, at.data_blend_matrix_indices, "_blendMatrixIndices"))
    m.blend_matrix_indices = std::move(*blend);
  else
    m.notes.push_back(blend.error().str());
  for (std::uint32_t i = 0; i < draws.first; ++i) {
    ASSAY_TRY(std::size_t d, r.vector_ref(o, draws.second, i, "_drawCalls", "igModelDrawCallData"));
    if (d == kNoObject) continue;
    ASSAY_TRY(DrawCall dc, read_draw_call(r, d));
    // -1 (or no transforms at all): none
    if (i < indices.size() && indices[i] >= 0 && static_cast<std::size_t>(indices[i]) < m.transforms.size())
      dc.transform = static_cast<std::uint32_t>(indices[i]);
    m.draws.push_back(std::move(dc));
  }
  return {};
}

// Says where the offsets come from when no real file of this layout has shown them.
void note_model_layout(const ModelFields& at, Model& m) {
  m.layout = std::string(at.name);
  if (!at.seen)
    m.layout_assumption = fmt::format("{} model fields from {}; no real file has shown this layout", at.name, at.source);
}

}  // namespace

std::vector<std::size_t> find_models(const IgzFile& f, const Graph& g) {
  (void)f;
  std::vector<std::size_t> out;
  std::vector<bool> has_info(g.objects.size(), false);
  for (const Edge& e : g.edges)  // igModelData objects an igModelInfo points at
    if (e.from < g.objects.size() && e.to < g.objects.size() && g.objects[e.from].type_name == "igModelInfo")
      has_info[e.to] = true;
  for (std::size_t i = 0; i < g.objects.size(); ++i) {
    const std::string_view t = g.objects[i].type_name;
    if (t == "igModelInfo" || (t == "igModelData" && !has_info[i])) out.push_back(i);
  }
  return out;
}

Result<Model> read_model(const IgzFile& f, const Fixups& fx, const Graph& g, std::size_t object) {
  return read_model(FieldReader(f, fx, g), object);
}

Result<Model> read_model(const FieldReader& r, std::size_t object) {
  const Graph& g = r.graph();
  if (object >= g.objects.size()) return err("igModelInfo", kNoOffset, fmt::format("no object {}", object));
  const Object& o = g.objects[object];
  Model m;
  m.object = m.data_object = object;
  if (o.type_name == "igModelInfo") {
    ASSAY_TRY(m.data_object, r.ref(object, r.fields().info_model_data, "_modelData", "igModelData"));
    if (m.data_object == kNoObject) return err(r.what(object, "_modelData"), o.position, "no igModelData");
  } else if (o.type_name != "igModelData") {
    return err(r.what(object, ""), o.position, "is no igModelInfo or igModelData");
  }
  m.name = r.name(object).value_or(r.name(m.data_object).value_or(std::string(o.type_name)));
  ASSAY_CHECK(read_model_data(r, m.data_object, m));
  // A skeleton that does not read is a note: the model still exports, unskinned.
  if (auto skeleton = read_skeleton(r, m.data_object)) m.skeleton = std::move(*skeleton);
  else m.notes.push_back("skeleton left out: " + skeleton.error().str());
  note_model_layout(r.fields(), m);
  return m;
}

}  // namespace assay::igz

namespace assay::igz {

std::vector<std::size_t> find_geometry_attrs(const Graph& g) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < g.objects.size(); ++i)
    if (g.objects[i].type_name == "igGeometryAttr") out.push_back(i);
  return out;
}

namespace {

// What the scene graph says about the attribute: its igGeometry's igAABox, its material node's
// handle, the igBlendMatrixSelect's palette and skeleton.
void scene_facts(const EdgeSceneIndex& index, std::size_t attr, Model& m, DrawCall& d) {
  if (auto b = index.bounds.find(attr); b != index.bounds.end()) {
    d.min = m.min = b->second.first, d.max = m.max = b->second.second;
    d.stored_bounds = m.stored_bounds = true;
  }
  if (auto mat = index.material.find(attr); mat != index.material.end()) d.material = mat->second;
  const auto select = index.select.find(attr);
  const auto skin = select != index.select.end() ? index.skins.find(select->second) : index.skins.end();
  if (skin == index.skins.end()) return;
  m.skeleton = skin->second.skeleton;
  m.blend_matrix_indices = skin->second.palette;
  d.blend_count = static_cast<std::uint16_t>(std::min<std::size_t>(skin->second.palette.size(), 0xFFFF));
}

}  // namespace

Result<Model> read_geometry_attr(const FieldReader& r, std::size_t attr, const EdgeSceneIndex& index) {
  const Graph& g = r.graph();
  if (attr >= g.objects.size() || g.objects[attr].type_name != "igGeometryAttr")
    return err("igGeometryAttr", kNoOffset, fmt::format("object {} is no igGeometryAttr", attr));
  if (r.pointer_size() != 4) {
    Error e = err(r.what(attr, ""), g.objects[attr].position, "igGeometryAttr fields are known for 32-bit files only (igRewrite8's metadata)");
    e.kind = ErrorKind::unsupported;
    return e;
  }
  Model m;
  m.object = m.data_object = attr;
  m.name = "igGeometryAttr";
  m.stored_bounds = false;
  DrawCall d;
  d.object = attr, d.position = g.objects[attr].position, d.source = "igGeometryAttr";
  d.stored_bounds = d.stored_properties = false;
  d.primitive_count_field = 0x1C;
  ASSAY_TRY(std::size_t vb, r.ref(attr, 0x10, "_vertexBuffer", "igVertexBuffer"));
  ASSAY_TRY(std::size_t ib, r.ref(attr, 0x14, "_indexBuffer", "igIndexBuffer"));
  ASSAY_TRY(std::uint32_t offset, r.u32(attr, 0x18, "_offset"));
  ASSAY_TRY(std::uint32_t count, r.u32(attr, 0x1C, "_primitiveCount"));
  d.primitive_count = static_cast<std::int32_t>(count);
  if (vb == kNoObject) return err(r.what(attr, "_vertexBuffer"), d.position, "no vertex buffer");
  ASSAY_TRY(BufferRead vbr, read_buffer_object(r, vb, r.fields().vertex_buffer, "_vertexCount"));
  ASSAY_TRY(d.vertices, vertex_buffer_info(r, vbr));
  if (ib != kNoObject) {
    ASSAY_TRY(BufferRead ibr, read_buffer_object(r, ib, r.fields().index_buffer, "_indexCount"));
    d.indices = index_buffer_info(r, ibr);
  }
  if (offset != 0) m.notes.push_back(fmt::format("_offset {} not applied: the whole buffers are drawn (no real file has shown what it offsets)", offset));
  scene_facts(index, attr, m, d);
  m.draws.push_back(std::move(d));
  note_model_layout(r.fields(), m);
  return m;
}

}  // namespace assay::igz
