// Hand-made PC native geometry (issue 26 item 3): one clump, one atomic, one native geometry
// (flag 0x01000000) whose Native Data PLG (0x510) holds D3D8 (platform 8) or D3D9 (platform 9)
// data, every body byte written here from librw's layouts (src/d3d/d3d8.cpp and d3d9.cpp
// readNativeData), not by assay's writer. The section headers come from rw::writer's
// section()/container().
//
// The model, worked out by hand: two materials, two meshes of four vertices each.
//   mesh 0 (material 0): vertex v = 0..3 at (v % 2, v / 2, 0), UV (0.5 (v % 2), 0.25 (v / 2)),
//     normal (0, 0, 1), prelit RGBA (10v + 3, 10v + 2, 10v + 1, 200 + v);
//   mesh 1 (material 1): vertex v = 0..3 at (2 + v % 2, v / 2, 1), UV (0.75, 0.125 v),
//     normal (1, 0, 0), prelit RGBA (100 + v, 110 + v, 120 + v, 255).
// D3D8: mesh 0 a triangle list 0 1 2 / 2 1 3, mesh 1 a strip 0 1 2 3 (-> 0 1 2, 1 3 2), each
// mesh with its own vertex buffer (FVF 0x152 = XYZ | NORMAL | DIFFUSE | TEX1, stride 36).
// D3D9: a strip geometry; mesh 0 indices 0 1 2 3 3 3 (-> 0 1 2, 1 3 2; the two repeated-corner
// triangles are skipped), mesh 1 indices 0 1 2 3 relative to minVert 4; one vertex buffer of 8
// vertices in stream 0 {POSITION float3 @0, COLOR D3DCOLOR @12, TEXCOORD0 float2 @16, NORMAL
// float3 @24} (librw's order, stride 36), a second UV set in stream 1 {TEXCOORD1 float2 @0}
// holding (1 - u, 1 - v), and one stream-2 element (librw's constant-colour fallback, ignored).
// Either way: 8 vertices and 4 triangles (position triples below).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/formats/renderware/section.h"
#include "assay/formats/renderware/writer.h"

namespace assay::rw::d3d_native_fixture {

inline constexpr std::uint32_t kStamp = 0x1803FFFF;  // RW 3.6.0.3
inline constexpr std::uint32_t kNative = 0x01000000, kPositions = 0x02, kTextured = 0x04, kPrelit = 0x08,
                               kNormals = 0x10, kTextured2 = 0x80;

struct Vertex {
  std::array<float, 3> position, normal;
  std::array<float, 2> uv;
  std::array<std::uint8_t, 4> rgba;
};

inline Vertex vertex(int mesh, int v) {
  if (mesh == 0)
    return {{float(v % 2), float(v / 2), 0.0f},
            {0, 0, 1},
            {0.5f * float(v % 2), 0.25f * float(v / 2)},
            {std::uint8_t(10 * v + 3), std::uint8_t(10 * v + 2), std::uint8_t(10 * v + 1), std::uint8_t(200 + v)}};
  return {{2.0f + float(v % 2), float(v / 2), 1.0f},
          {1, 0, 0},
          {0.75f, 0.125f * float(v)},
          {std::uint8_t(100 + v), std::uint8_t(110 + v), std::uint8_t(120 + v), 255}};
}

// The expected triangles as (mesh, v0, v1, v2) with their material = mesh: mesh 0 is a list
// in the D3D8 fixture (0 1 2, 2 1 3) and a strip in the D3D9 one (0 1 2, 1 3 2: the same
// triangle, started at another corner).
inline std::vector<std::array<int, 4>> expected_triangles(bool d3d9) {
  if (d3d9) return {{0, 0, 1, 2}, {0, 1, 3, 2}, {1, 0, 1, 2}, {1, 1, 3, 2}};
  return {{0, 0, 1, 2}, {0, 2, 1, 3}, {1, 0, 1, 2}, {1, 1, 3, 2}};
}

// One vertex in librw's D3D8 order: position, normal, D3DCOLOR (B, G, R, A), UV.
inline void put_d3d8_vertex(ByteWriter& w, const Vertex& x) {
  for (float f : x.position) w.f32(f);
  for (float f : x.normal) w.f32(f);
  w.u8(x.rgba[2]), w.u8(x.rgba[1]), w.u8(x.rgba[0]), w.u8(x.rgba[3]);
  w.f32(x.uv[0]), w.f32(x.uv[1]);
}

// The D3D8 Native Data body. `spacing`: 43 (librw's packed records) or 44 (the in-memory
// record size librw's writer reserves).
inline ByteBuffer d3d8_native_body(std::uint32_t spacing = 43) {
  struct M {
    std::uint32_t prim;
    std::vector<std::uint16_t> idx;
  };
  const std::array<M, 2> meshes{M{4, {0, 1, 2, 2, 1, 3}}, M{5, {0, 1, 2, 3}}};
  ByteWriter w;
  w.u32(id::kStruct), w.u32(0), w.u32(kStamp);  // Struct header; its size is ignored (R17), patched below
  w.u32(8);                                     // platform: D3D8
  const std::uint32_t size = 4 + 44 * 2;
  w.u32(size);
  ByteWriter h;
  h.u16(7), h.u16(2);  // serial, meshes
  for (std::uint32_t i = 0; i < 2; ++i) {
    h.u32(4 * i);                                 // minVert
    h.u32(36);                                    // stride
    h.u32(4);                                     // vertices
    h.u32(static_cast<std::uint32_t>(meshes[i].idx.size()));
    h.u32(i);                                     // material
    h.u32(0x152);                                 // FVF: XYZ | NORMAL | DIFFUSE | TEX1
    h.u32(meshes[i].prim);                        // 4 list, 5 strip
    h.u32(0), h.u32(0), h.u32(0);                 // index buffer, vertex buffer, baseIndex
    h.u8(1), h.u8(1), h.u8(0);                    // vertexAlpha, managed, remapped
    for (std::uint32_t k = 43; k < spacing; ++k) h.u8(0xCD);
  }
  while (h.buffer().size() < size) h.u8(0);
  w.bytes(h.buffer());
  for (std::uint32_t i = 0; i < 2; ++i) {
    for (std::uint16_t x : meshes[i].idx) w.u16(x);
    for (int v = 0; v < 4; ++v) put_d3d8_vertex(w, vertex(static_cast<int>(i), v));
  }
  ByteBuffer b = w.take();
  const auto inner = static_cast<std::uint32_t>(b.size() - 12);
  for (int k = 0; k < 4; ++k) b[4 + k] = static_cast<std::uint8_t>(inner >> (8 * k));
  return b;
}

// Byte offsets in the D3D9 body of the first vertex element and of the index data.
inline constexpr std::uint32_t kD3d9Header = 16 + 4 + 64 + 2 * 36;  // 156: the element count
inline constexpr std::uint32_t kD3d9Elements = kD3d9Header + 4;       // 160: element 0

inline void put_element(ByteWriter& w, std::uint16_t stream, std::uint16_t offset, std::uint8_t type,
                        std::uint8_t usage, std::uint8_t index) {
  w.u16(stream), w.u16(offset), w.u8(type), w.u8(0), w.u8(usage), w.u8(index);
}

// The half floats the packed layout needs, worked out by hand (sign, 5-bit exponent biased by
// 15, 10-bit fraction): 1 = 0x3C00, 2 = 0x4000, 3 = 0x4200, 0.5 = 0x3800, 0.25 = 0x3400,
// 0.75 = 0x3A00, 0.125 = 0x3000, 0.375 = 0x3600.
inline std::uint16_t half_of(float f) {
  const std::array<std::pair<float, std::uint16_t>, 9> k{{{0.0f, 0x0000}, {1.0f, 0x3C00}, {2.0f, 0x4000}, {3.0f, 0x4200},
                                                          {0.5f, 0x3800}, {0.25f, 0x3400}, {0.75f, 0x3A00},
                                                          {0.125f, 0x3000}, {0.375f, 0x3600}}};
  for (const auto& [x, h] : k)
    if (x == f) return h;
  return 0x7E00;  // NaN: not a value of the model
}

// DEC3N of a unit axis (x, y, z in bits 0-9, 10-19, 20-29; 511 = 1.0).
inline std::uint32_t dec3n_of(const std::array<float, 3>& n) {
  return (n[0] == 1 ? 0x1FFu : 0u) | (n[1] == 1 ? 0x1FFu << 10 : 0u) | (n[2] == 1 ? 0x1FFu << 20 : 0u);
}

// `packed`: stream 0 is {POSITION FLOAT16_4 @0, COLOR UBYTE4N @8 (R, G, B, A), TEXCOORD0
// FLOAT16_2 @12, NORMAL DEC3N @16} (stride 20) instead of librw's float layout; same model.
inline ByteBuffer d3d9_native_body(bool packed = false) {
  const std::vector<std::uint16_t> idx{0, 1, 2, 3, 3, 3, 0, 1, 2, 3};
  ByteWriter w;
  w.u32(id::kStruct), w.u32(0), w.u32(kStamp);
  w.u32(9);  // platform: D3D9
  w.u32(64 + 2 * 36);
  w.u32(7), w.u32(2), w.u32(0), w.u32(5);  // serial, meshes, index buffer, primitive: strip
  for (int k = 0; k < 8; ++k) w.u32(0);    // the streams (repeated below)
  w.u32(0), w.u32(0);                      // useOffsets, declaration
  w.u32(static_cast<std::uint32_t>(idx.size())), w.u32(8);  // total indices, total vertices
  // numIndex, minVert, material, vertexAlpha, vertexShader, baseIndex, numVertices, startIndex, numPrimitives
  w.u32(6), w.u32(0), w.u32(0), w.u32(1), w.u32(0), w.u32(0), w.u32(4), w.u32(0), w.u32(4);
  w.u32(4), w.u32(4), w.u32(1), w.u32(0), w.u32(0), w.u32(4), w.u32(4), w.u32(6), w.u32(2);
  w.u32(7);  // elements, the end marker counted
  if (packed) {
    put_element(w, 0, 0, 16, 0, 0);   // POSITION FLOAT16_4
    put_element(w, 0, 8, 8, 10, 0);   // COLOR UBYTE4N
    put_element(w, 0, 12, 15, 5, 0);  // TEXCOORD0 FLOAT16_2
    put_element(w, 0, 16, 14, 3, 0);  // NORMAL DEC3N
  } else {
    put_element(w, 0, 0, 2, 0, 0);    // POSITION FLOAT3
    put_element(w, 0, 12, 4, 10, 0);  // COLOR D3DCOLOR
    put_element(w, 0, 16, 1, 5, 0);   // TEXCOORD0 FLOAT2
    put_element(w, 0, 24, 2, 3, 0);   // NORMAL FLOAT3
  }
  put_element(w, 1, 0, 1, 5, 1);    // TEXCOORD1 FLOAT2 (stream 1)
  put_element(w, 2, 0, 4, 10, 1);   // librw's constant-buffer stream: no vertex data
  put_element(w, 0xFF, 0, 17, 0, 0);  // D3DDECL_END
  for (std::uint16_t x : idx) w.u16(x);
  w.u32(0xBADEAFFE), w.u32(0), w.u32(packed ? 20 : 36), w.u16(0x1E), w.u8(1), w.u8(0);  // stream 0
  for (int i = 0; i < 8; ++i) {
    const Vertex x = vertex(i / 4, i % 4);
    if (packed) {
      for (float f : x.position) w.u16(half_of(f));
      w.u16(half_of(1.0f));
      for (std::uint8_t c : x.rgba) w.u8(c);
      w.u16(half_of(x.uv[0])), w.u16(half_of(x.uv[1]));
      w.u32(dec3n_of(x.normal));
      continue;
    }
    for (float f : x.position) w.f32(f);
    w.u8(x.rgba[2]), w.u8(x.rgba[1]), w.u8(x.rgba[0]), w.u8(x.rgba[3]);
    w.f32(x.uv[0]), w.f32(x.uv[1]);
    for (float f : x.normal) w.f32(f);
  }
  w.u32(0xBADEAFFE), w.u32(0), w.u32(8), w.u16(0x20), w.u8(1), w.u8(0);  // stream 1
  for (int i = 0; i < 8; ++i) {
    const Vertex x = vertex(i / 4, i % 4);
    w.f32(1 - x.uv[0]), w.f32(1 - x.uv[1]);
  }
  ByteBuffer b = w.take();
  const auto inner = static_cast<std::uint32_t>(b.size() - 12);
  for (int k = 0; k < 4; ++k) b[4 + k] = static_cast<std::uint8_t>(inner >> (8 * k));
  return b;
}

// A clump around a native geometry: Struct {1 atomic}, one identity frame, the geometry
// (Struct {flags, 4 triangles, 8 vertices, 1 morph target} + bounding sphere, no arrays;
// two untextured materials; Extension {Bin Mesh header and entries, Native Data, `extra`}), one
// atomic.
inline ByteBuffer native_clump(ByteView native_body, std::uint32_t flags, bool tristrip,
                               std::vector<ByteBuffer> extra = {}) {
  using writer::container;
  using writer::section;
  const std::uint32_t s = kStamp;
  ByteWriter cs;
  cs.u32(1), cs.u32(0), cs.u32(0);
  ByteWriter fs;
  fs.u32(1);
  for (int k = 0; k < 9; ++k) fs.f32(k % 4 == 0 ? 1.0f : 0.0f);
  fs.f32(0), fs.f32(0), fs.f32(0), fs.u32(0xFFFFFFFFu), fs.u32(0);
  ByteWriter gs;
  gs.u32(flags), gs.u32(4), gs.u32(8), gs.u32(1);
  gs.f32(1.5f), gs.f32(0.5f), gs.f32(0.5f), gs.f32(2.0f), gs.u32(0), gs.u32(0);  // sphere, no arrays
  ByteWriter ml;
  ml.u32(2), ml.u32(0xFFFFFFFFu), ml.u32(0xFFFFFFFFu);
  std::vector<ByteBuffer> mats{section(id::kStruct, ml.buffer(), s)};
  for (std::uint32_t m = 0; m < 2; ++m) {
    ByteWriter mat;
    mat.u32(0), mat.u8(m ? 0 : 255), mat.u8(m ? 255 : 0), mat.u8(0), mat.u8(255), mat.u32(0), mat.u32(0);
    mat.f32(1), mat.f32(1), mat.f32(1);
    mats.push_back(container(id::kMaterial, {section(id::kStruct, mat.buffer(), s), container(id::kExtension, {}, s)}, s));
  }
  ByteWriter bin;  // native Bin Mesh: header and entries, no indices
  bin.u32(tristrip ? 1 : 0), bin.u32(2), bin.u32(10), bin.u32(6), bin.u32(0), bin.u32(4), bin.u32(1);
  std::vector<ByteBuffer> ext{section(id::kBinMesh, bin.buffer(), s), section(id::kNativeData, native_body, s)};
  for (auto& e : extra) ext.push_back(std::move(e));
  const ByteBuffer geometry = container(
      id::kGeometry,
      {section(id::kStruct, gs.buffer(), s), container(id::kMaterialList, mats, s), container(id::kExtension, ext, s)}, s);
  ByteWriter gl;
  gl.u32(1);
  ByteWriter as;
  as.u32(0), as.u32(0), as.u32(5), as.u32(0);
  return container(id::kClump,
                   {section(id::kStruct, cs.buffer(), s),
                    container(id::kFrameList, {section(id::kStruct, fs.buffer(), s), container(id::kExtension, {}, s)}, s),
                    container(id::kGeometryList, {section(id::kStruct, gl.buffer(), s), geometry}, s),
                    container(id::kAtomic, {section(id::kStruct, as.buffer(), s), container(id::kExtension, {}, s)}, s),
                    container(id::kExtension, {}, s)},
                   s);
}

inline constexpr std::uint32_t kD3d8Flags = kNative | kPositions | kTextured | kPrelit | kNormals;
inline constexpr std::uint32_t kD3d9Flags = kNative | kPositions | kTextured2 | kPrelit | kNormals;

inline ByteBuffer d3d8_clump(std::uint32_t spacing = 43) {
  const ByteBuffer body = d3d8_native_body(spacing);
  return native_clump(body, kD3d8Flags, false);
}
inline ByteBuffer d3d9_clump(bool packed = false) {
  const ByteBuffer body = d3d9_native_body(packed);
  return native_clump(body, kD3d9Flags, true);
}

}  // namespace assay::rw::d3d_native_fixture
