// verify reports a texture whose _data is shorter than its format needs (what extract and
// texture() stop at) as a warning coded igz.image-data, and list's details give data_needed for
// every level as its layout places them (the Wii U's GX2 mip chain).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "assay/container.h"
#include "formats/serialise.h"
#include "image_fixture.h"
#include "testing/testing.h"

namespace assay::igz {
namespace verify_data_test {
namespace {

std::unique_ptr<Container> open_spec(const fixtures::ImageSpec& s) {
  auto igz = fixtures::build_image_igz(s);
  EXPECT_TRUE(igz.ok());
  if (!igz) return nullptr;
  auto c = open(Input::from_buffer("t.igz", std::move(*igz)));
  EXPECT_TRUE(c.ok()) << c.error().str();
  return c ? std::move(*c) : nullptr;
}

const Entry* texture_entry(const Container& c) {
  for (const Entry& e : c.entries())
    if (e.kind == EntryKind::texture) return &e;
  return nullptr;
}

std::vector<Diagnostic> coded(const Diagnostics& d, std::string_view code) {
  std::vector<Diagnostic> out;
  for (const Diagnostic& x : d.items())
    if (x.where.code == code) out.push_back(x);
  return out;
}

// DXT1 8 x 8, one level: 2 x 2 blocks of 8 bytes = 32 bytes. 16 stored: texture() fails, verify
// warns with both sizes at the _data's offset; 32 stored: no warning.
TEST(IgzVerifyData, ShortDataIsAWarningWithBothSizes) {
  fixtures::ImageSpec s;
  s.format = "dxt1_big_ps3", s.width = 8, s.height = 8, s.pixels = ByteBuffer(16);
  auto c = open_spec(s);
  ASSERT_TRUE(c);
  const Entry* e = texture_entry(*c);
  ASSERT_NE(e, nullptr);
  EXPECT_FALSE(c->texture(*e, 0).ok());
  const Json d = details_json(*c, *e);
  EXPECT_EQ(d["data_needed"], 32);
  Diagnostics out;
  c->verify(out);
  const auto w = coded(out, "igz.image-data");
  ASSERT_EQ(w.size(), 1u) << out.items().size();
  EXPECT_EQ(w[0].severity, Severity::warning);
  EXPECT_EQ(w[0].where.offset, d["data"]["offset"].get<std::uint64_t>());
  EXPECT_NE(w[0].where.message.find("_data holds 16 bytes"), std::string::npos) << w[0].where.str();
  EXPECT_NE(w[0].where.message.find("needs 32"), std::string::npos) << w[0].where.str();
  EXPECT_FALSE(out.has_errors());

  s.pixels = ByteBuffer(32);
  auto whole = open_spec(s);
  ASSERT_TRUE(whole);
  ASSERT_TRUE(whole->texture(*texture_entry(*whole), 0).ok());
  Diagnostics ok;
  whole->verify(ok);
  EXPECT_TRUE(coded(ok, "igz.image-data").empty());
}

// Wii U DXT1 128 x 64 with 2 levels (decaf-emu GX2CalcSurfaceSizeAndAlignment): level 0 is one
// macro tile in mode 4, 32 x 16 blocks = 4096 bytes; level 1 (64 x 32 texels, 16 x 8 blocks) is
// under a macro tile's 32 blocks: mode 2, pitch 16, 8 rows = 1024 bytes at align(4096, 256). Both
// levels decode, so the data must hold 5120; 4096 is short.
TEST(IgzVerifyData, WiiUEveryLevelNeeded) {
  fixtures::ImageSpec s;
  s.format = "dxt1_tile_cafe", s.width = 128, s.height = 64, s.levels = 2, s.pixels = ByteBuffer(5120);
  auto c = open_spec(s);
  ASSERT_TRUE(c);
  const Json d = details_json(*c, *texture_entry(*c));
  EXPECT_EQ(d["data_needed"], 5120);
  EXPECT_FALSE(d.contains("not_decoded")) << d.dump();
  ASSERT_TRUE(c->texture(*texture_entry(*c), 1).ok());
  Diagnostics ok;
  c->verify(ok);
  EXPECT_TRUE(coded(ok, "igz.image-data").empty());

  s.pixels = ByteBuffer(4096);
  auto cut = open_spec(s);
  ASSERT_TRUE(cut);
  EXPECT_FALSE(cut->texture(*texture_entry(*cut), 0).ok());
  Diagnostics out;
  cut->verify(out);
  EXPECT_EQ(coded(out, "igz.image-data").size(), 1u);
}

// The Wii U test_img (spec §5.1; the sample's README: a tool's test output): 124 bytes of
// _data for 1152 x 768 DXT1 with 6 levels, whose GX2 chain needs 791552 bytes (worked out by hand
// from decaf-emu's GX2CalcSurfaceSizeAndAlignment in tests/image/tiling_test.cc Gx2MipChainByHand:
// level 0 442368, then 262144 + 65536 + 16384 + 4096 + 1024). verify exits 0 (samples' check)
// with the warning; list gives data_needed 791552 and no level is "not decoded".
TEST(IgzVerifyData, WiiUSampleWarnsAndListsTheNeed) {
  ASSAY_REQUIRE_SAMPLE(p, "alchemy/igModelTool_test_img.igz");
  const std::string q = testing::quote_path(p);
  auto v = testing::run_cli("verify --json " + q);
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  const auto j = nlohmann::json::parse(v.out);
  bool found = false;
  for (const auto& x : j["files"][0]["problems"])
    if (x["code"] == "igz.image-data") {
      found = true;
      EXPECT_EQ(x["severity"], "warning");
      EXPECT_EQ(x["offset"], 0x9D2);
      EXPECT_NE(x["message"].get<std::string>().find("124 bytes"), std::string::npos) << x;
      EXPECT_NE(x["message"].get<std::string>().find("791552"), std::string::npos) << x;
    }
  EXPECT_TRUE(found) << v.out;
  auto ls = testing::run_cli("list --json " + q);
  ASSERT_EQ(ls.exit_code, 0) << ls.err;
  bool listed = false;
  const auto list = nlohmann::json::parse(ls.out);
  for (const auto& e : list["entries"])
    if (e.value("kind", "") == "texture") {
      listed = true;
      EXPECT_EQ(e["data_needed"], 791552) << e;
      EXPECT_FALSE(e.contains("not_decoded")) << e;
    }
  EXPECT_TRUE(listed) << ls.out;
}

}  // namespace
}  // namespace verify_data_test
}  // namespace assay::igz
