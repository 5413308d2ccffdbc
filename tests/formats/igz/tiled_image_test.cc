// igImage2 textures in the console tilings (issue #28 item 1; include/assay/image/tiling.h): an igz
// built by our own writer holds texels placed at offsets worked out by hand from the published
// address formulas (tests/image/tiling_test.cc shows the arithmetic), Container::texture() gives
// them back at their (x, y), `assay replace` encodes into the same layout exactly for a lossless
// format, and every such entry says what its decoding assumed.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <random>

#include "assay/container.h"
#include "assay/image/encode.h"
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
using fixtures::random_rgba;
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

TEST(IgzTiled, XenonReplaceIsExact) {
  fixtures::ImageSpec s;
  s.format = "r8g8b8a8_tile_big_xenon", s.width = 40, s.height = 8, s.pixels = ByteBuffer(8192);
  const image::Rgba want = random_rgba(40, 8, 360);
  auto back = replace_and_decode(s, want);
  ASSERT_TRUE(back.ok()) << back.error().str();
  EXPECT_EQ(back->pixels, want.pixels);
}

// `replace` of a multi-level texture, then `extract --mips`: every level's PNG is the level the
// replace wrote (the image's own mip chain of the PNG, exact for a lossless format).
void expect_mips_round_trip(const fixtures::ImageSpec& s, unsigned seed) {
  testing::TempDir t;
  auto igz = fixtures::build_image_igz(s);
  ASSERT_TRUE(igz.ok()) << igz.error().str();
  testing::write_file(t / "in.igz", *igz);
  const image::Rgba want = random_rgba(s.width, s.height, seed);
  auto png = image::encode_png(want);
  ASSERT_TRUE(png.ok());
  testing::write_file(t / "new.png", *png);
  auto c = open_spec(s);
  const std::string name = texture_entry(*c)->path;
  auto r = testing::run_cli("replace " + testing::quote_path(t / "in.igz") + " -o " + testing::quote_path(t / "out.igz") + " " +
                            name + "=" + testing::quote_path(t / "new.png"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto x = testing::run_cli("extract " + testing::quote_path(t / "out.igz") + " -o " + testing::quote_path(t / "x") + " --mips -q");
  ASSERT_EQ(x.exit_code, 0) << x.err;
  auto chain = image::mip_chain(want, s.levels);
  ASSERT_TRUE(chain.ok());
  const std::string stem = name.substr(0, name.size() - 4);
  for (unsigned l = 0; l < s.levels; ++l) {
    const fs::path file = t / "x" / (l == 0 ? name : stem + ".mip" + std::to_string(l) + ".png");
    auto in = Input::open(file);
    ASSERT_TRUE(in.ok()) << file;
    auto img = image::decode_png(in->bytes);
    ASSERT_TRUE(img.ok()) << file;
    EXPECT_EQ(img->width, (*chain)[l].width) << l;
    EXPECT_EQ(img->pixels, (*chain)[l].pixels) << s.format << " level " << l;
  }
}

// A texel written at its hand-computed byte offset in one level: it decodes as RGBA (level, x, y,
// tag) at its (x, y) of that level.
struct PlacedTexel {
  unsigned level;
  std::uint32_t x, y;
  std::uint64_t at;
};

void expect_placed(const fixtures::ImageSpec& s, std::initializer_list<PlacedTexel> placed, int tag) {
  auto c = open_spec(s);
  ASSERT_TRUE(c);
  const Entry& e = *texture_entry(*c);
  for (const PlacedTexel& p : placed) {
    auto img = c->texture(e, p.level);
    ASSERT_TRUE(img.ok()) << img.error().str();
    EXPECT_EQ(img->width, std::max<std::uint32_t>(1, s.width >> p.level));
    EXPECT_EQ(px(*img, p.x, p.y), (A{int(p.level), int(p.x), int(p.y), tag})) << s.format << " at " << p.at;
    if (img->width > 1) {
      EXPECT_EQ(px(*img, p.x == 0 ? 1 : 0, 0), (A{0, 0, 0, 0})) << s.format << " level " << p.level;
    }
  }
}

// r8g8b8a8 64 x 64, 7 levels (tests/image/tiling_test.cc XenonMipChainByHand): level 1 at 16384
// (32 x 32 surface), levels 2..6 in the tail at 20480 (origins (16,0), (8,0), (4,0), (0,8), (0,4));
// 24576 bytes. By hand (L = 2): level 1 (1,0) -> 16384 + 4; level 2 (0,0) = tail (16,0) -> 20480 +
// 128; level 5 (1,1) = tail (1,9) -> 20480 + 1172; level 6 (0,0) = tail (0,4) -> 20480 + 512.
TEST(IgzTiled, XenonMipsInTheirPlacesAndReplaced) {
  fixtures::ImageSpec s;
  s.format = "r8g8b8a8_tile_big_xenon", s.width = 64, s.height = 64, s.levels = 7, s.pixels = ByteBuffer(24576);
  const std::initializer_list<PlacedTexel> placed = {{1, 1, 0, 16388}, {2, 0, 0, 20608}, {5, 1, 1, 21652}, {6, 0, 0, 20992}};
  for (const PlacedTexel& p : placed) put_rgba_big(s.pixels, p.at, A{int(p.level), int(p.x), int(p.y), 0x7E});
  expect_placed(s, placed, 0x7E);
  auto c = open_spec(s);
  const Json d = details_json(*c, *texture_entry(*c));
  EXPECT_EQ(d["data_needed"], 24576);
  EXPECT_FALSE(d.contains("not_decoded")) << d.dump();
  EXPECT_NE(d.value("assumed", "").find("packed mips"), std::string::npos) << d.dump();
  expect_mips_round_trip(s, 64);
  // DXT1 16 x 16, 5 levels: level 0 in its own tail at block (4, 0), levels 1..4 in the mips' tail
  // (tiling_test.cc): 16384 bytes; replace and extract --mips round-trip through both tails.
  fixtures::ImageSpec d1;
  d1.format = "dxt1_tile_big_xenon", d1.width = 16, d1.height = 16, d1.levels = 5, d1.pixels = ByteBuffer(16384);
  auto c1 = open_spec(d1);
  EXPECT_EQ(details_json(*c1, *texture_entry(*c1))["data_needed"], 16384);
  auto back = replace_and_decode(d1, random_rgba(16, 16, 5));
  ASSERT_TRUE(back.ok()) << back.error().str();
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
// 29 -> 116; (8,0) -> 768; (0,8) -> 256. 24 x 8 is under both of mode 4's alignments (32 wide, 16
// tall), so GX2 picks mode 2 (decaf-emu GX2CalcSurfaceSizeAndAlignment): pitch 24, 768 bytes:
// (9,1) -> micro tile 1 (256) + index 5 * 4 = 276; (23,7) -> tile 2 (512) + 63 * 4 = 764. 40 x 8 is
// not under 32 wide: mode 4, pitch 64, 16 rows, 4096 bytes: (9,1) -> pipe 1, bank 1: 512 + 256 +
// 20 = 788; (39,7) -> macro tile 1 (2048 bytes / 8 = 256) + element 63 * 4: total 508 -> (256 << 3)
// + 252 = 2300.
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
  check(24, 8, 768, {{{9, 1}, 276}, {{23, 7}, 764}});
  check(40, 8, 4096, {{{9, 1}, 788}, {{39, 7}, 2300}});
}

// r8g8b8a8 64 x 32, 3 levels (decaf-emu GX2CalcSurfaceSizeAndAlignment; 32-bit: mode 4 pitch
// alignment 32, base alignment max(64 * 32, 2 * 32 * 32) = 2048; mode 2: 8, 256):
//   level 0: 64 x 32 mode 4: 8192 at 0
//   level 1: 32 x 16, a macro tile: mode 4, 2048 at align(8192, 2048) = 8192
//   level 2: 16 x 8, under 32: mode 2, pitch 16: 512 at 8192 + 2048 = 10240; total 10752.
// By hand: level 1 (1,1) -> index 5 -> 8192 + 20; (8,0) -> pipe 1, bank 1 -> 8192 + 768; level 2
// (9,1) -> micro tile 1 + 20 -> 10240 + 276; (15,7) -> 10240 + 256 + 252.
TEST(IgzTiled, WiiUMipsInTheirPlacesAndReplaced) {
  fixtures::ImageSpec s;
  s.format = "r8g8b8a8_tile_cafe", s.width = 64, s.height = 32, s.levels = 3, s.pixels = ByteBuffer(10752);
  const std::initializer_list<PlacedTexel> placed = {{1, 1, 1, 8212}, {1, 8, 0, 8960}, {2, 9, 1, 10516}, {2, 15, 7, 10748}};
  for (const PlacedTexel& p : placed) {
    const std::uint8_t c[4] = {std::uint8_t(p.level), std::uint8_t(p.x), std::uint8_t(p.y), 0x3C};
    std::copy(std::begin(c), std::end(c), s.pixels.begin() + static_cast<std::ptrdiff_t>(p.at));
  }
  expect_placed(s, placed, 0x3C);
  auto c = open_spec(s);
  EXPECT_EQ(details_json(*c, *texture_entry(*c))["data_needed"], 10752);
  expect_mips_round_trip(s, 32);
  // The sample's shape: DXT1 1152 x 768, 6 levels in 791552 bytes (tiling_test.cc).
  fixtures::ImageSpec big;
  big.format = "dxt1_tile_cafe", big.width = 1152, big.height = 768, big.levels = 6, big.pixels = ByteBuffer(791552);
  auto b = open_spec(big);
  EXPECT_EQ(details_json(*b, *texture_entry(*b))["data_needed"], 791552);
  // DXT1 256 x 128, 4 levels, modes 4, 4, 2, 2: 64 x 32 blocks 16384 at 0; 32 x 16 4096 at 16384;
  // 16 x 8 (pitch 16, 8 rows) 1024 at 20480; 8 x 4 (pitch 8, 8 rows) 512 at 21504: 22016 bytes.
  // replace encodes every level where extract --mips finds it (DXT: the top level well above 30 dB).
  fixtures::ImageSpec dx;
  dx.format = "dxt1_tile_cafe", dx.width = 256, dx.height = 128, dx.levels = 4, dx.pixels = ByteBuffer(22016);
  auto dc = open_spec(dx);
  EXPECT_EQ(details_json(*dc, *texture_entry(*dc))["data_needed"], 22016);
  image::Rgba smooth{256, 128, ByteBuffer(256u * 128 * 4)};
  for (std::uint32_t y = 0; y < 128; ++y)
    for (std::uint32_t x = 0; x < 256; ++x) {
      std::uint8_t* q = smooth.pixels.data() + (std::uint64_t{y} * 256 + x) * 4;
      q[0] = static_cast<std::uint8_t>(x), q[1] = static_cast<std::uint8_t>(y * 2), q[2] = 128, q[3] = 255;
    }
  auto back = replace_and_decode(dx, smooth);
  ASSERT_TRUE(back.ok()) << back.error().str();
  EXPECT_GT(image::psnr(smooth, *back), 30.0);
}

// ---- PS4 ----

// DXT1 16 x 16, 2 levels (GFD-Studio's PS4 swizzle): 4 x 4 blocks padded to one 8 x 8 tile, 512
// bytes; level 1 (2 x 2 blocks, again one tile) at 512: 1024 in all. Block (1,1) -> Morton index 3
// -> 24; (3,3) -> 15 -> 120; level 1 block (1,0) -> index 1 -> 512 + 8.
TEST(IgzTiled, Ps4DxtBlocksPlacedAndReplaced) {
  fixtures::ImageSpec s;
  s.format = "dxt1_tile_ps4", s.width = 16, s.height = 16, s.levels = 2, s.pixels = ByteBuffer(1024);
  const std::uint8_t block[8] = {0xa8, 0x3b, 0x83, 0x19, 0x55, 0xff, 0xaa, 0x00};  // zap.pak's block 432
  for (std::uint64_t at : {24u, 120u, 520u}) std::copy(std::begin(block), std::end(block), s.pixels.begin() + static_cast<std::ptrdiff_t>(at));
  auto c = open_spec(s);
  ASSERT_TRUE(c);
  const Entry& e = *texture_entry(*c);
  auto img = c->texture(e, 0);
  ASSERT_TRUE(img.ok()) << img.error().str();
  for (std::uint32_t b : {4u, 12u}) {
    EXPECT_EQ(px(*img, b, b), (A{24, 48, 24, 255})) << b;
    EXPECT_EQ(px(*img, b + 3, b + 3), (A{57, 117, 66, 255})) << b;
  }
  EXPECT_EQ(px(*img, 8, 4), (A{0, 0, 0, 255}));
  auto mip = c->texture(e, 1);
  ASSERT_TRUE(mip.ok()) << mip.error().str();
  EXPECT_EQ(px(*mip, 4, 0), (A{24, 48, 24, 255}));
  EXPECT_EQ(px(*mip, 0, 0), (A{0, 0, 0, 255}));
  const Json d = details_json(*c, e);
  EXPECT_EQ(d["data_needed"], 1024);
  EXPECT_NE(d.value("assumed", "").find("PS4 tiling"), std::string::npos) << d.dump();
  // A lossless format round-trips exactly through replace and extract --mips.
  fixtures::ImageSpec p;
  p.format = "r8g8b8a8_tile_ps4", p.width = 12, p.height = 10, p.levels = 3;
  p.pixels = ByteBuffer(16 * 16 * 4 + 8 * 8 * 4 + 8 * 8 * 4);  // 12 x 10 -> 16 x 16; 6 x 5 and 3 x 2 -> 8 x 8
  auto pc = open_spec(p);
  EXPECT_EQ(details_json(*pc, *texture_entry(*pc))["data_needed"], 1536);
  expect_mips_round_trip(p, 4);
}

// What stays not decoded says so: the Xbox One tiling, 24-bit texels in a tiling.
TEST(IgzTiled, UnknownTilingsStayNotDecoded) {
  for (const char* f : {"dxt5_tile_durango", "r8g8b8_tile_big_xenon"}) {
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

// Every few bytes' truncation and a mutation of every 5th byte before the pixels of multi-level tiled
// fixtures (each tiling's mip chain): no crash; every level that decodes has its own size.
TEST(IgzTiled, MipChainTruncationAndMutationSweep) {
  struct Case { const char* format; std::uint16_t w, h, levels; std::size_t bytes; };
  // Sizes by the chains above: xenon 16 x 16 x 4 bytes with level 0 in its tail (4096) and the
  // mips' tail after it (4096); cafe DXT1 64 x 32: 4096 + 512 + 512; ps4 DXT1 16 x 16: 512 + 512;
  // nx DXT1 16 x 16: 512 + 512.
  const Case cases[] = {{"r8g8b8a8_tile_big_xenon", 16, 16, 5, 8192}, {"dxt1_tile_cafe", 64, 32, 3, 5120},
                        {"dxt1_tile_ps4", 16, 16, 2, 1024}, {"dxt1_tile_nx", 16, 16, 2, 1024}};
  for (const Case& k : cases) {
    fixtures::ImageSpec s;
    s.format = k.format, s.width = k.w, s.height = k.h, s.levels = k.levels, s.pixels = ByteBuffer(k.bytes, 0x5B);
    auto good = fixtures::build_image_igz(s);
    ASSERT_TRUE(good.ok());
    auto whole = open_spec(s);
    ASSERT_TRUE(whole);
    EXPECT_EQ(details_json(*whole, *texture_entry(*whole))["data_needed"], k.bytes) << k.format;
    for (unsigned l = 0; l < k.levels; ++l) ASSERT_TRUE(whole->texture(*texture_entry(*whole), l).ok()) << k.format << " " << l;
    auto exercise = [&](ByteBuffer b) {
      auto c = open(Input::from_buffer("sweep.igz", std::move(b)));
      if (!c) return;
      for (const Entry& e : (*c)->entries()) {
        if (e.kind != EntryKind::texture) continue;
        for (unsigned l = 0; l < k.levels; ++l) {
          auto img = (*c)->texture(e, l);
          if (img) {
            EXPECT_EQ(img->pixels.size(), std::size_t{img->width} * img->height * 4);
          }
        }
      }
    };
    for (std::size_t n = 0; n < good->size(); n += 61) exercise(ByteBuffer(good->begin(), good->begin() + static_cast<std::ptrdiff_t>(n)));
    for (std::size_t i = 0; i + k.bytes < good->size(); i += 5) {  // every 5th byte: the fields repeat per object
      ByteBuffer b = *good;
      b[i] ^= 0xA5;
      exercise(std::move(b));
    }
  }
}

// Seeds for fuzz/igz_image.cc (fuzz/corpus/igz_image/) with tiled mip chains, written when
// ASSAY_WRITE_IGZ_IMAGE_CORPUS names a folder (as IgzImage.WritesFuzzCorpus); skipped otherwise.
TEST(IgzTiled, WritesFuzzCorpus) {
  const char* dir = std::getenv("ASSAY_WRITE_IGZ_IMAGE_CORPUS");
  if (dir == nullptr) GTEST_SKIP() << "set ASSAY_WRITE_IGZ_IMAGE_CORPUS to write the corpus";
  fixtures::ImageSpec s;
  s.format = "dxt1_tile_ps4", s.width = 16, s.height = 16, s.levels = 2, s.pixels = ByteBuffer(1024, 0x3C);
  testing::write_file(fs::path(dir) / "ps4_dxt1_tiled_2levels.igz", *fixtures::build_image_igz(s));
  // l8 8 x 8 on the Wii U: mode 2 (8 < 128 and 16), pitch 32, 8 rows: 256 bytes; level 1 the same at 256.
  s.format = "l8_tile_cafe", s.width = 8, s.height = 8, s.levels = 2, s.pixels = ByteBuffer(512, 0x96);
  testing::write_file(fs::path(dir) / "cafe_l8_tiled_2levels.igz", *fixtures::build_image_igz(s));
}

}  // namespace
}  // namespace tiled_image_test
}  // namespace assay::igz
