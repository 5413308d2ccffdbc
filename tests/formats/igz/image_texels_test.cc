// igImage2 texels other than DXT (issue #28 item 1): plain pixel formats, big-endian words, the
// PS3 swizzle and the Wii GX tiled formats. No sample holds one, so every expected texel below is
// worked out by hand from the bytes given and the rules in src/formats/igz/image_texels.cc
// (channels named from the word's lowest bits; widened as round(v * 255 / (2^n - 1))).
#include <gtest/gtest.h>

#include <array>

#include "assay/container.h"
#include "assay/core/hash.h"
#include "assay/formats/igz/image.h"
#include "../../../src/formats/igz/image_texels.h"
#include "image_fixture.h"
#include "formats/serialise.h"

namespace assay::igz {
namespace texels_test {

Result<image::Rgba> decode(const std::string& format, std::uint16_t w, std::uint16_t h, ByteBuffer bytes) {
  fixtures::ImageSpec s;
  s.format = format, s.width = w, s.height = h, s.pixels = std::move(bytes);
  ASSAY_TRY(ByteBuffer igz, fixtures::build_image_igz(s));
  ASSAY_TRY(auto c, open(Input::from_buffer("t.igz", std::move(igz))));
  for (const Entry& e : c->entries())
    if (e.kind == EntryKind::texture) return c->texture(e, 0);
  return make_error("igz", "test", kNoOffset, "no texture entry");
}

std::array<int, 4> px(const image::Rgba& img, std::uint32_t x, std::uint32_t y) {
  const std::uint8_t* p = img.pixels.data() + (std::uint64_t{y} * img.width + x) * 4;
  return {p[0], p[1], p[2], p[3]};
}

using A = std::array<int, 4>;

TEST(IgzTexels, MortonIndexByHand) {
  using detail::morton_index;
  // 4 x 4: x bits at even positions, y bits at odd.
  EXPECT_EQ(morton_index(1, 0, 4, 4), 1u);
  EXPECT_EQ(morton_index(0, 1, 4, 4), 2u);
  EXPECT_EQ(morton_index(2, 0, 4, 4), 4u);
  EXPECT_EQ(morton_index(2, 1, 4, 4), 6u);  // x=10b y=01b: bits x0 y0 x1 y1 = 0 1 1 0
  EXPECT_EQ(morton_index(3, 3, 4, 4), 15u);
  // 8 x 2: after y's one bit, x's remaining bits follow: x=101b y=1 -> x0 y0 x1 x2 = 1 1 0 1 = 11.
  EXPECT_EQ(morton_index(5, 1, 8, 2), 11u);
  EXPECT_EQ(morton_index(7, 1, 8, 2), 15u);
}

TEST(IgzTexels, SixteenBitFormatsLittleAndBigEndian) {
  // Word 0x001F: the first-named channel's 5 bits set.
  auto r = decode("r5g6b5", 2, 1, {0x1F, 0x00, 0xE0, 0x07, 0, 0, 0, 0});
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(px(*r, 0, 0), (A{255, 0, 0, 255}));
  EXPECT_EQ(px(*r, 1, 0), (A{0, 255, 0, 255}));  // 0x07E0: G's 6 bits
  auto b = decode("b5g6r5", 1, 1, {0x1F, 0x00, 0, 0});
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(px(*b, 0, 0), (A{0, 0, 255, 255}));
  auto be = decode("r5g6b5_big_ps3", 1, 1, {0x00, 0x1F, 0, 0});  // the same word stored big-endian
  ASSERT_TRUE(be.ok()) << be.error().str();
  EXPECT_EQ(px(*be, 0, 0), (A{255, 0, 0, 255}));
  // 0x8421: R 1 -> 17, G 2 -> 34, B 4 -> 68, A 8 -> 136.
  auto f = decode("r4g4b4a4", 1, 1, {0x21, 0x84, 0, 0});
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(px(*f, 0, 0), (A{17, 34, 68, 136}));
  // 0x8010 r5g5b5a1: R 16 -> round(16 * 255 / 31) = 132, A 1 -> 255.
  auto a1 = decode("r5g5b5a1", 1, 1, {0x10, 0x80, 0, 0});
  ASSERT_TRUE(a1.ok());
  EXPECT_EQ(px(*a1, 0, 0), (A{132, 0, 0, 255}));
}

TEST(IgzTexels, ThirtyTwoBitAndLuminanceFormats) {
  const ByteBuffer bytes = {0x10, 0x20, 0x30, 0x40};
  EXPECT_EQ(px(*decode("r8g8b8a8", 1, 1, bytes), 0, 0), (A{0x10, 0x20, 0x30, 0x40}));
  EXPECT_EQ(px(*decode("b8g8r8a8", 1, 1, bytes), 0, 0), (A{0x30, 0x20, 0x10, 0x40}));
  EXPECT_EQ(px(*decode("r8g8b8x8", 1, 1, bytes), 0, 0), (A{0x10, 0x20, 0x30, 255}));
  // Word 0x10203040 stored big-endian: R is its lowest byte.
  EXPECT_EQ(px(*decode("r8g8b8a8_big_ps3", 1, 1, bytes), 0, 0), (A{0x40, 0x30, 0x20, 0x10}));
  EXPECT_EQ(px(*decode("l8a8", 1, 1, {0x80, 0xFF, 0, 0}), 0, 0), (A{0x80, 0x80, 0x80, 0xFF}));
  EXPECT_EQ(px(*decode("a8", 1, 1, {0x7F, 0, 0, 0}), 0, 0), (A{0, 0, 0, 0x7F}));
  EXPECT_EQ(px(*decode("l4a4", 1, 1, {0xF3, 0, 0, 0}), 0, 0), (A{51, 51, 51, 255}));
}

// A format no sample has shown says what its decoding assumes; the PS3 DXT the samples prove does not.
TEST(IgzTexels, AssumptionsAreReported) {
  const auto details = [](const std::string& format, ByteBuffer px) {
    fixtures::ImageSpec s;
    s.format = format, s.width = 4, s.height = 4, s.pixels = std::move(px);
    auto c = open(Input::from_buffer("t.igz", *fixtures::build_image_igz(s)));
    EXPECT_TRUE(c.ok());
    for (const Entry& e : (*c)->entries())
      if (e.kind == EntryKind::texture) return details_json(**c, e);
    return Json();
  };
  EXPECT_NE(details("r8g8b8a8", ByteBuffer(64)).value("assumed", "").find("lowest bits"), std::string::npos);
  EXPECT_NE(details("l8_tile_big_wii", ByteBuffer(32)).value("assumed", "").find("Wii"), std::string::npos);
  EXPECT_FALSE(details("dxt1_tile_big_ps3", ByteBuffer(8)).contains("assumed"));
}

TEST(IgzTexels, Ps3SwizzledLevels) {
  ByteBuffer b(16);
  for (int i = 0; i < 16; ++i) b[i] = static_cast<std::uint8_t>(i * 16);  // texel k holds 16k
  auto r = decode("l8_tile_big_ps3", 4, 4, b);
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(px(*r, 1, 0)[0], 16);   // stored texel 1
  EXPECT_EQ(px(*r, 0, 1)[0], 32);   // 2
  EXPECT_EQ(px(*r, 2, 1)[0], 96);   // 6
  EXPECT_EQ(px(*r, 3, 3)[0], 240);  // 15
  auto odd = decode("l8_tile_big_ps3", 3, 4, ByteBuffer(12));
  ASSERT_FALSE(odd.ok());
  EXPECT_EQ(odd.error().kind, ErrorKind::unsupported);
  EXPECT_NE(odd.error().message.find("powers of two"), std::string::npos) << odd.error().str();
}

TEST(IgzTexels, WiiTiledFormats) {
  // I8: 8 x 4 tiles; a 16 x 4 level is two tiles; texel (9, 1) is the second tile's (1, 1), byte 32 + 9.
  ByteBuffer i8(64);
  i8[41] = 0xAB;
  auto r = decode("l8_tile_big_wii", 16, 4, i8);
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(px(*r, 9, 1), (A{0xAB, 0xAB, 0xAB, 255}));
  // RGB5A3: 0xFC00 is RGB555 red; 0x3F00 is A3 = 3 (109) with R4 = 15.
  auto a3 = decode("b4g4r4a3x1_tile_big_wii", 4, 4, [] {
    ByteBuffer b(32);
    b[0] = 0xFC, b[1] = 0x00, b[2] = 0x3F, b[3] = 0x00;
    return b;
  }());
  ASSERT_TRUE(a3.ok()) << a3.error().str();
  EXPECT_EQ(px(*a3, 0, 0), (A{255, 0, 0, 255}));
  EXPECT_EQ(px(*a3, 1, 0), (A{255, 0, 0, 109}));
  // RGBA8: texel k's A, R at 2k, 2k + 1; G, B at 32 + 2k, 33 + 2k.
  ByteBuffer rgba(64);
  rgba[2] = 0x44, rgba[3] = 0x11, rgba[34] = 0x22, rgba[35] = 0x33;
  auto c8 = decode("b8g8r8a8_tile_big_wii", 4, 4, rgba);
  ASSERT_TRUE(c8.ok());
  EXPECT_EQ(px(*c8, 1, 0), (A{0x11, 0x22, 0x33, 0x44}));
  // IA8 (alpha byte first), IA4 (alpha in the high nibble), I4 (left texel in the high nibble).
  ByteBuffer ia8(32);
  ia8[0] = 0x80, ia8[1] = 0x40;
  EXPECT_EQ(px(*decode("l8a8_tile_big_wii", 4, 4, ia8), 0, 0), (A{0x40, 0x40, 0x40, 0x80}));
  ByteBuffer ia4(32);
  ia4[0] = 0xA5;
  EXPECT_EQ(px(*decode("a4l4_tile_big_wii", 8, 4, ia4), 0, 0), (A{85, 85, 85, 170}));
  ByteBuffer i4(32);
  i4[0] = 0x1E;
  auto r4 = decode("l4_tile_big_wii", 8, 8, i4);
  ASSERT_TRUE(r4.ok());
  EXPECT_EQ(px(*r4, 0, 0)[0], 17);
  EXPECT_EQ(px(*r4, 1, 0)[0], 238);
}

TEST(IgzTexels, WiiCmprSubBlocks) {
  // One 8 x 8 tile; sub-block 1 (top right) has c0 = 0xF800 (red), c1 = 0x001F (blue), big-endian,
  // and row 0's indices 0, 1, 2, 3 from the top bits: 0b00011011.
  ByteBuffer b(32);
  b[8] = 0xF8, b[9] = 0x00, b[10] = 0x00, b[11] = 0x1F, b[12] = 0x1B;
  auto r = decode("dxt1_tile_big_wii", 8, 8, b);
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(px(*r, 4, 0), (A{255, 0, 0, 255}));
  EXPECT_EQ(px(*r, 5, 0), (A{0, 0, 255, 255}));
  const A two_thirds = px(*r, 6, 0);  // (2 c0 + c1) / 3
  EXPECT_NEAR(two_thirds[0], 170, 1);
  EXPECT_NEAR(two_thirds[2], 85, 1);
  EXPECT_EQ(metaimage_for_hash(fnv1a32("a4l4_tile_big_wii", true)), "a4l4_tile_big_wii");
}

TEST(IgzTexels, LevelSizesWithTilePadding) {
  detail::TexelLayout t;
  t.kind = detail::TexelLayout::Kind::wii, t.wii = detail::WiiFormat::cmpr;
  std::uint64_t n = 0;
  ASSERT_TRUE(detail::texel_level_size(t, 12, 12, n));
  EXPECT_EQ(n, 4u * 32);  // 2 x 2 tiles of 32 bytes
  t.wii = detail::WiiFormat::i8;
  ASSERT_TRUE(detail::texel_level_size(t, 10, 5, n));
  EXPECT_EQ(n, 4u * 32);  // 2 x 2 tiles of 8 x 4 bytes
  auto short_data = decode("b8g8r8a8_tile_big_wii", 4, 4, ByteBuffer(32));
  ASSERT_FALSE(short_data.ok());
  EXPECT_NE(short_data.error().message.find("needs 64"), std::string::npos) << short_data.error().str();
}

// Stored bits survive decode then encode exactly (lossless formats, linear and swizzled).
// "dxn" (igGfx.cs canonicalMetaImages) is BC5: the block of Dxt.Bc5RedGreenAndTheNormalsZ,
// stored as the PS3 keeps DXT (plain blocks in row order), and its assumption said.
TEST(IgzTexels, DxnIsBc5) {
  const ByteBuffer block = {255, 128, 0x08, 0, 0, 0, 0, 0, 128, 0, 0, 0, 0, 0, 0, 0};
  auto img = decode("dxn_big_ps3", 4, 4, block);
  ASSERT_TRUE(img.ok()) << img.error().str();
  EXPECT_EQ(px(*img, 0, 0), (A{255, 128, 128, 255}));
  EXPECT_EQ(px(*img, 1, 0), (A{128, 128, 255, 255}));
  fixtures::ImageSpec s;
  s.format = "dxn", s.width = 4, s.height = 4, s.pixels = block;
  auto c = open(Input::from_buffer("t.igz", *fixtures::build_image_igz(s)));
  ASSERT_TRUE(c.ok());
  for (const Entry& e : (*c)->entries())
    if (e.kind == EntryKind::texture) EXPECT_NE(details_json(**c, e).value("assumed", "").find("BC5"), std::string::npos);
}

TEST(IgzTexels, EncodeGivesTheStoredBytesBack) {
  for (const std::string format : {"r4g4b4a4", "b5g6r5_big_ps3", "r8g8b8a8_tile_big_ps3", "l8a8"}) {
    fixtures::ImageSpec s;
    s.format = format, s.width = 8, s.height = 4;
    const unsigned bpp = format.starts_with("r8") ? 4 : 2;
    for (unsigned i = 0; i < 8u * 4 * bpp; ++i) s.pixels.push_back(static_cast<std::uint8_t>(i * 37 + 11));
    auto igz = fixtures::build_image_igz(s);
    ASSERT_TRUE(igz.ok());
    auto f = IgzFile::open(*igz);
    ASSERT_TRUE(f.ok());
    auto fx = decode_fixups(*f);
    ASSERT_TRUE(fx.ok());
    const Graph g = build_graph(*f, *fx, nullptr);
    const auto images = find_images(*f, *fx, g);
    ASSERT_EQ(images.size(), 1u);
    auto level = decode_image2(*f, images[0], 0);
    ASSERT_TRUE(level.ok()) << format << ": " << level.error().str();
    auto back = encode_image2(images[0], {*level});
    ASSERT_TRUE(back.ok()) << format << ": " << back.error().str();
    EXPECT_EQ(*back, s.pixels) << format;
  }
  Image2 wii;
  wii.width = 8, wii.height = 4, wii.levels = 1, wii.format = "l8_tile_big_wii", wii.format_known = true;
  auto enc = encode_image2(wii, {image::Rgba{8, 4, ByteBuffer(8 * 4 * 4)}});
  ASSERT_FALSE(enc.ok());
  EXPECT_EQ(enc.error().kind, ErrorKind::unsupported);
}

}  // namespace texels_test
}  // namespace assay::igz
