// PS2 Graphics Synthesizer texel helpers: the 8-bit/4-bit swizzle, the CSM1 palette order and
// the 0-128 alpha range (spec: renderware.md#rw-5-7, #rw-5-8). Pure functions over buffers; the
// RenderWare packet parsing lives in src/formats/renderware.
#pragma once

#include <cstdint>

#include "assay/core/bytes.h"

namespace assay::image::ps2 {

// a(x, y) of renderware.md#rw-5-7 for a level of width W = 1 << log2w (W >= 16, power of two).
[[nodiscard]] constexpr std::uint32_t swizzle_address(std::uint32_t x, std::uint32_t y,
                                                      std::uint32_t log2w) noexcept {
  const std::uint32_t w = 1u << log2w;
  const std::uint32_t y1 = (y >> 1) & 1, y2 = (y >> 2) & 1;
  const std::uint32_t xs = x ^ ((y1 ^ y2) << 2);
  const std::uint32_t nx = (xs & 7) | ((xs >> 1) & ~7u);
  std::uint32_t s = y1 | (((xs >> 3) & 1) << 1) | (nx << 2) | ((y & 1) << (log2w + 1));
  s &= (1u << (log2w + 2)) - 1;
  return (y & ~3u) * w + s;
}

// The block/column form of the same mapping (spec: #rw-5-7, "for cross-checking only").
[[nodiscard]] constexpr std::uint32_t swizzle_address_blocks(std::uint32_t x, std::uint32_t y,
                                                             std::uint32_t w) noexcept {
  const std::uint32_t block = (y & ~15u) * w + (x & ~15u) * 2;
  const std::uint32_t swap = (((y + 2) >> 2) & 1) * 4;
  const std::uint32_t row = (((y & ~3u) >> 1) + (y & 1)) & 7;
  const std::uint32_t column = row * w * 2 + ((x + swap) & 7) * 4;
  const std::uint32_t byte = ((y >> 1) & 1) + ((x >> 2) & 2);
  return block + column + byte;
}

// Unswizzles a W x H level (W power of two >= 16, H multiple of 4) of 8-bit indices, keeping the
// top-left out_w x out_h. `src` must hold W * H bytes, `out` out_w * out_h. Returns false on bad
// sizes (nothing written).
bool unswizzle8(ByteView src, std::uint32_t w, std::uint32_t h, std::uint8_t* out,
                std::uint32_t out_w, std::uint32_t out_h);
// The same on nibble addresses (4-bit indices; nibble k = low nibble of byte k/2 when k even);
// `src` must hold W * H / 2 bytes; out gets one index per byte.
bool unswizzle4(ByteView src, std::uint32_t w, std::uint32_t h, std::uint8_t* out,
                std::uint32_t out_w, std::uint32_t out_h);
// unswizzle8/unswizzle4 fused with a palette lookup: out receives lut[index] (4 bytes each,
// out_w * out_h * 4 bytes). The decoders' fast path.
bool unswizzle8_lut(ByteView src, std::uint32_t w, std::uint32_t h, const std::uint32_t lut[256],
                    std::uint8_t* out, std::uint32_t out_w, std::uint32_t out_h);
bool unswizzle4_lut(ByteView src, std::uint32_t w, std::uint32_t h, const std::uint32_t lut[16],
                    std::uint8_t* out, std::uint32_t out_w, std::uint32_t out_h);
// Inverse of unswizzle8/unswizzle4 (used by the writer): `indices` is w x h.
void swizzle8(const std::uint8_t* indices, std::uint32_t w, std::uint32_t h, std::uint8_t* dst);
void swizzle4(const std::uint8_t* indices, std::uint32_t w, std::uint32_t h, std::uint8_t* dst);

// CSM1: the entry that holds the colour of index i (8-bit palettes; spec: #rw-5-8).
[[nodiscard]] constexpr std::uint32_t csm1_entry(std::uint32_t i) noexcept {
  return ((i & 0x18) == 0x08 || (i & 0x18) == 0x10) ? (i ^ 0x18) : i;
}
// PS2 alpha 0-128 (128 opaque) to 0-255: min(a * 255 / 128, 255).
[[nodiscard]] constexpr std::uint8_t expand_alpha(std::uint8_t a) noexcept {
  const std::uint32_t v = std::uint32_t{a} * 255 / 128;
  return static_cast<std::uint8_t>(v > 255 ? 255 : v);
}
// The smallest PS2 alpha that expands to `a`, or -1 when none does.
[[nodiscard]] int compress_alpha(std::uint8_t a) noexcept;

}  // namespace assay::image::ps2
