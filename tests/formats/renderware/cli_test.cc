// The CLI over renderware files: identify, list --json, extract (--mips), verify, rw tree.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "assay/options.h"
#include "assay/formats/renderware/writer.h"
#include "assay/image/png.h"
#include "rw_test_util.h"
#include "testing/testing.h"
#include "testing/families.h"

namespace assay::rw {
namespace {

using ::assay::testing::run_cli;
using ::assay::testing::shell_quote;
using ::assay::testing::TempDir;
using ::assay::testing::write_file;
namespace w = writer;

image::Rgba solid_levels(std::uint32_t wd, std::uint32_t h) {
  image::Rgba r{wd, h, ByteBuffer(std::size_t{wd} * h * 4)};
  for (std::size_t k = 0; k < std::size_t{wd} * h; ++k) {
    r.pixels[4 * k] = static_cast<std::uint8_t>(k % 5 * 50);
    r.pixels[4 * k + 3] = 255;
  }
  return r;
}

ByteBuffer wall_and_dup_txd() {
  auto t = w::ps2_texture_from_rgba("wall", {solid_levels(32, 16), solid_levels(16, 8), solid_levels(8, 4)}, false);
  auto u = w::ps2_texture_from_rgba("dup", {solid_levels(8, 8)}, true);
  return w::texture_dictionary({*w::ps2_texture_native(*t), *w::ps2_texture_native(*u)}, 6);
}

TEST(RwCli, IdentifyListExtract) {
  TempDir tmp;
  const auto f = tmp / "tex.txd";
  write_file(f, wall_and_dup_txd());
  auto id = run_cli("identify " + shell_quote(f.string()));
  EXPECT_EQ(id.exit_code, 0);
  EXPECT_NE(id.out.find(": renderware"), std::string::npos);
  auto ls = run_cli("list --json " + shell_quote(f.string()));
  ASSERT_EQ(ls.exit_code, 0) << ls.err;
  const auto j = nlohmann::json::parse(ls.out);
  EXPECT_EQ(j["format"], "renderware");
  ASSERT_EQ(j["entries"].size(), 2u);
  const auto& e = j["entries"][0];
  EXPECT_EQ(e["name"], "wall");
  EXPECT_EQ(e["platform"], "ps2");
  EXPECT_EQ(e["width"], 32);
  EXPECT_EQ(e["height"], 16);
  EXPECT_EQ(e["depth"], 8);
  EXPECT_EQ(e["format"], "PAL8");
  EXPECT_EQ(e["mips"], 3);
  EXPECT_EQ(j["entries"][1]["format"], "PAL4");
  const auto out = tmp / "out";
  auto x = run_cli("extract " + shell_quote(f.string()) + " -o " + shell_quote(out.string()));
  ASSERT_EQ(x.exit_code, 0) << x.err;
  auto png = image::decode_png(::assay::testing::read_file(out / "wall.png"));
  ASSERT_TRUE(png.ok());
  EXPECT_EQ(png->width, 32u);
  EXPECT_EQ(png->pixels, solid_levels(32, 16).pixels);
  EXPECT_FALSE(std::filesystem::exists(out / "wall.mip1.png"));
  // again without --force: refused, exit 2; with --mips and --force: every level
  EXPECT_EQ(run_cli("extract " + shell_quote(f.string()) + " -o " + shell_quote(out.string())).exit_code, 2);
  auto xm = run_cli("extract --mips --force " + shell_quote(f.string()) + " -o " + shell_quote(out.string()));
  ASSERT_EQ(xm.exit_code, 0) << xm.err;
  auto m2 = image::decode_png(::assay::testing::read_file(out / "wall.mip2.png"));
  ASSERT_TRUE(m2.ok());
  EXPECT_EQ(m2->width, 8u);
  EXPECT_EQ(m2->height, 4u);
  EXPECT_TRUE(std::filesystem::exists(out / "dup.png"));
}

TEST(RwCli, TreeAndVerify) {
  TempDir tmp;
  const auto f = tmp / "fixture.txd";
  const ByteBuffer b = testing::dictionary(testing::ps2_fixture_native(), 1);
  write_file(f, b);
  auto t = run_cli("rw tree --json " + shell_quote(f.string()));
  ASSERT_EQ(t.exit_code, 0) << t.err;
  const auto j = nlohmann::json::parse(t.out);
  const auto& s = j["sections"];
  ASSERT_EQ(s.size(), 12u);  // dict, struct, native, struct, 2 strings, raster + 2, ext + sky, ext
  EXPECT_EQ(s[0]["id"], 0x16);
  EXPECT_EQ(s[0]["version"], "3.7.0.2 build 0xFFFF");  // kStampDefault 0x1C02FFFF (spec #rw-2-3)
  EXPECT_EQ(s[2]["offset"], 28);
  EXPECT_EQ(s[2]["name"], "Texture Native");
  EXPECT_EQ(s[6]["container"], true);  // the PS2 raster struct
  auto txt = run_cli("rw tree " + shell_quote(f.string()));
  EXPECT_NE(txt.out.find("0x15 Texture Native  size 1624"), std::string::npos) << txt.out;
  EXPECT_EQ(run_cli("verify " + shell_quote(f.string())).exit_code, 0);
  // a child past its parent: verify exits 1 and names R1
  ByteBuffer bad = b;
  store<std::uint32_t>(bad.data() + 32, 5000, Endian::little);
  write_file(tmp / "bad.txd", bad);
  auto v = run_cli("verify --json " + shell_quote((tmp / "bad.txd").string()));
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_NE(v.out.find("R1"), std::string::npos);
  EXPECT_EQ(run_cli("rw tree " + shell_quote((tmp / "bad.txd").string())).exit_code, 1);
}

TEST(RwCli, IdentifyIsStrict) {
  auto in = [](ByteBuffer b, std::string name) { return Input::from_buffer(std::move(name), std::move(b)); };
  const Family& f = kRenderWareFamily;
  EXPECT_GE(f.identify(in(w::clump({}), "x.bin")), 50);
  EXPECT_EQ(f.identify(in(w::clump({}), "x.dff")), 100);
  // Warriors' {1, 0, 0, id} prefix, zeros, a size past the end, an implausible stamp
  ByteWriter wr;
  wr.u32(1), wr.u32(0), wr.u32(0), wr.u32(7);
  EXPECT_EQ(f.identify(in(wr.take(), "x.bin")), 0);
  EXPECT_EQ(f.identify(in(ByteBuffer(64, 0), "x.bin")), 0);
  ByteBuffer big = w::clump({});
  store<std::uint32_t>(big.data() + 4, 1u << 30, Endian::little);
  EXPECT_EQ(f.identify(in(big, "x.bin")), 0);
  ByteBuffer stamp = w::clump({});
  store<std::uint32_t>(stamp.data() + 8, 0x12, Endian::little);
  EXPECT_EQ(f.identify(in(stamp, "x.bin")), 0);
  // a Struct first is not a stream start
  EXPECT_EQ(f.identify(in(w::section(id::kStruct, ByteBuffer(4)), "x.bin")), 0);
}

TEST(RwCli, SampleDictionaryExtractsPngs) {
  ASSAY_REQUIRE_SAMPLE(p, "renderware/rw-parser/dxtDecoding.txd");
  TempDir tmp;
  auto x = run_cli("extract " + shell_quote(p.string()) + " -o " + shell_quote((tmp / "o").string()));
  ASSERT_EQ(x.exit_code, 0) << x.err;
  for (const char* n : {"DXT1.png", "DXT3.png", "DXT5.png"}) {
    auto png = image::decode_png(::assay::testing::read_file(tmp / "o" / n));
    ASSERT_TRUE(png.ok()) << n;
    EXPECT_EQ(png->width, 64u);
    EXPECT_EQ(png->height, 64u);
    EXPECT_EQ(png->pixels.size(), 16384u);  // spec #rw-10-4
  }
  ASSAY_REQUIRE_SAMPLE(dff, "renderware/librw/camera_clump.dff");
  auto ls = run_cli("list --json " + shell_quote(dff.string()));
  ASSERT_EQ(ls.exit_code, 0);
  const auto j = nlohmann::json::parse(ls.out);
  EXPECT_EQ(j["kind"], "clump");
  // one entry per atomic, then one model (the clump, extracted as glTF)
  ASSERT_EQ(j["entries"].size(), 12u);
  EXPECT_EQ(j["entries"][10]["kind"], "atomic");
  EXPECT_EQ(j["entries"][11]["kind"], "model");
  EXPECT_EQ(j["entries"][11]["path"], "camera_clump.glb");  // one clump: the file's stem
  EXPECT_EQ(j["triangles"], 989);
  EXPECT_EQ(j["entries"][0]["frame"], 10);
}

}  // namespace
}  // namespace assay::rw
