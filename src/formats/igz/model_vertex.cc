// IG_VERTEX_TYPE values to numbers (igRewrite8 EV_SkylandersSuperchargers/metaenums.xml names the
// enum; the names are Direct3D 9's D3DDECLTYPE names, whose definitions are used where the peers
// agree or say nothing).
//
// Decoded: FLOAT1-4, INT/UINT 1, 2, 4 (and N: / 2^31-1, / 2^32-1), SHORT2/3/4 and USHORT2/3/4
// (and N: / 32767 clamped at -1, / 65535), BYTE3/BYTE3N (signed bytes in order), UBYTE4/UBYTE4N
// (a u32 in the file's byte order, x its low byte: igRewrite7 igVertexConversion.cs and the Noesis
// plugin fmt_alchemy_igz.py agree), UDEC3 / DEC3N (a u32, x bits 0-9, y 10-19, z 20-29; DEC3N
// 10-bit two's complement / 511 as D3DDECLTYPE_DEC3N; the Noesis plugin reads sign-magnitude
// instead: the two agree for non-negative values), HALF2/HALF4 (binary16), UBYTE4N_COLOR_RGBA and
// _ARGB (bytes in the order the name spells, / 255).
// Not decoded (the sources disagree or say nothing): the other colour types (D3DCOLOR, 565, 5551,
// 4444), BYTE4/BYTE4N, UBYTE4_X4, UBYTE4_ENDIAN, DEC3N_S11_11_10, the _OES and _EDGE variants.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "assay/formats/igz/model.h"
#include "diag_util.h"

namespace assay::igz {

namespace {

enum class Comp : std::uint8_t { none, f32, f16, i32, u32, i16, u16, i8, u8, dec3, udec3, u32bytes, rgba, argb };

struct TypeInfo {
  std::string_view name;
  Comp comp = Comp::none;
  std::uint8_t count = 0;    // components
  bool normalized = false;
};

// Index = IG_VERTEX_TYPE value (metaenums.xml, IG_VERTEX_TYPE_FLOAT1 = 0 .. IG_VERTEX_TYPE_MAX = 55).
constexpr TypeInfo kVertexTypes[] = {
    {"FLOAT1", Comp::f32, 1}, {"FLOAT2", Comp::f32, 2}, {"FLOAT3", Comp::f32, 3}, {"FLOAT4", Comp::f32, 4},
    {"UBYTE4N_COLOR"}, {"UBYTE4N_COLOR_ARGB", Comp::argb, 4, true}, {"UBYTE4N_COLOR_RGBA", Comp::rgba, 4, true},
    {"UNDEFINED_0"}, {"UBYTE2N_COLOR_5650"}, {"UBYTE2N_COLOR_5551"}, {"UBYTE2N_COLOR_4444"},
    {"INT1", Comp::i32, 1}, {"INT2", Comp::i32, 2}, {"INT4", Comp::i32, 4},
    {"UINT1", Comp::u32, 1}, {"UINT2", Comp::u32, 2}, {"UINT4", Comp::u32, 4},
    {"INT1N", Comp::i32, 1, true}, {"INT2N", Comp::i32, 2, true}, {"INT4N", Comp::i32, 4, true},
    {"UINT1N", Comp::u32, 1, true}, {"UINT2N", Comp::u32, 2, true}, {"UINT4N", Comp::u32, 4, true},
    {"UBYTE4", Comp::u32bytes, 4}, {"UBYTE4_X4"}, {"BYTE4"}, {"UBYTE4N", Comp::u32bytes, 4, true},
    {"UNDEFINED_1"}, {"BYTE4N"},
    {"SHORT2", Comp::i16, 2}, {"SHORT4", Comp::i16, 4}, {"USHORT2", Comp::u16, 2}, {"USHORT4", Comp::u16, 4},
    {"SHORT2N", Comp::i16, 2, true}, {"SHORT3N", Comp::i16, 3, true}, {"SHORT4N", Comp::i16, 4, true},
    {"USHORT2N", Comp::u16, 2, true}, {"USHORT3N", Comp::u16, 3, true}, {"USHORT4N", Comp::u16, 4, true},
    {"UDEC3", Comp::udec3, 3}, {"DEC3N", Comp::dec3, 3, true}, {"DEC3N_S11_11_10"},
    {"HALF2", Comp::f16, 2}, {"HALF4", Comp::f16, 4}, {"UNUSED"},
    {"BYTE3N", Comp::i8, 3, true}, {"SHORT3", Comp::i16, 3}, {"USHORT3", Comp::u16, 3},
    {"UBYTE4_ENDIAN"}, {"UBYTE4_COLOR"}, {"BYTE3", Comp::i8, 3}, {"UBYTE2N_COLOR_5650_RGB"},
    {"UDEC3_OES"}, {"DEC3N_OES"}, {"SHORT4N_EDGE"}, {"MAX"},
};
static_assert(std::size(kVertexTypes) == 56);

constexpr std::string_view kUsages[] = {"POSITION", "NORMAL", "TANGENT", "BINORMAL", "COLOR", "TEXCOORD",
                                        "BLENDWEIGHTS", "UNUSED_0", "BLENDINDICES", "FOGCOORD", "PSIZE"};

unsigned comp_size(Comp c) {
  switch (c) {
    case Comp::f32: case Comp::i32: case Comp::u32: return 4;
    case Comp::f16: case Comp::i16: case Comp::u16: return 2;
    case Comp::i8: case Comp::u8: case Comp::rgba: case Comp::argb: return 1;
    case Comp::dec3: case Comp::udec3: case Comp::u32bytes: return 0;  // packed in one u32
    case Comp::none: return 0;
  }
  return 0;
}

// A 10-bit two's-complement field / 511, clamped at -1 (D3DDECLTYPE_DEC3N).
float snorm10(std::uint32_t bits) {
  const int v = static_cast<int>(bits & 0x3FF) - ((bits & 0x200) != 0 ? 0x400 : 0);
  return std::max(-1.0f, static_cast<float>(v) / 511.0f);
}

float component(const TypeInfo& t, ByteView b, unsigned i, Endian e) {
  const std::uint8_t* p = b.data() + i * comp_size(t.comp);
  switch (t.comp) {
    case Comp::f32: return std::bit_cast<float>(load<std::uint32_t>(p, e));
    case Comp::f16: return half_to_float(load<std::uint16_t>(p, e));
    case Comp::i32: {
      const auto v = static_cast<double>(static_cast<std::int32_t>(load<std::uint32_t>(p, e)));
      return static_cast<float>(t.normalized ? std::max(-1.0, v / 2147483647.0) : v);
    }
    case Comp::u32: {
      const auto v = static_cast<double>(load<std::uint32_t>(p, e));
      return static_cast<float>(t.normalized ? v / 4294967295.0 : v);
    }
    case Comp::i16: {
      const auto v = static_cast<float>(static_cast<std::int16_t>(load<std::uint16_t>(p, e)));
      return t.normalized ? std::max(-1.0f, v / 32767.0f) : v;
    }
    case Comp::u16: {
      const auto v = static_cast<float>(load<std::uint16_t>(p, e));
      return t.normalized ? v / 65535.0f : v;
    }
    case Comp::i8: {
      const auto v = static_cast<float>(static_cast<std::int8_t>(*p));
      return t.normalized ? std::max(-1.0f, v / 127.0f) : v;
    }
    case Comp::u8: case Comp::rgba: return t.normalized ? *p / 255.0f : *p;
    case Comp::argb: return b[(i + 1) % 4] / 255.0f;  // bytes a, r, g, b -> r, g, b, a
    case Comp::u32bytes: {
      const float v = static_cast<float>((load<std::uint32_t>(b.data(), e) >> (8 * i)) & 0xFF);
      return t.normalized ? v / 255.0f : v;
    }
    case Comp::dec3: return snorm10(load<std::uint32_t>(b.data(), e) >> (10 * i));
    case Comp::udec3: return static_cast<float>((load<std::uint32_t>(b.data(), e) >> (10 * i)) & 0x3FF);
    case Comp::none: break;
  }
  return 0;
}

}  // namespace

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
  float v;
  if (exp == 0) v = std::ldexp(static_cast<float>(mant), -24);              // zero, subnormal
  else if (exp == 31) v = mant == 0 ? INFINITY : NAN;                        // infinity, NaN
  else v = std::ldexp(static_cast<float>(mant | 0x400), static_cast<int>(exp) - 25);
  return sign != 0 ? -v : v;
}

VertexElement parse_vertex_element(ByteView b, Endian e) {
  VertexElement v;
  v.type = b[0], v.stream = b[1], v.map_to_element = b[2], v.count = b[3];
  v.usage = b[4], v.usage_index = b[5], v.pack_data_offset = b[6], v.pack_type_and_frac_hint = b[7];
  v.offset = load<std::uint16_t>(b.data() + 8, e);
  v.freq = load<std::uint16_t>(b.data() + 10, e);
  return v;
}

std::string_view vertex_type_name(std::uint8_t type) {
  return type < std::size(kVertexTypes) ? kVertexTypes[type].name : std::string_view{};
}

std::string_view vertex_usage_name(std::uint8_t usage) {
  return usage < std::size(kUsages) ? kUsages[usage] : std::string_view{};
}

unsigned vertex_type_components(std::uint8_t type) {
  if (type >= std::size(kVertexTypes) || kVertexTypes[type].comp == Comp::none) return 0;
  return kVertexTypes[type].count;
}

unsigned vertex_type_size(std::uint8_t type) {
  if (type >= std::size(kVertexTypes)) return 0;
  const TypeInfo& t = kVertexTypes[type];
  if (t.comp == Comp::none) return 0;
  const unsigned c = comp_size(t.comp);
  return c == 0 ? 4 : c * t.count;
}

Result<model::Vec4> decode_vertex_value(std::uint8_t type, ByteView bytes, Endian endian) {
  const unsigned size = vertex_type_size(type);
  if (size == 0) {
    Error e = detail::err("igVertexElement", kNoOffset,
                          fmt::format("vertex type {} ({}) is not decoded", type,
                                      vertex_type_name(type).empty() ? "outside IG_VERTEX_TYPE" : vertex_type_name(type)));
    e.kind = ErrorKind::unsupported;
    return e;
  }
  if (bytes.size() < size)
    return detail::err("igVertexElement", kNoOffset, fmt::format("{} needs {} bytes, {} given", vertex_type_name(type), size, bytes.size()));
  const TypeInfo& t = kVertexTypes[type];
  model::Vec4 v{0, 0, 0, 1};
  for (unsigned i = 0; i < t.count; ++i) v[i] = component(t, bytes, i, endian);
  return v;
}

}  // namespace assay::igz
