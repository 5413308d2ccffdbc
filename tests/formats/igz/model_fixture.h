// An igz holding one model, written by our own writer in the 32-bit layout of the Wii U sample
// igModelTool_model.igz (version 9, platform 9 = cafe; igModelInfo -> igModelData -> one
// igModelDrawCallData -> igGraphicsVertexBuffer -> igVertexBuffer -> igVertexFormat, and
// igGraphicsIndexBuffer -> igIndexBuffer with its _format an EXID "indexformats"::"i16_cafe"; the
// vertex and index bytes in a Vertex pool behind memory handles). Field offsets as the metadata
// gives them (see src/formats/igz/model_read.cc). The fixture of model_test.cc and the fuzz corpus of
// igz_model.
#pragma once

#include <bit>
#include <optional>
#include <string>
#include <vector>

#include "assay/core/hash.h"
#include "assay/formats/igz/model.h"
#include "assay/formats/igz/writer.h"

namespace assay::igz::fixtures {

struct ModelSpec {
  Endian endian = Endian::big;
  std::uint32_t stride = 12;
  std::uint32_t vertex_count = 3;
  std::vector<VertexElement> elements;  // the UNUSED terminator is added
  ByteBuffer vertex_bytes;              // as stored, in the file's byte order
  std::optional<std::vector<std::uint16_t>> indices;  // nullopt: no index buffer
  std::string index_format = "i16_cafe";
  std::uint32_t primitive_type = 3;     // IG_GFX_DRAW_TRIANGLES
  model::Vec4 min{}, max{};             // the draw call's _min, _max
  model::Vec4 model_min{}, model_max{};
  std::int32_t primitive_count = 1;
  std::uint32_t properties = 0x4052;    // IG_INDEX_TYPE_INT16, IG_GFX_DRAW_TRIANGLES, lod 1, enabled
  std::optional<model::Mat4> transform; // an igAnimatedTransform for the draw call
};

// Raw bytes at a serialized offset, 4 at a time (the writer stores u32s in the file's byte order).
inline void put_bytes(Writer& w, std::uint32_t at, const ByteBuffer& b) {
  for (std::size_t i = 0; i < b.size(); i += 4) {
    std::uint8_t q[4] = {};
    for (std::size_t k = 0; k < 4 && i + k < b.size(); ++k) q[k] = b[i + k];
    w.put_u32(at + static_cast<std::uint32_t>(i), load<std::uint32_t>(q, w.layout().endian));
  }
}

inline ByteBuffer element_bytes(const VertexElement& e, Endian endian) {
  ByteBuffer b = {e.type, e.stream, e.map_to_element, e.count, e.usage, e.usage_index, e.pack_data_offset,
                  e.pack_type_and_frac_hint, 0, 0, 0, 0};
  store<std::uint16_t>(b.data() + 8, e.offset, endian);
  store<std::uint16_t>(b.data() + 10, e.freq, endian);
  return b;
}

inline void put_vec4(Writer& w, std::uint32_t at, const model::Vec4& v) {
  for (unsigned k = 0; k < 4; ++k) w.put_u32(at + 4 * k, std::bit_cast<std::uint32_t>(v[k]));
}

// igVector {u32 count, igMemory {size word, pointer}} of 4-byte values at `at`.
inline void put_vector(Writer& w, std::uint32_t pool, std::uint32_t at, const std::vector<std::uint32_t>& values,
                       bool pointers) {
  const auto n = static_cast<std::uint32_t>(values.size());
  w.put_u32(at, n);
  w.put_u32(at + 4, static_cast<std::uint32_t>(w.memory_word(n * 4u)));
  if (n == 0) return;
  const std::uint32_t data = w.alloc(pool, n * 4, 4);
  for (std::uint32_t i = 0; i < n; ++i) pointers ? w.set_pointer(data + 4 * i, values[i]) : w.put_u32(data + 4 * i, values[i]);
  w.set_pointer(at + 8, data);
}

inline std::uint32_t put_vertex_format(Writer& w, std::uint32_t pool, std::uint32_t type, const ModelSpec& s) {
  const std::uint32_t vf = w.add_object(pool, type);
  w.put_u32(vf + 0x08, s.stride);
  std::vector<VertexElement> els = s.elements;
  els.push_back(VertexElement{.type = vertex_type::kUnused});
  ByteBuffer bytes;
  for (const VertexElement& e : els) {
    const ByteBuffer b = element_bytes(e, s.endian);
    bytes.insert(bytes.end(), b.begin(), b.end());
  }
  const auto size = static_cast<std::uint32_t>(bytes.size());
  const std::uint32_t data = w.alloc(pool, size, 4);
  put_bytes(w, data, bytes);
  w.put_u32(vf + 0x0C, static_cast<std::uint32_t>(w.memory_word(size)));
  w.set_pointer(vf + 0x10, data);
  return vf;
}

// Bytes in the Vertex pool behind a TMHN memory handle set on `field`.
inline void put_handle_data(Writer& w, std::uint32_t vertex_pool, std::uint32_t field, const ByteBuffer& bytes) {
  const auto size = static_cast<std::uint32_t>(bytes.size());
  const std::uint32_t data = w.alloc(vertex_pool, (size + 15) & ~15u, 16);
  put_bytes(w, data, bytes);
  w.set_memory_handle(field, w.add_memory_handle(w.memory_word(size), data));
}

inline Result<ByteBuffer> build_model_igz(const ModelSpec& s) {
  Writer w(Layout{9, s.endian, 9});
  const std::uint32_t list_t = w.add_type("igObjectList", w.data_list_size());
  const std::uint32_t info_t = w.add_type("igModelInfo", 0x18), data_t = w.add_type("igModelData", 0x80);
  const std::uint32_t draw_t = w.add_type("igModelDrawCallData", 0x70);
  const std::uint32_t gvb_t = w.add_type("igGraphicsVertexBuffer", 0x18), vb_t = w.add_type("igVertexBuffer", 0x30);
  const std::uint32_t vf_t = w.add_type("igVertexFormat", 0x48);
  const std::uint32_t gib_t = w.add_type("igGraphicsIndexBuffer", 0x14), ib_t = w.add_type("igIndexBuffer", 0x2C);
  const std::uint32_t xf_t = w.add_type("igAnimatedTransform", 0x60);
  const std::uint32_t def = w.add_pool("Default", 16), vtx = w.add_pool("Vertex", 16);

  const std::uint32_t root = w.add_object(def, list_t);  // first, at Default + 0, as in the sample
  const std::uint32_t info = w.add_object(def, info_t), md = w.add_object(def, data_t), draw = w.add_object(def, draw_t);
  w.set_string(info + 0x08, "fixture_model");
  w.set_pointer(info + 0x14, md);
  put_vec4(w, md + 0x10, s.model_min);
  put_vec4(w, md + 0x20, s.model_max);
  std::vector<std::uint32_t> transforms;
  if (s.transform) {
    const std::uint32_t xf = w.add_object(def, xf_t);
    for (unsigned k = 0; k < 16; ++k) w.put_u32(xf + 0x10 + 4 * k, std::bit_cast<std::uint32_t>((*s.transform)[k]));
    transforms.push_back(xf);
  }
  put_vector(w, def, md + 0x30, transforms, true);
  put_vector(w, def, md + 0x48, {draw}, true);
  put_vector(w, def, md + 0x54, {s.transform ? 0u : 0xFFFFFFFFu}, false);

  w.set_string(draw + 0x08, "fixture_draw");
  put_vec4(w, draw + 0x10, s.min);
  put_vec4(w, draw + 0x20, s.max);
  const std::uint32_t gvb = w.add_object(def, gvb_t), vb = w.add_object(def, vb_t);
  w.set_pointer(draw + 0x34, gvb);
  w.put_u32(draw + 0x48, static_cast<std::uint32_t>(s.primitive_count));
  w.put_u32(draw + 0x4C, s.properties);
  w.set_pointer(gvb + 0x0C, vb);
  w.put_u32(vb + 0x08, s.vertex_count);
  put_handle_data(w, vtx, vb + 0x14, s.vertex_bytes);
  w.set_pointer(vb + 0x18, put_vertex_format(w, def, vf_t, s));
  w.put_u32(vb + 0x1C, s.primitive_type);
  if (s.indices) {
    const std::uint32_t gib = w.add_object(def, gib_t), ib = w.add_object(def, ib_t);
    w.set_pointer(draw + 0x38, gib);
    w.set_pointer(gib + 0x0C, ib);
    w.put_u32(ib + 0x08, static_cast<std::uint32_t>(s.indices->size()));
    ByteBuffer idx(s.indices->size() * 2);
    for (std::size_t i = 0; i < s.indices->size(); ++i) store<std::uint16_t>(idx.data() + 2 * i, (*s.indices)[i], s.endian);
    put_handle_data(w, vtx, ib + 0x14, idx);
    w.set_external(ib + 0x18, w.add_external_id(fnv1a32(s.index_format, true), fnv1a32("indexformats", true)));
    w.put_u32(ib + 0x1C, s.primitive_type);
  }
  const std::uint32_t elements = w.alloc(def, 4, 4);
  w.set_pointer(elements, info);
  w.set_data_list(root, 1, elements, 4);
  w.set_root(root);
  return w.finish();
}

// FLOAT3 positions (12 bytes a vertex) in the given byte order.
inline ByteBuffer float3_bytes(const std::vector<model::Vec3>& ps, Endian endian) {
  ByteBuffer b(ps.size() * 12);
  for (std::size_t i = 0; i < ps.size(); ++i)
    for (unsigned k = 0; k < 3; ++k) store<std::uint32_t>(b.data() + 12 * i + 4 * k, std::bit_cast<std::uint32_t>(ps[i][k]), endian);
  return b;
}

// One triangle (0, 1, 2) of FLOAT3 positions whose stored bounds and count are right.
inline ModelSpec triangle_spec(Endian endian) {
  ModelSpec s;
  s.endian = endian;
  s.elements = {VertexElement{.type = vertex_type::kFloat3, .usage = vertex_usage::kPosition}};
  s.vertex_bytes = float3_bytes({{1, 2, 3}, {-4, 5, 6}, {7, -8, 0.5f}}, endian);
  s.indices = std::vector<std::uint16_t>{0, 1, 2};
  s.min = {-4, -8, 0.5f, 0}, s.max = {7, 5, 6, 1};
  s.model_min = s.min, s.model_max = s.max;
  return s;
}

}  // namespace assay::igz::fixtures
