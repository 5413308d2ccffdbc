// Issue 29 item 7: old-form library stamps beyond 3.1.0.0 (0x350 = 3.5.0.0, as RenderWare and
// librw's libraryIDUnpackVersion unpack them: version = stamp << 8), the ADC plugin id 0x134, and
// GameCube texture natives (platform 6) listed by name and kept as stored bytes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "assay/options.h"
#include "assay/formats/renderware/section.h"
#include "assay/formats/renderware/texture.h"
#include "assay/formats/renderware/walker.h"
#include "assay/image/png.h"
#include "hand_built.h"
#include "testing/testing.h"
#include "testing/families.h"

namespace assay::rw {
namespace {

using ::assay::testing::quote_path;
using ::assay::testing::read_file;
using ::assay::testing::run_cli;
using ::assay::testing::TempDir;
using ::assay::testing::write_file;
using namespace ::assay::rw::testing;

// A GTA III Xbox-style dictionary: one 4 x 4 DXT1 texture "red", every chunk stamped `stamp`.
ByteBuffer xbox_txd(std::uint32_t stamp) { return hand_dictionary({xbox_dxt1_native("red", stamp)}, 8, stamp); }

int identify_score(const ByteBuffer& b, const std::string& name = "x.txd") {
  return kRenderWareFamily.identify(Input::from_buffer(name, b));
}

TEST(RwOldStamp, UnpacksAsVersionShiftedLeftByEight) {
  // librw libraryIDUnpackVersion: no high bits -> libid << 8
  EXPECT_EQ(decode_stamp_raw(0x350).version, 0x35000u);
  EXPECT_EQ(decode_stamp_raw(0x350).str(), "3.5.0.0");
  EXPECT_TRUE(decode_stamp_raw(0x350).old_form);
  EXPECT_EQ(decode_stamp_raw(0x340).str(), "3.4.0.0");
}

TEST(RwOldStamp, Stamp0x350IsIdentified) {
  // every old-form stamp of a RenderWare 3.0-3.7 version: 0x350 (the Xbox GTA III mod), 0x330,
  // 0x360, 0x370 and the spec's own 0x310 and 0x302 (renderware.md#rw-2-3)
  for (std::uint32_t stamp : {0x350u, 0x330u, 0x360u, 0x370u, 0x310u, 0x302u})
    EXPECT_GT(identify_score(xbox_txd(stamp)), 0) << std::hex << stamp;
}

TEST(RwOldStamp, StampsOutsideRenderWare3AreStillRefused) {
  // 0x250 unpacks to 2.5.0.0 and 0x400 to 4.0.0.0: not RenderWare 3; 0x380 (3.8) was never
  // shipped; 0 unpacks to 0
  for (std::uint32_t stamp : {0x250u, 0x400u, 0x380u, 0x2FFu, 0u})
    EXPECT_EQ(identify_score(xbox_txd(stamp)), 0) << std::hex << stamp;
}

TEST(RwOldStamp, IdentifyListTreeExtractOnTheCli) {
  TempDir tmp;
  const auto f = tmp / "gta3xbox.txd";
  write_file(f, xbox_txd(0x350));
  auto id = run_cli("identify " + quote_path(f));
  EXPECT_EQ(id.exit_code, 0) << id.err;
  EXPECT_NE(id.out.find(": renderware"), std::string::npos) << id.out;

  auto info = run_cli("info --json " + quote_path(f));
  ASSERT_EQ(info.exit_code, 0) << info.err;
  const auto i = nlohmann::json::parse(info.out);
  EXPECT_EQ(i["stamp"], 0x350);
  EXPECT_EQ(i["version"], "3.5.0.0");
  EXPECT_EQ(i["textures"], 1);

  auto ls = run_cli("list --json " + quote_path(f));
  ASSERT_EQ(ls.exit_code, 0) << ls.err;
  const auto j = nlohmann::json::parse(ls.out);
  ASSERT_EQ(j["entries"].size(), 1u);
  EXPECT_EQ(j["entries"][0]["name"], "red");
  EXPECT_EQ(j["entries"][0]["platform"], "xbox");
  EXPECT_EQ(j["entries"][0]["width"], 4);
  EXPECT_EQ(j["entries"][0]["format"], "DXT1");

  auto tree = run_cli("rw tree --json " + quote_path(f));
  ASSERT_EQ(tree.exit_code, 0) << tree.err;
  const auto t = nlohmann::json::parse(tree.out);
  ASSERT_EQ(t["sections"].size(), 6u);  // dictionary, struct, native, struct, extension, extension
  for (const auto& s : t["sections"]) EXPECT_EQ(s["version"], "3.5.0.0");

  const auto out = tmp / "out";
  auto x = run_cli("extract " + quote_path(f) + " -o " + quote_path(out));
  ASSERT_EQ(x.exit_code, 0) << x.err;
  auto png = image::decode_png(read_file(out / "red.png"));
  ASSERT_TRUE(png.ok());
  ASSERT_EQ(png->width, 4u);
  for (std::size_t k = 0; k < 16; ++k) {  // c0 = 0xF800: (255, 0, 0), opaque (#rw-6-4)
    EXPECT_EQ(png->pixels[4 * k], 255);
    EXPECT_EQ(png->pixels[4 * k + 1], 0);
    EXPECT_EQ(png->pixels[4 * k + 2], 0);
    EXPECT_EQ(png->pixels[4 * k + 3], 255);
  }
}

TEST(RwOldStamp, RefusedStampIsUnrecognisedOnTheCli) {
  TempDir tmp;
  const auto f = tmp / "rw2.txd";
  write_file(f, xbox_txd(0x250));
  auto id = run_cli("identify " + quote_path(f));
  EXPECT_EQ(id.exit_code, 1);
  EXPECT_NE(id.out.find(": unknown"), std::string::npos) << id.out;
}

// A top-level Geometry whose Extension holds an ADC section (0x134; librw rwbase.h ID_ADC =
// MAKEPLUGINID(VEND_CRITERIONTK 1, 0x34)).
ByteBuffer geometry_with_adc() {
  ByteWriter w;
  const std::uint32_t s = kStampDefault;
  put_header(w, 0x0F, 12 + 4 + 12 + 12 + 8, s);
  put_header(w, 0x01, 4, s), w.u32(0);
  put_header(w, 0x03, 12 + 8, s);
  put_header(w, 0x134, 8, s), w.u32(0), w.u32(0);
  return w.take();
}

TEST(RwAdc, SectionIdIsNamed) {
  EXPECT_EQ(section_name(0x134), "ADC");
  EXPECT_TRUE(is_known_section(0x134));
  EXPECT_FALSE(is_container(0x134));
  // the walk names it and no longer reports it as an unknown id (R22)
  Diagnostics d;
  const ByteBuffer b = geometry_with_adc();
  ASSERT_TRUE(walk(b, 0, d.sink()).ok());
  for (const auto& g : d.items()) EXPECT_EQ(g.where.message.find("R22"), std::string::npos) << g.where.str();
}

TEST(RwAdc, TreeNamesIt) {
  TempDir tmp;
  const auto f = tmp / "adc.rws";
  write_file(f, geometry_with_adc());
  auto tree = run_cli("rw tree --json " + quote_path(f));
  ASSERT_EQ(tree.exit_code, 0) << tree.err;
  const auto t = nlohmann::json::parse(tree.out);
  ASSERT_EQ(t["sections"].size(), 4u);
  EXPECT_EQ(t["sections"][3]["id"], 0x134);
  EXPECT_EQ(t["sections"][3]["offset"], 40);
  EXPECT_EQ(t["sections"][3]["name"], "ADC");
}

TEST(RwGameCube, NativeIsListedByNameAndNotDecoded) {
  const ByteBuffer gc = gamecube_native("gc_wall", 64, 32, kStampDefault);
  const ByteBuffer b = hand_dictionary({gc, xbox_dxt1_native("red", kStampDefault)}, 3, kStampDefault);
  Diagnostics d;
  auto dict = TextureDictionary::open(b, 0, d.sink());
  ASSERT_TRUE(dict.ok()) << dict.error().str();
  ASSERT_EQ(dict->textures().size(), 2u);
  const TextureNative& t = dict->textures()[0];
  EXPECT_EQ(t.name, "gc_wall");
  EXPECT_EQ(t.platform, kPlatformGameCube);
  EXPECT_EQ(platform_name(t.platform), "gamecube");
  EXPECT_EQ(t.width, 64u);
  EXPECT_EQ(t.height, 32u);
  EXPECT_TRUE(t.error.empty()) << t.error;
  EXPECT_NE(t.unsupported.find("GameCube"), std::string::npos);
  EXPECT_FALSE(d.has_errors());
  ASSERT_EQ(d.count(Severity::warning), 1u);
  EXPECT_NE(d.items()[0].where.message.find("not decoded"), std::string::npos);
  EXPECT_EQ(dict->textures()[1].name, "red");  // the next texture is read as usual
  EXPECT_TRUE(dict->textures()[1].unsupported.empty());
}

TEST(RwGameCube, ListAndExtractOnTheCli) {
  TempDir tmp;
  const auto f = tmp / "gc.txd";
  const ByteBuffer gc = gamecube_native("gc_wall", 64, 32, kStampDefault);
  write_file(f, hand_dictionary({gc, xbox_dxt1_native("red", kStampDefault)}, 3, kStampDefault));
  auto ls = run_cli("list --json " + quote_path(f));
  ASSERT_EQ(ls.exit_code, 0) << ls.err;
  const auto j = nlohmann::json::parse(ls.out);
  ASSERT_EQ(j["entries"].size(), 2u);
  const auto& e = j["entries"][0];
  EXPECT_EQ(e["name"], "gc_wall");
  EXPECT_EQ(e["platform"], "gamecube");
  EXPECT_EQ(e["width"], 64);
  EXPECT_EQ(e["height"], 32);
  EXPECT_EQ(e["decodable"], false);
  EXPECT_EQ(e["path"], "gc_wall.rws");
  EXPECT_EQ(e["offset"], 28);

  const auto out = tmp / "out";
  auto x = run_cli("extract " + quote_path(f) + " -o " + quote_path(out));
  ASSERT_EQ(x.exit_code, 0) << x.err;  // a note of what is not decoded, not an error
  EXPECT_NE(x.err.find("not decoded"), std::string::npos) << x.err;
  EXPECT_EQ(read_file(out / "gc_wall.rws"), gc);  // the stored Texture Native section, byte for byte
  EXPECT_TRUE(std::filesystem::exists(out / "red.png"));
  EXPECT_FALSE(std::filesystem::exists(out / "gc_wall.png"));
}

}  // namespace
}  // namespace assay::rw
