// igImage2 texels other than PS3/PC DXT: plain pixel formats (linear, big-endian words, PS3
// swizzle), the Wii GX tiled formats, and blocks or pixels in a console GPU tiling (Xbox 360,
// Switch, Wii U: image/tiling.h untiles a level to rows first, and tiles the encoded rows back).
//
// Channel order: a canonical name lists its channels from the texel word's lowest bits up
// ("r8g8b8a8": R in bits 0-7, so bytes R, G, B, A little-endian). Evidence: igRewrite8's
// igCauldron3 Conversion/TextureConversion.cs loads an r8g8b8a8 buffer as Rgba32 (bytes R, G, B,
// A). The 16-bit names follow the same rule (b5g6r5: B in bits 0-4, D3D9's R5G6B5). No sample
// holds an uncompressed image, so this rule is reported with every such texture (image.cc).
// "_big": the texel word is stored big-endian. "_tile" on PS3: the RSX swizzle (Morton order).
// Channels widen to 8 bits as round(v * 255 / (2^n - 1)); luminance fills R, G and B.
//
// Wii (GX texture formats; tile sizes as igRewrite8 igGfx.cs tileInfo lists them, except l4:
// GX's I4 tile is 8 x 8, igGfx.cs says 4 x 4): tiles row by row, texels row by row inside a tile;
// I4 two texels a byte (high nibble first), I8, IA4 (alpha in the high nibble), IA8 (alpha byte
// first), RGB565 and RGB5A3 big-endian words, RGBA8 as 32 bytes of AR pairs then 32 of GB pairs
// per 4 x 4 tile, CMPR as four DXT1 sub-blocks (top-left, top-right, bottom-left, bottom-right)
// with big-endian colours and the leftmost texel in the index byte's top bits. Luminance ("l")
// formats give alpha 255.
#include "image_texels.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <map>

#include "assay/formats/igz/model.h"
#include "assay/image/encode.h"
#include "diag_util.h"

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

std::uint8_t widen(std::uint32_t v, unsigned bits) {
  const std::uint64_t max = (std::uint64_t{1} << bits) - 1;
  return static_cast<std::uint8_t>((v * std::uint64_t{255} + max / 2) / max);
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

void put(image::Rgba& img, std::uint32_t x, std::uint32_t y, std::array<std::uint8_t, 4> c) {
  if (x >= img.width || y >= img.height) return;  // tile padding
  std::uint8_t* p = img.pixels.data() + (std::uint64_t{y} * img.width + x) * 4;
  p[0] = c[0], p[1] = c[1], p[2] = c[2], p[3] = c[3];
}

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
  if (f.l.width != 0) put_ch(f.l, static_cast<std::uint8_t>((p[0] + p[1] + p[2] + 1) / 3));
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
  std::uint32_t mant = static_cast<std::uint32_t>(std::lround((m * 2 - 1) * 1024)), biased = static_cast<std::uint32_t>(exp - 1 + 15);
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
    const std::uint8_t v = ch == 'l' ? static_cast<std::uint8_t>((px[0] + px[1] + px[2] + 1) / 3)
                           : ch == 'r' ? px[0] : ch == 'g' ? px[1] : ch == 'b' ? px[2] : px[3];
    write_word(out + i * n, ch == 'x' ? 0 : from8(f.element, v), n, big);
  }
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

Error unsupported(std::string why) {
  Error e = err("igImage2", kNoOffset, std::move(why));
  e.kind = ErrorKind::unsupported;
  e.code = "igz.image-format";
  return e;
}

bool pow2(std::uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

std::uint32_t block_bytes(image::BlockFormat f) { return f == image::BlockFormat::bc1 || f == image::BlockFormat::bc4 ? 8 : 16; }

// Xbox 360 "_big" blocks: each 16-bit word's two bytes swapped (its 8-in-16 endian mode).
void swap_words16(ByteBuffer& b) {
  for (std::size_t i = 0; i + 1 < b.size(); i += 2) std::swap(b[i], b[i + 1]);
}

// ---- Wii ----
struct WiiTile {
  std::uint8_t w, h, bits;
};
WiiTile wii_tile(WiiFormat f) {
  switch (f) {
    case WiiFormat::i4:
    case WiiFormat::cmpr: return {8, 8, 4};
    case WiiFormat::i8:
    case WiiFormat::ia4: return {8, 4, 8};
    case WiiFormat::ia8:
    case WiiFormat::rgb565:
    case WiiFormat::rgb5a3: return {4, 4, 16};
    case WiiFormat::rgba8: return {4, 4, 32};
  }
  return {4, 4, 32};
}

std::array<std::uint8_t, 4> rgb5a3(std::uint16_t v) {
  if (v & 0x8000) return {widen(v >> 10 & 31, 5), widen(v >> 5 & 31, 5), widen(v & 31, 5), 255};
  return {widen(v >> 8 & 15, 4), widen(v >> 4 & 15, 4), widen(v & 15, 4), widen(v >> 12 & 7, 3)};
}

// One tile's texel k (row by row) of a non-CMPR format.
std::array<std::uint8_t, 4> wii_texel(WiiFormat f, const std::uint8_t* t, unsigned k) {
  switch (f) {
    case WiiFormat::i4: {
      const std::uint8_t n = (k & 1) ? t[k / 2] & 15 : t[k / 2] >> 4;
      const std::uint8_t i = widen(n, 4);
      return {i, i, i, 255};
    }
    case WiiFormat::i8: return {t[k], t[k], t[k], 255};
    case WiiFormat::ia4: {
      const std::uint8_t i = widen(t[k] & 15, 4);
      return {i, i, i, widen(t[k] >> 4, 4)};
    }
    case WiiFormat::ia8: return {t[2 * k + 1], t[2 * k + 1], t[2 * k + 1], t[2 * k]};
    case WiiFormat::rgb565: {
      const std::uint16_t v = static_cast<std::uint16_t>(t[2 * k] << 8 | t[2 * k + 1]);
      return {widen(v >> 11, 5), widen(v >> 5 & 63, 6), widen(v & 31, 5), 255};
    }
    case WiiFormat::rgb5a3: return rgb5a3(static_cast<std::uint16_t>(t[2 * k] << 8 | t[2 * k + 1]));
    case WiiFormat::rgba8: return {t[2 * k + 1], t[32 + 2 * k], t[32 + 2 * k + 1], t[2 * k]};
    case WiiFormat::cmpr: break;
  }
  return {0, 0, 0, 0};
}

// CMPR: each 8-byte sub-block rewritten as a little-endian DXT1 block in a row-ordered block
// array, then decoded as BC1.
Result<image::Rgba> decode_cmpr(ByteView src, std::uint32_t w, std::uint32_t h) {
  const std::uint32_t tiles_x = (w + 7) / 8, tiles_y = (h + 7) / 8, bw = tiles_x * 2;
  ByteBuffer dxt(std::uint64_t{tiles_x} * tiles_y * 4 * 8);
  for (std::uint64_t t = 0; t < std::uint64_t{tiles_x} * tiles_y; ++t)
    for (unsigned s = 0; s < 4; ++s) {
      const std::uint8_t* in = src.data() + (t * 4 + s) * 8;
      const std::uint64_t bx = (t % tiles_x) * 2 + (s & 1), by = (t / tiles_x) * 2 + (s >> 1);
      std::uint8_t* out = dxt.data() + (by * bw + bx) * 8;
      out[0] = in[1], out[1] = in[0], out[2] = in[3], out[3] = in[2];
      for (unsigned r = 0; r < 4; ++r) {
        const std::uint8_t b = in[4 + r];
        out[4 + r] = static_cast<std::uint8_t>((b >> 6) | ((b >> 2) & 0x0C) | ((b << 2) & 0x30) | (b << 6));
      }
    }
  ASSAY_TRY(image::Rgba full, image::decode_blocks(image::BlockFormat::bc1, dxt, tiles_x * 8, tiles_y * 8));
  image::Rgba img{w, h, ByteBuffer(std::uint64_t{w} * h * 4)};
  for (std::uint32_t y = 0; y < h; ++y)
    std::copy_n(full.pixels.data() + std::uint64_t{y} * full.width * 4, std::uint64_t{w} * 4,
                img.pixels.data() + std::uint64_t{y} * w * 4);
  return img;
}

Result<image::Rgba> decode_wii(WiiFormat f, ByteView src, std::uint32_t w, std::uint32_t h) {
  if (f == WiiFormat::cmpr) return decode_cmpr(src, w, h);
  const WiiTile t = wii_tile(f);
  const std::uint32_t tiles_x = (w + t.w - 1) / t.w, tiles_y = (h + t.h - 1) / t.h;
  const unsigned tile_bytes = t.w * t.h * t.bits / 8;
  image::Rgba img{w, h, ByteBuffer(std::uint64_t{w} * h * 4)};
  for (std::uint64_t i = 0; i < std::uint64_t{tiles_x} * tiles_y; ++i) {
    const std::uint8_t* tile = src.data() + i * tile_bytes;
    const std::uint32_t x0 = static_cast<std::uint32_t>(i % tiles_x) * t.w, y0 = static_cast<std::uint32_t>(i / tiles_x) * t.h;
    for (unsigned k = 0; k < unsigned{t.w} * t.h; ++k) put(img, x0 + k % t.w, y0 + k / t.w, wii_texel(f, tile, k));
  }
  return img;
}

}  // namespace

const PixelFormat* pixel_format(std::string_view canonical) {
  const auto& m = pixel_formats();
  const auto it = m.find(canonical);
  return it == m.end() ? nullptr : &it->second;
}

std::uint64_t morton_index(std::uint32_t x, std::uint32_t y, std::uint32_t w, std::uint32_t h) {
  std::uint64_t out = 0;
  unsigned bit = 0;
  for (std::uint64_t m = 1; m < w || m < h; m <<= 1) {
    if (m < w) out |= std::uint64_t{(x & m) != 0} << bit++;
    if (m < h) out |= std::uint64_t{(y & m) != 0} << bit++;
  }
  return out;
}

bool tiled_surface(const TexelLayout& t, std::uint32_t w, std::uint32_t h, image::TiledSurface& out) {
  const bool blocks = t.kind == TexelLayout::Kind::blocks;
  if (t.tiling == TexelLayout::Tiling::none || (!blocks && t.kind != TexelLayout::Kind::pixels)) return false;
  const std::uint32_t unit = blocks ? block_bytes(t.block) : t.pixel->bits / 8u;
  if (!image::tiling_unit_ok(unit)) return false;
  out = {};
  out.width = blocks ? (w + 3) / 4 : w, out.height = blocks ? (h + 3) / 4 : h, out.unit_bytes = unit;
  switch (t.tiling) {
    case TexelLayout::Tiling::xenon: out.tiling = image::Tiling::xenon; break;
    case TexelLayout::Tiling::tegra: {
      out.tiling = image::Tiling::tegra;
      const std::uint32_t h0 = blocks ? (t.height0 + 3) / 4 : t.height0;
      out.block_height = image::tegra_mip_block_height(out.height, image::tegra_block_height(h0));
      break;
    }
    case TexelLayout::Tiling::gx2: out.tiling = image::gx2_tile_mode(out.width, out.height, unit * 8); break;
    case TexelLayout::Tiling::none: return false;
  }
  return true;
}

bool texel_level_size(const TexelLayout& t, std::uint32_t w, std::uint32_t h, std::uint64_t& out) {
  if (t.tiling != TexelLayout::Tiling::none) {
    image::TiledSurface s;
    return tiled_surface(t, w, h, s) && image::tiled_size(s, out);
  }
  switch (t.kind) {
    case TexelLayout::Kind::blocks: return image::block_level_size(t.block, w, h, out);
    case TexelLayout::Kind::pixels: out = std::uint64_t{w} * h * (t.pixel->bits / 8); return true;
    case TexelLayout::Kind::etc: out = etc_level_size(t.etc, w, h); return true;
    case TexelLayout::Kind::wii: {
      const WiiTile tile = wii_tile(t.wii);
      const std::uint64_t tiles = std::uint64_t{(w + tile.w - 1) / tile.w} * ((h + tile.h - 1) / tile.h);
      out = tiles * tile.w * tile.h * tile.bits / 8;
      return true;
    }
  }
  return false;
}

Result<image::Rgba> decode_texels(const TexelLayout& t, ByteView src, std::uint32_t w, std::uint32_t h) {
  std::uint64_t need = 0;
  if (!texel_level_size(t, w, h, need) || src.size() < need)
    return err("igImage2", kNoOffset, fmt::format("a {} x {} level needs {} bytes, {} given", w, h, need, src.size()));
  if (t.tiling != TexelLayout::Tiling::none || t.swap16) {  // to rows of plain units first
    ByteBuffer rows;
    if (t.tiling != TexelLayout::Tiling::none) {
      image::TiledSurface s;
      if (!tiled_surface(t, w, h, s)) return unsupported(fmt::format("{}-bit texels are not tiled", t.pixel->bits));
      ASSAY_TRY(rows, image::untile(s, src));
    } else {
      rows.assign(src.begin(), src.begin() + static_cast<std::ptrdiff_t>(need));
    }
    if (t.swap16) swap_words16(rows);
    TexelLayout plain = t;
    plain.tiling = TexelLayout::Tiling::none, plain.swap16 = false;
    return decode_texels(plain, rows, w, h);
  }
  if (t.kind == TexelLayout::Kind::blocks) return image::decode_blocks(t.block, src, w, h);
  if (t.kind == TexelLayout::Kind::wii) return decode_wii(t.wii, src, w, h);
  if (t.kind == TexelLayout::Kind::etc) return decode_etc(t.etc, src, w, h);
  if (t.morton && (!pow2(w) || !pow2(h)))
    return unsupported(fmt::format("a swizzled {} x {} level: its sides are not powers of two", w, h));
  const PixelFormat& f = *t.pixel;
  const unsigned bytes = f.bits / 8;
  image::Rgba img{w, h, ByteBuffer(std::uint64_t{w} * h * 4)};
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) {
      const std::uint64_t i = t.morton ? morton_index(x, y, w, h) : std::uint64_t{y} * w + x;
      put(img, x, y, read_texel(f, src.data() + i * bytes, t.big_endian));
    }
  return img;
}

Result<ByteBuffer> encode_texels(const TexelLayout& t, const image::Rgba& img) {
  if (t.tiling != TexelLayout::Tiling::none || t.swap16) {  // plain rows, then the inverse of decode's steps
    image::TiledSurface s;
    if (t.tiling != TexelLayout::Tiling::none && !tiled_surface(t, img.width, img.height, s))
      return unsupported(fmt::format("{}-bit texels are not tiled", t.pixel->bits));
    TexelLayout plain = t;
    plain.tiling = TexelLayout::Tiling::none, plain.swap16 = false;
    ASSAY_TRY(ByteBuffer rows, encode_texels(plain, img));
    if (t.swap16) swap_words16(rows);
    if (t.tiling == TexelLayout::Tiling::none) return rows;
    return image::tile(s, rows);
  }
  if (t.kind == TexelLayout::Kind::blocks) return image::encode_blocks(t.block, img);
  if (t.kind == TexelLayout::Kind::wii)
    return unsupported("Wii tiled textures are not encoded");
  if (t.kind == TexelLayout::Kind::etc) return encode_etc(t.etc, img);
  if (t.morton && (!pow2(img.width) || !pow2(img.height)))
    return unsupported(fmt::format("a swizzled {} x {} level: its sides are not powers of two", img.width, img.height));
  const PixelFormat& f = *t.pixel;
  const unsigned bytes = f.bits / 8;
  ByteBuffer out(std::uint64_t{img.width} * img.height * bytes);
  for (std::uint32_t y = 0; y < img.height; ++y)
    for (std::uint32_t x = 0; x < img.width; ++x) {
      const std::uint64_t i = t.morton ? morton_index(x, y, img.width, img.height) : std::uint64_t{y} * img.width + x;
      write_texel(f, img.pixels.data() + (std::uint64_t{y} * img.width + x) * 4, out.data() + i * bytes, t.big_endian);
    }
  return out;
}

}  // namespace assay::igz::detail
