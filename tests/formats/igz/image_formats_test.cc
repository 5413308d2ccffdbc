// igImage2 formats beyond DXT and 8-bit channels (issue #28 item 1): 16-bit and float elements,
// g8b8 / r4g4b4a3x1 / r6g6b6a6, depth as luminance, ETC1 / ETC2 / EAC, and palette formats' "not
// decoded" note. No sample holds one: every expected texel is worked out by hand in the comments
// from the bytes given and the public rules (IEEE 754 half/single; the Khronos Data Format
// Specification's ETC1/ETC2/EAC bit layouts and tables), never taken from the decoder's output.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>

#include "assay/container.h"
#include "assay/image/png.h"
#include "../../../src/formats/igz/image_texels.h"
#include "formats/serialise.h"
#include "image_fixture.h"
#include "testing/testing.h"

namespace assay::igz {
namespace image_formats_test {
namespace {

using A = std::array<int, 4>;
using fixtures::random_rgba;

Result<image::Rgba> decode(const std::string& format, std::uint16_t w, std::uint16_t h, ByteBuffer bytes) {
  fixtures::ImageSpec s;
  bytes.resize((bytes.size() + 3) & ~std::size_t{3});  // the fixture writes whole 4-byte words
  s.format = format, s.width = w, s.height = h, s.pixels = std::move(bytes);
  auto c = fixtures::open_image_igz(fixtures::build_image_igz(s));
  if (c == nullptr) return make_error("igz", "test", kNoOffset, "no container");
  return c->texture(*fixtures::texture_entry(*c), 0);
}

A px(const image::Rgba& img, std::uint32_t x, std::uint32_t y) {
  const auto t = fixtures::texel(img, x, y);
  return {t[0], t[1], t[2], t[3]};
}

std::string assumed(const std::string& format, std::uint32_t bytes) {
  fixtures::ImageSpec s;
  s.format = format, s.width = 4, s.height = 4, s.pixels = ByteBuffer(bytes);
  auto c = fixtures::open_image_igz(fixtures::build_image_igz(s));
  return c ? details_json(*c, *fixtures::texture_entry(*c)).value("assumed", "") : "";
}

// ---- 16-bit and float elements ----

TEST(IgzFormats, HalfFloatsClampedToUnit) {
  // r16_float, little-endian halves: 0x3C00 = 1.0 -> 255; 0x3800 = 0.5 -> 127.5 -> 128;
  // 0xBC00 = -1.0 -> 0 (clamped); 0x4000 = 2.0 -> 255 (clamped); 0x7E00 = NaN -> 0; 0x3400 = 0.25
  // -> 63.75 -> 64. G and B absent: 0; A absent: 255.
  auto r = decode("r16_float", 6, 1, {0x00, 0x3C, 0x00, 0x38, 0x00, 0xBC, 0x00, 0x40, 0x00, 0x7E, 0x00, 0x34});
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(px(*r, 0, 0), (A{255, 0, 0, 255}));
  EXPECT_EQ(px(*r, 1, 0), (A{128, 0, 0, 255}));
  EXPECT_EQ(px(*r, 2, 0), (A{0, 0, 0, 255}));
  EXPECT_EQ(px(*r, 3, 0), (A{255, 0, 0, 255}));
  EXPECT_EQ(px(*r, 4, 0), (A{0, 0, 0, 255}));
  EXPECT_EQ(px(*r, 5, 0), (A{64, 0, 0, 255}));
  // r16g16b16a16_float: R 1.0, G 0.25, B 0, A 0.5 in that element order.
  const ByteBuffer le = {0x00, 0x3C, 0x00, 0x34, 0x00, 0x00, 0x00, 0x38};
  auto rgba = decode("r16g16b16a16_float", 1, 1, le);
  ASSERT_TRUE(rgba.ok()) << rgba.error().str();
  EXPECT_EQ(px(*rgba, 0, 0), (A{255, 64, 0, 128}));
  // "_big": each element big-endian (3C 00 = 1.0).
  auto be = decode("r16g16b16a16_float_big_ps3", 1, 1, {0x3C, 0x00, 0x34, 0x00, 0x00, 0x00, 0x38, 0x00});
  ASSERT_TRUE(be.ok()) << be.error().str();
  EXPECT_EQ(px(*be, 0, 0), (A{255, 64, 0, 128}));
  EXPECT_EQ(px(*decode("r16g16b16a16_expand_float", 1, 1, le), 0, 0), (A{255, 64, 0, 128}));
  // r16g16_float: two halves, B 0, A 255.
  EXPECT_EQ(px(*decode("r16g16_float", 1, 1, {0x00, 0x38, 0x00, 0x3C}), 0, 0), (A{128, 255, 0, 255}));
}

TEST(IgzFormats, SingleFloats) {
  // 0x3F000000 = 0.5 -> 128; 0x3E800000 = 0.25 -> 64; 0x3F800000 = 1.0 -> 255; 0xBF800000 = -1 -> 0.
  auto r = decode("r32_float", 2, 1, {0x00, 0x00, 0x00, 0x3F, 0x00, 0x00, 0x80, 0x3E});
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(px(*r, 0, 0), (A{128, 0, 0, 255}));
  EXPECT_EQ(px(*r, 1, 0), (A{64, 0, 0, 255}));
  auto rg = decode("r32g32_float", 1, 1, {0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x80, 0xBF});
  ASSERT_TRUE(rg.ok());
  EXPECT_EQ(px(*rg, 0, 0), (A{255, 0, 0, 255}));
  auto rgba = decode("r32g32b32a32_float_big_ps3", 1, 1,
                     {0x3E, 0x80, 0, 0, 0x3F, 0x80, 0, 0, 0x3F, 0x00, 0, 0, 0x00, 0x00, 0, 0});
  ASSERT_TRUE(rgba.ok()) << rgba.error().str();
  EXPECT_EQ(px(*rgba, 0, 0), (A{64, 255, 128, 0}));
}

TEST(IgzFormats, SixteenBitNormalised) {
  // unorm: 0xFFFF -> 255; 0x8000 -> 32768 * 255 / 65535 = 127.50 -> 128; 0x0101 -> 1.
  auto r = decode("r16g16", 2, 1, {0xFF, 0xFF, 0x00, 0x80, 0x01, 0x01, 0x00, 0x00});
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(px(*r, 0, 0), (A{255, 128, 0, 255}));
  EXPECT_EQ(px(*r, 1, 0), (A{1, 0, 0, 255}));
  // r16g16b16: three elements; r16g16b16x16: the fourth element is unused (A 255 whatever it holds).
  EXPECT_EQ(px(*decode("r16g16b16", 1, 1, {0, 0, 0xFF, 0xFF, 0x01, 0x01}), 0, 0), (A{0, 255, 1, 255}));
  EXPECT_EQ(px(*decode("r16g16b16x16", 1, 1, {0, 0x80, 0, 0, 0xFF, 0xFF, 0x12, 0x34}), 0, 0), (A{128, 0, 255, 255}));
  EXPECT_EQ(px(*decode("r16g16b16a16_big_ps3", 1, 1, {0xFF, 0xFF, 0, 0, 0x01, 0x01, 0x80, 0x00}), 0, 0), (A{255, 0, 1, 128}));
  // snorm shown biased (v + 1) / 2: 0x7FFF = 1 -> 255; 0x8001 = -1 -> 0; 0x8000 = -32768 -> -1
  // (clamped) -> 0; 0x0000 -> 127.5 -> 128; 0x4000 = 16384 / 32767 -> (1.50002 / 2) * 255 = 191.25 -> 191.
  auto s = decode("r16g16_signed", 3, 1, {0xFF, 0x7F, 0x01, 0x80, 0x00, 0x80, 0x00, 0x00, 0x00, 0x40, 0x00, 0x40});
  ASSERT_TRUE(s.ok()) << s.error().str();
  EXPECT_EQ(px(*s, 0, 0), (A{255, 0, 0, 255}));
  EXPECT_EQ(px(*s, 1, 0), (A{0, 128, 0, 255}));
  EXPECT_EQ(px(*s, 2, 0), (A{191, 191, 0, 255}));
}

TEST(IgzFormats, PackedFormatsAndDepth) {
  // g8b8: G the low byte, B the high byte; R 0, A 255.
  EXPECT_EQ(px(*decode("g8b8", 1, 1, {0x12, 0x34}), 0, 0), (A{0, 0x12, 0x34, 255}));
  // r4g4b4a3x1 word 0xF321: R 1 -> 17, G 2 -> 34, B 3 -> 51, A (bits 12-14) 7 -> 255, bit 15 ignored;
  // 0x3000: A 3 -> round(3 * 255 / 7) = 109.
  auto a3 = decode("r4g4b4a3x1", 2, 1, {0x21, 0xF3, 0x00, 0x30});
  ASSERT_TRUE(a3.ok()) << a3.error().str();
  EXPECT_EQ(px(*a3, 0, 0), (A{17, 34, 51, 255}));
  EXPECT_EQ(px(*a3, 1, 0), (A{0, 0, 0, 109}));
  // r6g6b6a6 24-bit word 0xFC003F (bytes 3F 00 FC): R (bits 0-5) 63 -> 255, A (bits 18-23) 63 -> 255;
  // word 0x000FC0: G (bits 6-11) 63.
  auto six = decode("r6g6b6a6", 2, 1, {0x3F, 0x00, 0xFC, 0xC0, 0x0F, 0x00});
  ASSERT_TRUE(six.ok()) << six.error().str();
  EXPECT_EQ(px(*six, 0, 0), (A{255, 0, 0, 255}));
  EXPECT_EQ(px(*six, 1, 0), (A{0, 255, 0, 0}));
  // Depth as luminance: d16 0xFFFF -> 255; d24s8 word 0x800000FF: depth (bits 8-31) 0x800000 ->
  // 8388608 * 255 / 16777215 = 127.500008 -> 128, stencil 0xFF dropped; d32f 0.5 -> 128.
  EXPECT_EQ(px(*decode("d16", 1, 1, {0xFF, 0xFF}), 0, 0), (A{255, 255, 255, 255}));
  EXPECT_EQ(px(*decode("d24s8", 1, 1, {0xFF, 0x00, 0x00, 0x80}), 0, 0), (A{128, 128, 128, 255}));
  EXPECT_EQ(px(*decode("d32f", 1, 1, {0x00, 0x00, 0x00, 0x3F}), 0, 0), (A{128, 128, 128, 255}));
  EXPECT_EQ(px(*decode("d32", 1, 1, {0xFF, 0xFF, 0xFF, 0xFF}), 0, 0), (A{255, 255, 255, 255}));
}

// Every 8-bit value comes back exactly through the float and 16-bit formats (encode then decode),
// on the channels the format keeps ('-': absent, read back as 0, or 255 for alpha; 'l': luminance,
// the mean of R, G, B rounded).
TEST(IgzFormats, EncodeIsExactForEveryEightBitValue) {
  image::Rgba ramp{256, 1, ByteBuffer(256 * 4)};
  for (int v = 0; v < 256; ++v)
    for (int c = 0; c < 4; ++c) ramp.pixels[v * 4 + c] = static_cast<std::uint8_t>(c == 1 ? 255 - v : v);
  const std::pair<const char*, std::string_view> formats[] = {
      {"r16g16b16a16", "rgba"}, {"r16g16b16a16_float", "rgba"}, {"r32g32b32a32_float", "rgba"}, {"r16g16b16x16", "rgb-"},
      {"r16g16_signed", "rg--"}, {"r16g16_float", "rg--"},      {"r16_float", "r---"},         {"g8b8", "-gb-"},
      {"d32f", "llll"},          {"d24s8", "llll"}};
  for (const auto& [name, kept] : formats) {
    detail::TexelLayout t;
    t.kind = detail::TexelLayout::Kind::pixels, t.pixel = detail::pixel_format(name);
    ASSERT_NE(t.pixel, nullptr) << name;
    for (bool big : {false, true}) {
      t.big_endian = big;
      auto bytes = detail::encode_texels(t, ramp);
      ASSERT_TRUE(bytes.ok()) << name;
      auto back = detail::decode_texels(t, *bytes, 256, 1);
      ASSERT_TRUE(back.ok()) << name;
      for (int v = 0; v < 256; ++v) {
        const A in = {v, 255 - v, v, v}, got = px(*back, v, 0);
        const int l = (v + (255 - v) + v + 1) / 3;
        for (int c = 0; c < 4; ++c) {
          const int want = kept[c] == 'l' ? (c == 3 ? 255 : l) : kept[c] == '-' ? (c == 3 ? 255 : 0) : in[c];
          EXPECT_EQ(got[c], want) << name << (big ? " big" : "") << " v " << v << " channel " << c;
        }
      }
    }
  }
  // Half of v / 255 by hand: 128 / 255 = 0.50196 = 1.00392 * 2^-1: exponent 14, mantissa
  // round(0.00392 * 1024) = 4: 0x3804, stored little-endian.
  detail::TexelLayout t;
  t.kind = detail::TexelLayout::Kind::pixels, t.pixel = detail::pixel_format("r16_float");
  auto half = detail::encode_texels(t, image::Rgba{1, 1, ByteBuffer{128, 0, 0, 255}});
  ASSERT_TRUE(half.ok());
  EXPECT_EQ(*half, (ByteBuffer{0x04, 0x38}));
}

// Switch block-linear with 8-byte texels: an 8 x 4 level is one 64-byte x 8-row GOB (512 bytes).
// In a GOB, byte x of row y is at ((x % 64) / 32) * 256 + ((y % 8) / 2) * 64 + ((x % 32) / 16) * 32
// + (y % 2) * 16 + x % 16 (the Tegra GOB layout). Texel (2, 1): x = 16 -> 32 + 16 = 48; texel
// (4, 0): x = 32 -> 256.
TEST(IgzFormats, HalfFloatsInSwitchTiling) {
  ByteBuffer b(512);
  b[48] = 0x00, b[49] = 0x3C;    // texel (2, 1): R 1.0
  b[258] = 0x00, b[259] = 0x3C;  // texel (4, 0): G 1.0
  auto r = decode("r16g16b16a16_float_tile_nx", 8, 4, b);
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(px(*r, 2, 1), (A{255, 0, 0, 0}));
  EXPECT_EQ(px(*r, 4, 0), (A{0, 255, 0, 0}));
  EXPECT_EQ(px(*r, 3, 1), (A{0, 0, 0, 0}));
}

// ---- ETC ----

// Index bytes shared by the blocks below: MSBs (bits 31-16) set for texels i = 4 (1, 0) and 15
// (3, 3), LSBs (bits 15-0) for i = 1 (0, 1) and 15: bits 20, 31 -> 80 10; bits 1, 15 -> 80 02. So
// (0, 0) has index 0, (1, 0) index 2, (0, 1) index 1, (3, 3) index 3, (2, 0) index 0.
TEST(IgzFormats, Etc1IndividualAndDifferentialBlocks) {
  // Individual: R1 8 R2 F, G1 4 G2 0, B1 2 B2 0; table 0 (2, 8) left, 7 (47, 183) right; flip 0.
  // Base 1 (0x88, 0x44, 0x22) = (136, 68, 34); base 2 (255, 0, 0).
  // (0,0): +2 -> (138, 70, 36); (1,0): -2 -> (134, 66, 32); (0,1): +8 -> (144, 76, 42);
  // (2,0): right, +47 -> (255, 47, 47); (3,3): -183 -> (72, 0, 0).
  auto r = decode("etc1_android", 4, 4, {0x8F, 0x40, 0x20, 0x1C, 0x80, 0x10, 0x80, 0x02});
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(px(*r, 0, 0), (A{138, 70, 36, 255}));
  EXPECT_EQ(px(*r, 1, 0), (A{134, 66, 32, 255}));
  EXPECT_EQ(px(*r, 0, 1), (A{144, 76, 42, 255}));
  EXPECT_EQ(px(*r, 2, 0), (A{255, 47, 47, 255}));
  EXPECT_EQ(px(*r, 3, 3), (A{72, 0, 0, 255}));
  // Differential, flipped: R 16 dR -1, G 31 dG 0, B 0 dB +3; table 1 (5, 17) top, 0 (2, 8) bottom.
  // Base 1 = (ext5(16) = 132, 255, 0); base 2 = (ext5(15) = 123, 255, ext5(3) = 24). All indices 0:
  // top rows +5 -> (137, 255, 5); bottom rows +2 -> (125, 255, 26).
  const ByteBuffer diff = {0x87, 0xF8, 0x03, 0x23, 0, 0, 0, 0};
  for (const char* format : {"etc1_aspen", "etc2_aspen"}) {  // no overflow: ETC2 reads it the same
    auto d = decode(format, 4, 4, diff);
    ASSERT_TRUE(d.ok()) << d.error().str();
    EXPECT_EQ(px(*d, 3, 1), (A{137, 255, 5, 255})) << format;
    EXPECT_EQ(px(*d, 0, 2), (A{125, 255, 26, 255})) << format;
  }
  // A 6 x 6 level takes 2 x 2 blocks (32 bytes); texel (5, 5) is block 3's (1, 1): a top row.
  ByteBuffer four(32);
  std::copy(diff.begin(), diff.end(), four.begin() + 24);
  auto big = decode("etc1_android", 6, 6, four);
  ASSERT_TRUE(big.ok()) << big.error().str();
  EXPECT_EQ(px(*big, 5, 5), (A{137, 255, 5, 255}));
  EXPECT_EQ(px(*big, 1, 1), (A{2, 2, 2, 255}));  // block 0, all bits 0: individual, bases 0, table 0, index 0: +2
  EXPECT_FALSE(decode("etc1_android", 6, 6, ByteBuffer(24)).ok());  // one block short
  // Levels: whole blocks each, largest first: 8 x 8 = 4 blocks, 4 x 4 = 1, 2 x 2 = 1: 48 bytes;
  // etc2_alpha twice that.
  Image2 img;
  img.width = 8, img.height = 8, img.levels = 3, img.format = "etc1_android", img.format_known = true;
  ASSERT_TRUE(data_size(img).ok());
  EXPECT_EQ(*data_size(img), 48u);
  img.format = "etc2_alpha_aspen";
  ASSERT_TRUE(data_size(img).ok());
  EXPECT_EQ(*data_size(img), 96u);
  fixtures::ImageSpec s;
  s.format = "etc1_android", s.width = 8, s.height = 8, s.levels = 3, s.pixels = ByteBuffer(48);
  std::copy(diff.begin(), diff.end(), s.pixels.begin() + 40);  // level 2's block
  auto c = fixtures::open_image_igz(fixtures::build_image_igz(s));
  ASSERT_NE(c, nullptr);
  auto l2 = c->texture(*fixtures::texture_entry(*c), 2);
  ASSERT_TRUE(l2.ok()) << l2.error().str();
  EXPECT_EQ(l2->width, 2u);
  EXPECT_EQ(px(*l2, 1, 1), (A{137, 255, 5, 255}));
}

TEST(IgzFormats, Etc2TMode) {
  // Byte 0 = 1111 0011: R bits 63-59 = 30, dR bits 58-56 = +3 -> 33, red overflows: T mode.
  // R1 = bits 60-59 (10) : 57-56 (11) = 0xB; G1 2, B1 4; R2 6, G2 8, B2 A; distance index
  // bits 35-34 (10) : 32 (1) = 5 -> 32. C1 = (187, 34, 68); C2 = (102, 136, 170).
  // Paint colours: P0 C1, P1 C2 + 32 = (134, 168, 202), P2 C2, P3 C2 - 32 = (70, 104, 138).
  auto r = decode("etc2_android", 4, 4, {0xF3, 0x24, 0x68, 0xAB, 0x80, 0x10, 0x80, 0x02});
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(px(*r, 0, 0), (A{187, 34, 68, 255}));
  EXPECT_EQ(px(*r, 1, 0), (A{102, 136, 170, 255}));
  EXPECT_EQ(px(*r, 0, 1), (A{134, 168, 202, 255}));
  EXPECT_EQ(px(*r, 3, 3), (A{70, 104, 138, 255}));
}

TEST(IgzFormats, Etc2HMode) {
  // R = bits 63-59 = 01000 (8) + dR 011 (3): in range. G = bits 55-51 = 00001 + dG 101 (-3) = -2:
  // green overflows: H mode. R1 = bits 62-59 = 8, G1 = 58-56 (011) : 52 (0) = 6, B1 = 51 (1) :
  // 49-47 (010) = 0xA; R2 = 2, G2 = 0xC, B2 = 5. C1 (0x866) >= C2 (0x2C5): ordering bit 1; da 0,
  // db 1: distance index 0b011 = 3 -> 16. C1 = (136, 102, 170), C2 = (34, 204, 85).
  // P0 C1 + 16 = (152, 118, 186), P1 C1 - 16 = (120, 86, 154), P2 C2 + 16 = (50, 220, 101),
  // P3 C2 - 16 = (18, 188, 69).
  auto r = decode("etc2_android", 4, 4, {0x43, 0x0D, 0x16, 0x2B, 0x80, 0x10, 0x80, 0x02});
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(px(*r, 0, 0), (A{152, 118, 186, 255}));
  EXPECT_EQ(px(*r, 1, 0), (A{50, 220, 101, 255}));
  EXPECT_EQ(px(*r, 0, 1), (A{120, 86, 154, 255}));
  EXPECT_EQ(px(*r, 3, 3), (A{18, 188, 69, 255}));
}

TEST(IgzFormats, Etc2PlanarMode) {
  // R 8 + 0, G 0 + 0 in range; B = bits 47-43 = 11111 (31) + dB bits 42-40 = 001: 32, planar.
  // O: R 100000 (32 -> 130), G 0, B = 0:11:010 = 26 -> 105. H: R 11000:0 = 48 -> 195, G 1000000
  // (64 -> 129), B 26 -> 105. V: R 32 -> 130, G 0100000 (32 -> 64), B 63 -> 255.
  // C(x, y) = (x (H - O) + y (V - O) + 4 O + 2) >> 2:
  // (0,0) = (130, 0, 105); (3,0) R (195 + 522) >> 2 = 179, G (387 + 2) >> 2 = 97, B 105;
  // (0,3) R 130, G (192 + 2) >> 2 = 48, B (450 + 422) >> 2 = 218; (3,3) = (179, 145, 218).
  auto r = decode("etc2_android", 4, 4, {0x40, 0x00, 0xF9, 0x62, 0x80, 0xD4, 0x08, 0x3F});
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(px(*r, 0, 0), (A{130, 0, 105, 255}));
  EXPECT_EQ(px(*r, 3, 0), (A{179, 97, 105, 255}));
  EXPECT_EQ(px(*r, 0, 3), (A{130, 48, 218, 255}));
  EXPECT_EQ(px(*r, 3, 3), (A{179, 145, 218, 255}));
}

TEST(IgzFormats, Etc2EacAlpha) {
  // EAC: base 0x80, multiplier 2, table 0 (-3 -6 -9 -15 2 5 8 14); indices from bit 47 in
  // column order: (0,0) 7 -> 128 + 28 = 156; (0,1) 3 -> 128 - 30 = 98; (1,0) 4 -> 128 + 4 = 132;
  // every other 0 -> 128 - 6 = 122. Then the differential block above (top rows (137, 255, 5)).
  auto r = decode("etc2_alpha_android", 4, 4,
                  {0x80, 0x20, 0xEC, 0x08, 0, 0, 0, 0, 0x87, 0xF8, 0x03, 0x23, 0, 0, 0, 0});
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(px(*r, 0, 0), (A{137, 255, 5, 156}));
  EXPECT_EQ(px(*r, 0, 1), (A{137, 255, 5, 98}));
  EXPECT_EQ(px(*r, 1, 0), (A{137, 255, 5, 132}));
  EXPECT_EQ(px(*r, 3, 3), (A{125, 255, 26, 122}));
  EXPECT_NE(assumed("etc2_alpha_android", 16).find("Khronos"), std::string::npos);
}

// ---- replace ----

// The texture of a fixture replaced by `img` through the CLI: exit code, stderr and the decoded result.
struct Replaced {
  int exit_code = 0;
  std::string err;
  Result<image::Rgba> back = make_error("test", "replace", kNoOffset, "not run");
};
Replaced replace(const fixtures::ImageSpec& s, const image::Rgba& img) {
  testing::TempDir t;
  testing::write_file(t / "in.igz", *fixtures::build_image_igz(s));
  testing::write_file(t / "new.png", *image::encode_png(img));
  auto c = fixtures::open_image_igz(fixtures::build_image_igz(s));
  auto r = testing::run_cli("replace " + testing::quote_path(t / "in.igz") + " -o " + testing::quote_path(t / "out.igz") +
                            " " + fixtures::texture_entry(*c)->path + "=" + testing::quote_path(t / "new.png"));
  Replaced out{r.exit_code, r.err};
  if (r.exit_code == 0)
    if (auto o = open_path((t / "out.igz").string())) out.back = (*o)->texture(*fixtures::texture_entry(**o), 0);
  return out;
}

// Also through the console tilings, whose 8- and 16-byte units the float texels are.
TEST(IgzFormats, ReplaceRoundTripsFloatFormatsExactly) {
  for (const char* format : {"r16g16b16a16_float", "r32g32b32a32_float_big_ps3", "r16g16b16a16_tile_big_ps3",
                             "r16g16b16a16_float_tile_nx", "r32g32b32a32_float_tile_big_xenon"}) {
    Image2 img;
    img.width = 8, img.height = 4, img.levels = 1, img.format = format, img.format_known = true;
    auto size = data_size(img);
    ASSERT_TRUE(size.ok()) << format << ": " << size.error().str();
    fixtures::ImageSpec s;
    s.format = format, s.width = 8, s.height = 4, s.pixels = ByteBuffer(*size);
    const image::Rgba want = random_rgba(8, 4, 11);
    auto r = replace(s, want);
    ASSERT_EQ(r.exit_code, 0) << format << ": " << r.err;
    ASSERT_TRUE(r.back.ok()) << r.back.error().str();
    EXPECT_EQ(r.back->pixels, want.pixels) << format;
  }
}

// PSNR over RGBA computed here, not by the library.
double psnr_db(const image::Rgba& a, const image::Rgba& b) {
  double se = 0;
  for (std::size_t i = 0; i < a.pixels.size(); ++i) se += (double(a.pixels[i]) - b.pixels[i]) * (double(a.pixels[i]) - b.pixels[i]);
  return se == 0 ? 99 : 10 * std::log10(255.0 * 255.0 / (se / a.pixels.size()));
}

// `replace` into ETC: a smooth image comes back above 30 dB (ETC keeps 4-5 bit bases plus one
// modifier per texel); a solid (2, 2, 2) is base 0 plus table 0's +2, exactly; a constant alpha
// 200 is an EAC base 200 with a zero modifier (table 13's index 4), exactly.
TEST(IgzFormats, ReplaceEncodesEtc) {
  image::Rgba smooth{16, 12, ByteBuffer(16 * 12 * 4)};
  for (std::uint32_t y = 0; y < 12; ++y)
    for (std::uint32_t x = 0; x < 16; ++x) {
      std::uint8_t* p = smooth.pixels.data() + (y * 16 + x) * 4;
      p[0] = static_cast<std::uint8_t>(40 + 12 * x), p[1] = static_cast<std::uint8_t>(200 - 10 * y);
      p[2] = static_cast<std::uint8_t>(100 + 5 * (x + y)), p[3] = static_cast<std::uint8_t>(60 + 8 * x + 4 * y);
    }
  for (const auto& [format, bytes] : {std::pair{"etc1_android", 8u}, {"etc2_aspen", 8u}, {"etc2_alpha_android", 16u}}) {
    fixtures::ImageSpec s;
    s.format = format, s.width = 16, s.height = 12, s.pixels = ByteBuffer(4 * 3 * bytes);
    image::Rgba want = smooth;
    if (bytes == 8)
      for (std::size_t i = 3; i < want.pixels.size(); i += 4) want.pixels[i] = 255;  // no alpha stored
    auto r = replace(s, want);
    ASSERT_EQ(r.exit_code, 0) << format << ": " << r.err;
    ASSERT_TRUE(r.back.ok()) << r.back.error().str();
    EXPECT_GT(psnr_db(want, *r.back), 30.0) << format;
    image::Rgba solid{4, 4, ByteBuffer(64)};
    for (std::size_t i = 0; i < 64; i += 4) solid.pixels[i] = solid.pixels[i + 1] = solid.pixels[i + 2] = 2, solid.pixels[i + 3] = bytes == 8 ? 255 : 200;
    s.width = 4, s.height = 4, s.pixels = ByteBuffer(bytes);
    auto exact = replace(s, solid);
    ASSERT_EQ(exact.exit_code, 0) << exact.err;
    EXPECT_EQ(exact.back->pixels, solid.pixels) << format;
  }
}

TEST(IgzFormats, PalettesSayWhyNot) {
  // Palettes: not decoded, and the message says where the palette would have to come from.
  auto p = decode("p8_r8g8b8a8", 4, 4, ByteBuffer(16 + 1024));
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().kind, ErrorKind::unsupported);
  EXPECT_NE(p.error().message.find("1024-byte palette"), std::string::npos) << p.error().str();
  EXPECT_NE(p.error().message.find("_data"), std::string::npos);
  auto wii = decode("p4_b4g4r4a3x1_tile_big_wii", 8, 8, ByteBuffer(64));
  ASSERT_FALSE(wii.ok());
  EXPECT_NE(wii.error().message.find("TLUT"), std::string::npos) << wii.error().str();
  // replace refuses them with the same why (exit 1: the file's format is not handled).
  fixtures::ImageSpec s;
  s.format = "p4_r8g8b8a8", s.width = 4, s.height = 4, s.pixels = ByteBuffer(8 + 64);
  auto r = replace(s, random_rgba(4, 4, 3));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("64-byte palette"), std::string::npos) << r.err;
}

TEST(IgzFormats, AssumptionsSayHowValuesAreClamped) {
  EXPECT_NE(assumed("r16_float", 32).find("clamped to [0, 1]"), std::string::npos);
  EXPECT_NE(assumed("r16g16_signed", 64).find("(v + 1) / 2"), std::string::npos);
  EXPECT_NE(assumed("r16g16b16x16", 128).find("unused"), std::string::npos);
  EXPECT_NE(assumed("d24s8", 64).find("bits 8-31"), std::string::npos);
  EXPECT_NE(assumed("r4g4b4a3x1", 32).find("bit 15 unused"), std::string::npos);
  EXPECT_NE(assumed("g8b8", 32).find("lowest bits"), std::string::npos);
}

// Every third truncation and a byte mutation at every offset (but the header padding) of fixtures
// of the new formats: no crash; a texture that still decodes has the fields' size.
TEST(IgzFormats, TruncationAndMutationSweep) {
  const std::pair<const char*, std::uint32_t> formats[] = {
      {"r32g32b32a32_float_tile_big_ps3", 4 * 4 * 16}, {"etc2_alpha_android", 16}};
  for (const auto& [format, bytes] : formats) {
    fixtures::ImageSpec s;
    s.format = format, s.width = 4, s.height = 4, s.pixels.resize(bytes, 0x6C);
    auto good = fixtures::build_image_igz(s);
    ASSERT_TRUE(good.ok());
    fixtures::sweep_image_igz(*good);
  }
}

// Writes fuzz/corpus/igz_image/ seeds of the new formats when ASSAY_WRITE_IGZ_FORMAT_CORPUS names a
// folder; skipped otherwise.
TEST(IgzFormats, WritesFuzzCorpus) {
  const char* dir = std::getenv("ASSAY_WRITE_IGZ_FORMAT_CORPUS");
  if (dir == nullptr) GTEST_SKIP() << "set ASSAY_WRITE_IGZ_FORMAT_CORPUS to write the corpus";
  fixtures::ImageSpec s;
  s.format = "r16g16b16a16_float", s.width = 4, s.height = 4, s.pixels.assign(4 * 4 * 8, 0x3C);
  testing::write_file(std::filesystem::path(dir) / "half_rgba_4x4.igz", *fixtures::build_image_igz(s));
  s.format = "etc2_alpha_android", s.pixels = {0x80, 0x20, 0xEC, 0x08, 0, 0, 0, 0, 0x43, 0x0D, 0x16, 0x2B, 0x80, 0x10, 0x80, 0x02};
  testing::write_file(std::filesystem::path(dir) / "etc2_alpha_4x4.igz", *fixtures::build_image_igz(s));
}

}  // namespace
}  // namespace image_formats_test
}  // namespace assay::igz
