// `assay serve`'s /api/model on an Oni character (the Model tab's animation picker lists the GLB's
// animations): the character goldens (../shared/goldens/oni/characters, made by OniSplit; README
// there) hold ONCCchar4, a 4-part body (src/body4.dae: pelvis, left_thigh, left_calf, left_foot)
// and two animations made from src/TRAMbody4_ekey.xml and src/TRAMbody4_qkey.xml, of 11 and 6
// frames at 60 per second (json/TRAMbody4_*.json). The GLB must carry both, named after the TRAMs,
// each rotating the 4 parts with keys up to (frames - 1) / 60 s and moving the pelvis.
#include <gtest/gtest.h>
#include <httplib.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <set>

#include "running_server.h"
#include "testing/testing.h"
#include "formats/serialise.h"

namespace assay::serve {
namespace serve_oni_character_test {
namespace {

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

TEST(ServeOniCharacter, Oncc4GlbHasBothTramsAsNamedAnimations) {
  ASSAY_REQUIRE_GOLDEN(dir, "oni/characters");
  const Json golden_ekey = Json::parse(testing::read_file(dir / "json" / "TRAMbody4_ekey.json"));
  const Json golden_qkey = Json::parse(testing::read_file(dir / "json" / "TRAMbody4_qkey.json"));
  const RunningServer server({dir.string()});
  ASSERT_TRUE(server.ok());
  const std::string level = dir.filename().string() + "/GameDataFolder/level0_Final.dat";

  auto r = server.api("model", level + "::ONCCchar4");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(r->get_header_value("Content-Type"), "model/gltf-binary");
  const Json gltf = glb_json(r->body);
  ASSERT_TRUE(gltf.is_object() && gltf.contains("nodes") && gltf.contains("animations")) << "no animations in the GLB";

  // the body: 4 parts, named as body4.dae's nodes
  std::set<std::string> nodes;
  for (const Json& n : gltf["nodes"]) nodes.insert(n.value("name", ""));
  for (const char* part : {"pelvis", "left_thigh", "left_calf", "left_foot"}) EXPECT_TRUE(nodes.count(part)) << part;

  // two animations, named after the TRAMs, in the level's order (TRAMbody4_ekey is instance 1, qkey 2)
  const Json& anims = gltf["animations"];
  ASSERT_EQ(anims.size(), 2u);
  const std::pair<const char*, const Json*> want[] = {{"TRAMbody4_ekey", &golden_ekey}, {"TRAMbody4_qkey", &golden_qkey}};
  for (std::size_t k = 0; k < 2; ++k) {
    const Json& a = anims[k];
    const auto& [name, golden] = want[k];
    EXPECT_EQ(a["name"], name);
    EXPECT_EQ((*golden)["animation"], name);  // the golden describes the same TRAM
    // every part is rotated (one rotation channel per bone, its last key at (frames - 1) / fps
    // seconds); the pelvis moves with frames + 1 positions (the golden's check
    // "pelvis_pos_X_is_cumulative_velocity_x_with_frames_plus_1_samples")
    const double frames = (*golden)["frames"].get<double>(), fps = (*golden)["fps"].get<double>();
    std::set<int> rotated;
    int moved = 0;
    for (const Json& c : a["channels"]) {
      const int node = c["target"]["node"].get<int>();
      ASSERT_LT(node, static_cast<int>(gltf["nodes"].size())) << name;
      const Json& input = gltf["accessors"][a["samplers"][c["sampler"].get<int>()]["input"].get<int>()];
      if (c["target"]["path"] == "rotation") {
        rotated.insert(node);
        EXPECT_NEAR(input["max"][0].get<double>(), (frames - 1) / fps, 1e-6) << name;
      } else if (c["target"]["path"] == "translation") {
        ++moved;
        EXPECT_EQ(gltf["nodes"][node]["name"], "pelvis") << name;
        EXPECT_EQ(input["count"].get<double>(), frames + 1) << name;
      }
    }
    EXPECT_EQ(rotated.size(), 4u) << name;
    EXPECT_EQ(moved, 1) << name;
  }
  // the JSON's frame counts are the source XMLs' (one <Height> per frame): 11 and 6
  for (const auto& [xml, golden] : {std::pair{"TRAMbody4_ekey.xml", &golden_ekey}, std::pair{"TRAMbody4_qkey.xml", &golden_qkey}}) {
    const auto bytes = testing::read_file(dir / "src" / xml);
    const std::string text(bytes.begin(), bytes.end());
    int heights = 0;
    for (std::size_t at = text.find("<Height>"); at != std::string::npos; at = text.find("<Height>", at + 1)) ++heights;
    EXPECT_EQ((*golden)["frames"], heights) << xml;
  }

  // a TRAM on its own is not a model: the Model tab is for the character
  auto tram = server.api("model", level + "::TRAMbody4_ekey");
  ASSERT_TRUE(tram);
  EXPECT_EQ(tram->status, 422) << tram->body;
}

}  // namespace
}  // namespace serve_oni_character_test
}  // namespace assay::serve
