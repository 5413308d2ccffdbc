// One texel of an igImage2 plain pixel format: the formats' channels (a table from igRewrite8
// igLibrary/Gfx/igGfx.cs pixelInfos, lInfo, xInfo and dsInfo bit counts) and their reading to RGBA.
//
// Channel order: a canonical name lists its channels from the texel word's lowest bits up
// ("r8g8b8a8": R in bits 0-7, so bytes R, G, B, A little-endian). Evidence: igRewrite8's
// igCauldron3 Conversion/TextureConversion.cs loads an r8g8b8a8 buffer as Rgba32 (bytes R, G, B,
// A). The 16-bit names follow the same rule (b5g6r5: B in bits 0-4, D3D9's R5G6B5). No sample
// holds an uncompressed image, so this rule is reported with every such texture (image.cc).
// "_big": the texel word is stored big-endian. "_tile" on PS3: the RSX swizzle (Morton order).
// Channels widen to 8 bits as round(v * 255 / (2^n - 1)); luminance fills R, G and B.
//
// Element formats (16/32 bits a channel; igCauldron3 Graphics/igOpenGLGraphicsDevice.cs uploads them
// with GL types UnsignedShort, Short, HalfFloat and Float, R first): unorm16 widened as above,
// snorm16 shown biased as (v + 1) / 2, IEEE half and single clamped to [0, 1] (NaN 0); missing
// channels G, B 0 and A 255 as Direct3D reads them. Depth formats read as luminance (GL depth
// components; d24s8 as GL_UNSIGNED_INT_24_8, depth in bits 8-31). Each format's "assumed" text says
// what its decoding assumes.
#include <algorithm>
#include <bit>
#include <cmath>
#include <map>

#include "assay/formats/igz/model.h"
#include "image_texels.h"

namespace assay::igz::detail {

namespace {

using Ch = PixelFormat::Channel;
using E = PixelFormat::Element;

// What the formats below assume (texel_assumption reports it instead of the generic rule).
#define ASSAY_IGZ_WORDS \
  "channels named from the texel word's lowest bits (bytes R, G, B, A for r8g8b8a8), \"_big\" words big-endian, PS3 \"_tile\" swizzled; "
#define ASSAY_IGZ_ELEMENTS                                                                                                  \
  "16/32-bit elements in the name's order (R first, as igCauldron3 uploads them to OpenGL), \"_big\" each element "        \
  "big-endian, PS3 \"_tile\" swizzled; missing channels G, B 0 and A 255 (as Direct3D reads them); "
#define ASSAY_IGZ_NO_SAMPLE "no sample has shown this format"
constexpr std::string_view kRgb4A3 = ASSAY_IGZ_WORDS
    "r4g4b4a3x1: R bits 0-3, G 4-7, B 8-11, A 12-14 (3 bits), bit 15 unused (igGfx.cs xInfo x1; the Wii's RGB5A3 "
    "uses it as its 5:5:5 mode flag, this name gives it none); " ASSAY_IGZ_NO_SAMPLE;
constexpr std::string_view kDepth = "depth as luminance (GL depth component, unsigned normalised), alpha 255; " ASSAY_IGZ_NO_SAMPLE;
constexpr std::string_view kDepth24 =
    "depth as luminance from bits 8-31 of the little-endian word, stencil (bits 0-7) dropped: GL_UNSIGNED_INT_24_8, as "
    "igCauldron3 uploads d24s8 (the name's lowest-bits-first rule would put depth in bits 0-23); " ASSAY_IGZ_NO_SAMPLE;
constexpr std::string_view kDepthFloat =
    "depth as luminance from an IEEE single, clamped to [0, 1] (NaN 0); " ASSAY_IGZ_NO_SAMPLE;
constexpr std::string_view kUnorm16 = ASSAY_IGZ_ELEMENTS "unsigned normalised 16 bits, v * 255 / 65535 rounded; " ASSAY_IGZ_NO_SAMPLE;
constexpr std::string_view kUnorm16x = ASSAY_IGZ_ELEMENTS
    "unsigned normalised 16 bits, v * 255 / 65535 rounded, the fourth element unused (igGfx.cs xInfo; its pixelInfos "
    "lists the format as \"r16g16b16x16_float\", its canonical name has no _float: read as unorm); " ASSAY_IGZ_NO_SAMPLE;
constexpr std::string_view kSnorm16 = ASSAY_IGZ_ELEMENTS
    "signed normalised 16 bits (-32768 and -32767 = -1, 32767 = 1; igCauldron3 uploads it as GL_RG16I), shown biased as "
    "(v + 1) / 2 * 255 rounded so that negative values keep their detail; " ASSAY_IGZ_NO_SAMPLE;
constexpr std::string_view kFloat = ASSAY_IGZ_ELEMENTS
    "IEEE half or single floats clamped to [0, 1] (below 0 and NaN give 0, above 1 give 255) then v * 255 rounded; "
    ASSAY_IGZ_NO_SAMPLE;
constexpr std::string_view kExpandFloat = ASSAY_IGZ_ELEMENTS
    "IEEE half floats as r16g16b16a16_float (igCauldron3 uploads both as GL_RGBA16F; what \"expand\" changes is not known), "
    "clamped to [0, 1] (below 0 and NaN give 0, above 1 give 255) then v * 255 rounded; " ASSAY_IGZ_NO_SAMPLE;
#undef ASSAY_IGZ_WORDS
#undef ASSAY_IGZ_ELEMENTS
#undef ASSAY_IGZ_NO_SAMPLE

PixelFormat pf(std::uint8_t bits, Ch r, Ch g, Ch b, Ch a, Ch l = {}, std::string_view assumed = {}) {
  return PixelFormat{bits, r, g, b, a, l, E::packed, {}, assumed};
}
PixelFormat el(std::uint8_t bits, E e, std::string_view channels, std::string_view assumed) {
  return PixelFormat{bits, {}, {}, {}, {}, {}, e, channels, assumed};
}

const std::map<std::string_view, PixelFormat>& pixel_formats() {
  static const std::map<std::string_view, PixelFormat> m = {
      {"r8g8b8a8", pf(32, {0, 8}, {8, 8}, {16, 8}, {24, 8})},
      {"r8g8b8a8_srgb", pf(32, {0, 8}, {8, 8}, {16, 8}, {24, 8})},
      {"b8g8r8a8", pf(32, {16, 8}, {8, 8}, {0, 8}, {24, 8})},
      {"r8g8b8x8", pf(32, {0, 8}, {8, 8}, {16, 8}, {})},
      {"r8g8b8x8_srgb", pf(32, {0, 8}, {8, 8}, {16, 8}, {})},
      {"b8g8r8x8", pf(32, {16, 8}, {8, 8}, {0, 8}, {})},
      {"r8g8b8", pf(24, {0, 8}, {8, 8}, {16, 8}, {})},
      {"r8g8b8_srgb", pf(24, {0, 8}, {8, 8}, {16, 8}, {})},
      {"b8g8r8", pf(24, {16, 8}, {8, 8}, {0, 8}, {})},
      {"r5g6b5", pf(16, {0, 5}, {5, 6}, {11, 5}, {})},
      {"b5g6r5", pf(16, {11, 5}, {5, 6}, {0, 5}, {})},
      {"r5g5b5a1", pf(16, {0, 5}, {5, 5}, {10, 5}, {15, 1})},
      {"b5g5r5a1", pf(16, {10, 5}, {5, 5}, {0, 5}, {15, 1})},
      {"r4g4b4a4", pf(16, {0, 4}, {4, 4}, {8, 4}, {12, 4})},
      {"r8g8", pf(16, {0, 8}, {8, 8}, {}, {})},
      {"a8", pf(8, {}, {}, {}, {0, 8})},
      {"l8", pf(8, {}, {}, {}, {}, {0, 8})},
      {"l8a8", pf(16, {}, {}, {}, {8, 8}, {0, 8})},
      {"l4a4", pf(8, {}, {}, {}, {4, 4}, {0, 4})},
      {"l16", pf(16, {}, {}, {}, {}, {0, 16})},
      // igGfx.cs pixelInfos / xInfo bit counts, named from the lowest bits as above.
      {"g8b8", pf(16, {}, {0, 8}, {8, 8}, {})},
      {"r4g4b4a3x1", pf(16, {0, 4}, {4, 4}, {8, 4}, {12, 3}, {}, kRgb4A3)},
      {"r6g6b6a6", pf(24, {0, 6}, {6, 6}, {12, 6}, {18, 6})},
      // Depth as luminance (stencil dropped): GL depth components (igCauldron3's GL table).
      {"d8", pf(8, {}, {}, {}, {}, {0, 8}, kDepth)},
      {"d16", pf(16, {}, {}, {}, {}, {0, 16}, kDepth)},
      {"d32", pf(32, {}, {}, {}, {}, {0, 32}, kDepth)},
      {"d24s8", pf(32, {}, {}, {}, {}, {8, 24}, kDepth24)},
      // Whole 16/32-bit elements (igCauldron3's GL types: UnsignedShort, Short, HalfFloat, Float).
      {"r16g16", el(32, E::unorm16, "rg", kUnorm16)},
      {"r16g16b16", el(48, E::unorm16, "rgb", kUnorm16)},
      {"r16g16b16a16", el(64, E::unorm16, "rgba", kUnorm16)},
      {"r16g16b16x16", el(64, E::unorm16, "rgbx", kUnorm16x)},
      {"r16g16_signed", el(32, E::snorm16, "rg", kSnorm16)},
      {"r16_float", el(16, E::half, "r", kFloat)},
      {"r16g16_float", el(32, E::half, "rg", kFloat)},
      {"r16g16b16a16_float", el(64, E::half, "rgba", kFloat)},
      {"r16g16b16a16_expand_float", el(64, E::half, "rgba", kExpandFloat)},
      {"r32_float", el(32, E::single, "r", kFloat)},
      {"r32g32_float", el(64, E::single, "rg", kFloat)},
      {"r32g32b32a32_float", el(128, E::single, "rgba", kFloat)},
      {"d32f", el(32, E::single, "l", kDepthFloat)},
  };
  return m;
}

std::uint32_t narrow(std::uint8_t v, unsigned bits) {
  const std::uint64_t max = (std::uint64_t{1} << bits) - 1;
  return static_cast<std::uint32_t>((v * max + 127) / 255);
}
std::uint32_t field(std::uint32_t word, Ch c) {
  return static_cast<std::uint32_t>((word >> c.shift) & ((std::uint64_t{1} << c.width) - 1));
}

std::uint32_t read_word(const std::uint8_t* p, unsigned bytes, bool big) {
  std::uint32_t v = 0;
  for (unsigned k = 0; k < bytes; ++k) v |= std::uint32_t{p[big ? bytes - 1 - k : k]} << (8 * k);
  return v;
}
void write_word(std::uint8_t* p, std::uint32_t v, unsigned bytes, bool big) {
  for (unsigned k = 0; k < bytes; ++k) p[big ? bytes - 1 - k : k] = static_cast<std::uint8_t>(v >> (8 * k));
}

// Luminance written from RGBA: the mean of R, G and B, rounded.
std::uint8_t luminance(const std::uint8_t* px) { return static_cast<std::uint8_t>((px[0] + px[1] + px[2] + 1) / 3); }

std::array<std::uint8_t, 4> unpack(const PixelFormat& f, std::uint32_t w) {
  if (f.l.width != 0) {
    const std::uint8_t l = widen(field(w, f.l), f.l.width);
    return {l, l, l, f.a.width ? widen(field(w, f.a), f.a.width) : std::uint8_t{255}};
  }
  const auto ch = [&](Ch c, std::uint8_t absent) { return c.width ? widen(field(w, c), c.width) : absent; };
  return {ch(f.r, 0), ch(f.g, 0), ch(f.b, 0), ch(f.a, 255)};
}

std::uint32_t pack(const PixelFormat& f, const std::uint8_t* p) {
  std::uint32_t w = 0;
  const auto put_ch = [&](Ch c, std::uint8_t v) {
    if (c.width) w |= narrow(v, c.width) << c.shift;
  };
  if (f.l.width != 0) put_ch(f.l, luminance(p));
  put_ch(f.r, p[0]), put_ch(f.g, p[1]), put_ch(f.b, p[2]), put_ch(f.a, p[3]);
  return w;
}

// ---- element formats (16/32-bit values) ----
unsigned element_bytes(E e) { return e == E::single ? 4 : 2; }

// A value in [0, 1] as 8 bits: below 0 and NaN 0, above 1 255.
std::uint8_t unit8(double v) {
  if (!(v > 0)) return 0;
  return v >= 1 ? 255 : static_cast<std::uint8_t>(std::lround(v * 255));
}

std::uint8_t element8(E e, std::uint32_t v) {
  switch (e) {
    case E::unorm16: return widen(v, 16);
    case E::snorm16: return unit8((std::max(static_cast<std::int16_t>(v) / 32767.0, -1.0) + 1) / 2);
    case E::half: return unit8(half_to_float(static_cast<std::uint16_t>(v)));
    case E::single: return unit8(std::bit_cast<float>(v));
    case E::packed: break;
  }
  return 0;
}

// IEEE binary16 of v / 255 (a normal number or zero; round to nearest).
std::uint16_t half_of8(std::uint8_t v) {
  if (v == 0) return 0;
  int exp = 0;
  const double m = std::frexp(v / 255.0, &exp);  // v / 255 = m * 2^exp, m in [0.5, 1)
  std::uint32_t mant = static_cast<std::uint32_t>(std::lround((m * 2 - 1) * 1024));
  std::uint32_t biased = static_cast<std::uint32_t>(exp - 1 + 15);
  if (mant == 1024) mant = 0, ++biased;
  return static_cast<std::uint16_t>(biased << 10 | mant);
}

std::uint32_t from8(E e, std::uint8_t v) {
  switch (e) {
    case E::unorm16: return narrow(v, 16);
    case E::snorm16: return static_cast<std::uint16_t>(static_cast<std::int16_t>(std::lround((v / 127.5 - 1) * 32767)));
    case E::half: return half_of8(v);
    case E::single: return std::bit_cast<std::uint32_t>(static_cast<float>(v / 255.0));
    case E::packed: break;
  }
  return 0;
}

std::array<std::uint8_t, 4> unpack_elements(const PixelFormat& f, const std::uint8_t* p, bool big) {
  std::array<std::uint8_t, 4> c = {0, 0, 0, 255};
  const unsigned n = element_bytes(f.element);
  for (std::size_t i = 0; i < f.channels.size(); ++i) {
    const std::uint8_t v = element8(f.element, read_word(p + i * n, n, big));
    switch (f.channels[i]) {
      case 'r': c[0] = v; break;
      case 'g': c[1] = v; break;
      case 'b': c[2] = v; break;
      case 'a': c[3] = v; break;
      case 'l': c[0] = c[1] = c[2] = v; break;
      default: break;  // 'x': unused
    }
  }
  return c;
}

void pack_elements(const PixelFormat& f, const std::uint8_t* px, std::uint8_t* out, bool big) {
  const unsigned n = element_bytes(f.element);
  for (std::size_t i = 0; i < f.channels.size(); ++i) {
    const char ch = f.channels[i];
    const std::uint8_t v = ch == 'l' ? luminance(px) : ch == 'r' ? px[0] : ch == 'g' ? px[1] : ch == 'b' ? px[2] : px[3];
    write_word(out + i * n, ch == 'x' ? 0 : from8(f.element, v), n, big);
  }
}

}  // namespace

std::uint8_t widen(std::uint32_t v, unsigned bits) {
  const std::uint64_t max = (std::uint64_t{1} << bits) - 1;
  return static_cast<std::uint8_t>((v * std::uint64_t{255} + max / 2) / max);
}

const PixelFormat* pixel_format(std::string_view canonical) {
  const auto& m = pixel_formats();
  const auto it = m.find(canonical);
  return it == m.end() ? nullptr : &it->second;
}

// One texel of a pixel format at `p`, and its inverse.
std::array<std::uint8_t, 4> read_texel(const PixelFormat& f, const std::uint8_t* p, bool big) {
  if (f.element != E::packed) return unpack_elements(f, p, big);
  return unpack(f, read_word(p, f.bits / 8, big));
}
void write_texel(const PixelFormat& f, const std::uint8_t* px, std::uint8_t* out, bool big) {
  if (f.element != E::packed) return pack_elements(f, px, out, big);
  write_word(out, pack(f, px), f.bits / 8, big);
}

}  // namespace assay::igz::detail
