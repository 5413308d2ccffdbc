// Internal: what the PC native geometry decoders (D3D8 platform 8, native_d3d8.cc; D3D9
// platform 9, native_d3d9.cc) share: vertex elements in Direct3D 9's terms (a D3D8 FVF code is
// turned into the same list), reading one vertex into a Corner, and indices to triangles.
// Direct3D facts (public SDK headers): D3DVERTEXELEMENT9 is {u16 stream, u16 offset, u8 type,
// u8 method, u8 usage, u8 usageIndex}; D3DDECLTYPE 0-16 (17 = unused, ends a declaration with
// stream 0xFF); D3DDECLUSAGE 0-13; D3DPRIMITIVETYPE 4 = triangle list, 5 = triangle strip.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "native_geometry.h"

namespace assay::rw::native {

struct D3dElement {
  std::uint16_t stream = 0, offset = 0;
  std::uint8_t type = 0, method = 0, usage = 0, usage_index = 0;
};

enum : std::uint8_t {
  kDeclFloat1 = 0, kDeclFloat2 = 1, kDeclFloat3 = 2, kDeclFloat4 = 3, kDeclD3dColor = 4, kDeclUbyte4 = 5,
  kDeclFloat16x4 = 16, kDeclUnused = 17,
};
enum : std::uint8_t {
  kUsagePosition = 0, kUsageBlendWeight = 1, kUsageBlendIndices = 2, kUsageNormal = 3, kUsageTexcoord = 5,
  kUsageColor = 10, kUsageLast = 13,
};
constexpr std::uint32_t kPrimTriangleList = 4, kPrimTriangleStrip = 5;

// Bytes of one value of a D3DDECLTYPE; 0 for an unknown type or D3DDECLTYPE_UNUSED.
std::uint32_t d3d_type_size(std::uint8_t type);

// Where the attributes assay keeps sit in a vertex (stream and offset): from a declaration,
// only elements on streams 0 and 1 (librw's writer adds stream-2 fallbacks for the constant
// colour and UV its shaders expect; they carry no vertex data).
struct D3dLayout {
  std::optional<D3dElement> position, normal, color;
  std::array<std::optional<D3dElement>, 2> uv;
  std::uint32_t uv_sets = 0;  // consecutive TEXCOORD 0, 1... present
};

// One decoded vertex. `streams[k]` points at the vertex's bytes in stream k (null when absent).
Corner d3d_corner(const D3dLayout& l, const std::array<const std::uint8_t*, 2>& streams);

// The triangles of one mesh's indices (already corner numbers): a list takes them three at a
// time, a strip alternates its winding; triangles with a repeated corner are skipped (strip
// joins), as librw's generateTriangles does.
void d3d_triangles(const std::vector<std::uint16_t>& idx, bool strip, std::uint16_t material, ModelGeometry& g);

// The texture sets the geometry flags declare (bits 16-23, else Textured / Textured2).
std::uint32_t flag_uv_sets(std::uint32_t flags);

}  // namespace assay::rw::native
