// Internal: how one level of an igImage2 is stored, by its metaimage name, and its decoding to
// RGBA (image_texels.cc). image_decode.cc picks the layout; this file knows the texels.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "assay/core/bytes.h"
#include "assay/image/dxt.h"
#include "assay/image/png.h"
#include "assay/image/tiling.h"

namespace assay::igz::detail {

// A plain pixel format: `bits` a texel. Packed: 8 to 32 bits holding channels at bit positions of the
// texel read as one word (r/g/b/a/l: shift and width; width 0 = absent). Element formats: whole
// 16- or 32-bit values one after another (16 to 128 bits a texel), `channels` naming each in memory
// order ('r', 'g', 'b', 'a', 'l', 'x' unused); "_big" stores each element big-endian.
struct PixelFormat {
  struct Channel {
    std::uint8_t shift = 0, width = 0;
  };
  enum class Element : std::uint8_t { packed, unorm16, snorm16, half, single };
  std::uint8_t bits = 0;
  Channel r, g, b, a, l;  // l: luminance, copied to r, g and b
  Element element = Element::packed;
  std::string_view channels;  // element formats
  std::string_view assumed;   // what decoding this format assumes beyond the generic rule ("" nothing more)
};
// The canonical pixel formats (igRewrite8 igGfx.cs pixelInfos / lInfo) decoded; nullptr others
// (image_pixels.cc).
const PixelFormat* pixel_format(std::string_view canonical);
// One texel of `f` at `p` (its word, or each element, big-endian when `big`) as RGBA, and the
// inverse from RGBA at `rgba` (exact for the format's own bits and for every 8-bit value of the
// 16-bit and float formats).
std::array<std::uint8_t, 4> read_texel(const PixelFormat& f, const std::uint8_t* p, bool big);
void write_texel(const PixelFormat& f, const std::uint8_t* rgba, std::uint8_t* out, bool big);
// An n-bit channel value as 8 bits: round(v * 255 / (2^n - 1)).
std::uint8_t widen(std::uint32_t v, unsigned bits);

// ETC block formats (igGfx.cs compressedInfos: etc1 and etc2 4 bits a texel, etc2_alpha 8): ETC1,
// ETC2 RGB8 and ETC2 RGBA8 (an EAC alpha block, then an ETC2 RGB8 block), as the Khronos Data
// Format Specification describes them (image_etc.cc).
enum class EtcFormat : std::uint8_t { etc1, etc2, etc2_alpha };
std::optional<EtcFormat> etc_format(std::string_view canonical);
// A w x h level of ETC blocks (whole 4 x 4 blocks) as RGBA; `src` holds etc_level_size() bytes.
image::Rgba decode_etc(EtcFormat f, ByteView src, std::uint32_t w, std::uint32_t h);
std::uint64_t etc_level_size(EtcFormat f, std::uint32_t w, std::uint32_t h);
// The inverse, lossy: ETC1 blocks (individual or differential, valid ETC2 too), EAC alpha before them
// for etc2_alpha.
ByteBuffer encode_etc(EtcFormat f, const image::Rgba& img);

// Wii GX texture formats (the "_tile_big_wii" metaimages of igGfx.cs tileInfo).
enum class WiiFormat : std::uint8_t { i4, i8, ia4, ia8, rgb565, rgb5a3, rgba8, cmpr };

struct TexelLayout {
  enum class Kind : std::uint8_t { blocks, pixels, wii, etc };
  Kind kind = Kind::blocks;
  image::BlockFormat block = image::BlockFormat::bc1;  // blocks
  const PixelFormat* pixel = nullptr;                  // pixels
  bool big_endian = false;                             // pixels: texel words stored big-endian
  bool morton = false;                                 // pixels: PS3 swizzled (Morton order)
  WiiFormat wii = WiiFormat::cmpr;                     // wii
  EtcFormat etc = EtcFormat::etc1;                     // etc
  // blocks and pixels: the platform's GPU tiling of "_tile" (image/tiling.h), none = rows.
  enum class Tiling : std::uint8_t { none, xenon, tegra, gx2, ps4 };
  Tiling tiling = Tiling::none;
  bool swap16 = false;        // blocks: every 16-bit word byte-swapped (Xbox 360 "_big")
  std::uint32_t height0 = 0;  // tegra: level 0's height in texels (its block height)
};

// The tiled surface of a w x h level (units: texels, or 4 x 4 blocks); false for a unit size the
// tilings do not take (24-bit texels).
bool tiled_surface(const TexelLayout& t, std::uint32_t w, std::uint32_t h, image::TiledSurface& out);

// Bytes of one w x h level (whole blocks or tiles); false on overflow.
bool texel_level_size(const TexelLayout& t, std::uint32_t w, std::uint32_t h, std::uint64_t& out);
// The level (texel_level_size bytes) as RGBA.
Result<image::Rgba> decode_texels(const TexelLayout& t, ByteView src, std::uint32_t w, std::uint32_t h);
// The inverse for pixel layouts (lossless for the formats' own bits; float and 16-bit formats exact
// for every 8-bit value); blocks go through image::encode_blocks, ETC through encode_etc. Wii
// layouts are not encoded (an unsupported error).
Result<ByteBuffer> encode_texels(const TexelLayout& t, const image::Rgba& img);

// PS3 swizzle: the texel index of (x, y) in a w x h level (powers of two), x and y bits
// interleaved from bit 0 (x first) while both have bits, then the larger side's bits.
std::uint64_t morton_index(std::uint32_t x, std::uint32_t y, std::uint32_t w, std::uint32_t h);

}  // namespace assay::igz::detail
