// Console tilings (include/assay/image/tiling.h) against offsets worked out by hand from the
// published formulas, and tile -> untile round trips on random data of many sizes.
#include <gtest/gtest.h>

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
  EXPECT_FALSE(tiled_size({Tiling::xenon, 4, 4, 3}, s));  // 24-bit units are not tiled
  EXPECT_FALSE(tiled_size({Tiling::xenon, 0, 4, 4}, s));
}

// Every unit lands on its own bytes inside the padded level, and untile(tile(x)) == x.
TEST(Tiling, RoundTripsOnRandomData) {
  std::mt19937 rng(28);
  const std::pair<std::uint32_t, std::uint32_t> sizes[] = {{1, 1}, {3, 5}, {8, 8}, {17, 9}, {40, 8},
                                                           {33, 65}, {100, 37}, {128, 64}, {2, 130}};
  for (Tiling t : {Tiling::xenon, Tiling::tegra, Tiling::gx2_1d, Tiling::gx2_2d})
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
