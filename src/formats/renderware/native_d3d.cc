// Vertex elements and triangles shared by the D3D8 and D3D9 native geometry decoders
// (native_d3d.h). Type sizes and encodings are Direct3D 9's D3DDECLTYPE (public SDK facts);
// librw (src/d3d/d3d9.cpp vertFormatMap) reads positions, normals and UVs as floats and colours
// as D3DCOLOR (bytes B, G, R, A in memory).
#include "native_d3d.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace assay::rw::native {

namespace {

float f32(const std::uint8_t* p) { return std::bit_cast<float>(load<std::uint32_t>(p, Endian::little)); }
std::uint16_t u16(const std::uint8_t* p) { return load<std::uint16_t>(p, Endian::little); }
std::uint32_t u32(const std::uint8_t* p) { return load<std::uint32_t>(p, Endian::little); }

float half(std::uint16_t h) {
  const int e = (h >> 10) & 0x1F, m = h & 0x3FF;
  const float s = (h & 0x8000) ? -1.0f : 1.0f;
  if (e == 0) return s * std::ldexp(static_cast<float>(m), -24);
  if (e == 31) return m ? std::nanf("") : s * INFINITY;
  return s * std::ldexp(static_cast<float>(m | 0x400), e - 25);
}

// Up to four components of one value, as floats (normalised types scaled to [0,1] / [-1,1]).
std::array<float, 4> components(std::uint8_t type, const std::uint8_t* p) {
  std::array<float, 4> v{0, 0, 0, 1};
  auto s16 = [&](int k) { return static_cast<float>(static_cast<std::int16_t>(u16(p + 2 * k))); };
  switch (type) {
    case 0: case 1: case 2: case 3:  // FLOAT1..FLOAT4
      for (int k = 0; k <= type; ++k) v[k] = f32(p + 4 * k);
      break;
    case 4:  // D3DCOLOR: B, G, R, A
      v = {p[2] / 255.0f, p[1] / 255.0f, p[0] / 255.0f, p[3] / 255.0f};
      break;
    case 5:  // UBYTE4
      for (int k = 0; k < 4; ++k) v[k] = p[k];
      break;
    case 6: case 7:  // SHORT2, SHORT4
      for (int k = 0; k < (type == 6 ? 2 : 4); ++k) v[k] = s16(k);
      break;
    case 8:  // UBYTE4N
      for (int k = 0; k < 4; ++k) v[k] = p[k] / 255.0f;
      break;
    case 9: case 10:  // SHORT2N, SHORT4N
      for (int k = 0; k < (type == 9 ? 2 : 4); ++k) v[k] = std::max(s16(k) / 32767.0f, -1.0f);
      break;
    case 11: case 12:  // USHORT2N, USHORT4N
      for (int k = 0; k < (type == 11 ? 2 : 4); ++k) v[k] = u16(p + 2 * k) / 65535.0f;
      break;
    case 13: case 14: {  // UDEC3, DEC3N: 10:10:10 in the low 30 bits
      const std::uint32_t w = u32(p);
      for (int k = 0; k < 3; ++k) {
        const std::uint32_t f = (w >> (10 * k)) & 0x3FF;
        v[k] = type == 13 ? static_cast<float>(f)
                          : std::max(static_cast<float>(static_cast<std::int32_t>((f ^ 0x200u) - 0x200u)) / 511.0f, -1.0f);
      }
      break;
    }
    case 15: case 16:  // FLOAT16_2, FLOAT16_4
      for (int k = 0; k < (type == 15 ? 2 : 4); ++k) v[k] = half(u16(p + 2 * k));
      break;
    default:
      break;
  }
  return v;
}

std::uint8_t unit_byte(float f) {
  if (!(f > 0)) return 0;
  if (f >= 1) return 255;
  return static_cast<std::uint8_t>(std::lround(f * 255.0f));
}

}  // namespace

std::uint32_t d3d_type_size(std::uint8_t type) {
  static constexpr std::array<std::uint8_t, 17> kSizes{4, 8, 12, 16, 4, 4, 4, 8, 4, 4, 8, 4, 8, 4, 4, 4, 8};
  return type < kSizes.size() ? kSizes[type] : 0;
}

Corner d3d_corner(const D3dLayout& l, const std::array<const std::uint8_t*, 2>& streams) {
  Corner c;
  auto at = [&](const D3dElement& e) { return streams[e.stream] + e.offset; };
  const auto p = components(l.position->type, at(*l.position));
  c.position = {p[0], p[1], p[2]};
  if (l.normal) {
    const auto n = components(l.normal->type, at(*l.normal));
    c.normal = {n[0], n[1], n[2]};
  }
  if (l.color) {
    if (l.color->type == kDeclUbyte4) {  // raw bytes R, G, B, A
      const std::uint8_t* b = at(*l.color);
      c.color = {b[0], b[1], b[2], b[3]};
    } else {
      const auto k = components(l.color->type, at(*l.color));
      c.color = {unit_byte(k[0]), unit_byte(k[1]), unit_byte(k[2]), unit_byte(k[3])};
    }
  }
  for (std::uint32_t s = 0; s < l.uv_sets && s < 2; ++s) {
    const auto t = components(l.uv[s]->type, at(*l.uv[s]));
    c.uv[s] = {t[0], t[1]};
  }
  return c;
}

void d3d_triangles(const std::vector<std::uint16_t>& idx, bool strip, std::uint16_t material, ModelGeometry& g) {
  for (std::size_t k = 0; k + 2 < idx.size(); k += strip ? 1 : 3) {
    const std::size_t odd = strip ? k % 2 : 0;
    const std::array<std::uint16_t, 3> v{idx[k], idx[k + 1 + odd], idx[k + 2 - odd]};
    if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2]) continue;
    g.triangles.push_back({v, material});
  }
}

std::uint32_t flag_uv_sets(std::uint32_t flags) {
  const std::uint32_t sets = (flags >> 16) & 0xFF;
  if (sets != 0) return sets;
  return (flags & 0x80) ? 2 : (flags & 0x04) ? 1 : 0;
}

}  // namespace assay::rw::native
