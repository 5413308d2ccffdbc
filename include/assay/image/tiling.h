// Console GPU tilings of one 2D texture level: where the "unit" (a texel, or a 4 x 4 block of a
// block-compressed format) at (x, y) sits in the stored bytes, and a whole level to and from rows
// of units. Family-neutral: the igz textures use it (src/formats/igz/image_texels.cc).
//
// - xenon: Xbox 360 2D tiling, XGAddress2DTiledOffset as Xenia describes it
//   (src/xenia/gpu/texture_util.cc GetTiledOffset2D, after UModel's UnTexture.cpp): 32 x 32-unit
//   macro tiles, the pitch and the height padded to 32 units.
// - tegra: Tegra X1 block-linear (Nintendo Switch), as Ryujinx's BlockLinearLayout and
//   tegra_swizzle describe it: GOBs of 64 bytes x 8 rows (512 bytes, 16-byte x 2-row sectors
//   inside), stacked `block_height` GOBs tall into blocks, blocks row by row; the row width padded
//   to 64 bytes and the height to whole blocks.
// - gx2_1d / gx2_2d: Wii U GX2 tile modes 2 (1D_TILED_THIN1) and 4 (2D_TILED_THIN1) from AMD's
//   R600 addrlib (decaf-emu's and AboodXD's GTX tools describe the Wii U configuration: 2 pipes,
//   4 banks, 256-byte pipe interleave): 8 x 8-unit micro tiles with the per-size pixel order;
//   mode 4 spreads the micro tiles of each 32 x 16 macro tile over the pipes and banks.
// - ps4: the PS4 "swizzle" as public tools describe it (GFD-Studio PS4SwizzleAlgorithm.cs after
//   daemon1's RawTex; ReverseBox swizzle_ps4.py): 8 x 8-unit tiles row by row over the width and
//   height padded to 8 units, the 64 units of a tile in Morton order (x bit first).
//
// Mip chains (tiled_mip_chain): where each level's surface sits in one buffer holding level 0
// then the smaller levels, by each console's rules (Xenia's GetGuestTextureLayout and
// GetPackedMipOffset for the Xbox 360's packed mip tail; decaf-emu's GX2CalcSurfaceSizeAndAlignment
// over AMD addrlib for the Wii U's per-level tile modes, padding and offsets).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/core/error.h"

namespace assay::image {

enum class Tiling : std::uint8_t { xenon, tegra, gx2_1d, gx2_2d, ps4 };

struct TiledSurface {
  Tiling tiling = Tiling::xenon;
  std::uint32_t width = 0, height = 0;  // in units
  std::uint32_t unit_bytes = 0;         // 1, 2, 4, 8 or 16
  std::uint32_t block_height = 1;       // tegra: GOBs per block (1, 2, 4, 8, 16)
  std::uint32_t pipe_swizzle = 0, bank_swizzle = 0;  // gx2_2d (0..1, 0..3)
  // xenon and gx2: the padded surface (units) when it is not the tiling's padding of width and
  // height (a mip level's, from a power of two); 0 = that padding.
  std::uint32_t pitch = 0, rows = 0;
  // xenon: the level's origin inside the surface (units; a level of the packed mip tail).
  std::uint32_t x0 = 0, y0 = 0;
};

// Xbox 360: the byte offset of unit (x, y) in a level `pitch` units wide (padded to 32 here),
// units of 2^log2_bytes bytes.
std::uint64_t xenon_offset(std::uint32_t x, std::uint32_t y, std::uint32_t pitch, unsigned log2_bytes);

// Switch: the GOBs per block the SDK picks for a level 0 `height` units tall (16 when
// height + height / 2 >= 128, 8 from 64, 4 from 32, 2 from 16, else 1), and for a smaller level
// (halved while the level fits in half a block).
std::uint32_t tegra_block_height(std::uint32_t height);
std::uint32_t tegra_mip_block_height(std::uint32_t height, std::uint32_t block_height0);
// The byte offset of byte column `x_byte` of row `y` in a surface `width_bytes` wide.
std::uint64_t tegra_offset(std::uint32_t x_byte, std::uint32_t y, std::uint32_t width_bytes, std::uint32_t block_height);

// Wii U: the 8 x 8 micro tile's pixel index of (x, y) for `bits` per unit; the byte offsets of
// tile modes 2 and 4 for a surface `pitch` units wide (already padded: gx2_pitch).
unsigned gx2_pixel_index(std::uint32_t x, std::uint32_t y, unsigned bits);
std::uint64_t gx2_offset_1d(std::uint32_t x, std::uint32_t y, unsigned bits, std::uint32_t pitch);
std::uint64_t gx2_offset_2d(std::uint32_t x, std::uint32_t y, unsigned bits, std::uint32_t pitch,
                            std::uint32_t pipe_swizzle, std::uint32_t bank_swizzle);
// The padded pitch and height (units) of a mode-2 or mode-4 surface: pitch to max(8, 256 / bits)
// and height to 8 (mode 2); pitch to 32 * max(1, 32 / bits) and height to 16 (mode 4).
std::uint32_t gx2_pitch(Tiling t, std::uint32_t width, unsigned bits);
std::uint32_t gx2_height(Tiling t, std::uint32_t height);
// Mode 4 for a surface of at least one macro tile (its padded pitch by 16 rows), else mode 2
// (addrlib degrades a 2D tile mode to 1D for a level smaller than a macro tile).
Tiling gx2_tile_mode(std::uint32_t width, std::uint32_t height, unsigned bits);

// PS4: the byte offset of unit (x, y) in a surface `width` units wide (padded to 8 here).
std::uint64_t ps4_offset(std::uint32_t x, std::uint32_t y, std::uint32_t width, std::uint32_t unit_bytes);

// Xbox 360 packed mip tail (Xenia GetPackedMipOffset): the origin, in texels, of `level` of a
// width x height texture inside its tail surface; false when the level is not in the tail (its
// shorter side, rounded up to a power of two, is over 16 texels).
bool xenon_packed_origin(std::uint32_t width, std::uint32_t height, unsigned level, std::uint32_t& x, std::uint32_t& y);

// Unit sizes every tiling here takes: 1, 2, 4, 8 and 16 bytes.
bool tiling_unit_ok(std::uint32_t unit_bytes);
// Bytes of the padded level (Xbox 360: up to where its units reach from the surface's start,
// Xenia's GetTiledAddressUpperBound2D: more than pitch x rows for 8- and 16-bit units); false on
// overflow or a unit size not taken.
bool tiled_size(const TiledSurface& s, std::uint64_t& out);
// The byte offset of unit (x, y) (x < width, y < height).
std::uint64_t tiled_offset(const TiledSurface& s, std::uint32_t x, std::uint32_t y);
// The level as rows of units (width * unit_bytes a row), from tiled_size() bytes of `tiled`.
Result<ByteBuffer> untile(const TiledSurface& s, ByteView tiled);
// The inverse: `linear` (width * height units) into tiled_size() bytes, padding zero.
Result<ByteBuffer> tile(const TiledSurface& s, ByteView linear);
// The same into `out` (at least tiled_size() bytes), leaving the bytes of other units as they are
// (levels sharing the Xbox 360 mip tail).
Result<void> tile_into(const TiledSurface& s, ByteView linear, std::span<std::uint8_t> out);

// One level of a mip chain: its surface (width and height: the level's units) and the offset of
// that surface in the chain's bytes.
struct TiledLevel {
  TiledSurface surface;
  std::uint64_t offset = 0;
};
// The levels of a `width` x `height`-texel texture of `levels` levels, units of `unit_bytes`
// covering `block` x `block` texels (1, or 4 for DXT), level 0 first, in one buffer of `total`
// bytes. `tiling` names the console: xenon, tegra, gx2_2d (GX2's default tile mode for a 2D
// texture: mode 4, or mode 2 when its width and height are both under a macro tile's
// alignment; each smaller level degraded to mode 2 once it is under a macro tile) or ps4.
// - xenon (Xenia GetGuestTextureLayout): level 0's surface padded to 32 x 32 units; the levels
//   after it from the end of level 0's pitch x rows aligned to 4 KB, each padded from the level-0
//   size rounded up to a power of two, shifted, then to 32 units, every surface 4 KB aligned; the
//   total reaches the last level's tiled_size; with more than
//   one level, the levels from the first whose shorter side is at most 16 texels share one
//   surface at GetPackedMipOffset's origins (level 0 too for a texture of at most 16 texels).
// - gx2_2d (decaf-emu GX2CalcSurfaceSizeAndAlignment, addrlib r600): level 0 as above; level 1
//   at the end of level 0 aligned to level 1's base alignment; each next level after the
//   previous one's size padded to its own base alignment (macro-tiled: max(64 * bits,
//   2 * bits * pitch alignment) bytes; micro-tiled: 256).
// - tegra and ps4: the levels one after another, each padded by its tiling only.
// False for a unit size not taken, sides of 0 or over 2^24, or more levels than the sides have
// (floor(log2(max(width, height))) + 1).
bool tiled_mip_chain(Tiling tiling, std::uint32_t width, std::uint32_t height, std::uint32_t block, std::uint32_t unit_bytes,
                     unsigned levels, std::vector<TiledLevel>& out, std::uint64_t& total);

}  // namespace assay::image
