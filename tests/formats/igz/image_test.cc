// igImage2 textures (issue #28 item 1): fields, formats and pixels of skylanders_zap.pak's 22 PS3
// textures and the Wii U test_img, read in place; a fixture from our writer for the hand-decoded
// block and the truncation/mutation sweep. Facts are read from the bytes by hand (offsets below)
// or from the sample README, never from our own output.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "assay/container.h"
#include "assay/core/hash.h"
#include "assay/formats/igz/image.h"
#include "image_fixture.h"
#include "testing/testing.h"
#include "formats/serialise.h"

namespace assay::igz {
namespace {

using testing::run_cli;
using testing::shell_quote;

constexpr const char* kZapE = "textures\\colormap_zap_e_11.igz";

std::unique_ptr<Container> open_or_fail(const std::string& spec) {
  auto c = open_path(spec);
  EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().str());
  return c.ok() ? std::move(*c) : nullptr;
}

using fixtures::texture_entry;
using fixtures::texel;
using Px = std::array<std::uint8_t, 4>;

// The block `a8 3b 83 19 55 ff aa 00` (colormap_zap_e_11.igz, Image pool + 0x80 + 432 * 8 = file
// offset 0x17EC), decoded by hand as little-endian DXT1:
//   color0 = 0x3BA8: r 7, g 29, b 8 -> (7<<3|7>>2, 29<<2|29>>4, 8<<3|8>>2) = (57, 117, 66)
//   color1 = 0x1983: r 3, g 12, b 3 -> (24, 48, 24); color0 > color1: four colours,
//   color2 = (2*c0 + c1) / 3 = (46, 94, 52), color3 = (c0 + 2*c1) / 3 = (35, 71, 38)
//   indices 0x55 0xFF 0xAA 0x00: row 0 all 1, row 1 all 3, row 2 all 2, row 3 all 0.
// Read with the 16-bit words swapped (0xA83B, 0x8319) the colours would be reds: the file's texels
// are little-endian although the format says "_big".
void expect_block_432(const image::Rgba& img, std::uint32_t x0, std::uint32_t y0) {
  for (std::uint32_t x = x0; x < x0 + 4; ++x) {
    EXPECT_EQ(texel(img, x, y0 + 0), (Px{24, 48, 24, 255})) << x;
    EXPECT_EQ(texel(img, x, y0 + 1), (Px{35, 71, 38, 255})) << x;
    EXPECT_EQ(texel(img, x, y0 + 2), (Px{46, 94, 52, 255})) << x;
    EXPECT_EQ(texel(img, x, y0 + 3), (Px{57, 117, 66, 255})) << x;
  }
}

TEST(IgzImage, MetaImageNames) {
  // EXID hashes of the samples (namespace 0x843CD0C2 = fnv1a32("metaimages")).
  EXPECT_EQ(fnv1a32("metaimages"), kMetaImagesNamespace);
  EXPECT_EQ(metaimage_for_hash(0x4A1906BB), "dxt1_tile_big_ps3");
  EXPECT_EQ(metaimage_for_hash(0x942D575F), "dxt5_tile_big_ps3");
  EXPECT_EQ(metaimage_for_hash(0xF8BBB422), "dxt5_big_ps3");
  EXPECT_EQ(metaimage_for_hash(0x61455AC9), "dxt1_tile_cafe");
  EXPECT_EQ(metaimage_for_hash(0x12345678), std::nullopt);
  // Every name form: a canonical name alone, with each layout, the last platform, the Wii's own.
  for (const char* s : {"a8", "shadow", "r8g8b8x8_srgb_wgl", "r8g8b8x8_srgb_tile_big_wgl", "l8_tile_nx", "dxt1_big_xenon",
                        "p8_b4g4r4a3x1_tile_big_wii"})
    EXPECT_EQ(metaimage_for_hash(fnv1a32(s)), s);
  const MetaImageName n = parse_metaimage_name("dxt5_srgb_tile_big_ps3");
  EXPECT_EQ(n.canonical, "dxt5_srgb");
  EXPECT_TRUE(n.tile);
  EXPECT_TRUE(n.big);
  EXPECT_EQ(n.platform, "ps3");
}

TEST(IgzImage, ZapColormapFieldsAndHandDecodedBlock) {
  ASSAY_REQUIRE_SAMPLE(zap, "alchemy/skylanders_zap.pak");
  auto c = open_or_fail(zap.string() + "::" + kZapE);
  ASSERT_TRUE(c);
  const Entry* e = texture_entry(*c);
  ASSERT_NE(e, nullptr);
  // igImage2 at ImageObject + 0x10 = 0x98C; at +0x30: 0200 0200 0001 0005 0001 (512 x 512,
  // depth 1, 5 levels, 1 image); TMHN[0] = {0x2802AA00, 0x10000080}: 0x2AA00 bytes at Image + 0x80.
  EXPECT_EQ(e->index, 2u);
  EXPECT_EQ(details_json(*c, *e)["width"], 512);
  EXPECT_EQ(details_json(*c, *e)["height"], 512);
  EXPECT_EQ(details_json(*c, *e)["mips"], 5);
  EXPECT_EQ(details_json(*c, *e)["format"], "dxt1_tile_big_ps3");
  EXPECT_EQ(details_json(*c, *e)["platform"], "ps3");
  EXPECT_EQ(details_json(*c, *e)["image_name"], "_Zap_E");  // TSTR[0] through RSTT
  EXPECT_EQ(details_json(*c, *e)["data"]["offset"], 2540 + 0x80);
  EXPECT_EQ(details_json(*c, *e)["data"]["size"], 0x2AA00);
  // 512^2/2 + 256^2/2 + 128^2/2 + 64^2/2 + 32^2/2 bytes of DXT1 = 174592 = 0x2AA00 exactly.
  EXPECT_EQ(details_json(*c, *e)["data_needed"], 174592);
  auto img = c->texture(*e, 0);
  ASSERT_TRUE(img.ok()) << img.error().str();
  ASSERT_EQ(img->width, 512u);
  // Block 432 sits at block column 432 % 128 = 48, row 432 / 128 = 3 (pixels 192..195, 12..15)
  // in row order. Morton order would put it at column 20, row 12 (432 = 0b110110000: x takes
  // the even bits 0,0,1,0,1 = 20, y the odd bits 0,0,1,1 = 12): the blocks are not swizzled.
  expect_block_432(*img, 192, 12);
  for (unsigned l = 1; l < 5; ++l) {
    auto m = c->texture(*e, l);
    ASSERT_TRUE(m.ok()) << m.error().str();
    EXPECT_EQ(m->width, 512u >> l);
    EXPECT_EQ(m->height, 512u >> l);
  }
  EXPECT_FALSE(c->texture(*e, 5).ok());
}

// All 22 textures\*.igz of zap.pak (README: 22 PS3 images) decode at every level, at the size
// their igImage2 fields give.
TEST(IgzImage, ZapEveryTextureDecodes) {
  ASSAY_REQUIRE_SAMPLE(zap, "alchemy/skylanders_zap.pak");
  auto pak = open_or_fail(zap.string());
  ASSERT_TRUE(pak);
  std::size_t textures = 0;
  for (const Entry& m : pak->entries()) {
    if (!m.name || !m.name->starts_with("textures\\") || !m.name->ends_with(".igz")) continue;
    ++textures;
    auto igz = pak->open(m);
    ASSERT_TRUE(igz.ok()) << *m.name;
    const Entry* e = texture_entry(**igz);
    ASSERT_NE(e, nullptr) << *m.name;
    const auto w = details_json(**igz, *e)["width"].get<std::uint32_t>(), h = details_json(**igz, *e)["height"].get<std::uint32_t>();
    const auto levels = details_json(**igz, *e)["mips"].get<unsigned>();
    EXPECT_TRUE(details_json(**igz, *e)["format"].get<std::string>().ends_with("_ps3")) << *m.name;
    EXPECT_EQ(details_json(**igz, *e)["data"]["size"], details_json(**igz, *e)["data_needed"]) << *m.name;
    for (unsigned l = 0; l < levels; ++l) {
      auto img = (*igz)->texture(*e, l);
      ASSERT_TRUE(img.ok()) << *m.name << " level " << l << ": " << img.error().str();
      EXPECT_EQ(img->width, std::max(1u, w >> l));
      EXPECT_EQ(img->height, std::max(1u, h >> l));
    }
  }
  EXPECT_EQ(textures, 22u);
}

// Wii U test_img (spec §5.1): igImage2 at 0x958; at +0x34: 0480 0300 0001 0006 0001 (1152 x 768,
// 6 levels); _format EXID 0 = 0x61455AC9 = "dxt1_tile_cafe"; TMHN[0] holds 0x7C bytes. 124 bytes
// cannot hold even the top level: 288 x 192 DXT1 blocks in GX2 mode 4 (whole 32 x 16 macro tiles,
// no padding) are 288*192*8 = 442368 bytes; the 6-level GX2 chain needs 791552 (by hand in
// tests/image/tiling_test.cc Gx2MipChainByHand; all 6 levels untiled would be 589680).
TEST(IgzImage, WiiUTestImageSaysWhyNot) {
  ASSAY_REQUIRE_SAMPLE(p, "alchemy/igModelTool_test_img.igz");
  auto c = open_or_fail(p.string());
  ASSERT_TRUE(c);
  const Entry* e = texture_entry(*c);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(details_json(*c, *e)["width"], 1152);
  EXPECT_EQ(details_json(*c, *e)["height"], 768);
  EXPECT_EQ(details_json(*c, *e)["mips"], 6);
  EXPECT_EQ(details_json(*c, *e)["format"], "dxt1_tile_cafe");
  EXPECT_EQ(details_json(*c, *e)["platform"], "cafe");
  EXPECT_EQ(details_json(*c, *e)["image_name"], "_magsstaff_diffuse");
  EXPECT_EQ(details_json(*c, *e)["data"]["size"], 0x7C);
  EXPECT_EQ(details_json(*c, *e)["data"]["offset"], 0x9D2);
  auto img = c->texture(*e, 0);
  ASSERT_FALSE(img.ok());
  EXPECT_NE(img.error().message.find("124 bytes"), std::string::npos) << img.error().str();
  EXPECT_NE(img.error().message.find("791552"), std::string::npos) << img.error().str();
}

TEST(IgzImage, FixtureHandDecodedAndLayoutErrors) {
  fixtures::ImageSpec s;
  s.pixels = fixtures::dxt1_blocks(8, 8);
  auto bytes = fixtures::build_image_igz(s);
  ASSERT_TRUE(bytes.ok()) << bytes.error().str();
  auto c = open(Input::from_buffer("fixture.igz", *bytes));
  ASSERT_TRUE(c.ok()) << c.error().str();
  const Entry* e = texture_entry(**c);
  ASSERT_NE(e, nullptr);
  auto img = (*c)->texture(*e, 0);
  ASSERT_TRUE(img.ok()) << img.error().str();
  for (std::uint32_t y : {0u, 4u})
    for (std::uint32_t x : {0u, 4u}) expect_block_432(*img, x, y);

  s.format = "dxt1_tile_durango";  // Xbox One tiling: not decoded, and said so
  auto xb1 = open(Input::from_buffer("xb1.igz", *fixtures::build_image_igz(s)));
  ASSERT_TRUE(xb1.ok());
  auto r = (*xb1)->texture(*texture_entry(**xb1), 0);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::unsupported);
  EXPECT_NE(r.error().message.find("not decoded: format dxt1_tile_durango"), std::string::npos) << r.error().str();

  s.format = "r8g8b8a8_ps3";
  auto rgba = open(Input::from_buffer("rgba.igz", *fixtures::build_image_igz(s)));
  ASSERT_TRUE(rgba.ok());
  EXPECT_FALSE((*rgba)->texture(*texture_entry(**rgba), 0).ok());
}

// Every third truncation and a byte mutation at every offset (but the header padding) of the
// fixture, in block, plain, swizzled and Wii formats: no crash; a texture that still decodes has
// the fields' size.
TEST(IgzImage, TruncationAndMutationSweep) {
  for (const char* format : {"dxt1_tile_big_ps3", "r5g6b5_tile_big_ps3", "l8a8", "dxt1_tile_big_wii", "b8g8r8a8_tile_big_wii"}) {
    fixtures::ImageSpec s;
    s.format = format;
    s.pixels = fixtures::dxt1_blocks(8, 8);
    s.pixels.resize(std::string_view(format).find("b8g8r8a8") == 0 ? 256 : 128, 0x6C);
    auto good = fixtures::build_image_igz(s);
    ASSERT_TRUE(good.ok());
    fixtures::sweep_image_igz(*good);
  }
}

TEST(IgzImage, CliListExtractAndStored) {
  ASSAY_REQUIRE_SAMPLE(zap, "alchemy/skylanders_zap.pak");
  const std::string spec = shell_quote(zap.string() + "::" + kZapE);
  auto l = run_cli("list --json " + spec);
  ASSERT_EQ(l.exit_code, 0) << l.err;
  const auto j = nlohmann::json::parse(l.out);
  EXPECT_EQ(j["entries"][2]["kind"], "texture");
  EXPECT_EQ(j["entries"][2]["width"], 512);

  testing::TempDir dir;
  auto x = run_cli("extract " + spec + " -o " + shell_quote(dir.path().string()) + " --mips -q");
  ASSERT_EQ(x.exit_code, 0) << x.err;
  auto png = Input::open(dir / "0002__Zap_E.png");
  ASSERT_TRUE(png.ok());
  auto img = image::decode_png(png->bytes);
  ASSERT_TRUE(img.ok());
  EXPECT_EQ(img->width, 512u);
  expect_block_432(*img, 192, 12);
  EXPECT_TRUE(std::filesystem::exists(dir / "0002__Zap_E.mip4.png"));
  EXPECT_FALSE(std::filesystem::exists(dir / "0002__Zap_E.mip5.png"));

  auto st = run_cli("extract " + spec + " -o " + shell_quote((dir / "s").string()) + " --stored -q");
  ASSERT_EQ(st.exit_code, 0) << st.err;
  EXPECT_EQ(std::filesystem::file_size(dir / "s" / "0002_igImage2.bin"), 0x60u);  // MTSZ[igImage2]
}

}  // namespace
}  // namespace assay::igz

namespace assay::igz {
namespace {

// Writes the seed corpus of fuzz/igz_image.cc (fuzz/corpus/igz_image/) from our writer when
// ASSAY_WRITE_IGZ_IMAGE_CORPUS names a folder; skipped otherwise.
TEST(IgzImage, WritesFuzzCorpus) {
  const char* dir = std::getenv("ASSAY_WRITE_IGZ_IMAGE_CORPUS");
  if (dir == nullptr) GTEST_SKIP() << "set ASSAY_WRITE_IGZ_IMAGE_CORPUS to write the corpus";
  auto write = [&](const std::string& name, fixtures::ImageSpec s) {
    auto b = fixtures::build_image_igz(s);
    ASSERT_TRUE(b.ok());
    testing::write_file(std::filesystem::path(dir) / name, *b);
  };
  fixtures::ImageSpec s;
  s.pixels = fixtures::dxt1_blocks(8, 8);
  write("dxt1_8x8.igz", s);
  s.levels = 2, s.pixels.resize(s.pixels.size() + 8);
  write("dxt1_8x8_2levels.igz", s);
  s = {};
  s.format = "dxt5_big_ps3", s.pixels = ByteBuffer(64, 0x5A);
  write("dxt5_8x8.igz", s);
  s.format = "dxt1_tile_cafe";
  write("cafe_tiled.igz", s);
  s.format = "r5g6b5_tile_big_ps3", s.pixels = ByteBuffer(128, 0xA7);
  write("r5g6b5_swizzled.igz", s);
  s.format = "b4g4r4a3x1_tile_big_wii";
  write("wii_rgb5a3.igz", s);
  s.format = "dxt1_tile_big_wii", s.pixels = ByteBuffer(32, 0x3C);
  write("wii_cmpr.igz", s);
  s.format = "dxn", s.pixels = ByteBuffer(64, 0x96);  // BC5: 8 x 8, 4 blocks of 16 bytes
  write("dxn_8x8.igz", s);
  // The console tilings (image/tiling.h) at their smallest padded sizes.
  s.format = "l8_tile_big_xenon", s.width = 4, s.height = 4, s.pixels = ByteBuffer(0xA00, 0x69);  // one tile: 0xA00 for 8-bit
  write("xenon_l8_tiled.igz", s);
  s.format = "dxt1_tile_nx", s.width = 8, s.height = 8, s.levels = 2, s.pixels = ByteBuffer(1024, 0x3C);
  write("nx_dxt1_tiled_2levels.igz", s);
  s.format = "dxt1_tile_cafe", s.levels = 1, s.pixels = ByteBuffer(512, 0xC3);  // GX2 mode 2: 8 x 8 blocks
  write("cafe_dxt1_mode2.igz", s);
}

}  // namespace
}  // namespace assay::igz
