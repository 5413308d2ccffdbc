// Texture encoders (issue 16) checked against hand-computed texels and by decoding their output
// with our decoders (spec: renderware.md#rw-6-2 byte orders, #rw-6-4 blocks).
#include <gtest/gtest.h>

#include <cmath>

#include "assay/core/hash.h"
#include "assay/image/encode.h"
#include "image/generated_images.h"

namespace assay::image {
namespace {

Rgba solid(std::uint32_t w, std::uint32_t h, std::uint8_t r, std::uint8_t g, std::uint8_t b, std::uint8_t a) {
  Rgba img{w, h, ByteBuffer(std::size_t{w} * h * 4)};
  for (std::size_t i = 0; i < img.pixels.size(); i += 4)
    img.pixels[i] = r, img.pixels[i + 1] = g, img.pixels[i + 2] = b, img.pixels[i + 3] = a;
  return img;
}

ByteBuffer enc(PixelFormat f, const Rgba& img) {
  auto r = encode_pixels(f, img);
  EXPECT_TRUE(r.ok());
  return r ? *r : ByteBuffer{};
}

TEST(EncodePixels, HandComputedTexels) {
  const Rgba p = solid(1, 1, 0x12, 0x34, 0x56, 0x78);
  EXPECT_EQ(enc(PixelFormat::bgra8888, p), (ByteBuffer{0x56, 0x34, 0x12, 0x78}));  // B G R A
  EXPECT_EQ(enc(PixelFormat::bgrx8888, p), (ByteBuffer{0x56, 0x34, 0x12, 0xFF}));
  EXPECT_EQ(enc(PixelFormat::r5g6b5, solid(1, 1, 255, 0, 0, 255)), (ByteBuffer{0x00, 0xF8}));  // 0xF800
  EXPECT_EQ(enc(PixelFormat::r5g6b5, solid(1, 1, 0, 255, 0, 255)), (ByteBuffer{0xE0, 0x07}));  // 0x07E0
  EXPECT_EQ(enc(PixelFormat::a1r5g5b5, solid(1, 1, 255, 255, 255, 0)), (ByteBuffer{0xFF, 0x7F}));
  EXPECT_EQ(enc(PixelFormat::a1r5g5b5, solid(1, 1, 0, 0, 255, 128)), (ByteBuffer{0x1F, 0x80}));
  EXPECT_EQ(enc(PixelFormat::x1r5g5b5, solid(1, 1, 0, 0, 0, 0)), (ByteBuffer{0x00, 0x80}));
  EXPECT_EQ(enc(PixelFormat::a4r4g4b4, solid(1, 1, 255, 0, 0, 255)), (ByteBuffer{0x00, 0xFF}));  // 0xFF00
  // 0x88 = 136: 136 * 15 / 255 = 8 -> nibble 8; 0x44 = 68 -> 4
  EXPECT_EQ(enc(PixelFormat::a4r4g4b4, solid(1, 1, 0x44, 0x88, 0x44, 0x88)), (ByteBuffer{0x84, 0x84}));
  auto bgr = encode_bgr888(p);
  ASSERT_TRUE(bgr.ok());
  EXPECT_EQ(*bgr, (ByteBuffer{0x56, 0x34, 0x12}));
}

// Every channel value: encode -> decode -> encode gives the same texels (the reduction is
// idempotent), and the decoded value is within half a step of the source.
TEST(EncodePixels, ReductionIsIdempotentAndNearest) {
  Rgba ramp{256, 1, ByteBuffer(256 * 4)};
  for (int v = 0; v < 256; ++v)
    for (int c = 0; c < 4; ++c) ramp.pixels[4 * v + c] = static_cast<std::uint8_t>(v);
  for (auto f : {PixelFormat::r5g6b5, PixelFormat::x1r5g5b5, PixelFormat::a1r5g5b5, PixelFormat::a4r4g4b4}) {
    const Rgba once = reduce_pixels(f, ramp);
    ASSERT_EQ(once.pixels.size(), ramp.pixels.size());
    EXPECT_EQ(reduce_pixels(f, once).pixels, once.pixels);
    EXPECT_EQ(enc(f, once), enc(f, ramp));
    const double step = f == PixelFormat::a4r4g4b4 ? 17.0 : 255.0 / 31.0;
    for (int v = 0; v < 256; ++v) EXPECT_LE(std::abs(int{once.pixels[4 * v]} - v), step / 2 + 1) << v;
  }
  EXPECT_EQ(reduce_pixels(PixelFormat::bgra8888, ramp).pixels, ramp.pixels);  // lossless
}

TEST(EncodePixels, RefusesMisSizedImage) {
  Rgba bad{4, 4, ByteBuffer(10)};
  EXPECT_FALSE(encode_pixels(PixelFormat::bgra8888, bad).ok());
  EXPECT_FALSE(encode_blocks(BlockFormat::bc1, bad).ok());
  EXPECT_FALSE(encode_pixels(PixelFormat::r5g6b5, Rgba{}).ok());
}

TEST(Psnr, KnownMse) {
  const Rgba a = solid(8, 8, 10, 10, 10, 10), b = solid(8, 8, 11, 11, 11, 11);
  EXPECT_NEAR(psnr(a, b), 10 * std::log10(255.0 * 255.0), 1e-9);  // MSE 1: 48.13 dB
  EXPECT_TRUE(std::isinf(psnr(a, a)));
  EXPECT_LT(psnr(a, solid(4, 4, 0, 0, 0, 0)), 0);
}

// ---- DXT ----

TEST(EncodeBlocks, SolidRepresentableColourIsExact) {
  // 0xF800 expands to (255, 0, 0): a single-colour block reproduces it exactly.
  const Rgba red = solid(8, 8, 255, 0, 0, 255);
  for (auto f : {BlockFormat::bc1, BlockFormat::bc2, BlockFormat::bc3}) {
    auto blocks = encode_blocks(f, red);
    ASSERT_TRUE(blocks.ok());
    std::uint64_t size = 0;
    ASSERT_TRUE(block_level_size(f, 8, 8, size));
    EXPECT_EQ(blocks->size(), size);  // 4 blocks of 8 or 16 bytes
    auto back = decode_blocks(f, *blocks, 8, 8);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->pixels, red.pixels);
  }
}

// BC4 keeps the red channel (decoded as grey), BC5 red and green: a flat value is exact.
TEST(EncodeBlocks, Bc4AndBc5KeepRedAndGreen) {
  const Rgba img = solid(8, 8, 200, 60, 0, 255);
  auto bc4 = encode_blocks(BlockFormat::bc4, img);
  ASSERT_TRUE(bc4.ok());
  EXPECT_EQ(bc4->size(), 32u);  // 4 blocks of 8 bytes
  auto grey = decode_blocks(BlockFormat::bc4, *bc4, 8, 8);
  ASSERT_TRUE(grey.ok());
  EXPECT_EQ(grey->pixels, solid(8, 8, 200, 200, 200, 255).pixels);
  auto bc5 = encode_blocks(BlockFormat::bc5, img);
  ASSERT_TRUE(bc5.ok());
  EXPECT_EQ(bc5->size(), 64u);
  auto back = decode_blocks(BlockFormat::bc5, *bc5, 8, 8);
  ASSERT_TRUE(back.ok());
  for (std::size_t k = 0; k < 64; ++k) {
    EXPECT_EQ(back->pixels[4 * k], 200);
    EXPECT_EQ(back->pixels[4 * k + 1], 60);
  }
}

TEST(EncodeBlocks, Dxt1TransparentPixelsDecodeTransparent) {
  Rgba img = solid(4, 4, 0, 0, 255, 255);
  img.pixels[3] = 0;  // pixel (0, 0) transparent
  auto blocks = encode_blocks(BlockFormat::bc1, img);
  ASSERT_TRUE(blocks.ok());
  auto back = decode_blocks(BlockFormat::bc1, *blocks, 4, 4);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->pixels[3], 0);
  EXPECT_EQ(back->pixels[7], 255);
  // three-colour mode: colour0 <= colour1 (renderware.md#rw-6-4)
  EXPECT_LE(load<std::uint16_t>(blocks->data(), Endian::little), load<std::uint16_t>(blocks->data() + 2, Endian::little));
}

// PSNR bars on the generated photographic-like image (figures in docs/textures.md).
TEST(EncodeBlocks, PsnrOnPhotographicImage) {
  const Rgba photo = testimg::photo(256, 256, false);
  const Rgba alpha = testimg::photo(256, 256, true);
  struct Case { BlockFormat f; const Rgba* img; double bar; };
  for (const Case& c : {Case{BlockFormat::bc1, &photo, 40.0}, Case{BlockFormat::bc2, &alpha, 36.0},
                        Case{BlockFormat::bc3, &alpha, 40.0}}) {
    auto blocks = encode_blocks(c.f, *c.img);
    ASSERT_TRUE(blocks.ok());
    auto back = decode_blocks(c.f, *blocks, 256, 256);
    ASSERT_TRUE(back.ok());
    EXPECT_GE(psnr(*c.img, *back), c.bar) << static_cast<int>(c.f);
  }
}

TEST(EncodeBlocks, ThreadCountDoesNotChangeOutput) {
  const Rgba img = testimg::photo(64, 200, true);  // 50 block rows: several bands, a short last one
  auto one = encode_blocks(BlockFormat::bc3, img, {DxtQuality::normal, true, 1});
  auto many = encode_blocks(BlockFormat::bc3, img, {DxtQuality::normal, true, 4});
  ASSERT_TRUE(one.ok() && many.ok());
  EXPECT_EQ(*one, *many);
}

// ---- Mips ----

TEST(Downscale, TwoByTwoMeanRounded) {
  Rgba img{2, 2, {0, 0, 0, 255, 255, 255, 255, 255, 10, 20, 30, 255, 11, 21, 31, 255}};
  auto out = downscale(img, 1, 1);
  ASSERT_TRUE(out.ok());
  // (0 + 255 + 10 + 11) / 4 = 69; (0 + 255 + 20 + 21) / 4 = 74; (0 + 255 + 30 + 31) / 4 = 79
  EXPECT_EQ(out->pixels, (ByteBuffer{69, 74, 79, 255}));
}

TEST(Downscale, ColourWeightedByAlpha) {
  Rgba img{2, 1, {255, 0, 0, 255, 0, 255, 0, 0}};  // opaque red, transparent green
  auto out = downscale(img, 1, 1);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->pixels, (ByteBuffer{255, 0, 0, 128}));  // red, not olive; alpha 127.5 -> 128
}

TEST(Downscale, AreaCoverageOnNonIntegerRatio) {
  Rgba img{3, 1, {0, 0, 0, 255, 90, 90, 90, 255, 180, 180, 180, 255}};
  auto out = downscale(img, 2, 1);
  ASSERT_TRUE(out.ok());
  // cell 0 covers [0, 1.5): (0 + 0.5 * 90) / 1.5 = 30; cell 1 covers [1.5, 3): (45 + 180) / 1.5 = 150
  EXPECT_EQ(out->pixels, (ByteBuffer{30, 30, 30, 255, 150, 150, 150, 255}));
  EXPECT_FALSE(downscale(img, 4, 1).ok());  // no upscaling
}

TEST(MipChain, SizesAndLevels) {
  EXPECT_EQ(full_mip_count(256, 64), 9u);
  EXPECT_EQ(full_mip_count(1, 1), 1u);
  EXPECT_EQ(full_mip_count(0, 0), 0u);
  const Rgba top = solid(8, 2, 1, 2, 3, 4);
  auto chain = mip_chain(top, 10);
  ASSERT_TRUE(chain.ok());
  ASSERT_EQ(chain->size(), 4u);  // 8x2, 4x1, 2x1, 1x1
  EXPECT_EQ((*chain)[1].width, 4u);
  EXPECT_EQ((*chain)[1].height, 1u);
  EXPECT_EQ((*chain)[3].width, 1u);
  EXPECT_EQ((*chain)[3].pixels, (ByteBuffer{1, 2, 3, 4}));  // a solid image stays solid
}

// ---- Palettes ----

TEST(Quantize, FewColoursAreExact) {
  const Rgba img = testimg::few_colours(32, 16, 12);
  auto q = quantize({img}, {16, 1.0f, 4});
  ASSERT_TRUE(q.ok());
  EXPECT_TRUE(q->exact);
  EXPECT_EQ(q->palette.size(), 12u);
  ASSERT_EQ(q->levels.size(), 1u);
  for (std::size_t i = 0; i < q->levels[0].size(); ++i) {
    const std::uint32_t c = q->palette[q->levels[0][i]];
    for (int k = 0; k < 4; ++k) ASSERT_EQ((c >> (8 * k)) & 0xFF, img.pixels[4 * i + k]);
  }
}

Rgba expand(const PalettedImage& q, std::size_t level, std::uint32_t w, std::uint32_t h) {
  Rgba out{w, h, ByteBuffer(std::size_t{w} * h * 4)};
  for (std::size_t i = 0; i < std::size_t{w} * h; ++i)
    for (int k = 0; k < 4; ++k) out.pixels[4 * i + k] = static_cast<std::uint8_t>(q.palette[q.levels[level][i]] >> (8 * k));
  return out;
}

// The bar: PAL8 >= 35 dB on a photographic image (figures in docs/textures.md).
TEST(Quantize, Pal8PsnrOnPhotographicImage) {
  const Rgba img = testimg::photo(256, 256);
  for (float dither : {0.0f, 1.0f}) {
    auto q = quantize({img}, {256, dither, 4});
    ASSERT_TRUE(q.ok());
    EXPECT_FALSE(q->exact);
    EXPECT_LE(q->palette.size(), 256u);
    EXPECT_GE(psnr(img, expand(*q, 0, 256, 256)), 37.0) << dither;  // measured 40.4 / 39.7
  }
  auto q16 = quantize({img}, {16, 1.0f, 4});
  ASSERT_TRUE(q16.ok());
  EXPECT_LE(q16->palette.size(), 16u);
  EXPECT_GE(psnr(img, expand(*q16, 0, 256, 256)), 26.0);  // measured 27.9
}

TEST(Quantize, OnePaletteForEveryMip) {
  auto chain = mip_chain(testimg::photo(64, 64), 7);
  ASSERT_TRUE(chain.ok());
  auto q = quantize(*chain, {256, 1.0f, 4});
  ASSERT_TRUE(q.ok());
  ASSERT_EQ(q->levels.size(), 7u);
  EXPECT_EQ(q->levels[6].size(), 1u);
  EXPECT_EQ(q->levels[1].size(), 32u * 32);
  EXPECT_FALSE(quantize(*chain, {300, 1.0f, 4}).ok());
}

// ---- PNG input ----

// A PNG signature + IHDR chunk with a valid CRC (PNG spec 11.2.2) and no image data.
ByteBuffer png_header(std::uint32_t w, std::uint32_t h) {
  ByteBuffer b = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
  const std::uint8_t tail[5] = {8, 6, 0, 0, 0};  // 8-bit RGBA
  for (std::uint32_t v : {w, h})
    for (int s = 24; s >= 0; s -= 8) b.push_back(static_cast<std::uint8_t>(v >> s));
  b.insert(b.end(), tail, tail + 5);
  const std::uint32_t crc = crc32(ByteView(b.data() + 12, 17));
  for (int s = 24; s >= 0; s -= 8) b.push_back(static_cast<std::uint8_t>(crc >> s));
  return b;
}

TEST(ReadPng, BombRefusedBeforeDecoding) {
  auto r = read_png(png_header(100000, 100000));  // 10^10 pixels declared in 33 bytes
  ASSERT_FALSE(r.ok());
  const std::string msg = r.error().str();
  EXPECT_NE(msg.find("100000 x 100000"), std::string::npos) << msg;
  EXPECT_NE(msg.find("8192"), std::string::npos) << msg;
  auto small = read_png(png_header(64, 64), PngLimits{32, 32, 1024});
  EXPECT_FALSE(small.ok());
}

TEST(ReadPng, DecodesWhatWeWrite) {
  const Rgba img = testimg::photo(37, 11, true);
  auto png = encode_png(img);
  ASSERT_TRUE(png.ok());
  auto back = read_png(*png);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->width, 37u);
  EXPECT_EQ(back->pixels, img.pixels);
  EXPECT_FALSE(read_png(ByteView(png->data(), 20)).ok());  // truncated
}

}  // namespace
}  // namespace assay::image
