// igImage2 textures in the console tilings (issue #28 item 1; include/assay/image/tiling.h): an igz
// built by our own writer holds texels placed at offsets worked out by hand from the published
// address formulas (tests/image/tiling_test.cc shows the arithmetic), Container::texture() gives
// them back at their (x, y), `assay replace` encodes into the same layout exactly for a lossless
// format, and every such entry says what its decoding assumed.
#include <gtest/gtest.h>

#include <array>
#include <random>

#include "assay/container.h"
#include "assay/image/png.h"
#include "formats/serialise.h"
#include "image_fixture.h"
#include "testing/testing.h"

namespace assay::igz {
namespace tiled_image_test {
namespace {

namespace fs = std::filesystem;
using A = std::array<int, 4>;

std::unique_ptr<Container> open_spec(const fixtures::ImageSpec& s) { return fixtures::open_image_igz(fixtures::build_image_igz(s)); }
using fixtures::texture_entry;

A px(const image::Rgba& img, std::uint32_t x, std::uint32_t y) {
  const std::uint8_t* p = img.pixels.data() + (std::uint64_t{y} * img.width + x) * 4;
  return {p[0], p[1], p[2], p[3]};
}

// r8g8b8a8 "_big": the word R | G << 8 | B << 16 | A << 24 stored big-endian: bytes A, B, G, R.
void put_rgba_big(ByteBuffer& b, std::uint64_t at, A c) {
  b[at] = static_cast<std::uint8_t>(c[3]), b[at + 1] = static_cast<std::uint8_t>(c[2]);
  b[at + 2] = static_cast<std::uint8_t>(c[1]), b[at + 3] = static_cast<std::uint8_t>(c[0]);
}

// The texture of a fixture igz replaced by `img` through the CLI, then decoded again.
Result<image::Rgba> replace_and_decode(const fixtures::ImageSpec& s, const image::Rgba& img) {
  testing::TempDir t;
  auto igz = fixtures::build_image_igz(s);
  if (!igz) return igz.error();
  testing::write_file(t / "in.igz", *igz);
  ASSAY_TRY(ByteBuffer png, image::encode_png(img));
  testing::write_file(t / "new.png", png);
  auto c = open_spec(s);
  const std::string name = texture_entry(*c)->path;
  auto r = testing::run_cli("replace " + testing::quote_path(t / "in.igz") + " -o " + testing::quote_path(t / "out.igz") + " " +
                            name + "=" + testing::quote_path(t / "new.png"));
  if (r.exit_code != 0) return make_error("test", "replace", kNoOffset, r.err);
  ASSAY_TRY(auto out, open_path((t / "out.igz").string()));
  return out->texture(*texture_entry(*out), 0);
}

image::Rgba random_rgba(std::uint32_t w, std::uint32_t h, unsigned seed) {
  std::mt19937 rng(seed);
  image::Rgba img{w, h, ByteBuffer(std::uint64_t{w} * h * 4)};
  for (auto& b : img.pixels) b = static_cast<std::uint8_t>(rng());
  return img;
}

// ---- Xbox 360 ----

// 40 x 8 r8g8b8a8: pitch padded to 64, height to 32: 64 * 32 * 4 = 8192 bytes. Offsets (L = 2) by
// hand: (3,2) -> 268, (33,1) -> 4116, (5,9) is outside; (39,7) -> 4924, (1,0) -> 4, (0,1) -> 16, (8,0) -> 64.
TEST(IgzTiled, XenonPixelsAtTheirHandOffsets) {
  fixtures::ImageSpec s;
  s.format = "r8g8b8a8_tile_big_xenon", s.width = 40, s.height = 8, s.pixels = ByteBuffer(8192);
  const std::pair<std::array<std::uint32_t, 2>, std::uint64_t> placed[] = {
      {{1, 0}, 4}, {{0, 1}, 16}, {{8, 0}, 64}, {{3, 2}, 268}, {{33, 1}, 4116}, {{39, 7}, 4924}};
  for (const auto& [xy, at] : placed) put_rgba_big(s.pixels, at, A{int(xy[0]), int(xy[1]), 0x5A, 0xC3});
  auto c = open_spec(s);
  ASSERT_TRUE(c);
  auto img = c->texture(*texture_entry(*c), 0);
  ASSERT_TRUE(img.ok()) << img.error().str();
  for (const auto& [xy, at] : placed) EXPECT_EQ(px(*img, xy[0], xy[1]), (A{int(xy[0]), int(xy[1]), 0x5A, 0xC3})) << at;
  EXPECT_EQ(px(*img, 0, 0), (A{0, 0, 0, 0}));
  EXPECT_EQ(px(*img, 2, 0), (A{0, 0, 0, 0}));
  const Json d = details_json(*c, *texture_entry(*c));
  EXPECT_EQ(d["data_needed"], 8192);
  EXPECT_NE(d.value("assumed", "").find("Xbox 360 2D tiling"), std::string::npos) << d.dump();
}

// DXT1 8 x 8 (2 x 2 blocks, padded to 32 x 32 blocks: 8192 bytes): block (1,1) at 8 + 16 = 24,
// its 16-bit words byte-swapped. The block is zap.pak's block 432, hand-decoded in image_test.cc.
TEST(IgzTiled, XenonDxtBlockSwappedAndPlaced) {
  fixtures::ImageSpec s;
  s.format = "dxt1_tile_big_xenon", s.width = 8, s.height = 8, s.pixels = ByteBuffer(8192);
  const std::uint8_t swapped[8] = {0x3b, 0xa8, 0x19, 0x83, 0xff, 0x55, 0x00, 0xaa};  // a8 3b 83 19 55 ff aa 00
  std::copy(std::begin(swapped), std::end(swapped), s.pixels.begin() + 24);
  auto c = open_spec(s);
  ASSERT_TRUE(c);
  auto img = c->texture(*texture_entry(*c), 0);
  ASSERT_TRUE(img.ok()) << img.error().str();
  for (std::uint32_t x = 4; x < 8; ++x) {
    EXPECT_EQ(px(*img, x, 4), (A{24, 48, 24, 255}));
    EXPECT_EQ(px(*img, x, 5), (A{35, 71, 38, 255}));
    EXPECT_EQ(px(*img, x, 6), (A{46, 94, 52, 255}));
    EXPECT_EQ(px(*img, x, 7), (A{57, 117, 66, 255}));
  }
  EXPECT_EQ(px(*img, 0, 0), (A{0, 0, 0, 255}));  // an all-zero block: colour 0 black
  // The same block untiled ("dxt1_big_xenon"): 2 x 2 blocks in row order, block 3 at 24.
  s.format = "dxt1_big_xenon", s.pixels = ByteBuffer(32);
  std::copy(std::begin(swapped), std::end(swapped), s.pixels.begin() + 24);
  auto u = open_spec(s);
  auto ui = u->texture(*texture_entry(*u), 0);
  ASSERT_TRUE(ui.ok()) << ui.error().str();
  EXPECT_EQ(px(*ui, 5, 7), (A{57, 117, 66, 255}));
}

TEST(IgzTiled, XenonReplaceIsExactAndMipsSaySo) {
  fixtures::ImageSpec s;
  s.format = "r8g8b8a8_tile_big_xenon", s.width = 40, s.height = 8, s.pixels = ByteBuffer(8192);
  const image::Rgba want = random_rgba(40, 8, 360);
  auto back = replace_and_decode(s, want);
  ASSERT_TRUE(back.ok()) << back.error().str();
  EXPECT_EQ(back->pixels, want.pixels);
  // Two levels: the top one decodes, the second is a clear "not decoded".
  s.levels = 2;
  auto c = open_spec(s);
  ASSERT_TRUE(c->texture(*texture_entry(*c), 0).ok());
  auto m = c->texture(*texture_entry(*c), 1);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().kind, ErrorKind::unsupported);
  EXPECT_NE(m.error().message.find("not decoded: format r8g8b8a8_tile_big_xenon"), std::string::npos) << m.error().str();
  EXPECT_NE(details_json(*c, *texture_entry(*c)).value("not_decoded", "").find("only the top level"), std::string::npos);
}

// ---- Switch ----

// 20 x 20 r8g8b8a8, 2 levels. Level 0: 80 bytes a row -> 2 GOBs wide; block height 2 GOBs
// (20 + 10 = 30 >= 16); rows padded to 32: 2 * 64 * 32 = 4096 bytes. Level 1 (10 x 10): 40 bytes -> 1
// GOB; its block height stays 2 (10 rows do not fit in half a block of 16); 16 rows: 1024 bytes, at 4096.
// Offsets by hand (x_byte = 4x): (1,0) -> 4, (4,0) -> 32, (0,1) -> 16, (8,0) -> 256, (16,0) -> the
// second block, 1024; (3,9) -> GOB 1 of the block 512 + 16 + 12 = 540; (19,19) -> block 3 (3072)
// + 64 + 16 + 12 = 3164; level 1 (9,9) -> 4096 + 512 + 256 + 16 + 4 = 4884.
TEST(IgzTiled, SwitchBlockLinearLevels) {
  fixtures::ImageSpec s;
  s.format = "r8g8b8a8_tile_nx", s.width = 20, s.height = 20, s.levels = 2, s.pixels = ByteBuffer(5120);
  const std::pair<std::array<std::uint32_t, 2>, std::uint64_t> top[] = {
      {{1, 0}, 4}, {{4, 0}, 32}, {{0, 1}, 16}, {{8, 0}, 256}, {{16, 0}, 1024}, {{3, 9}, 540}, {{19, 19}, 3164}};
  const auto put = [&](std::uint64_t at, A c) {
    for (int k = 0; k < 4; ++k) s.pixels[at + k] = static_cast<std::uint8_t>(c[k]);  // little-endian: R, G, B, A
  };
  for (const auto& [xy, at] : top) put(at, A{int(xy[0]), int(xy[1]), 0x11, 0xEE});
  put(4884, A{9, 9, 0x22, 0xDD});
  auto c = open_spec(s);
  ASSERT_TRUE(c);
  const Entry& e = *texture_entry(*c);
  auto img = c->texture(e, 0);
  ASSERT_TRUE(img.ok()) << img.error().str();
  for (const auto& [xy, at] : top) EXPECT_EQ(px(*img, xy[0], xy[1]), (A{int(xy[0]), int(xy[1]), 0x11, 0xEE})) << at;
  EXPECT_EQ(px(*img, 2, 0), (A{0, 0, 0, 0}));
  auto mip = c->texture(e, 1);
  ASSERT_TRUE(mip.ok()) << mip.error().str();
  EXPECT_EQ(mip->width, 10u);
  EXPECT_EQ(px(*mip, 9, 9), (A{9, 9, 0x22, 0xDD}));
  EXPECT_EQ(px(*mip, 0, 0), (A{0, 0, 0, 0}));
  const Json d = details_json(*c, e);
  EXPECT_EQ(d["data_needed"], 5120);
  EXPECT_NE(d.value("assumed", "").find("Switch block-linear"), std::string::npos) << d.dump();
  // replace: the top level comes back exactly, the second is the image's own mip at its size.
  auto back = replace_and_decode(s, random_rgba(20, 20, 7));
  ASSERT_TRUE(back.ok()) << back.error().str();
  EXPECT_EQ(back->pixels, random_rgba(20, 20, 7).pixels);
}

// DXT1 16 x 16: 4 x 4 blocks of 8 bytes, 32 bytes a row -> 1 GOB, block height 1, 8 rows: 512
// bytes. Block (3,3), x_byte 24: (3 % 8) / 2 * 64 + (24 % 32) / 16 * 32 + (3 % 2) * 16 + 24 % 16 = 120.
TEST(IgzTiled, SwitchDxtBlockPlaced) {
  fixtures::ImageSpec s;
  s.format = "dxt1_tile_nx", s.width = 16, s.height = 16, s.pixels = ByteBuffer(512);
  const std::uint8_t block[8] = {0xa8, 0x3b, 0x83, 0x19, 0x55, 0xff, 0xaa, 0x00};  // zap.pak's block 432
  std::copy(std::begin(block), std::end(block), s.pixels.begin() + 120);
  auto c = open_spec(s);
  ASSERT_TRUE(c);
  auto img = c->texture(*texture_entry(*c), 0);
  ASSERT_TRUE(img.ok()) << img.error().str();
  for (std::uint32_t x = 12; x < 16; ++x) {
    EXPECT_EQ(px(*img, x, 12), (A{24, 48, 24, 255}));
    EXPECT_EQ(px(*img, x, 15), (A{57, 117, 66, 255}));
  }
  EXPECT_EQ(px(*img, 11, 12), (A{0, 0, 0, 255}));
}

// ---- Wii U ----

// DXT1 128 x 64: 32 x 16 blocks, one macro tile, mode 4: 4096 bytes. Offsets by hand (64-bit
// units): block (8,0) -> pipe 1, bank 1: 768; block (7,7) -> element 63 * 8 = 504: (256 << 3) + 248 = 2296.
TEST(IgzTiled, WiiUMode4DxtBlocksPlaced) {
  fixtures::ImageSpec s;
  s.format = "dxt1_tile_cafe", s.width = 128, s.height = 64, s.pixels = ByteBuffer(4096);
  const std::uint8_t block[8] = {0xa8, 0x3b, 0x83, 0x19, 0x55, 0xff, 0xaa, 0x00};  // zap.pak's block 432
  for (std::uint64_t at : {768u, 2296u}) std::copy(std::begin(block), std::end(block), s.pixels.begin() + static_cast<std::ptrdiff_t>(at));
  auto c = open_spec(s);
  ASSERT_TRUE(c);
  auto img = c->texture(*texture_entry(*c), 0);
  ASSERT_TRUE(img.ok()) << img.error().str();
  for (std::uint32_t x0 : {32u, 28u}) {
    const std::uint32_t y0 = x0 == 32 ? 0 : 28;
    for (std::uint32_t x = x0; x < x0 + 4; ++x) {
      EXPECT_EQ(px(*img, x, y0), (A{24, 48, 24, 255})) << x0;
      EXPECT_EQ(px(*img, x, y0 + 3), (A{57, 117, 66, 255})) << x0;
    }
  }
  EXPECT_EQ(px(*img, 36, 0), (A{0, 0, 0, 255}));
  EXPECT_NE(details_json(*c, *texture_entry(*c)).value("assumed", "").find("swizzle 0"), std::string::npos);
}

// r8g8b8a8 32 x 16 (mode 4, 2048 bytes): (1,1) -> index 5 -> 20; (5,3) -> index 1 + 4 + 8 + 16 =
// 29 -> 116; (8,0) -> 768; (0,8) -> 256. 40 x 8 is under a macro tile's 16 rows: mode 2, pitch 40,
// 1280 bytes: (9,1) -> micro tile 1 (256) + index 5 * 4 = 276; (39,7) -> tile 4 (1024) + 63 * 4 = 1276.
TEST(IgzTiled, WiiUPixelsInModes4And2AndReplace) {
  const auto check = [](std::uint16_t w, std::uint16_t h, std::size_t size,
                        std::vector<std::pair<std::array<std::uint32_t, 2>, std::uint64_t>> placed) {
    fixtures::ImageSpec s;
    s.format = "r8g8b8a8_tile_cafe", s.width = w, s.height = h, s.pixels = ByteBuffer(size);
    for (const auto& [xy, at] : placed) {
      s.pixels[at] = static_cast<std::uint8_t>(xy[0]), s.pixels[at + 1] = static_cast<std::uint8_t>(xy[1]);
      s.pixels[at + 2] = 0x33, s.pixels[at + 3] = 0xCC;
    }
    auto c = open_spec(s);
    ASSERT_TRUE(c);
    auto img = c->texture(*texture_entry(*c), 0);
    ASSERT_TRUE(img.ok()) << img.error().str();
    for (const auto& [xy, at] : placed) EXPECT_EQ(px(*img, xy[0], xy[1]), (A{int(xy[0]), int(xy[1]), 0x33, 0xCC})) << at;
    EXPECT_EQ(px(*img, 2, 2), (A{0, 0, 0, 0}));
    EXPECT_EQ(details_json(*c, *texture_entry(*c))["data_needed"], size);
    const image::Rgba want = random_rgba(w, h, w);
    auto back = replace_and_decode(s, want);
    ASSERT_TRUE(back.ok()) << back.error().str();
    EXPECT_EQ(back->pixels, want.pixels);
  };
  check(32, 16, 2048, {{{1, 1}, 20}, {{5, 3}, 116}, {{8, 0}, 768}, {{0, 8}, 256}});
  check(40, 8, 1280, {{{9, 1}, 276}, {{39, 7}, 1276}});
}

// What stays not decoded says so: PS4 and Xbox One tilings, 24-bit texels in a tiling.
TEST(IgzTiled, UnknownTilingsStayNotDecoded) {
  for (const char* f : {"dxt1_tile_ps4", "dxt5_tile_durango", "r8g8b8_tile_big_xenon"}) {
    fixtures::ImageSpec s;
    s.format = f, s.width = 8, s.height = 8, s.pixels = ByteBuffer(16384);
    auto c = open_spec(s);
    ASSERT_TRUE(c);
    auto r = c->texture(*texture_entry(*c), 0);
    ASSERT_FALSE(r.ok()) << f;
    EXPECT_EQ(r.error().kind, ErrorKind::unsupported) << f;
    EXPECT_NE(r.error().message.find(std::string("not decoded: format ") + f), std::string::npos) << r.error().str();
  }
}

}  // namespace
}  // namespace tiled_image_test
}  // namespace assay::igz
