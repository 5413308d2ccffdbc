// igImage2 textures in 64-bit igz files (issue #28: "little-endian PC/PS4/Switch data of the
// NST/CTR generation (v10)"). No 64-bit file with an igImage2 is at hand, so the files are built
// by our own writer with the fields where public metadata puts them (image64_fixture.h:
// kishimisu/Crash-NST-Level-Editor's igImage2.cs for NST/CTR, igRewrite8's igImage2.cs for 64-bit
// version 9) and the facts asserted are independent of our reader: a DXT1 block decoded by hand,
// r8g8b8a8 texels as bytes R, G, B, A (as the Crash NST modding tool reads "r8g8b8a8_dx11"), and the
// stored bytes `replace` writes compared with the PNG's own.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>

#include "assay/container.h"
#include "assay/core/hash.h"
#include "assay/formats/igarchive/writer.h"
#include "assay/image/png.h"
#include "formats/serialise.h"
#include "image64_fixture.h"
#include "testing/testing.h"

namespace assay::igz {
namespace image64_test {
namespace {

namespace fs = std::filesystem;
using Px = std::array<std::uint8_t, 4>;
using fixtures::Layout64;

std::unique_ptr<Container> open_bytes(Result<ByteBuffer> igz) { return fixtures::open_image_igz(std::move(igz), "t64.igz"); }
using fixtures::texture_entry;

using fixtures::texel;

// fixtures::dxt1_blocks' block `a8 3b 83 19 55 ff aa 00` decoded by hand as little-endian DXT1
// (image_test.cc gives the arithmetic): rows 0..3 are colours 1, 3, 2, 0 =
// (24,48,24) (35,71,38) (46,94,52) (57,117,66), alpha 255.
void expect_block(const image::Rgba& img, std::uint32_t x0, std::uint32_t y0) {
  for (std::uint32_t x = x0; x < x0 + 4; ++x) {
    EXPECT_EQ(texel(img, x, y0 + 0), (Px{24, 48, 24, 255})) << x;
    EXPECT_EQ(texel(img, x, y0 + 1), (Px{35, 71, 38, 255})) << x;
    EXPECT_EQ(texel(img, x, y0 + 2), (Px{46, 94, 52, 255})) << x;
    EXPECT_EQ(texel(img, x, y0 + 3), (Px{57, 117, 66, 255})) << x;
  }
}

fixtures::ImageSpec dxt1_8x8(std::string format) {
  fixtures::ImageSpec s;
  s.format = std::move(format);
  s.pixels = fixtures::dxt1_blocks(8, 8);
  return s;
}

// 4 x 2 r8g8b8a8: texel (x, y) stored as the bytes {10x + 1, 20y + 2, 30 + x + y, 200 + x}.
fixtures::ImageSpec rgba_4x2(std::string format) {
  fixtures::ImageSpec s;
  s.format = std::move(format), s.width = 4, s.height = 2;
  for (std::uint32_t y = 0; y < 2; ++y)
    for (std::uint32_t x = 0; x < 4; ++x)
      for (std::uint32_t b : {10 * x + 1, 20 * y + 2, 30 + x + y, 200 + x}) s.pixels.push_back(static_cast<std::uint8_t>(b));
  return s;
}

// The fields are where the NST metadata puts them; the entry says that layout is assumed.
TEST(IgzImage64, NstDxt1FieldsAndHandDecodedBlock) {
  auto c = open_bytes(fixtures::build_image_igz64(dxt1_8x8("dxt1_dx11"), Layout64::nst));
  ASSERT_TRUE(c);
  const Entry* e = texture_entry(*c);
  ASSERT_NE(e, nullptr);
  const auto d = details_json(*c, *e);
  EXPECT_EQ(d["width"], 8);
  EXPECT_EQ(d["height"], 8);
  EXPECT_EQ(d["mips"], 1);
  EXPECT_EQ(d["format"], "dxt1_dx11");
  EXPECT_EQ(d["image_name"], "_crate_diffuse");
  EXPECT_EQ(d["fields"]["width"], 0x18);
  EXPECT_EQ(d["fields"]["format"], 0x28);
  EXPECT_EQ(d["fields"]["data"], 0x38);
  EXPECT_EQ(d["data"]["where"], "pool");
  EXPECT_TRUE(d["data"]["memory_handle"].is_null());  // an igMemory in place
  EXPECT_EQ(d["data"]["size"], 32);  // 4 blocks of 8 bytes, the igMemory's u32 size
  EXPECT_NE(d.value("assumed", "").find("_width +0x18, _format +0x28, _data +0x38"), std::string::npos) << d.dump();
  EXPECT_NE(d.value("assumed", "").find("64-bit layout"), std::string::npos) << d.dump();
  auto img = c->texture(*e, 0);
  ASSERT_TRUE(img.ok()) << img.error().str();
  ASSERT_EQ(img->width, 8u);
  for (std::uint32_t y : {0u, 4u})
    for (std::uint32_t x : {0u, 4u}) expect_block(*img, x, y);
}

// An RMHN memory handle at _data (a u64 TMHN index) is found the same way.
TEST(IgzImage64, NstMemoryHandle) {
  auto c = open_bytes(fixtures::build_image_igz64(dxt1_8x8("dxt1_dx11"), Layout64::nst_rmhn));
  ASSERT_TRUE(c);
  const Entry* e = texture_entry(*c);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(details_json(*c, *e)["data"]["memory_handle"], 0);
  EXPECT_EQ(details_json(*c, *e)["data"]["size"], 32);
  auto img = c->texture(*e, 0);
  ASSERT_TRUE(img.ok()) << img.error().str();
  expect_block(*img, 4, 4);
}

// 64-bit version 9 (igRewrite8's 64-bit column: _width 0x48, _format 0x58, _data 0x68).
TEST(IgzImage64, Version9Win64Layout) {
  auto c = open_bytes(fixtures::build_image_igz64(dxt1_8x8("dxt1_win64"), Layout64::v9_64));
  ASSERT_TRUE(c);
  const Entry* e = texture_entry(*c);
  ASSERT_NE(e, nullptr);
  const auto d = details_json(*c, *e);
  EXPECT_EQ(d["platform"], "win64");
  EXPECT_EQ(d["fields"]["width"], 0x48);
  EXPECT_EQ(d["fields"]["format"], 0x58);
  EXPECT_EQ(d["fields"]["data"], 0x68);
  EXPECT_EQ(d["data"]["size"], 32);  // the 64-bit size word: bit 63 set, size in bits 0-58
  auto img = c->texture(*e, 0);
  ASSERT_TRUE(img.ok()) << img.error().str();
  expect_block(*img, 0, 4);
}

// The dimensions 0x0C before _format (the other 8-byte-aligned placement): the first place the
// layouts allow (0x10 before) reads 0 x 0 (the zero bytes after _name), so the next is taken, and said so.
TEST(IgzImage64, DimensionsWhereTheValuesArePlausible) {
  auto c = open_bytes(fixtures::build_image_igz64(dxt1_8x8("dxt1_dx11"), Layout64::dims_0c));
  ASSERT_TRUE(c);
  const Entry* e = texture_entry(*c);
  ASSERT_NE(e, nullptr);
  const auto d = details_json(*c, *e);
  EXPECT_EQ(d["fields"]["width"], 0x1C);
  EXPECT_EQ(d["width"], 8);
  EXPECT_NE(d.value("assumed", "").find("alignment allows"), std::string::npos) << d.dump();
  auto img = c->texture(*e, 0);
  ASSERT_TRUE(img.ok()) << img.error().str();
  expect_block(*img, 0, 0);
}

TEST(IgzImage64, NstRgbaTexelsAreTheBytes) {
  auto c = open_bytes(fixtures::build_image_igz64(rgba_4x2("r8g8b8a8_dx11"), Layout64::nst));
  ASSERT_TRUE(c);
  const Entry* e = texture_entry(*c);
  ASSERT_NE(e, nullptr);
  auto img = c->texture(*e, 0);
  ASSERT_TRUE(img.ok()) << img.error().str();
  ASSERT_EQ(img->width, 4u);
  ASSERT_EQ(img->height, 2u);
  EXPECT_EQ(texel(*img, 0, 0), (Px{1, 2, 30, 200}));
  EXPECT_EQ(texel(*img, 3, 0), (Px{31, 2, 33, 203}));
  EXPECT_EQ(texel(*img, 1, 1), (Px{11, 22, 32, 201}));
  EXPECT_EQ(texel(*img, 3, 1), (Px{31, 22, 34, 203}));
}

// CTR on the Switch: "l8a8_nx" (FNV-1a 0x44E04333, the hash a CTR Switch reader, Eden DSMod fork
// ctr_alchemy.cc, matches) untiled, two bytes a texel: luminance first, then alpha, as that reader
// reads them (its FormatLa8: l = byte 0, a = byte 1).
TEST(IgzImage64, CtrSwitchLuminanceAlpha) {
  EXPECT_EQ(fnv1a32("l8a8_nx", true), 0x44E04333u);
  EXPECT_EQ(fnv1a32("dxt5_nx", true), 0x37456ECDu);  // its BC3 hash
  fixtures::ImageSpec s;
  s.format = "l8a8_nx", s.width = 4, s.height = 2;
  for (std::uint8_t i = 0; i < 8; ++i) s.pixels.push_back(static_cast<std::uint8_t>(16 * i + 3)), s.pixels.push_back(static_cast<std::uint8_t>(250 - i));
  auto c = open_bytes(fixtures::build_image_igz64(s, Layout64::nst));
  ASSERT_TRUE(c);
  const Entry* e = texture_entry(*c);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(details_json(*c, *e)["format"], "l8a8_nx");
  auto img = c->texture(*e, 0);
  ASSERT_TRUE(img.ok()) << img.error().str();
  EXPECT_EQ(texel(*img, 0, 0), (Px{3, 3, 3, 250}));
  EXPECT_EQ(texel(*img, 1, 0), (Px{19, 19, 19, 249}));
  EXPECT_EQ(texel(*img, 3, 1), (Px{115, 115, 115, 243}));
}

// `assay replace` on the NST igz: the file keeps its size, only the _data bytes change, they are
// the PNG's RGBA bytes in order, and the texture decodes back to the PNG exactly.
TEST(IgzImage64, NstReplaceRoundTripIsExact) {
  fixtures::ImageSpec s = rgba_4x2("r8g8b8a8_dx11");
  s.width = 16, s.height = 8, s.pixels.assign(16 * 8 * 4, 0x11);
  auto in = fixtures::build_image_igz64(s, Layout64::nst);
  ASSERT_TRUE(in.ok());
  std::mt19937 rng(64);
  image::Rgba want{16, 8, ByteBuffer(16 * 8 * 4)};
  for (auto& b : want.pixels) b = static_cast<std::uint8_t>(rng());
  testing::TempDir t;
  testing::write_file(t / "in.igz", *in);
  testing::write_file(t / "new.png", *image::encode_png(want));
  auto c = open_bytes(*in);
  ASSERT_TRUE(c);
  const Entry* e = texture_entry(*c);
  ASSERT_NE(e, nullptr);
  const std::uint64_t at = details_json(*c, *e)["data"]["offset"];
  auto r = testing::run_cli("replace " + testing::quote_path(t / "in.igz") + " -o " + testing::quote_path(t / "out.igz") + " " +
                            e->path + "=" + testing::quote_path(t / "new.png"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const ByteBuffer out = testing::read_file(t / "out.igz");
  ASSERT_EQ(out.size(), in->size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const bool in_data = i >= at && i < at + want.pixels.size();
    ASSERT_EQ(out[i], in_data ? want.pixels[i - at] : (*in)[i]) << "byte " << i;
  }
  auto back = open_path((t / "out.igz").string());
  ASSERT_TRUE(back.ok()) << back.error().str();
  auto img = (*back)->texture(*texture_entry(**back), 0);
  ASSERT_TRUE(img.ok()) << img.error().str();
  EXPECT_EQ(img->pixels, want.pixels);
  EXPECT_EQ(testing::run_cli("verify " + testing::quote_path(t / "out.igz")).exit_code, 0);
}

// From an igArchive (version 0x0B, little-endian, as NST's): `A::B` opens the igz member and its
// texture decodes; the CLI lists it as a texture.
TEST(IgzImage64, InsideAnArchive) {
  testing::TempDir t;
  auto igz = fixtures::build_image_igz64(dxt1_8x8("dxt1_dx11"), Layout64::nst);
  ASSERT_TRUE(igz.ok());
  igarchive::WriterOptions o;
  o.version = 0x0B;
  o.endian = Endian::little;
  std::vector<igarchive::WriterFile> files;
  files.push_back({.name = "textures/crate.igz", .data = *igz});
  files.push_back({.name = "other.bin", .data = ByteBuffer(100, 7)});
  auto arc = igarchive::write_archive(files, o);
  ASSERT_TRUE(arc.ok()) << arc.error().str();
  testing::write_file(t / "level.pak", *arc);
  const std::string spec = (t / "level.pak").string() + "::textures/crate.igz";
  auto c = open_path(spec);
  ASSERT_TRUE(c.ok()) << c.error().str();
  const Entry* e = texture_entry(**c);
  ASSERT_NE(e, nullptr);
  auto img = (*c)->texture(*e, 0);
  ASSERT_TRUE(img.ok()) << img.error().str();
  expect_block(*img, 4, 0);
  auto l = testing::run_cli("list --json " + testing::shell_quote(spec));
  ASSERT_EQ(l.exit_code, 0) << l.err;
  bool listed = false;
  const auto listing = nlohmann::json::parse(l.out);
  for (const auto& j : listing["entries"])
    if (j["kind"] == "texture" && j["width"] == 8) listed = true;
  EXPECT_TRUE(listed) << l.out;
}

// Every third truncation and a byte mutation at every offset of the 64-bit fixtures (but the
// header's padding): no crash; a texture that still decodes has the size its fields give.
TEST(IgzImage64, TruncationAndMutationSweep) {
  for (Layout64 layout : {Layout64::nst, Layout64::nst_rmhn, Layout64::v9_64}) {
    auto good = fixtures::build_image_igz64(dxt1_8x8(layout == Layout64::v9_64 ? "dxt1_win64" : "dxt1_dx11"), layout);
    ASSERT_TRUE(good.ok());
    fixtures::sweep_image_igz(*good);
  }
}

// Writes the 64-bit seeds of fuzz/igz_image.cc (fuzz/corpus/igz_image/) when
// ASSAY_WRITE_IGZ_IMAGE_CORPUS names a folder; skipped otherwise.
TEST(IgzImage64, WritesFuzzCorpus) {
  const char* dir = std::getenv("ASSAY_WRITE_IGZ_IMAGE_CORPUS");
  if (dir == nullptr) GTEST_SKIP() << "set ASSAY_WRITE_IGZ_IMAGE_CORPUS to write the corpus";
  auto write = [&](const std::string& name, const fixtures::ImageSpec& s, Layout64 layout) {
    auto b = fixtures::build_image_igz64(s, layout);
    ASSERT_TRUE(b.ok());
    testing::write_file(fs::path(dir) / name, *b);
  };
  write("nst_v10_dxt1_8x8.igz", dxt1_8x8("dxt1_dx11"), Layout64::nst);
  write("nst_v10_rgba_rmhn.igz", rgba_4x2("r8g8b8a8_dx11"), Layout64::nst_rmhn);
  write("win64_v9_dxt1_8x8.igz", dxt1_8x8("dxt1_win64"), Layout64::v9_64);
}

}  // namespace
}  // namespace image64_test
}  // namespace assay::igz
