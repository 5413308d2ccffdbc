// An igz holding PS3 EDGE geometry, written by our own writer in the 32-bit big-endian layout of
// zap.pak's models (version 9 here, zap.pak's are 7; platform 6 = PS3): igObjectList root -> igGeometry (_bound igAABox
// 0x0C, _attributes igAttrList 0x24) -> igEdgeGeometryAttr (_geometry 0x10) -> igPS3EdgeGeometry
// (an igObjectList) -> one igPS3EdgeGeometrySegment with its igMemory fields (src/formats/igz/
// model_edge.cc gives the offsets). A unit quad of 4 vertices in 2 triangles, (0, 1, 2) and
// (2, 1, 3), facing +z. The fixture of edge_test.cc and the igz_edge fuzz corpus.
#pragma once

#include <bit>
#include <vector>

#include "assay/formats/igz/writer.h"
#include "model_fixture.h"

namespace assay::igz::fixtures {

struct EdgeSpec {
  std::uint8_t input_format = 0;
  std::uint8_t flavours = 0x30;  // indexes flavour 3 (compressed), skinning flavour 0
  // Header {0 unique, base 0, 1 byte of 1-bit stream, 0 bits}, 1-bit stream 0x00 (four sequential
  // new indexes 0..3), 2-bit stream 11 01 00 00: triangle 0 takes three new (0, 1, 2), triangle 1
  // keeps corners 2 and 1 and adds 3.
  ByteBuffer indexes = {0, 0, 0, 0, 0, 1, 0, 0, 0x00, 0xD0};
  std::uint16_t index_count = 6;
  model::Vec3 box_min{0, 0, 0}, box_max{1, 1, 0};
  // Skinned (flavour 1): an igBlendMatrixSelect above the igGeometry with the palette {1, 0}, an
  // igSkeleton2 of bones "root" (no blend matrix), "a" (child of root, blend matrix 0, inverse
  // joint identity) and "b" (child of a, blend matrix 1, inverse joint a translation by (0, -1, 0):
  // its bind pose at y = 1). Vertex weights {weight, palette index}: v0 (255, 1) -> bone a;
  // v1 (128, 0), (127, 1) -> b 128/255, a 127/255; v2 and v3 (255, 0) -> b.
  bool skinned = false;
};

// igMemory {size word, pointer} at `field` over `bytes` placed in `pool`.
inline void put_memory(Writer& w, std::uint32_t pool, std::uint32_t field, const ByteBuffer& bytes) {
  const auto size = static_cast<std::uint32_t>(bytes.size());
  const std::uint32_t data = w.alloc(pool, (size + 15) & ~15u, 16);
  put_bytes(w, data, bytes);
  w.put_u32(field, static_cast<std::uint32_t>(w.memory_word(size)));
  w.set_pointer(field + 4, data);
}

inline std::uint32_t put_int_list(Writer& w, std::uint32_t pool, std::uint32_t type, const std::vector<std::uint32_t>& values) {
  const std::uint32_t list = w.add_object(pool, type);
  const auto n = static_cast<std::uint32_t>(values.size());
  const std::uint32_t data = w.alloc(pool, n * 4, 4);
  for (std::uint32_t i = 0; i < n; ++i) w.put_u32(data + 4 * i, values[i]);
  w.set_data_list(list, n, data, 4);
  return list;
}

inline void put_skeleton(Writer& w, std::uint32_t def) {
  const std::uint32_t skel_t = w.add_type("igSkeleton2", 0x18), bones_t = w.add_type("igSkeletonBoneList", w.data_list_size());
  const std::uint32_t bone_t = w.add_type("igSkeletonBone", 0x20);
  const std::uint32_t skel = w.add_object(def, skel_t);
  std::vector<std::uint32_t> bones;
  const struct { const char* name; std::int32_t parent, blend; } spec[] = {{"root", -1, -1}, {"a", 0, 0}, {"b", 1, 1}};
  for (const auto& b : spec) {
    const std::uint32_t bone = w.add_object(def, bone_t);
    w.set_string(bone + 0x08, b.name);
    w.put_u32(bone + 0x0C, static_cast<std::uint32_t>(b.parent));
    w.put_u32(bone + 0x10, static_cast<std::uint32_t>(b.blend));
    bones.push_back(bone);
  }
  w.set_pointer(skel + 0x0C, w.add_object_list(def, bones_t, bones));
  ByteBuffer inv;
  const float m[2][16] = {{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1}};
  for (const auto& mat : m)
    for (float x : mat) {
      std::uint8_t q[4];
      store<std::uint32_t>(q, std::bit_cast<std::uint32_t>(x), Endian::big);
      inv.insert(inv.end(), q, q + 4);
    }
  put_memory(w, def, skel + 0x10, inv);
}

inline ByteBuffer edge_positions() { return float3_bytes({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}, Endian::big); }

// 16 bytes a vertex: NORMAL X11Y11Z10N (0, 0, 1): z = 511 << 22 = 0x7FC00000; TANGENT X11Y11Z10N
// (1, 0, 0): x = 0x3FF; UV0 two F16 (1.0 = 0x3C00); COLOR four U8N.
inline ByteBuffer edge_rsx_vertexes() {
  ByteBuffer b;
  const std::uint16_t uv[4][2] = {{0, 0}, {0x3C00, 0}, {0, 0x3C00}, {0x3C00, 0x3C00}};
  for (unsigned i = 0; i < 4; ++i) {
    std::uint8_t v[16] = {0x7F, 0xC0, 0, 0, 0, 0, 0x03, 0xFF, 0, 0, 0, 0, static_cast<std::uint8_t>(64 * i), 0x80, 0xFF, 0xFF};
    store<std::uint16_t>(v + 8, uv[i][0], Endian::big);
    store<std::uint16_t>(v + 10, uv[i][1], Endian::big);
    b.insert(b.end(), v, v + 16);
  }
  return b;
}

// count 4, stride 16, then {offset, format, count, attribute id, size, slot, fixed, pad}:
// NORMAL (2) X11Y11Z10N (6), TANGENT (3) X11Y11Z10N, UV0 (5) F16 (3) x2, COLOR (9) U8N (4) x4.
inline ByteBuffer edge_stream_desc() {
  return {4, 16, 0, 0, 0, 0, 0, 0, 0, 6, 1, 2, 4, 0, 0, 0, 4, 6, 1, 3, 4, 1, 0, 0, 8, 3, 2, 5, 4, 2, 0, 0, 12, 4, 4, 9, 4, 3, 0, 0};
}

inline Result<ByteBuffer> build_edge_igz(const EdgeSpec& s) {
  Writer w(Layout{9, Endian::big, 6});
  const std::uint32_t list_t = w.add_type("igObjectList", w.data_list_size());
  const std::uint32_t geo_t = w.add_type("igGeometry", 0x2C), box_t = w.add_type("igAABox", 0x20);
  const std::uint32_t attrs_t = w.add_type("igAttrList", w.data_list_size()), attr_t = w.add_type("igEdgeGeometryAttr", 0x14);
  const std::uint32_t edge_t = w.add_type("igPS3EdgeGeometry", w.data_list_size());
  const std::uint32_t seg_t = w.add_type("igPS3EdgeGeometrySegment", 0xB0);
  const std::uint32_t def = w.add_pool("Default", 16), vtx = w.add_pool("Vertex", 16);

  const std::uint32_t root = w.add_object(def, list_t);  // first, at Default + 0, as in the samples
  const std::uint32_t seg = w.add_object(def, seg_t);
  const std::uint8_t flavours = s.skinned ? (s.flavours & 0xF0) | 1 : s.flavours;
  ByteBuffer config = {0x81, 0x08, s.input_format, 0x00, 0x00, 0xFF, flavours, 0x00, 0, 4, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF};
  store<std::uint16_t>(config.data() + 10, s.index_count, Endian::big);
  put_memory(w, def, seg + 0x08, config);
  put_memory(w, def, seg + 0x10, s.indexes);
  put_memory(w, def, seg + 0x1C, edge_positions());
  put_memory(w, vtx, seg + 0x38, edge_rsx_vertexes());
  put_memory(w, def, seg + 0x78, edge_stream_desc());
  if (s.skinned) put_memory(w, def, seg + 0x50, {255, 1, 0, 0, 0, 0, 0, 0, 128, 0, 127, 1, 0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0});
  const std::uint32_t edge = w.add_object_list(def, edge_t, {seg});
  const std::uint32_t attr = w.add_object(def, attr_t);
  w.set_pointer(attr + 0x10, edge);
  const std::uint32_t attrs = w.add_object_list(def, attrs_t, {attr});
  const std::uint32_t box = w.add_object(def, box_t);
  for (unsigned k = 0; k < 3; ++k) {
    w.put_u32(box + 0x08 + 4 * k, std::bit_cast<std::uint32_t>(s.box_min[k]));
    w.put_u32(box + 0x14 + 4 * k, std::bit_cast<std::uint32_t>(s.box_max[k]));
  }
  const std::uint32_t geo = w.add_object(def, geo_t);
  w.set_pointer(geo + 0x0C, box);
  w.set_pointer(geo + 0x24, attrs);
  std::uint32_t top = geo;
  if (s.skinned) {
    const std::uint32_t select = w.add_object(def, w.add_type("igBlendMatrixSelect", 0xC0));
    w.set_pointer(select + 0x20, w.add_object_list(def, w.add_type("igNodeList", w.data_list_size()), {geo}));
    w.set_pointer(select + 0xB4, put_int_list(w, def, w.add_type("igIntList", w.data_list_size()), {1, 0}));
    put_skeleton(w, def);
    top = select;
  }
  const std::uint32_t elements = w.alloc(def, 4, 4);
  w.set_pointer(elements, top);
  w.set_data_list(root, 1, elements, 4);
  w.set_root(root);
  return w.finish();
}

}  // namespace assay::igz::fixtures
