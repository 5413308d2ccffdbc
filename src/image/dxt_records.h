// The on-disk blocks and texels the DXT/D3D decoders read (core/record.h: each decode consumes
// exactly kSize bytes; all little-endian). spec: renderware.md#rw-6-4 (BC1-BC3 blocks), #rw-6-2
// (D3D texel byte orders).
#pragma once

#include "assay/core/record.h"

namespace assay::image::records {

// A colour block (#rw-6-4 "Colours"): c0, c1 as R5G6B5, then 16 2-bit indices (texel k in bits
// 2k..2k+1). The whole of a BC1 block, the second half of a BC2/BC3 block.
struct ColourBlock {
  static constexpr std::size_t kSize = 8;
  std::uint16_t c0 = 0, c1 = 0;
  std::uint32_t indices = 0;
  static constexpr ColourBlock decode(RecordCursor& c) {
    return {.c0 = c.u16(), .c1 = c.u16(), .indices = c.u32()};
  }
};

// A BC1 (DXT1) block: one colour block.
struct Bc1Block {
  static constexpr std::size_t kSize = 8;
  ColourBlock colour;
  static constexpr Bc1Block decode(RecordCursor& c) { return {ColourBlock::decode(c)}; }
};

// A BC2 (DXT2/3) block (#rw-6-4 "BC2"): 16 4-bit alphas (texel k in nibble k, low first), then
// a colour block.
struct Bc2Block {
  static constexpr std::size_t kSize = 16;
  std::uint64_t alphas = 0;
  ColourBlock colour;
  static constexpr Bc2Block decode(RecordCursor& c) { return {.alphas = c.u64(), .colour = ColourBlock::decode(c)}; }
};

// An interpolated block: e0, e1, then 48 bits of 3-bit codes (texel k in bits 3k..3k+2,
// little-endian). A BC4 block; a BC3 block's alpha half; a BC5 block is two, red then green.
struct Bc4Block {
  static constexpr std::size_t kSize = 8;
  std::uint8_t e0 = 0, e1 = 0;
  std::uint64_t codes = 0;  // the low 48 bits
  static constexpr Bc4Block decode(RecordCursor& c) {
    Bc4Block b;
    b.e0 = c.u8();
    b.e1 = c.u8();
    const std::uint64_t low = c.u16();
    b.codes = low | std::uint64_t{c.u32()} << 16;
    return b;
  }
};

struct Bc5Block {
  static constexpr std::size_t kSize = 16;
  Bc4Block red, green;
  static constexpr Bc5Block decode(RecordCursor& c) { return {Bc4Block::decode(c), Bc4Block::decode(c)}; }
};

// A BC3 (DXT4/5) block (#rw-6-4 "BC3"): the alpha as an interpolated block (Bc4Block's layout),
// then a colour block.
struct Bc3Block {
  static constexpr std::size_t kSize = 16;
  Bc4Block alpha;
  ColourBlock colour;
  static constexpr Bc3Block decode(RecordCursor& c) { return {Bc4Block::decode(c), ColourBlock::decode(c)}; }
};

// A 32-bit D3D texel, bytes B, G, R, A (A8R8G8B8; X8R8G8B8 with the last byte unused) (#rw-6-2).
struct Bgra8Texel {
  static constexpr std::size_t kSize = 4;
  std::uint8_t b = 0, g = 0, r = 0, a = 0;
  static constexpr Bgra8Texel decode(RecordCursor& c) { return {c.u8(), c.u8(), c.u8(), c.u8()}; }
};

// 16-bit and 8-bit texels are plain words: Word16 (R5G6B5, X1R5G5B5, A1R5G5B5, A4R4G4B4, A8L8)
// and Word8 (A8, L8).

}  // namespace assay::image::records
