// Block-compressed texels (BC1-BC3 = DXT1, DXT2/3, DXT4/5; BC4 = ATI1, BC5 = ATI2/3Dc/"dxn")
// and 16/32-bit D3D texels to RGBA. spec: renderware.md#rw-6-4 (DXT), #rw-6-2 (D3D texel byte
// orders); BC4/BC5: Microsoft's "Block Compression" page (a BC4 block is a BC3 alpha block).
#pragma once

#include <cstdint>

#include "assay/core/bytes.h"
#include "assay/image/png.h"

namespace assay::image {

// bc4: one channel, decoded as grey (R = G = B, A 255). bc5: red then green blocks; blue is the
// z of the unit normal they are the x and y of (the format holds normal maps), alpha 255.
enum class BlockFormat : std::uint8_t { bc1, bc2, bc3, bc4, bc5 };

// Bytes of a w x h level in whole 4 x 4 blocks (max(1, ceil(w/4)) * max(1, ceil(h/4)) * 8|16);
// false on overflow.
bool block_level_size(BlockFormat f, std::uint32_t w, std::uint32_t h, std::uint64_t& out);
// Decodes a w x h level (cropping partial blocks). Fails when `src` is smaller than
// block_level_size().
Result<Rgba> decode_blocks(BlockFormat f, ByteView src, std::uint32_t w, std::uint32_t h);
// Rows [y0, y1) of that level (y0 a multiple of 4; y1 too, or h) decoded into `out` (w x 4 bytes a
// row): the same pixels as decode_blocks gives there, a band at a time (encode_png_rows). BC1-BC3
// only; fails as decode_blocks does, on rows that are not whole block rows, and on BC4/BC5.
Result<void> decode_block_rows(BlockFormat f, ByteView src, std::uint32_t w, std::uint32_t h, std::uint32_t y0,
                               std::uint32_t y1, std::uint8_t* out);

// Uncompressed D3D texel layouts (byte orders of renderware.md#rw-6-2).
enum class PixelFormat : std::uint8_t {
  bgra8888, bgrx8888, r5g6b5, x1r5g5b5, a1r5g5b5, a4r4g4b4, a8, l8, a8l8,
};
std::uint32_t bytes_per_pixel(PixelFormat f);
Result<Rgba> decode_pixels(PixelFormat f, ByteView src, std::uint32_t w, std::uint32_t h);

// A minimal BC1 encoder (endpoint = min/max by luminance, nearest of four colours; opaque
// only). Used by writers for demo files and tests; not a quality encoder.
ByteBuffer encode_bc1(const Rgba& img);

}  // namespace assay::image
