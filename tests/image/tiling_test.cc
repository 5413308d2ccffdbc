// Console tilings (include/assay/image/tiling.h) against offsets worked out by hand from the
// published formulas, and tile -> untile round trips on random data of many sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "assay/image/tiling.h"

namespace assay::image {
namespace {

// Xbox 360, XGAddress2DTiledOffset (Xenia GetTiledOffset2D): with L = log2(bytes per unit),
//   macro = (x/32 + (y/32) * pitch/32) << (L + 7); micro = ((x & 7) + ((y & 0xE) << 2)) << L
//   off = macro + ((micro & ~15) << 1) + (micro & 15) + ((y & 1) << 4)
//   result = ((off & ~511) << 3) + ((y & 16) << 7) + ((off & 448) << 2)
//            + (((((y & 8) >> 2) + (x >> 3)) & 3) << 6) + (off & 63)
TEST(Tiling, XenonOffsetsByHand) {
  // DXT1 blocks (8 bytes, L = 3), pitch 32 blocks.
  EXPECT_EQ(xenon_offset(0, 0, 32, 3), 0u);
  EXPECT_EQ(xenon_offset(1, 0, 32, 3), 8u);      // micro 8 -> off 8
  EXPECT_EQ(xenon_offset(0, 1, 32, 3), 16u);     // (y & 1) << 4
  EXPECT_EQ(xenon_offset(2, 0, 32, 3), 32u);     // micro 16 -> (16 << 1)
  EXPECT_EQ(xenon_offset(8, 0, 32, 3), 64u);     // x >> 3 = 1 -> 1 << 6
  EXPECT_EQ(xenon_offset(0, 2, 32, 3), 512u);    // micro 64 -> off 128 -> (128 & 448) << 2
  EXPECT_EQ(xenon_offset(0, 8, 32, 3), 4224u);   // micro 256 -> off 512 -> 4096, + ((8 >> 2) & 3) << 6 = 128
  EXPECT_EQ(xenon_offset(0, 16, 32, 3), 2048u);  // (y & 16) << 7
  EXPECT_EQ(xenon_offset(32, 0, 32, 3), 8192u);  // the second 32 x 32 x 8-byte macro tile (pitch padded to 64)
  EXPECT_EQ(xenon_offset(0, 32, 64, 3), 16384u); // two macro tiles a row
  // 32-bit texels (L = 2), pitch 40 (padded to 64).
  EXPECT_EQ(xenon_offset(3, 2, 40, 2), 268u);    // micro 44 -> off 64 + 12 = 76 -> (64 << 2) + 12
  EXPECT_EQ(xenon_offset(33, 1, 40, 2), 4116u);  // off 512 + 4 + 16 = 532 -> (512 << 3) + 20
  EXPECT_EQ(xenon_offset(5, 9, 40, 2), 1204u);   // micro 148 -> off 308 -> 1024 + (2 << 6) + 52
  EXPECT_EQ(xenon_offset(39, 7, 40, 2), 4924u);  // off 764 -> 4096 + (192 << 2) + 60
}

// Switch block-linear: a GOB is 512 bytes, 64 wide x 8 rows:
//   in_gob = (x % 64) / 32 * 256 + (y % 8) / 2 * 64 + (x % 32) / 16 * 32 + (y % 2) * 16 + x % 16
// and blocks of `block_height` GOBs (stacked down) follow each other left to right, then down.
TEST(Tiling, TegraOffsetsByHand) {
  // 128 bytes wide (2 GOBs), 2 GOBs a block (1024 bytes).
  EXPECT_EQ(tegra_offset(0, 0, 128, 2), 0u);
  EXPECT_EQ(tegra_offset(5, 0, 128, 2), 5u);
  EXPECT_EQ(tegra_offset(16, 0, 128, 2), 32u);
  EXPECT_EQ(tegra_offset(0, 1, 128, 2), 16u);
  EXPECT_EQ(tegra_offset(32, 0, 128, 2), 256u);
  EXPECT_EQ(tegra_offset(0, 2, 128, 2), 64u);
  EXPECT_EQ(tegra_offset(0, 8, 128, 2), 512u);    // the block's second GOB
  EXPECT_EQ(tegra_offset(64, 0, 128, 2), 1024u);  // the next block to the right
  EXPECT_EQ(tegra_offset(0, 16, 128, 2), 2048u);  // the second row of blocks
  EXPECT_EQ(tegra_offset(63, 7, 128, 2), 256u + 3 * 64 + 32 + 16 + 15);
  // The SDK's block heights (tegra_swizzle's tests from Smash Ultimate textures: 36 / 4 and
  // 40 / 4 rows of blocks give 1, 48 / 4 gives 2); h + h / 2 thresholds 16, 32, 64, 128.
  EXPECT_EQ(tegra_block_height(9), 1u);
  EXPECT_EQ(tegra_block_height(10), 1u);
  EXPECT_EQ(tegra_block_height(12), 2u);
  EXPECT_EQ(tegra_block_height(22), 4u);   // 33
  EXPECT_EQ(tegra_block_height(64), 8u);   // 96
  EXPECT_EQ(tegra_block_height(86), 16u);  // 129
  EXPECT_EQ(tegra_block_height(4096), 16u);
  // Smaller levels halve it while they fit in half a block: from 16 GOBs a 40-row level fits in
  // 8 * 8 = 64 rows (-> 8), not in 4 * 8 = 32 (stays 8); a 32-row level goes on to 4.
  EXPECT_EQ(tegra_mip_block_height(40, 16), 8u);
  EXPECT_EQ(tegra_mip_block_height(32, 16), 4u);
  EXPECT_EQ(tegra_mip_block_height(1, 16), 1u);
  EXPECT_EQ(tegra_mip_block_height(100, 4), 4u);
}

// Wii U addrlib (2 pipes, 4 banks, 256-byte groups). Micro tile pixel index bits for 64-bit units:
// x0 y0 x1 x2 y1 y2; for 32-bit: x0 x1 y0 x2 y1 y2. Mode 4: pipe = x3 ^ y3,
// bank = (y5 ^ x3) | (y4 ^ x4) << 1, total = elem + macro_offset / 8,
// address = (total & ~255) << 3 | bank << 9 | pipe << 8 | total & 255.
TEST(Tiling, Gx2OffsetsByHand) {
  EXPECT_EQ(gx2_pixel_index(1, 0, 64), 1u);
  EXPECT_EQ(gx2_pixel_index(0, 1, 64), 2u);
  EXPECT_EQ(gx2_pixel_index(7, 7, 64), 63u);
  EXPECT_EQ(gx2_pixel_index(0, 1, 32), 4u);
  EXPECT_EQ(gx2_pixel_index(4, 0, 32), 8u);
  EXPECT_EQ(gx2_pixel_index(0, 1, 8), 16u);  // 8-bit: y0 is bit 4
  EXPECT_EQ(gx2_pixel_index(0, 1, 128), 1u);
  // Mode 2: 8 x 8 micro tiles row by row, 8 * bits bytes each.
  EXPECT_EQ(gx2_offset_1d(1, 0, 64, 16), 8u);
  EXPECT_EQ(gx2_offset_1d(8, 0, 64, 16), 512u);
  EXPECT_EQ(gx2_offset_1d(0, 8, 64, 16), 1024u);  // pitch 16: two micro tiles a row
  EXPECT_EQ(gx2_offset_1d(9, 9, 32, 16), 256u * 3 + 4 * 1 + 4 * 4);  // index x0 | y0 << 2 = 5 -> 20
  // Mode 4, BC1 (64 bits), pitch 32 (one macro tile a row).
  EXPECT_EQ(gx2_offset_2d(0, 0, 64, 32, 0, 0), 0u);
  EXPECT_EQ(gx2_offset_2d(1, 0, 64, 32, 0, 0), 8u);
  EXPECT_EQ(gx2_offset_2d(0, 1, 64, 32, 0, 0), 16u);
  EXPECT_EQ(gx2_offset_2d(8, 0, 64, 32, 0, 0), 768u);    // pipe 1, bank 1
  EXPECT_EQ(gx2_offset_2d(0, 8, 64, 32, 0, 0), 256u);    // pipe 1, bank 0
  EXPECT_EQ(gx2_offset_2d(16, 0, 64, 32, 0, 0), 1024u);  // pipe 0, bank 2
  EXPECT_EQ(gx2_offset_2d(7, 7, 64, 32, 0, 0), 2296u);   // elem 504: (256 << 3) + 248
  EXPECT_EQ(gx2_offset_2d(0, 16, 64, 32, 0, 0), 5120u);  // macro row 1: total 512 -> 4096, bank 2
  EXPECT_EQ(gx2_offset_2d(32, 0, 64, 64, 0, 0), 4096u);  // the second macro tile of the row
  EXPECT_EQ(gx2_offset_2d(0, 0, 64, 32, 1, 0), 256u);    // pipe swizzle 1 flips the pipe
  // Padding: mode 4 pitch to 32 units (128 for 8-bit), height to 16; mode 2 pitch to max(8, 256 / bits).
  EXPECT_EQ(gx2_pitch(Tiling::gx2_2d, 288, 64), 288u);
  EXPECT_EQ(gx2_pitch(Tiling::gx2_2d, 40, 8), 128u);
  EXPECT_EQ(gx2_pitch(Tiling::gx2_1d, 3, 64), 8u);
  EXPECT_EQ(gx2_pitch(Tiling::gx2_1d, 3, 8), 32u);
  EXPECT_EQ(gx2_tile_mode(2, 2, 64), Tiling::gx2_1d);
  EXPECT_EQ(gx2_tile_mode(288, 192, 64), Tiling::gx2_2d);
  std::uint64_t size = 0;
  ASSERT_TRUE(tiled_size({Tiling::gx2_2d, 288, 192, 8}, size));
  EXPECT_EQ(size, 288u * 192 * 8);  // 1152 x 768 DXT1: already whole macro tiles
}

// PS4 (GFD-Studio PS4SwizzleAlgorithm): 8 x 8 tiles row by row over the width padded to 8; in a
// tile, unit index bits x0 y0 x1 y1 x2 y2 (Morton, x first).
TEST(Tiling, Ps4OffsetsByHand) {
  EXPECT_EQ(ps4_offset(0, 0, 16, 8), 0u);
  EXPECT_EQ(ps4_offset(1, 0, 16, 8), 8u);        // index 1
  EXPECT_EQ(ps4_offset(0, 1, 16, 8), 16u);       // index 2
  EXPECT_EQ(ps4_offset(2, 0, 16, 8), 32u);       // index 4
  EXPECT_EQ(ps4_offset(3, 3, 16, 8), 120u);      // index 1 + 2 + 4 + 8 = 15
  EXPECT_EQ(ps4_offset(7, 7, 16, 8), 504u);      // index 63
  EXPECT_EQ(ps4_offset(8, 0, 16, 8), 512u);      // the second tile of the row
  EXPECT_EQ(ps4_offset(0, 8, 16, 8), 1024u);     // two tiles a row: tile 2
  EXPECT_EQ(ps4_offset(0, 8, 10, 4), 512u);      // width 10 padded to 16: tile 2 of 256 bytes
  EXPECT_EQ(ps4_offset(5, 2, 8, 4), 4u * 25);    // x 101, y 010: x0 (1) + y1 (8) + x2 (16)
  std::uint64_t size = 0;
  ASSERT_TRUE(tiled_size({Tiling::ps4, 10, 3, 4}, size));
  EXPECT_EQ(size, 16u * 8 * 4);
}

// Xbox 360 packed mip tail (Xenia GetPackedMipOffset), texels: for a square texture the tail's
// first three levels sit at x = 16, 8, 4; then along y at (2^(log2 side - base)) >> (p - 2).
TEST(Tiling, XenonPackedOriginsByHand) {
  std::uint32_t x = 0, y = 0;
  EXPECT_FALSE(xenon_packed_origin(64, 64, 1, x, y));  // 32 texels: not in the tail
  ASSERT_TRUE(xenon_packed_origin(64, 64, 2, x, y));   // base 6 - 4 = 2: packed 0
  EXPECT_EQ(x, 16u);
  EXPECT_EQ(y, 0u);
  ASSERT_TRUE(xenon_packed_origin(64, 64, 3, x, y));
  EXPECT_EQ(x, 8u);
  EXPECT_EQ(y, 0u);
  ASSERT_TRUE(xenon_packed_origin(64, 64, 5, x, y));   // packed 3: (1 << 4) >> 1 = 8 along y
  EXPECT_EQ(x, 0u);
  EXPECT_EQ(y, 8u);
  ASSERT_TRUE(xenon_packed_origin(64, 64, 6, x, y));   // packed 4: 16 >> 2 = 4
  EXPECT_EQ(x, 0u);
  EXPECT_EQ(y, 4u);
  ASSERT_TRUE(xenon_packed_origin(256, 16, 0, x, y));  // wider than tall: the short side is y
  EXPECT_EQ(x, 0u);
  EXPECT_EQ(y, 16u);
  ASSERT_TRUE(xenon_packed_origin(256, 16, 3, x, y));  // packed 3 along x: (1 << 8) >> 1
  EXPECT_EQ(x, 128u);
  EXPECT_EQ(y, 0u);
}

// Xbox 360 chain, r8g8b8a8 64 x 64, 7 levels: the tail is level 2 (shorter side 64: 6 - 4).
// Level 0: 64 x 64 x 4 = 16384 at 0. Level 1: (64 >> 1) = 32 -> padded 32 x 32: 4096 at 16384.
// Level 2: the tail, (64 >> 2) = 16 padded to 32 x 32: 4096 at 20480, levels 2..6 at the origins
// above. Total 24576.
TEST(Tiling, XenonMipChainByHand) {
  std::vector<TiledLevel> lv;
  std::uint64_t total = 0;
  ASSERT_TRUE(tiled_mip_chain(Tiling::xenon, 64, 64, 1, 4, 7, lv, total));
  ASSERT_EQ(lv.size(), 7u);
  EXPECT_EQ(total, 24576u);
  const std::uint64_t offsets[] = {0, 16384, 20480, 20480, 20480, 20480, 20480};
  const std::uint32_t origins[][2] = {{0, 0}, {0, 0}, {16, 0}, {8, 0}, {4, 0}, {0, 8}, {0, 4}};
  for (unsigned l = 0; l < 7; ++l) {
    EXPECT_EQ(lv[l].offset, offsets[l]) << l;
    EXPECT_EQ(lv[l].surface.x0, origins[l][0]) << l;
    EXPECT_EQ(lv[l].surface.y0, origins[l][1]) << l;
    EXPECT_EQ(lv[l].surface.width, std::max(1u, 64u >> l)) << l;
  }
  EXPECT_EQ(lv[2].surface.pitch, 32u);
  // Level 2's texel (0, 0) is surface (16, 0): x >> 3 = 2 -> 2 << 6 = 128. Level 6's (0, 0) is
  // (0, 4): micro (4 & 14) << 2 = 16 -> 64 bytes -> off 128 -> (128 & 448) << 2 = 512. Level 5's
  // (1, 1) is (1, 9): micro (1 + 32) << 2 = 132 -> off 256 + 4 + 16 = 276 -> 1024 + (2 << 6) + 20.
  EXPECT_EQ(tiled_offset(lv[2].surface, 0, 0), 128u);
  EXPECT_EQ(tiled_offset(lv[6].surface, 0, 0), 512u);
  EXPECT_EQ(tiled_offset(lv[5].surface, 1, 1), 1172u);
  EXPECT_EQ(tiled_offset(lv[1].surface, 1, 0), 4u);
  // One level: no tail, level 0 at its own origin.
  ASSERT_TRUE(tiled_mip_chain(Tiling::xenon, 40, 8, 1, 4, 1, lv, total));
  EXPECT_EQ(total, 64u * 32 * 4);
  EXPECT_EQ(lv[0].surface.y0, 0u);
  // DXT1 16 x 16, 5 levels: the tail is level 0 (shorter side 16), at x = 16 texels = 4 blocks;
  // levels 1..4 in a second tail (next_pow2(16) = 16 texels -> 32 x 32 blocks) after level 0's
  // 32 * 32 * 8 = 8192 bytes, at 2, 1 blocks across, then 2 and 1 blocks down.
  ASSERT_TRUE(tiled_mip_chain(Tiling::xenon, 16, 16, 4, 8, 5, lv, total));
  EXPECT_EQ(total, 16384u);
  EXPECT_EQ(lv[0].surface.x0, 4u);
  const std::uint32_t tail[][2] = {{2, 0}, {1, 0}, {0, 2}, {0, 1}};
  for (unsigned l = 1; l < 5; ++l) {
    EXPECT_EQ(lv[l].offset, 8192u) << l;
    EXPECT_EQ(lv[l].surface.x0, tail[l - 1][0]) << l;
    EXPECT_EQ(lv[l].surface.y0, tail[l - 1][1]) << l;
  }
}

// Wii U chain (decaf-emu GX2CalcSurfaceSizeAndAlignment over addrlib), the shared sample's
// 1152 x 768 DXT1 with 6 levels (64-bit blocks; mode 4 pitch alignment 32, height 16, base
// alignment max(64 * 64, 2 * 64 * 32) = 4096; mode 2: 8, 8 and 256):
//   level 0: 288 x 192 blocks, mode 4: 442368 bytes at 0
//   level 1: 576 x 384 -> next_pow2 1024 x 512 -> 256 x 128 blocks: 262144 at align(442368, 4096) = 442368
//   level 2: 128 x 64 blocks: 65536 at 442368 + 262144 = 704512
//   level 3: 64 x 32: 16384 at 770048;  level 4: 32 x 16 (still a macro tile): 4096 at 786432
//   level 5: 36 x 24 -> 64 x 32 -> 16 x 8 blocks, under 32: mode 2, pitch 16, 8 rows: 1024 at 790528
// Total 791552.
TEST(Tiling, Gx2MipChainByHand) {
  std::vector<TiledLevel> lv;
  std::uint64_t total = 0;
  ASSERT_TRUE(tiled_mip_chain(Tiling::gx2_2d, 1152, 768, 4, 8, 6, lv, total));
  EXPECT_EQ(total, 791552u);
  const std::uint64_t offsets[] = {0, 442368, 704512, 770048, 786432, 790528};
  for (unsigned l = 0; l < 6; ++l) {
    EXPECT_EQ(lv[l].offset, offsets[l]) << l;
    EXPECT_EQ(lv[l].surface.tiling, l < 5 ? Tiling::gx2_2d : Tiling::gx2_1d) << l;
  }
  EXPECT_EQ(lv[1].surface.pitch, 256u);
  EXPECT_EQ(lv[1].surface.width, 144u);  // the level's own 576 texels
  EXPECT_EQ(lv[5].surface.pitch, 16u);
  EXPECT_EQ(lv[5].surface.rows, 8u);
  // r8g8b8a8 24 x 8: width and height both under mode 4's 32 and 16: GX2 picks mode 2 for the
  // whole texture (pitch 24, 8 rows: 768 bytes). 40 x 8 is not under 32 wide: mode 4, 64 x 16.
  ASSERT_TRUE(tiled_mip_chain(Tiling::gx2_2d, 24, 8, 1, 4, 1, lv, total));
  EXPECT_EQ(lv[0].surface.tiling, Tiling::gx2_1d);
  EXPECT_EQ(total, 768u);
  ASSERT_TRUE(tiled_mip_chain(Tiling::gx2_2d, 40, 8, 1, 4, 1, lv, total));
  EXPECT_EQ(lv[0].surface.tiling, Tiling::gx2_2d);
  EXPECT_EQ(total, 4096u);
  EXPECT_FALSE(tiled_mip_chain(Tiling::gx2_2d, 40, 8, 1, 4, 7, lv, total));  // 40 has 6 levels
}

// Every chain: each unit of each level lands on bytes of its own inside the chain's total (the
// packed Xbox 360 tails, the Wii U's per-level modes and offsets included).
TEST(Tiling, MipChainsKeepLevelsApart) {
  const std::pair<std::uint32_t, std::uint32_t> sizes[] = {{1, 1}, {3, 5}, {16, 16}, {40, 8}, {64, 64},
                                                           {100, 37}, {1024, 16}, {16, 512}, {256, 128}};
  for (Tiling t : {Tiling::xenon, Tiling::tegra, Tiling::gx2_2d, Tiling::ps4})
    for (std::uint32_t unit : {1u, 4u, 8u, 16u})
      for (std::uint32_t block : {1u, 4u})
        for (auto [w, h] : sizes) {
          unsigned levels = 1;
          while ((std::max(w, h) >> levels) != 0) ++levels;
          std::vector<TiledLevel> lv;
          std::uint64_t total = 0;
          ASSERT_TRUE(tiled_mip_chain(t, w, h, block, unit, levels, lv, total));
          ASSERT_EQ(lv.size(), levels);
          std::vector<bool> used(total);
          for (unsigned l = 0; l < levels; ++l) {
            const TiledSurface& s = lv[l].surface;
            ASSERT_EQ(s.width, (std::max(1u, w >> l) + block - 1) / block);
            for (std::uint32_t y = 0; y < s.height; ++y)
              for (std::uint32_t x = 0; x < s.width; ++x) {
                const std::uint64_t o = lv[l].offset + tiled_offset(s, x, y);
                ASSERT_LE(o + unit, total) << int(t) << " " << w << "x" << h << " level " << l;
                ASSERT_FALSE(used[o]) << int(t) << " " << w << "x" << h << " unit " << unit << " block " << block
                                      << " level " << l << " (" << x << "," << y << ")";
                for (std::uint32_t k = 0; k < unit; ++k) used[o + k] = true;
              }
          }
        }
}

TEST(Tiling, PaddedSizes) {
  std::uint64_t s = 0;
  ASSERT_TRUE(tiled_size({Tiling::xenon, 2, 2, 8}, s));
  EXPECT_EQ(s, 32u * 32 * 8);
  ASSERT_TRUE(tiled_size({Tiling::xenon, 40, 8, 4}, s));
  EXPECT_EQ(s, 64u * 32 * 4);
  ASSERT_TRUE(tiled_size({Tiling::tegra, 10, 3, 4, 1}, s));  // 40 bytes -> 1 GOB wide, 8 rows
  EXPECT_EQ(s, 512u);
  ASSERT_TRUE(tiled_size({Tiling::tegra, 20, 20, 4, 2}, s));  // 80 bytes -> 2 GOBs, 20 rows -> 32
  EXPECT_EQ(s, 2u * 64 * 32);
  ASSERT_TRUE(tiled_size({Tiling::gx2_1d, 2, 2, 8}, s));
  EXPECT_EQ(s, 8u * 8 * 8);
  // 8- and 16-bit units: a 32 x 32 tile's addresses reach 0xA00 and 0xC00 bytes (Xenia
  // GetTiledAddressUpperBound2D), past its 1024 and 2048: (0, 16) is (16 & 16) << 7 = 2048 for both.
  ASSERT_TRUE(tiled_size({Tiling::xenon, 4, 20, 1}, s));
  EXPECT_EQ(s, 0xA00u);
  EXPECT_EQ(xenon_offset(0, 16, 32, 0), 2048u);
  ASSERT_TRUE(tiled_size({Tiling::xenon, 4, 20, 2}, s));
  EXPECT_EQ(s, 0xC00u);
  EXPECT_EQ(xenon_offset(0, 16, 32, 1), 2048u);
  EXPECT_FALSE(tiled_size({Tiling::xenon, 4, 4, 3}, s));  // 24-bit units are not tiled
  EXPECT_FALSE(tiled_size({Tiling::xenon, 0, 4, 4}, s));
}

// Every unit lands on its own bytes inside the padded level, and untile(tile(x)) == x.
TEST(Tiling, RoundTripsOnRandomData) {
  std::mt19937 rng(28);
  const std::pair<std::uint32_t, std::uint32_t> sizes[] = {{1, 1}, {3, 5}, {8, 8}, {17, 9}, {40, 8}, {5, 20},
                                                           {33, 65}, {100, 37}, {128, 64}, {2, 130}};
  for (Tiling t : {Tiling::xenon, Tiling::tegra, Tiling::gx2_1d, Tiling::gx2_2d, Tiling::ps4})
    for (std::uint32_t unit : {1u, 2u, 4u, 8u, 16u})
      for (auto [w, h] : sizes) {
        TiledSurface s{t, w, h, unit, t == Tiling::tegra ? tegra_block_height(h) : 1u};
        std::uint64_t size = 0;
        ASSERT_TRUE(tiled_size(s, size));
        std::set<std::uint64_t> seen;
        for (std::uint32_t y = 0; y < h; ++y)
          for (std::uint32_t x = 0; x < w; ++x) {
            const std::uint64_t o = tiled_offset(s, x, y);
            ASSERT_EQ(o % unit, 0u);
            ASSERT_LE(o + unit, size) << int(t) << " " << w << "x" << h << " unit " << unit;
            ASSERT_TRUE(seen.insert(o).second) << int(t) << " " << w << "x" << h << " (" << x << "," << y << ")";
          }
        ByteBuffer lin(std::uint64_t{w} * h * unit);
        for (auto& b : lin) b = static_cast<std::uint8_t>(rng());
        auto tiled = tile(s, lin);
        ASSERT_TRUE(tiled.ok());
        EXPECT_EQ(tiled->size(), size);
        auto back = untile(s, *tiled);
        ASSERT_TRUE(back.ok());
        EXPECT_EQ(*back, lin) << int(t) << " " << w << "x" << h;
      }
  TiledSurface s{Tiling::xenon, 4, 4, 4};
  EXPECT_FALSE(untile(s, ByteBuffer(100)).ok());  // fewer bytes than the padded level
}

}  // namespace
}  // namespace assay::image
