// Texture dictionaries: the spec's PS2 fixture (#rw-10-3), writer round trips (#rw-5-6 sizes),
// D3D natives (#rw-6), bad sizes.
#include <gtest/gtest.h>

#include "assay/formats/renderware/texture.h"
#include "assay/formats/renderware/verify.h"
#include "assay/formats/renderware/writer.h"
#include "assay/image/dxt.h"
#include "rw_test_util.h"

namespace assay::rw {
namespace {

namespace w = writer;
using testing::Ps2Fixture;

std::array<int, 4> px(const image::Rgba& img, std::uint32_t x, std::uint32_t y) {
  const std::uint8_t* p = img.pixels.data() + (std::size_t{y} * img.width + x) * 4;
  return {p[0], p[1], p[2], p[3]};
}
using C = std::array<int, 4>;

Result<TextureDictionary> open_fixture(const Ps2Fixture& f, Diagnostics& d) {
  static thread_local ByteBuffer keep;
  keep = testing::dictionary(testing::ps2_fixture_native(f), 1);
  return testing::open_strict(keep, d.sink());
}

TEST(RwPs2, SpecFixtureDecodes) {
  Diagnostics d;
  auto dict = open_fixture({}, d);
  ASSERT_TRUE(dict.ok()) << dict.error().str();
  EXPECT_EQ(d.items().size(), 0u);
  ASSERT_EQ(dict->textures().size(), 1u);
  const TextureNative& t = dict->textures()[0];
  EXPECT_EQ(t.name, "fixture");
  EXPECT_EQ(t.platform, kPlatformPS2);
  EXPECT_EQ(t.width, 16u);
  EXPECT_EQ(t.depth, 8u);
  EXPECT_EQ(t.format, TexelFormat::pal8);
  EXPECT_EQ(t.ps2.psm(), 0x13u);
  EXPECT_EQ(t.ps2.layout_version, 2u);
  EXPECT_EQ(t.levels.size(), 1u);
  EXPECT_EQ(t.levels[0].stored_width, 16u);
  auto img = dict->decode(0);
  ASSERT_TRUE(img.ok()) << img.error().str();
  ASSERT_EQ(img->width, 16u);
  // the index image is x + 16 y; palette entry e = (e, 255 - e, 0, 128); CSM1 swaps 8-15 / 16-23
  auto at = [&](std::uint32_t i) { return px(*img, i % 16, i / 16); };
  EXPECT_EQ(at(8), (C{16, 239, 0, 255}));
  EXPECT_EQ(at(16), (C{8, 247, 0, 255}));
  EXPECT_EQ(at(24), (C{24, 231, 0, 255}));
  EXPECT_EQ(at(40), (C{48, 207, 0, 255}));
  EXPECT_EQ(at(0), (C{0, 255, 0, 255}));
  EXPECT_EQ(at(255), (C{255, 0, 0, 255}));
}

TEST(RwPs2, FixtureMutationNloopR10) {
  Diagnostics d;
  auto dict = open_fixture({.nloop_texels = 15}, d);
  ASSERT_FALSE(dict.ok());
  EXPECT_EQ(dict.error().code, "R10") << dict.error().str();
  EXPECT_NE(dict.error().structure.find("fixture"), std::string::npos);
}

TEST(RwPs2, FixtureMutationPixelSize) {
  Diagnostics d;
  auto dict = open_fixture({.pixel_size = 320}, d);
  ASSERT_FALSE(dict.ok());
  EXPECT_EQ(dict.error().code, "R10") << dict.error().str();
}

TEST(RwPs2, FixtureMutationTrxregR11) {
  Diagnostics d;
  auto dict = open_fixture({.trx_w = 8, .trx_h = 4}, d);
  ASSERT_TRUE(dict.ok()) << dict.error().str();
  ASSERT_EQ(d.count(Severity::warning), 1u);
  EXPECT_EQ(d.items()[0].where.code, "R11");
  // the image still holds the padded 16 x 16 level: decoded at that size
  auto img = dict->decode(0);
  ASSERT_TRUE(img.ok()) << img.error().str();
  EXPECT_EQ(px(*img, 8, 0), (C{16, 239, 0, 255}));
}

TEST(RwPs2, FixtureMutationWidth12R12) {
  Diagnostics d;
  auto dict = open_fixture({.width = 12}, d);
  ASSERT_TRUE(dict.ok()) << dict.error().str();
  bool r12 = false;
  for (const auto& i : d.items()) r12 |= i.where.code == "R12";
  EXPECT_TRUE(r12);
  auto img = dict->decode(0);
  ASSERT_FALSE(img.ok());
  EXPECT_EQ(img.error().kind, ErrorKind::unsupported);
}

TEST(RwPs2, FourBitSpecVariant) {
  // spec #rw-10-3 4-bit variant: 16 x 16 padded to 32 x 16; TRXREG {16, 8}; pixelSize 336;
  // palette TRXREG {8, 3}, NLOOP 6, paletteSize 176
  image::Rgba img{16, 16, ByteBuffer(16 * 16 * 4)};
  for (std::uint32_t y = 0; y < 16; ++y)
    for (std::uint32_t x = 0; x < 16; ++x) {
      std::uint8_t* p = img.pixels.data() + (y * 16 + x) * 4;
      p[0] = static_cast<std::uint8_t>(x * 16), p[1] = 0, p[2] = 0, p[3] = 255;
    }
  auto t = w::ps2_texture_from_rgba("four", {img}, true);
  ASSERT_TRUE(t.ok());
  auto nat = w::ps2_texture_native(*t);
  ASSERT_TRUE(nat.ok());
  const ByteBuffer dict = w::texture_dictionary({*nat}, 6);
  auto d = testing::open_strict(dict);
  ASSERT_TRUE(d.ok()) << d.error().str();
  const TextureNative& n = d->textures()[0];
  EXPECT_EQ(n.raster_format, 0x4504u);
  EXPECT_EQ(n.ps2.psm(), 0x14u);
  EXPECT_EQ(n.ps2.pixel_size, 336u);
  EXPECT_EQ(n.ps2.palette_size, 176u);
  EXPECT_EQ(n.levels[0].stored_width, 32u);
  EXPECT_EQ(n.levels[0].stored_height, 16u);
  EXPECT_EQ(n.levels[0].data.size(), 256u);
  auto back = d->decode(0);
  ASSERT_TRUE(back.ok()) << back.error().str();
  EXPECT_EQ(back->pixels, img.pixels);
}

// Known images with 0-255 alphas representable in 0-128 (0, 1, 127, 253, 255...).
image::Rgba pattern(std::uint32_t w, std::uint32_t h, std::uint32_t colours, std::uint32_t seed) {
  static const std::uint8_t alphas[] = {255, 0, 1, 127, 253, 255, 3};
  image::Rgba img{w, h, ByteBuffer(std::size_t{w} * h * 4)};
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) {
      const std::uint32_t c = (x * 7 + y * 13 + seed) % colours;
      std::uint8_t* p = img.pixels.data() + (std::size_t{y} * w + x) * 4;
      p[0] = static_cast<std::uint8_t>(c), p[1] = static_cast<std::uint8_t>(c * 3), p[2] = static_cast<std::uint8_t>(c ^ 0x55);
      p[3] = alphas[c % 7];
    }
  return img;
}

struct RoundTrip {
  std::uint32_t w, h, levels;
  bool pal4;
  std::uint32_t pixel_size;  // from spec #rw-5-9's worked sizes, 0 = not listed
};

class RwPs2RoundTrip : public ::testing::TestWithParam<RoundTrip> {};

TEST_P(RwPs2RoundTrip, DecodingGivesTheImageBack) {
  const RoundTrip r = GetParam();
  std::vector<image::Rgba> levels;
  for (std::uint32_t i = 0; i < r.levels; ++i)
    levels.push_back(pattern(std::max(1u, r.w >> i), std::max(1u, r.h >> i), r.pal4 ? 16 : 200, i));
  auto t = w::ps2_texture_from_rgba("rt", levels, r.pal4);
  ASSERT_TRUE(t.ok()) << t.error().str();
  auto nat = w::ps2_texture_native(*t);
  ASSERT_TRUE(nat.ok()) << nat.error().str();
  const ByteBuffer dict = w::texture_dictionary({*nat}, 6);
  Diagnostics diags;
  EXPECT_TRUE(verify_stream(dict, 0, diags.sink()));
  EXPECT_EQ(diags.items().size(), 0u) << diags.items()[0].where.str();
  auto d = testing::open_strict(dict);
  ASSERT_TRUE(d.ok()) << d.error().str();
  const TextureNative& n = d->textures()[0];
  EXPECT_EQ(n.mip_count, r.levels);
  EXPECT_EQ(n.ps2.palette_size, r.pal4 ? 176u : 1104u);
  if (r.pixel_size) EXPECT_EQ(n.ps2.pixel_size, r.pixel_size);
  ASSERT_EQ(n.levels.size(), r.levels);
  for (std::uint32_t i = 0; i < r.levels; ++i) {
    auto img = d->decode(0, i);
    ASSERT_TRUE(img.ok()) << img.error().str();
    EXPECT_EQ(img->width, levels[i].width);
    EXPECT_EQ(img->height, levels[i].height);
    EXPECT_EQ(img->pixels, levels[i].pixels) << "level " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, RwPs2RoundTrip,
    ::testing::Values(RoundTrip{64, 64, 1, false, 4176}, RoundTrip{16, 16, 1, false, 336},
                      RoundTrip{8, 8, 1, false, 208},  // below 16 x 4: padded to 16 x 8
                      RoundTrip{16, 16, 1, true, 336}, RoundTrip{64, 64, 1, true, 2128},
                      RoundTrip{64, 64, 3, false, 5616}, RoundTrip{4, 2, 1, false, 0}, RoundTrip{1, 1, 1, false, 0},
                      RoundTrip{8, 2, 1, true, 0}, RoundTrip{32, 8, 4, true, 0}, RoundTrip{128, 32, 6, false, 0},
                      RoundTrip{256, 256, 2, true, 0}));

TEST(RwPs2, LevelsPastThePaletteRegionFail) {
  auto nat = testing::ps2_fixture_native();
  // data struct declared smaller than pixelSize + paletteSize: R9 error (the data struct
  // shrinks by 16 and its parents with it; the stream stays well-formed)
  auto shrink = [](ByteBuffer b, std::size_t at, std::uint32_t by) {
    store<std::uint32_t>(b.data() + at, load<std::uint32_t>(b.data() + at, Endian::little) - by, Endian::little);
    return b;
  };
  ByteBuffer b = shrink(nat, 4, 16);
  b = shrink(b, 68 + 4, 16);   // raster container
  b = shrink(b, 156 + 4, 16);  // data struct header at 12+20+20+16+12+76
  b.erase(b.begin() + 156 + 12 + 1424, b.begin() + 156 + 12 + 1440);
  const ByteBuffer dict = testing::dictionary(b, 1);
  auto d = testing::open_strict(dict);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().code, "R9") << d.error().str();
}

TEST(RwPs2, DepthDisagreeingWithFormatIsAnError) {
  ByteBuffer nat = testing::ps2_fixture_native();
  store<std::uint32_t>(nat.data() + 92 + 8, 32, Endian::little);  // raster header (body at 92): depth at +8
  const ByteBuffer d_bytes = testing::dictionary(nat, 1);
  auto d = testing::open_strict(d_bytes);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().message.find("depth"), std::string::npos) << d.error().str();
}

TEST(RwPs2, TextureLargerThanItsDataIsAnError) {
  ByteBuffer nat = testing::ps2_fixture_native();
  store<std::uint32_t>(nat.data() + 92 + 0, 64, Endian::little);  // width 64 in a 16-wide transfer
  store<std::uint32_t>(nat.data() + 92 + 4, 64, Endian::little);
  const ByteBuffer d_bytes = testing::dictionary(nat, 1);
  auto d = testing::open_strict(d_bytes);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().message.find("64 x 64 x 8 bits needs more than the 256 bytes"), std::string::npos) << d.error().str();
  ByteBuffer big = testing::ps2_fixture_native();
  store<std::uint32_t>(big.data() + 168 + 0x20, 64, Endian::little);  // TRXREG width 64
  const ByteBuffer d2_bytes = testing::dictionary(big, 1);
  auto d2 = testing::open_strict(d2_bytes);
  ASSERT_FALSE(d2.ok());
  EXPECT_NE(d2.error().message.find("transfer"), std::string::npos) << d2.error().str();
}

TEST(RwDictionary, CountMismatchR7) {
  const ByteBuffer dict = testing::dictionary(testing::ps2_fixture_native(), 2);
  auto d = testing::open_strict(dict);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().code, "R7");
}

TEST(RwDictionary, RasterStructMustHoldTwoStructsR8) {
  ByteBuffer nat = testing::ps2_fixture_native();
  store<std::uint32_t>(nat.data() + 156, 0x02, Endian::little);  // the data struct becomes a String
  const ByteBuffer d_bytes = testing::dictionary(nat, 1);
  auto d = testing::open_strict(d_bytes);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().code, "R8") << d.error().str();
}

// D3D9 natives from the writer; every uncompressed format decoded against known texels.
TEST(RwD3d, UncompressedFormats) {
  struct F {
    std::uint32_t d3d, depth;
    ByteBuffer texel;
    C rgba;
  };
  const F fs[] = {
      {d3d::kA8R8G8B8, 32, {10, 20, 30, 40}, {30, 20, 10, 40}},
      {d3d::kX8R8G8B8, 32, {10, 20, 30, 40}, {30, 20, 10, 255}},
      {d3d::kR5G6B5, 16, {0x00, 0xF8}, {255, 0, 0, 255}},
      {d3d::kA1R5G5B5, 16, {0x1F, 0x00}, {0, 0, 255, 0}},
      {d3d::kA4R4G4B4, 16, {0xF0, 0x0F}, {255, 255, 0, 0}},
      {d3d::kL8, 8, {77}, {77, 77, 77, 255}},
  };
  for (const F& f : fs) {
    w::D3d9Texture t;
    t.name = "u";
    t.width = 2, t.height = 2, t.depth = f.depth, t.raster_format = 0x500, t.d3d_format = f.d3d, t.flags = 0;
    ByteBuffer lvl;
    for (int i = 0; i < 4; ++i) lvl.insert(lvl.end(), f.texel.begin(), f.texel.end());
    t.levels = {lvl};
    auto nat = w::d3d9_texture_native(t);
    ASSERT_TRUE(nat.ok());
    const ByteBuffer d_bytes = w::texture_dictionary({*nat}, 2, kStampGtaSa);
  auto d = testing::open_strict(d_bytes);
    ASSERT_TRUE(d.ok()) << d.error().str();
    auto img = d->decode(0);
    ASSERT_TRUE(img.ok()) << img.error().str();
    EXPECT_EQ(px(*img, 1, 1), f.rgba) << f.d3d;
  }
}

TEST(RwD3d, Pal8AndMips) {
  w::D3d9Texture t;
  t.name = "p8";
  t.width = 4, t.height = 2, t.depth = 8, t.raster_format = 0x2500, t.d3d_format = d3d::kP8, t.flags = 0;
  t.palette = {0xFF0000FFu, 0x8000FF00u};  // entry 0 red opaque; entry 1 green alpha 0x80
  t.levels = {{0, 1, 0, 1, 1, 1, 0, 0}, {1, 0}};
  auto nat = w::d3d9_texture_native(t);
  ASSERT_TRUE(nat.ok());
  const ByteBuffer d_bytes = w::texture_dictionary({*nat}, 2, kStampGtaSa);
  auto d = testing::open_strict(d_bytes);
  ASSERT_TRUE(d.ok()) << d.error().str();
  EXPECT_EQ(d->textures()[0].levels.size(), 2u);
  auto img = d->decode(0);
  ASSERT_TRUE(img.ok());
  EXPECT_EQ(px(*img, 0, 0), (C{255, 0, 0, 255}));
  EXPECT_EQ(px(*img, 1, 0), (C{0, 255, 0, 128}));
  auto mip = d->decode(0, 1);
  ASSERT_TRUE(mip.ok());
  EXPECT_EQ(mip->width, 2u);
  EXPECT_EQ(mip->height, 1u);
  EXPECT_EQ(px(*mip, 0, 0), (C{0, 255, 0, 128}));
  EXPECT_FALSE(d->decode(0, 2).ok());
}

TEST(RwD3d, LevelSizeDisagreeingWithWidthHeightIsAnError) {
  w::D3d9Texture t;
  t.name = "bad";
  t.width = 32, t.height = 32, t.d3d_format = d3d::kDxt1;
  t.levels = {ByteBuffer(256)};  // 32 x 32 DXT1 needs 512
  auto nat = w::d3d9_texture_native(t);
  ASSERT_TRUE(nat.ok());
  const ByteBuffer d_bytes = w::texture_dictionary({*nat}, 2, kStampGtaSa);
  auto d = testing::open_strict(d_bytes);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().message.find("needs 512 bytes but 256"), std::string::npos) << d.error().str();
  EXPECT_NE(d.error().structure.find("bad"), std::string::npos);
}

TEST(RwD3d, StructSizeR15AndUnknownFormatR16) {
  w::D3d9Texture t;
  t.name = "x";
  t.width = 4, t.height = 4, t.d3d_format = d3d::kDxt1;
  t.levels = {ByteBuffer(8)};
  auto nat = w::d3d9_texture_native(t);
  ASSERT_TRUE(nat.ok());
  // an extra byte in the struct: the sizes no longer add up
  ByteBuffer b = *nat;
  b.insert(b.begin() + 12 + 12 + 88 + 4 + 8, 0);
  for (std::size_t at : {std::size_t{4}, std::size_t{16}})
    store<std::uint32_t>(b.data() + at, load<std::uint32_t>(b.data() + at, Endian::little) + 1, Endian::little);
  const ByteBuffer d_bytes = w::texture_dictionary({b}, 2, kStampGtaSa);
  auto d = testing::open_strict(d_bytes);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().code, "R15") << d.error().str();
  // an unknown D3D format: listed, a warning, not decoded
  w::D3d9Texture u = t;
  u.d3d_format = 0x12345;
  auto nu = w::d3d9_texture_native(u);
  Diagnostics diags;
  const ByteBuffer du_bytes = w::texture_dictionary({*nu}, 2, kStampGtaSa);
  auto du = TextureDictionary::open(du_bytes, 0, diags.sink());
  ASSERT_TRUE(du.ok()) << du.error().str();
  EXPECT_EQ(diags.count(Severity::warning), 1u);
  EXPECT_FALSE(du->decode(0).ok());
}

TEST(RwD3d, D3d8CompressionByte) {
  // a D3D8 native: +0x4C hasAlpha, +0x57 compression 1..5 (spec #rw-6-1)
  w::D3d9Texture t;
  t.name = "d8";
  t.width = 4, t.height = 4, t.d3d_format = 0, t.flags = 3;  // DXT3
  const std::uint8_t block[16] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0xF8, 0x00, 0xF8, 0, 0, 0, 0};
  t.levels = {ByteBuffer(block, block + 16)};
  auto nat = w::d3d9_texture_native(t);
  ASSERT_TRUE(nat.ok());
  ByteBuffer b = *nat;
  store<std::uint32_t>(b.data() + 24, kPlatformD3D8, Endian::little);
  const ByteBuffer d_bytes = w::texture_dictionary({b}, 1, kStampGtaSa);
  auto d = testing::open_strict(d_bytes);
  ASSERT_TRUE(d.ok()) << d.error().str();
  EXPECT_EQ(d->textures()[0].format, TexelFormat::dxt3);
  auto img = d->decode(0);
  ASSERT_TRUE(img.ok());
  EXPECT_EQ(px(*img, 3, 3), (C{255, 0, 0, 255}));
}

}  // namespace
}  // namespace assay::rw
