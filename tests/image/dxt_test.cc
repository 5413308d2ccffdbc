// BC1-BC3 and D3D texel decoding against hand-computed blocks (spec: renderware.md#rw-6-4, #rw-6-2).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "assay/image/dxt.h"

namespace assay::image {
namespace {

std::array<int, 4> px(const Rgba& img, std::uint32_t x, std::uint32_t y) {
  const std::uint8_t* p = img.pixels.data() + (std::size_t{y} * img.width + x) * 4;
  return {p[0], p[1], p[2], p[3]};
}

using C = std::array<int, 4>;

TEST(Dxt, Bc1FourColourMode) {
  // c0 = 0xF800 (red) > c1 = 0x001F (blue); every row uses codes 0, 1, 2, 3
  const std::uint8_t b[8] = {0x00, 0xF8, 0x1F, 0x00, 0xE4, 0xE4, 0xE4, 0xE4};
  auto img = decode_blocks(BlockFormat::bc1, b, 4, 4);
  ASSERT_TRUE(img.ok());
  for (std::uint32_t y = 0; y < 4; ++y) {
    EXPECT_EQ(px(*img, 0, y), (C{255, 0, 0, 255}));
    EXPECT_EQ(px(*img, 1, y), (C{0, 0, 255, 255}));
    EXPECT_EQ(px(*img, 2, y), (C{170, 0, 85, 255}));  // (2 c0 + c1) / 3
    EXPECT_EQ(px(*img, 3, y), (C{85, 0, 170, 255}));  // (c0 + 2 c1) / 3
  }
}

TEST(Dxt, Bc1ThreeColourModeHasTransparentBlack) {
  const std::uint8_t b[8] = {0x1F, 0x00, 0x00, 0xF8, 0xE4, 0xE4, 0xE4, 0xE4};  // c0 < c1
  auto img = decode_blocks(BlockFormat::bc1, b, 4, 4);
  ASSERT_TRUE(img.ok());
  EXPECT_EQ(px(*img, 2, 0), (C{127, 0, 127, 255}));  // (c0 + c1) / 2
  EXPECT_EQ(px(*img, 3, 0), (C{0, 0, 0, 0}));
}

TEST(Dxt, Bc2ExplicitAlphaAndFourColours) {
  std::uint8_t b[16] = {0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE,  // alpha k = k
                        0x1F, 0x00, 0x00, 0xF8, 0xE4, 0xE4, 0xE4, 0xE4};
  auto img = decode_blocks(BlockFormat::bc2, b, 4, 4);
  ASSERT_TRUE(img.ok());
  for (int k = 0; k < 16; ++k) EXPECT_EQ(px(*img, k & 3, k >> 2)[3], k * 17) << k;
  // c0 <= c1 still decodes in the four-colour mode
  EXPECT_EQ(px(*img, 2, 0), (C{85, 0, 170, 2 * 17}));
  EXPECT_EQ(px(*img, 3, 1), (C{170, 0, 85, 7 * 17}));
}

// 3-bit codes k % 8 for texel k, packed little-endian
void codes(std::uint8_t* b) {
  std::uint64_t bits = 0;
  for (int k = 0; k < 16; ++k) bits |= std::uint64_t(k % 8) << (3 * k);
  for (int i = 0; i < 6; ++i) b[i] = static_cast<std::uint8_t>(bits >> (8 * i));
}

TEST(Dxt, Bc3InterpolatedAlpha) {
  std::uint8_t b[16] = {255, 0};
  codes(b + 2);
  b[8] = 0x00, b[9] = 0xF8;  // red
  auto img = decode_blocks(BlockFormat::bc3, b, 4, 4);
  ASSERT_TRUE(img.ok());
  const int expect[8] = {255, 0, 218, 182, 145, 109, 72, 36};  // ((8-j) 255 + (j-1) 0) / 7
  for (int k = 0; k < 16; ++k) EXPECT_EQ(px(*img, k & 3, k >> 2)[3], expect[k % 8]) << k;
  std::uint8_t c[16] = {0, 255};  // a0 <= a1: six-value mode with 0 and 255
  codes(c + 2);
  auto img2 = decode_blocks(BlockFormat::bc3, c, 4, 4);
  ASSERT_TRUE(img2.ok());
  const int expect2[8] = {0, 255, 51, 102, 153, 204, 0, 255};
  for (int k = 0; k < 8; ++k) EXPECT_EQ(px(*img2, k & 3, k >> 2)[3], expect2[k]) << k;
}

// A BC4 block: e0 = 200 > e1 = 100, texel codes 0, 1, 2, 7 then 0s: bits 3..5 = 1, 6..8 = 2,
// 9..11 = 7: 0x0E88. Code 2 = (6*200 + 100) / 7 = 185, code 7 = (200 + 6*100) / 7 = 114.
TEST(Dxt, Bc4SixValueModeAsGrey) {
  const std::uint8_t b[8] = {200, 100, 0x88, 0x0E, 0, 0, 0, 0};
  auto img = decode_blocks(BlockFormat::bc4, b, 4, 4);
  ASSERT_TRUE(img.ok());
  EXPECT_EQ(px(*img, 0, 0), (C{200, 200, 200, 255}));
  EXPECT_EQ(px(*img, 1, 0), (C{100, 100, 100, 255}));
  EXPECT_EQ(px(*img, 2, 0), (C{185, 185, 185, 255}));
  EXPECT_EQ(px(*img, 3, 0), (C{114, 114, 114, 255}));
  EXPECT_EQ(px(*img, 3, 3), (C{200, 200, 200, 255}));
}

// e0 = 10 <= e1 = 20: codes 6 and 7 are 0 and 255, code 2 = (4*10 + 20) / 5 = 12. Texels 0..2
// take codes 6, 7, 2: 6 | 7 << 3 | 2 << 6 = 0xBE.
TEST(Dxt, Bc4FourValueModeWithBlackAndWhite) {
  const std::uint8_t b[8] = {10, 20, 0xBE, 0, 0, 0, 0, 0};
  auto img = decode_blocks(BlockFormat::bc4, b, 4, 4);
  ASSERT_TRUE(img.ok());
  EXPECT_EQ(px(*img, 0, 0)[0], 0);
  EXPECT_EQ(px(*img, 1, 0)[0], 255);
  EXPECT_EQ(px(*img, 2, 0)[0], 12);
  EXPECT_EQ(px(*img, 3, 0)[0], 10);
}

// BC5: red block then green block. Red 255 everywhere but texel 1 (code 1 = e1 = 128), green 128:
// x = 255/127.5 - 1 = 1 leaves no z (blue 127.5 -> 128); x = y = 128/127.5 - 1 = 0.0039 gives
// z = 0.99998 -> 255.
TEST(Dxt, Bc5RedGreenAndTheNormalsZ) {
  const std::uint8_t b[16] = {255, 128, 0x08, 0, 0, 0, 0, 0, 128, 0, 0, 0, 0, 0, 0, 0};
  auto img = decode_blocks(BlockFormat::bc5, b, 4, 4);
  ASSERT_TRUE(img.ok());
  EXPECT_EQ(px(*img, 0, 0), (C{255, 128, 128, 255}));
  EXPECT_EQ(px(*img, 1, 0), (C{128, 128, 255, 255}));
  std::uint64_t n = 0;
  EXPECT_TRUE(block_level_size(BlockFormat::bc5, 8, 4, n));
  EXPECT_EQ(n, 32u);
  EXPECT_TRUE(block_level_size(BlockFormat::bc4, 8, 4, n));
  EXPECT_EQ(n, 16u);
  EXPECT_FALSE(decode_blocks(BlockFormat::bc5, ByteView(b, 15), 4, 4).ok());
}

TEST(Dxt, SmallLevelsCropWholeBlocks) {
  const std::uint8_t b[8] = {0x00, 0xF8, 0x1F, 0x00, 0xE4, 0xE4, 0xE4, 0xE4};
  auto img = decode_blocks(BlockFormat::bc1, b, 2, 1);
  ASSERT_TRUE(img.ok());
  EXPECT_EQ(img->pixels.size(), 8u);
  EXPECT_EQ(px(*img, 1, 0), (C{0, 0, 255, 255}));
  std::uint64_t n = 0;
  ASSERT_TRUE(block_level_size(BlockFormat::bc1, 1, 1, n));
  EXPECT_EQ(n, 8u);
  ASSERT_TRUE(block_level_size(BlockFormat::bc3, 64, 64, n));
  EXPECT_EQ(n, 4096u);  // spec #rw-6-2: 64 x 64 DXT5 = 4,096
  ASSERT_TRUE(block_level_size(BlockFormat::bc1, 128, 128, n));
  EXPECT_EQ(n, 8192u);
  EXPECT_FALSE(decode_blocks(BlockFormat::bc1, ByteView(b, 7), 4, 4).ok());
  EXPECT_FALSE(decode_blocks(BlockFormat::bc2, ByteView(b, 8), 4, 4).ok());
}

TEST(D3dPixels, ByteOrders) {
  const std::uint8_t bgra[4] = {1, 2, 3, 4};
  EXPECT_EQ(px(*decode_pixels(PixelFormat::bgra8888, bgra, 1, 1), 0, 0), (C{3, 2, 1, 4}));
  EXPECT_EQ(px(*decode_pixels(PixelFormat::bgrx8888, bgra, 1, 1), 0, 0), (C{3, 2, 1, 255}));
  const std::uint8_t r565[2] = {0x00, 0xF8}, g565[2] = {0xE0, 0x07};
  EXPECT_EQ(px(*decode_pixels(PixelFormat::r5g6b5, r565, 1, 1), 0, 0), (C{255, 0, 0, 255}));
  EXPECT_EQ(px(*decode_pixels(PixelFormat::r5g6b5, g565, 1, 1), 0, 0), (C{0, 255, 0, 255}));
  const std::uint8_t a1r[2] = {0x00, 0xFC}, b0[2] = {0x1F, 0x00};
  EXPECT_EQ(px(*decode_pixels(PixelFormat::a1r5g5b5, a1r, 1, 1), 0, 0), (C{255, 0, 0, 255}));
  EXPECT_EQ(px(*decode_pixels(PixelFormat::a1r5g5b5, b0, 1, 1), 0, 0), (C{0, 0, 255, 0}));
  EXPECT_EQ(px(*decode_pixels(PixelFormat::x1r5g5b5, b0, 1, 1), 0, 0), (C{0, 0, 255, 255}));
  const std::uint8_t argb4[2] = {0x0F, 0xF0};  // a 15, r 0, g 0, b 15
  EXPECT_EQ(px(*decode_pixels(PixelFormat::a4r4g4b4, argb4, 1, 1), 0, 0), (C{0, 0, 255, 255}));
  const std::uint8_t al[2] = {0x40, 0x80};
  EXPECT_EQ(px(*decode_pixels(PixelFormat::a8l8, al, 1, 1), 0, 0), (C{0x40, 0x40, 0x40, 0x80}));
  EXPECT_FALSE(decode_pixels(PixelFormat::bgra8888, bgra, 2, 1).ok());
}

TEST(Dxt, Bc1EncoderRoundTripsFlatBlocks) {
  Rgba img{8, 4, ByteBuffer(8 * 4 * 4)};
  for (std::uint32_t y = 0; y < 4; ++y)
    for (std::uint32_t x = 0; x < 8; ++x) {
      std::uint8_t* p = img.pixels.data() + (y * 8 + x) * 4;
      p[0] = x < 4 ? 255 : 0, p[1] = 0, p[2] = x < 4 ? 0 : 255, p[3] = 255;  // exact 565 colours
    }
  const ByteBuffer bc = encode_bc1(img);
  ASSERT_EQ(bc.size(), 16u);
  auto back = decode_blocks(BlockFormat::bc1, bc, 8, 4);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->pixels, img.pixels);
}

// A reference BC1-BC3 decoder written from the spec, texel by texel (#rw-6-4: R5G6B5 endpoints with
// their bits repeated, 2/3-1/3 and 1/2 mixes, BC1's transparent black when c0 <= c1, BC2's 4-bit
// alphas x 17, BC3's 8- or 6-value alpha ramps), against decode_blocks on random blocks of every
// mode and images whose sizes crop the last blocks.
C reference_texel(BlockFormat f, const std::uint8_t* blk, int k) {
  const std::uint8_t* cb = f == BlockFormat::bc1 ? blk : blk + 8;
  const int c0 = cb[0] | cb[1] << 8, c1 = cb[2] | cb[3] << 8;
  const int idx = (cb[4 + k / 4] >> (2 * (k % 4))) & 3;
  auto rgb = [](int c) {
    const int r = c >> 11, g = (c >> 5) & 63, b = c & 31;
    return std::array<int, 3>{r << 3 | r >> 2, g << 2 | g >> 4, b << 3 | b >> 2};
  };
  const auto e0 = rgb(c0), e1 = rgb(c1);
  C out{0, 0, 0, 255};
  const bool four = f != BlockFormat::bc1 || c0 > c1;
  for (int i = 0; i < 3; ++i) {
    if (idx == 0) out[i] = e0[i];
    if (idx == 1) out[i] = e1[i];
    if (idx == 2) out[i] = four ? (2 * e0[i] + e1[i]) / 3 : (e0[i] + e1[i]) / 2;
    if (idx == 3) out[i] = four ? (e0[i] + 2 * e1[i]) / 3 : 0;
  }
  if (!four && idx == 3) out[3] = 0;
  if (f == BlockFormat::bc2) out[3] = ((blk[k / 2] >> (4 * (k % 2))) & 15) * 17;
  if (f == BlockFormat::bc3) {
    const int a0 = blk[0], a1 = blk[1];
    std::uint64_t bits = 0;
    for (int i = 0; i < 6; ++i) bits |= std::uint64_t{blk[2 + i]} << (8 * i);
    const int code = static_cast<int>((bits >> (3 * k)) & 7);
    if (code == 0) out[3] = a0;
    else if (code == 1) out[3] = a1;
    else if (a0 > a1) out[3] = ((8 - code) * a0 + (code - 1) * a1) / 7;
    else if (code < 6) out[3] = ((6 - code) * a0 + (code - 1) * a1) / 5;
    else out[3] = code == 6 ? 0 : 255;
  }
  return out;
}

TEST(Dxt, WordPathMatchesAReferenceDecoder) {
  std::mt19937 rng(3);
  for (const BlockFormat f : {BlockFormat::bc1, BlockFormat::bc2, BlockFormat::bc3})
    for (const auto& [w, h] : {std::pair{16u, 12u}, std::pair{13u, 7u}, std::pair{1u, 1u}, std::pair{6u, 2u}}) {
      const std::uint32_t bw = (w + 3) / 4, bh = (h + 3) / 4, size = f == BlockFormat::bc1 ? 8 : 16;
      std::vector<std::uint8_t> src(std::size_t{bw} * bh * size);
      for (auto& b : src) b = static_cast<std::uint8_t>(rng());
      for (std::size_t i = 0; i + size <= src.size(); i += 2 * size) {  // every other block swaps its endpoints
        std::uint8_t* cb = src.data() + i + (f == BlockFormat::bc1 ? 0 : 8);
        std::swap(cb[0], cb[2]);
        std::swap(cb[1], cb[3]);
        if (f == BlockFormat::bc3) std::swap(src[i], src[i + 1]);
      }
      auto img = decode_blocks(f, src, w, h);
      ASSERT_TRUE(img.ok());
      for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) {
          const std::uint8_t* blk = src.data() + (std::size_t{y / 4} * bw + x / 4) * size;
          ASSERT_EQ(px(*img, x, y), reference_texel(f, blk, static_cast<int>((y % 4) * 4 + x % 4)))
              << "format " << static_cast<int>(f) << " " << w << "x" << h << " at " << x << "," << y;
        }
    }
}

// decode_block_rows gives, band by band, the texels the reference decoder above gives (random BC1-BC3
// blocks of both modes; 13 x 10 crops partial blocks, bands of 4 and 8 rows end on the short last
// block row), and refuses bands that are not whole block rows and BC4/BC5.
TEST(Dxt, BlockRowsMatchTheReferenceDecoder) {
  std::mt19937 rng(5);
  for (const BlockFormat f : {BlockFormat::bc1, BlockFormat::bc2, BlockFormat::bc3})
    for (const std::uint32_t band : {4u, 8u}) {
      const std::uint32_t w = 13, h = 10, bw = 4, bh = 3, size = f == BlockFormat::bc1 ? 8 : 16;
      std::vector<std::uint8_t> src(std::size_t{bw} * bh * size);
      for (auto& b : src) b = static_cast<std::uint8_t>(rng());
      for (std::uint32_t y0 = 0; y0 < h; y0 += band) {
        const std::uint32_t y1 = std::min(h, y0 + band);
        std::vector<std::uint8_t> rows(std::size_t{w} * 4 * (y1 - y0), 0xAB);
        ASSERT_TRUE(decode_block_rows(f, src, w, h, y0, y1, rows.data()).ok());
        for (std::uint32_t y = y0; y < y1; ++y)
          for (std::uint32_t x = 0; x < w; ++x) {
            const std::uint8_t* blk = src.data() + (std::size_t{y / 4} * bw + x / 4) * size;
            const std::uint8_t* p = rows.data() + (std::size_t{y - y0} * w + x) * 4;
            ASSERT_EQ((std::array<int, 4>{p[0], p[1], p[2], p[3]}), reference_texel(f, blk, static_cast<int>((y % 4) * 4 + x % 4)))
                << "format " << static_cast<int>(f) << " band " << band << " at " << x << "," << y;
          }
      }
      std::vector<std::uint8_t> rows(std::size_t{w} * 4 * 8);
      EXPECT_FALSE(decode_block_rows(f, src, w, h, 2, 6, rows.data()).ok());
      EXPECT_FALSE(decode_block_rows(f, src, w, h, 0, 6, rows.data()).ok());
      EXPECT_FALSE(decode_block_rows(f, ByteView(src.data(), src.size() - 1), w, h, 0, 4, rows.data()).ok());
    }
  std::vector<std::uint8_t> bc4(8 * 4), rows(4 * 4 * 4);
  EXPECT_FALSE(decode_block_rows(BlockFormat::bc4, bc4, 4, 4, 0, 4, rows.data()).ok());
}

}  // namespace
}  // namespace assay::image
