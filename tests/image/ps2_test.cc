// PS2 swizzle, CSM1 and alpha against the hand-computed vectors of renderware.md#rw-10-2, #rw-10-3
// (not against our own encoder).
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "assay/image/ps2.h"

namespace assay::image::ps2 {
namespace {

// spec: renderware.md#rw-10-2, W = 16 rows 0-3 and 4.
TEST(Ps2Swizzle, SpecTableW16) {
  const std::uint32_t rows[5][16] = {
      {0, 4, 8, 12, 16, 20, 24, 28, 2, 6, 10, 14, 18, 22, 26, 30},
      {32, 36, 40, 44, 48, 52, 56, 60, 34, 38, 42, 46, 50, 54, 58, 62},
      {17, 21, 25, 29, 1, 5, 9, 13, 19, 23, 27, 31, 3, 7, 11, 15},
      {49, 53, 57, 61, 33, 37, 41, 45, 51, 55, 59, 63, 35, 39, 43, 47},
      {80, 84, 88, 92, 64, 68, 72, 76, 82, 86, 90, 94, 66, 70, 74, 78},
  };
  for (std::uint32_t y = 0; y < 5; ++y)
    for (std::uint32_t x = 0; x < 16; ++x) {
      EXPECT_EQ(swizzle_address(x, y, 4), rows[y][x]) << x << "," << y;
      EXPECT_EQ(swizzle_address_blocks(x, y, 16), rows[y][x]) << x << "," << y;
    }
}

TEST(Ps2Swizzle, SpecRowsW32) {
  const std::uint32_t row0[32] = {0,  4,  8,  12, 16, 20, 24, 28, 2,  6,  10, 14, 18, 22, 26, 30,
                                  32, 36, 40, 44, 48, 52, 56, 60, 34, 38, 42, 46, 50, 54, 58, 62};
  for (std::uint32_t x = 0; x < 32; ++x) {
    EXPECT_EQ(swizzle_address(x, 0, 5), row0[x]) << x;
    // y = 1: the same pattern plus 64 (spec: #rw-10-2)
    EXPECT_EQ(swizzle_address(x, 1, 5), row0[x] + 64) << x;
  }
}

TEST(Ps2Swizzle, SpecSinglePoints) {
  EXPECT_EQ(swizzle_address(5, 6, 6), 277u);
  EXPECT_EQ(swizzle_address(63, 63, 6), 4095u);
  EXPECT_EQ(swizzle_address(17, 9, 7), 1316u);
}

// "For every power-of-two W from 16 to 512 and H a multiple of 4, a is a permutation and equals the
// block/column form."
TEST(Ps2Swizzle, PermutationAndBlockFormAgree) {
  for (std::uint32_t l = 4; l <= 9; ++l) {
    const std::uint32_t w = 1u << l;
    for (std::uint32_t h : {4u, 8u, 16u, 20u, 64u}) {
      std::vector<bool> seen(std::size_t{w} * h);
      for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) {
          const std::uint32_t a = swizzle_address(x, y, l);
          ASSERT_LT(a, w * h);
          ASSERT_FALSE(seen[a]) << w << "x" << h << " at " << x << "," << y;
          seen[a] = true;
          if (h % 16 == 0) ASSERT_EQ(a, swizzle_address_blocks(x, y, w)) << w << " " << x << "," << y;
        }
    }
  }
}

TEST(Ps2Swizzle, Unswizzle8UsesTheAddressFormula) {
  // byte a(x, y) holds x + 16 y (spec #rw-10-3), so the index image is x + 16 y
  ByteBuffer src(256);
  for (std::uint32_t y = 0; y < 16; ++y)
    for (std::uint32_t x = 0; x < 16; ++x) src[swizzle_address(x, y, 4)] = static_cast<std::uint8_t>(x + 16 * y);
  std::vector<std::uint8_t> out(256);
  ASSERT_TRUE(unswizzle8(src, 16, 16, out.data(), 16, 16));
  for (std::uint32_t i = 0; i < 256; ++i) EXPECT_EQ(out[i], i);
  // cropped: the top-left 8 x 8 of the same level
  std::vector<std::uint8_t> crop(64);
  ASSERT_TRUE(unswizzle8(src, 16, 16, crop.data(), 8, 8));
  for (std::uint32_t y = 0; y < 8; ++y)
    for (std::uint32_t x = 0; x < 8; ++x) EXPECT_EQ(crop[y * 8 + x], x + 16 * y);
}

TEST(Ps2Swizzle, Unswizzle4OnNibbles) {
  // spec #rw-10-3 4-bit variant: nibble a(x, y) with W = 32 holds x for x < 16
  const std::uint32_t w = 32, h = 16;
  ByteBuffer src(w * h / 2);
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < 16; ++x) {
      const std::uint32_t k = swizzle_address(x, y, 5);
      src[k >> 1] |= static_cast<std::uint8_t>(x << ((k & 1) * 4));
    }
  std::vector<std::uint8_t> out(16 * 16);
  ASSERT_TRUE(unswizzle4(src, w, h, out.data(), 16, 16));
  for (std::uint32_t y = 0; y < 16; ++y)
    for (std::uint32_t x = 0; x < 16; ++x) EXPECT_EQ(out[y * 16 + x], x);
}

TEST(Ps2Swizzle, RejectsBadSizes) {
  ByteBuffer src(1024);
  std::uint8_t out[64];
  EXPECT_FALSE(unswizzle8(src, 12, 4, out, 4, 4));   // not a power of two
  EXPECT_FALSE(unswizzle8(src, 8, 8, out, 8, 8));    // below 16
  EXPECT_FALSE(unswizzle8(src, 16, 6, out, 4, 4));   // height not a multiple of 4
  EXPECT_FALSE(unswizzle8(src, 64, 32, out, 4, 4));  // source too small
  EXPECT_FALSE(unswizzle8(src, 16, 4, out, 17, 4));  // crop wider than the level
}

TEST(Ps2Swizzle, SwizzleInvertsUnswizzle) {
  std::vector<std::uint8_t> idx(64 * 8);
  std::iota(idx.begin(), idx.end(), 0);
  ByteBuffer s8(idx.size()), s4(idx.size() / 2);
  swizzle8(idx.data(), 64, 8, s8.data());
  std::vector<std::uint8_t> back(idx.size());
  ASSERT_TRUE(unswizzle8(s8, 64, 8, back.data(), 64, 8));
  EXPECT_EQ(back, idx);
  for (auto& v : idx) v &= 0xF;
  swizzle4(idx.data(), 64, 8, s4.data());
  ASSERT_TRUE(unswizzle4(s4, 64, 8, back.data(), 64, 8));
  EXPECT_EQ(back, idx);
}

TEST(Ps2Swizzle, LutPathsAgreeWithIndexPaths) {
  std::uint32_t lut[256];
  for (std::uint32_t i = 0; i < 256; ++i) lut[i] = i * 0x01010101u;
  ByteBuffer src(64 * 16);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<std::uint8_t>(i * 31 + 7);
  std::vector<std::uint8_t> idx(40 * 12), rgba(40 * 12 * 4);
  ASSERT_TRUE(unswizzle8(src, 64, 16, idx.data(), 40, 12));
  ASSERT_TRUE(unswizzle8_lut(src, 64, 16, lut, rgba.data(), 40, 12));
  for (std::size_t k = 0; k < idx.size(); ++k) ASSERT_EQ(rgba[4 * k], idx[k]);
  ASSERT_TRUE(unswizzle4(src, 64, 16, idx.data(), 40, 12));
  ASSERT_TRUE(unswizzle4_lut(src, 64, 16, lut, rgba.data(), 40, 12));
  for (std::size_t k = 0; k < idx.size(); ++k) ASSERT_EQ(rgba[4 * k + 3], idx[k]);
  EXPECT_FALSE(unswizzle8_lut(src, 12, 4, lut, rgba.data(), 4, 4));
}

// spec: #rw-5-8 and the worked values of #rw-10-3
TEST(Ps2Palette, Csm1Order) {
  EXPECT_EQ(csm1_entry(8), 16u);
  EXPECT_EQ(csm1_entry(16), 8u);
  EXPECT_EQ(csm1_entry(24), 24u);
  EXPECT_EQ(csm1_entry(40), 48u);
  EXPECT_EQ(csm1_entry(0), 0u);
  EXPECT_EQ(csm1_entry(7), 7u);
  EXPECT_EQ(csm1_entry(15), 23u);
  EXPECT_EQ(csm1_entry(255), 255u);
}

TEST(Ps2Palette, AlphaConversion) {
  EXPECT_EQ(expand_alpha(0), 0);
  EXPECT_EQ(expand_alpha(1), 1);
  EXPECT_EQ(expand_alpha(64), 127);
  EXPECT_EQ(expand_alpha(127), 253);
  EXPECT_EQ(expand_alpha(128), 255);
  EXPECT_EQ(expand_alpha(129), 255);
  EXPECT_EQ(expand_alpha(255), 255);
  EXPECT_EQ(compress_alpha(255), 128);
  EXPECT_EQ(compress_alpha(0), 0);
  EXPECT_EQ(compress_alpha(127), 64);
  EXPECT_EQ(compress_alpha(2), -1);  // 1 -> 1, 2 -> 3: nothing gives 2
}

}  // namespace
}  // namespace assay::image::ps2
