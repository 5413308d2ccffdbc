// `assay serve`'s /api/model on Oni M3GMs (the Model tab's source), over the shared levels and the
// model goldens (../shared/goldens/oni/models, made by OniSplit from the same levels; README there):
// the GLB carries the golden's vertex and triangle counts, PNTA's stored bounding box as POSITION's
// min/max and the TXMP the golden names as its embedded PNG (level 1's pyramid takes level 0's copy
// of its placeholder texture). Crossed kinds (a model as sound, a sound as model) are 422s.
#include <gtest/gtest.h>
#include <httplib.h>

#include <nlohmann/json.hpp>

#include "running_server.h"
#include "testing/testing.h"
#include "formats/serialise.h"
#include "../model/oni_oban_fixture.h"

namespace assay::serve {
namespace serve_oni_model_test {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

std::uint32_t glb_u32(const std::string& b, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = v << 8 | static_cast<std::uint8_t>(b[at + i]);
  return v;
}

// The JSON chunk of a GLB (glTF 2.0, "Binary glTF Layout": 12-byte header, then chunk length, type).
Json glb_json(const std::string& b) {
  if (b.size() < 20 || b.substr(0, 4) != "glTF" || glb_u32(b, 8) != b.size()) return {};
  return Json::parse(b.substr(20, glb_u32(b, 12)), nullptr, false);
}

// The golden's facts for one instance must be what /api/model serves.
void expect_golden_model(const RunningServer& server, const std::string& path, const Json& g) {
  auto r = server.api("model", path);
  ASSERT_TRUE(r) << path;
  ASSERT_EQ(r->status, 200) << path << ": " << r->body;
  EXPECT_EQ(r->get_header_value("Content-Type"), "model/gltf-binary");
  const Json gltf = glb_json(r->body);
  ASSERT_TRUE(gltf.is_object() && gltf.contains("meshes")) << path;
  const Json& prim = gltf["meshes"][0]["primitives"][0];
  const Json& pos = gltf["accessors"][prim["attributes"]["POSITION"].get<int>()];
  EXPECT_EQ(pos["count"], g["vertex_count"]) << path;
  EXPECT_EQ(gltf["accessors"][prim["indices"].get<int>()]["count"], 3 * g["triangle_count"].get<int>()) << path;
  if (g["stored"].contains("pnta_bbox_min")) {
    EXPECT_EQ(pos["min"], g["stored"]["pnta_bbox_min"]) << path;
    EXPECT_EQ(pos["max"], g["stored"]["pnta_bbox_max"]) << path;
  }
  ASSERT_TRUE(gltf.contains("images") && gltf["images"].size() == 1) << path;
  EXPECT_EQ(gltf["images"][0]["mimeType"], "image/png");
  EXPECT_EQ(gltf["images"][0]["name"], g["texture"]) << path;
  const Json& mat = gltf["materials"][prim["material"].get<int>()];
  EXPECT_TRUE(mat["pbrMetallicRoughness"].contains("baseColorTexture")) << path;
}

TEST(ServeOniModel, M3gmGlbHasTheGoldensGeometryAndTexture) {
  ASSAY_REQUIRE_SAMPLE(levels, "oni/GameDataFolder");
  ASSAY_REQUIRE_GOLDEN(goldens, "oni/models");
  const RunningServer server({levels.string()});
  ASSERT_TRUE(server.ok());
  const std::string root = levels.filename().string();
  for (const auto& [level, name] : {std::pair{"level0", "M3GMcube"}, std::pair{"level1", "M3GMpyramid"}}) {
    const Json g = Json::parse(testing::read_file(goldens / "json" / (std::string("GameDataFolder__") + level + "__" + name + ".json")));
    expect_golden_model(server, root + "/" + level + "_Final.dat::" + name, g);
  }
  // a model is not a sound: a 422 naming the kind
  auto bad = server.api("sound", root + "/level0_Final.dat::M3GMcube");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 422);
  EXPECT_NE(bad->body.find("is not a sound"), std::string::npos) << bad->body;
}

TEST(ServeOniModel, SoundIsNotAModel) {
  ASSAY_REQUIRE_GOLDEN(dir, "oni/sounds");
  const RunningServer server({dir.string()});
  ASSERT_TRUE(server.ok());
  auto bad = server.api("model", dir.filename().string() + "/GameDataFolder/level0_Final.dat::SNDDsine440_m22");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 422);
  EXPECT_NE(bad->body.find("kind 'sound' is not a model"), std::string::npos) << bad->body;
}

// The Model tab shows an OBAN (an "animation" entry) as the GLB extract writes: the hand-made level
// of tests/model/oni_oban_test.cc, whose OBANhand (3 keys) is played by one object.
TEST(ServeOniModel, ObanIsServedAsAnAnimatedGlb) {
  testing::TempDir t;
  fs::create_directories(t / "GameDataFolder");
  testing::write_file(t / "GameDataFolder" / "level1_Final.dat", testing::oban_level());
  const RunningServer server({(t / "GameDataFolder").string()});
  ASSERT_TRUE(server.ok());
  auto r = server.api("model", "GameDataFolder/level1_Final.dat::OBANhand");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  const Json gltf = glb_json(r->body);
  ASSERT_TRUE(gltf.is_object() && gltf.contains("animations"));
  EXPECT_EQ(gltf["animations"].size(), 1u);
  EXPECT_EQ(gltf["animations"][0]["name"], "OBANhand");
  EXPECT_EQ(gltf["accessors"][gltf["animations"][0]["samplers"][0]["input"].get<int>()]["count"], 3);
}

}  // namespace
}  // namespace serve_oni_model_test
}  // namespace assay::serve
