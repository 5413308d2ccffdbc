// The igModelInfo graph of a decoded igz, field by field (see model.h for the sources).
//
// 32-bit offsets (igRewrite8 Resources/metaobjects.txt; igRewrite7 igLibrary/Render/*.cs gives
// the same for version 9 32-bit); the object header is {vtable index, reference count}:
//   igNamedObject          _name 0x08 (RSTR)
//   igModelInfo            _modelData 0x14
//   igModelData            _min 0x10, _max 0x20, _transforms 0x30, _drawCalls 0x48,
//                          _drawCallTransformIndices 0x54 (igVector {u32 count, igMemory})
//   igAnimatedTransform    _matrix 0x10 (igMatrix44f)
//   igModelDrawCallData    _min 0x10, _max 0x20, _materialHandle 0x30, _graphicsVertexBuffer 0x34,
//                          _graphicsIndexBuffer 0x38, _primitiveCount 0x48, _propertiesBitField 0x4C
//   igGraphicsVertexBuffer _vertexBuffer 0x0C;  igGraphicsIndexBuffer _indexBuffer 0x0C
//   igVertexBuffer         _vertexCount 0x08, _data 0x14 (memory handle), _format 0x18, _primitiveType 0x1C
//   igIndexBuffer          _indexCount 0x08, _data 0x14 (memory handle), _format 0x18 (external
//                          igIndexFormat), _primitiveType 0x1C
//   igVertexFormat         _vertexSize 0x08, _elements 0x0C (igMemory of igVertexElement)
// 64-bit files put every field elsewhere (igRewrite7's second column); they are not read here.
#include <fmt/format.h>

#include <algorithm>

#include "assay/core/hash.h"
#include "assay/formats/igz/model.h"
#include "diag_util.h"

namespace assay::igz {

namespace {

using detail::err;

// Reads an object's fields by offset, checking each against the object's MTSZ size, and each
// pointer against ROFS and the type it must point at.
class FieldReader {
 public:
  FieldReader(const IgzFile& f, const Fixups& fx, const Graph& g) : f_(f), fx_(fx), g_(g) {
    rofs_ = fx.list(tag::ROFS);
    std::sort(rofs_.begin(), rofs_.end());
  }

  [[nodiscard]] const Graph& graph() const { return g_; }
  [[nodiscard]] const IgzFile& file() const { return f_; }

  [[nodiscard]] std::string what(std::size_t o, std::string_view field) const {
    const Object& ob = g_.objects[o];
    return fmt::format("{}[{}] {}", ob.type_name.empty() ? "object" : ob.type_name, o, field);
  }
  [[nodiscard]] std::uint32_t serialized(std::size_t o, std::uint32_t field) const {
    return encode_pointer(f_.header().version, {g_.objects[o].pool, g_.objects[o].offset + field});
  }

  // The absolute position of [field, field + need) of object o.
  Result<std::uint64_t> at(std::size_t o, std::uint32_t field, std::uint32_t need, std::string_view name) const {
    const Object& ob = g_.objects[o];
    if (ob.size != 0 && std::uint64_t{field} + need > ob.size)
      return err(what(o, name), ob.position, fmt::format("field +0x{:x} ({} bytes) is outside the object's 0x{:x} bytes", field, need, ob.size));
    return resolve(f_, serialized(o, field), need, what(o, name));
  }
  Result<std::uint32_t> u32(std::size_t o, std::uint32_t field, std::string_view name) const {
    ASSAY_TRY(std::uint64_t p, at(o, field, 4, name));
    return f_.reader().u32(p, what(o, name));
  }
  Result<model::Vec4> vec4(std::size_t o, std::uint32_t field, std::string_view name) const {
    ASSAY_TRY(std::uint64_t p, at(o, field, 16, name));
    model::Vec4 v{};
    for (unsigned i = 0; i < 4; ++i) {
      ASSAY_TRY(v[i], f_.reader().f32(p + 4 * i, what(o, name)));
    }
    return v;
  }
  [[nodiscard]] bool is_pointer(std::uint32_t serialized_field) const {
    return std::binary_search(rofs_.begin(), rofs_.end(), serialized_field);
  }

  // An object reference: kNoObject for null, else the object it points at, of type `type`.
  Result<std::size_t> ref(std::size_t o, std::uint32_t field, std::string_view name, std::string_view type) const {
    ASSAY_TRY(std::uint32_t v, u32(o, field, name));
    if (v == 0 && !is_pointer(serialized(o, field))) return kNoObject;  // 0 with a ROFS entry: pool 0, offset 0
    ASSAY_TRY(std::uint64_t pos, at(o, field, 4, name));
    return target(serialized(o, field), v, pos, what(o, name), type);
  }

  // The object a pointer value at serialized `field` (file position `pos`) points at.
  Result<std::size_t> target(std::uint32_t field, std::uint32_t value, std::uint64_t pos, const std::string& w,
                             std::string_view type) const {
    if (!is_pointer(field)) return err(w, pos, fmt::format("0x{:08x} is not a pointer (no ROFS entry): the field is not where the 32-bit metadata puts it", value));
    const std::size_t t = g_.object_at(value);
    if (t == kNoObject) return err(w, pos, fmt::format("0x{:08x} points at no object", value));
    if (g_.objects[t].type_name != type)
      return err(w, pos, fmt::format("points at {}[{}], not an {}", g_.objects[t].type_name, t, type));
    return t;
  }

  // An igMemory {u32 size word, u32 pointer} (32-bit): the bytes it holds.
  Result<MemorySpan> memory(std::size_t o, std::uint32_t field, std::string_view name) const {
    ASSAY_TRY(std::uint32_t word, u32(o, field, name));
    ASSAY_TRY(std::uint32_t ptr, u32(o, field + 4, name));
    MemorySpan m;
    m.size = decode_memory_word(word, 4).size;
    if (ptr == 0 && m.size == 0) return m;
    ASSAY_TRY(std::uint64_t pos, at(o, field + 4, 4, name));
    if (!is_pointer(serialized(o, field + 4))) return err(what(o, name), pos, fmt::format("memory pointer 0x{:08x} has no ROFS entry", ptr));
    ASSAY_TRY(m.offset, resolve(f_, ptr, m.size, what(o, name)));
    return m;
  }

  // An igVector {u32 count, igMemory}: its count and its elements' bytes (count x elem bytes).
  Result<std::pair<std::uint32_t, MemorySpan>> vector(std::size_t o, std::uint32_t field, std::string_view name,
                                                      std::uint32_t elem) const {
    ASSAY_TRY(std::uint32_t count, u32(o, field, name));
    ASSAY_TRY(MemorySpan m, memory(o, field + 4, name));
    if (std::uint64_t{count} * elem > m.size) {
      ASSAY_TRY(std::uint64_t pos, at(o, field, 4, name));
      return err(what(o, name), pos, fmt::format("{} elements of {} bytes do not fit its {} bytes of memory", count, elem, m.size));
    }
    return std::pair{count, m};
  }

  // Element i of a vector of object references (`m` from vector()).
  Result<std::size_t> vector_ref(std::size_t o, const MemorySpan& m, std::uint32_t i, std::string_view name,
                                 std::string_view type) const {
    const std::uint64_t pos = m.offset + std::uint64_t{i} * 4;
    const std::string w = fmt::format("{}[{}]", what(o, name), i);
    ASSAY_TRY(std::uint32_t v, f_.reader().u32(pos, w));
    const std::uint32_t field = field_at(pos);
    if (v == 0 && !is_pointer(field)) return kNoObject;
    return target(field, v, pos, w, type);
  }

  // A memory handle field (RMHN -> TMHN {size word, data pointer}).
  Result<MemorySpan> handle(std::size_t o, std::uint32_t field, std::string_view name) const {
    ASSAY_TRY(std::uint64_t pos, at(o, field, 4, name));
    const auto& rmhn = fx_.list(tag::RMHN);
    if (std::find(rmhn.begin(), rmhn.end(), serialized(o, field)) == rmhn.end())
      return err(what(o, name), pos, "no memory handle (RMHN entry)");
    ASSAY_TRY(std::uint32_t index, f_.reader().u32(pos, what(o, name)));
    if (index >= fx_.memory_handles.size())
      return err(what(o, name), pos, fmt::format("TMHN index {} ≥ TMHN count {}", index, fx_.memory_handles.size()));
    const MemoryHandle& h = fx_.memory_handles[index];
    MemorySpan m;
    m.size = decode_memory_word(h.size_word, f_.header().pointer_size).size;
    if (h.data > 0xFFFFFFFFu) return err(what(o, name), pos, fmt::format("TMHN[{}] data pointer exceeds 32 bits", index));
    ASSAY_TRY(m.offset, resolve(f_, static_cast<std::uint32_t>(h.data), m.size, fmt::format("TMHN[{}] data", index)));
    return m;
  }

  // The external reference (REXT, RNEX, RHND) held by a field, or nullptr.
  [[nodiscard]] const ExternalRef* external(std::size_t o, std::uint32_t field) const {
    const std::uint32_t s = serialized(o, field);
    for (const ExternalRef& x : g_.externals)
      if (x.field == s) return &x;
    return nullptr;
  }

  [[nodiscard]] std::optional<std::string> name(std::size_t o) const {
    const std::uint32_t s = serialized(o, 0x08);  // igNamedObject::_name
    for (const StringRef& r : g_.strings)
      if (r.field == s && r.text) return std::string(*r.text);
    return std::nullopt;
  }

  [[nodiscard]] const Fixups& fixups() const { return fx_; }

 private:
  // The serialized offset of an absolute position inside the pool that holds it.
  [[nodiscard]] std::uint32_t field_at(std::uint64_t pos) const {
    for (std::size_t k = 0; k < f_.pool_count(); ++k) {
      const Section& p = f_.pool(k);
      if (p.usable && pos >= p.offset && pos - p.offset < p.length)
        return encode_pointer(f_.header().version, {static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(pos - p.offset)});
    }
    return 0;
  }

  const IgzFile& f_;
  const Fixups& fx_;
  const Graph& g_;
  std::vector<std::uint32_t> rofs_;
};

// "i16_cafe" -> 2: igIndexFormat::GetFormatName (igRewrite8 igIndexFormat.cs) spells the name
// "i8" | "i16" | "i32", "d" when dynamic, then "_" + the IG_GFX_PLATFORM name after
// "IG_GFX_PLATFORM_" unless DEFAULT, lower-cased; the EXID holds its FNV-1a.
std::optional<std::pair<std::string, unsigned>> index_format_for_hash(std::uint32_t hash) {
  static constexpr std::string_view kPlatforms[] = {"", "_dx", "_wii", "_durango", "_aspen", "_xenon", "_ps3",
                                                    "_osx", "_dx11", "_cafe", "_raspi", "_null", "_android",
                                                    "_metal", "_wgl", "_lgtv", "_ps4", "_linux"};
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
  ASSAY_TRY(vb.stride, r.u32(fmt_obj, 0x08, "_vertexSize"));
  ASSAY_TRY(MemorySpan m, r.memory(fmt_obj, 0x0C, "_elements"));
  const ByteReader rd = r.file().reader();
  for (std::uint64_t k = 0; k + kVertexElementSize <= m.size; k += kVertexElementSize) {
    ASSAY_TRY(ByteView b, rd.bytes(m.offset + k, kVertexElementSize, r.what(fmt_obj, "_elements")));
    const VertexElement e = parse_vertex_element(b, rd.endian());
    if (e.type == vertex_type::kUnused) break;  // the list's terminator
    vb.elements.push_back(e);
  }
  return {};
}

Result<VertexBufferInfo> read_vertex_buffer(const FieldReader& r, std::size_t gvb) {
  VertexBufferInfo vb;
  ASSAY_TRY(vb.object, r.ref(gvb, 0x0C, "_vertexBuffer", "igVertexBuffer"));
  if (vb.object == kNoObject) return err(r.what(gvb, "_vertexBuffer"), r.graph().objects[gvb].position, "no vertex buffer");
  ASSAY_TRY(vb.count, r.u32(vb.object, 0x08, "_vertexCount"));
  ASSAY_TRY(vb.data, r.handle(vb.object, 0x14, "_data"));
  ASSAY_TRY(vb.format_object, r.ref(vb.object, 0x18, "_format", "igVertexFormat"));
  ASSAY_TRY(vb.primitive_type, r.u32(vb.object, 0x1C, "_primitiveType"));
  if (vb.format_object == kNoObject) return err(r.what(vb.object, "_format"), r.graph().objects[vb.object].position, "no vertex format");
  ASSAY_CHECK(read_elements(r, vb.format_object, vb));
  return vb;
}

Result<IndexBufferInfo> read_index_buffer(const FieldReader& r, std::size_t gib) {
  IndexBufferInfo ib;
  ASSAY_TRY(ib.object, r.ref(gib, 0x0C, "_indexBuffer", "igIndexBuffer"));
  if (ib.object == kNoObject) return err(r.what(gib, "_indexBuffer"), r.graph().objects[gib].position, "no index buffer");
  ASSAY_TRY(ib.count, r.u32(ib.object, 0x08, "_indexCount"));
  ASSAY_TRY(ib.data, r.handle(ib.object, 0x14, "_data"));
  ASSAY_TRY(ib.primitive_type, r.u32(ib.object, 0x1C, "_primitiveType"));
  if (const ExternalRef* x = r.external(ib.object, 0x18)) {
    ib.format = x->name;
    const auto& ids = r.fixups().external_ids;
    if (x->kind == "exid" && x->index < ids.size() && ids[x->index].namespace_hash == kIndexFormatsNamespace)
      if (auto n = index_format_for_hash(ids[x->index].name_hash)) ib.format = n->first, ib.index_size = n->second;
  }
  return ib;
}

Result<DrawCall> read_draw_call(const FieldReader& r, std::size_t o) {
  DrawCall d;
  d.object = o;
  d.position = r.graph().objects[o].position;
  d.name = r.name(o);
  ASSAY_TRY(d.min, r.vec4(o, 0x10, "_min"));
  ASSAY_TRY(d.max, r.vec4(o, 0x20, "_max"));
  if (const ExternalRef* x = r.external(o, 0x30)) d.material = x->name;
  ASSAY_TRY(std::size_t gvb, r.ref(o, 0x34, "_graphicsVertexBuffer", "igGraphicsVertexBuffer"));
  ASSAY_TRY(std::size_t gib, r.ref(o, 0x38, "_graphicsIndexBuffer", "igGraphicsIndexBuffer"));
  ASSAY_TRY(std::uint32_t count, r.u32(o, 0x48, "_primitiveCount"));
  d.primitive_count = static_cast<std::int32_t>(count);
  ASSAY_TRY(d.properties, r.u32(o, 0x4C, "_propertiesBitField"));
  if (gvb == kNoObject) return err(r.what(o, "_graphicsVertexBuffer"), r.graph().objects[o].position, "no vertex buffer");
  ASSAY_TRY(d.vertices, read_vertex_buffer(r, gvb));
  if (gib != kNoObject) {
    ASSAY_TRY(d.indices, read_index_buffer(r, gib));
  }
  return d;
}

// igAnimatedTransform::_matrix: 16 floats, rows of a row-vector matrix (translation in the last
// row), which is glTF's column-major order read as it is.
Result<std::optional<model::Mat4>> read_transform(const FieldReader& r, std::size_t t) {
  if (t == kNoObject) return std::optional<model::Mat4>{};
  model::Mat4 m{};
  for (std::uint32_t i = 0; i < 4; ++i) {
    ASSAY_TRY(model::Vec4 row, r.vec4(t, 0x10 + 16 * i, "_matrix"));
    for (unsigned j = 0; j < 4; ++j) m[4 * i + j] = row[j];
  }
  return std::optional<model::Mat4>{m};
}

Result<void> read_model_data(const FieldReader& r, std::size_t o, Model& m) {
  ASSAY_TRY(m.min, r.vec4(o, 0x10, "_min"));
  ASSAY_TRY(m.max, r.vec4(o, 0x20, "_max"));
  ASSAY_TRY(auto transforms, r.vector(o, 0x30, "_transforms", 4));
  for (std::uint32_t i = 0; i < transforms.first; ++i) {
    ASSAY_TRY(std::size_t t, r.vector_ref(o, transforms.second, i, "_transforms", "igAnimatedTransform"));
    ASSAY_TRY(auto matrix, read_transform(r, t));
    m.transforms.push_back(matrix);
  }
  ASSAY_TRY(auto draws, r.vector(o, 0x48, "_drawCalls", 4));
  ASSAY_TRY(auto indices, r.vector(o, 0x54, "_drawCallTransformIndices", 4));
  for (std::uint32_t i = 0; i < draws.first; ++i) {
    ASSAY_TRY(std::size_t d, r.vector_ref(o, draws.second, i, "_drawCalls", "igModelDrawCallData"));
    if (d == kNoObject) continue;
    ASSAY_TRY(DrawCall dc, read_draw_call(r, d));
    if (i < indices.first) {
      const std::string w = fmt::format("{}[{}]", r.what(o, "_drawCallTransformIndices"), i);
      ASSAY_TRY(std::uint32_t t, r.file().reader().u32(indices.second.offset + std::uint64_t{i} * 4, w));
      if (t < m.transforms.size()) dc.transform = t;  // -1 (or no transforms at all): none
    }
    m.draws.push_back(std::move(dc));
  }
  return {};
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
  if (object >= g.objects.size()) return err("igModelInfo", kNoOffset, fmt::format("no object {}", object));
  const Object& o = g.objects[object];
  if (f.header().pointer_size != 4) {
    Error e = err(fmt::format("{}[{}]", o.type_name, object), o.position,
                  "models of 64-bit files are not read (their field offsets differ from the 32-bit metadata)");
    e.kind = ErrorKind::unsupported;
    return e;
  }
  const FieldReader r(f, fx, g);
  Model m;
  m.object = m.data_object = object;
  if (o.type_name == "igModelInfo") {
    ASSAY_TRY(m.data_object, r.ref(object, 0x14, "_modelData", "igModelData"));
    if (m.data_object == kNoObject) return err(r.what(object, "_modelData"), o.position, "no igModelData");
  } else if (o.type_name != "igModelData") {
    return err(r.what(object, ""), o.position, "is no igModelInfo or igModelData");
  }
  m.name = r.name(object).value_or(r.name(m.data_object).value_or(std::string(o.type_name)));
  ASSAY_CHECK(read_model_data(r, m.data_object, m));
  return m;
}

}  // namespace assay::igz
