// Every model exported from every real DFF in the shared samples passes the Khronos glTF
// validator (tests/node/validate.js; npm gltf-validator, installed by scripts/setup.sh) with no
// error and no warning, and tinygltf reads it back.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <nlohmann/json.hpp>

#include "assay/formats/renderware/texture.h"
#include "assay/formats/renderware/writer.h"
#include "golden.h"
#include "gltf_reader.h"
#include "testing/testing.h"

namespace assay {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> sample_models() {
  std::vector<fs::path> out;
  const fs::path root = testing::shared_sample("renderware");
  if (root.empty()) return out;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    std::string ext = e.path().extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (e.is_regular_file() && ext == ".dff") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(GltfValidator, EveryRealDffExportsValid) {
  ASSAY_REQUIRE_SAMPLE(dir, "renderware");
  ASSAY_REQUIRE_VALIDATOR();
  testing::TempDir t;
  std::vector<fs::path> written;
  for (const fs::path& dff : sample_models()) {
    const fs::path out = t / dff.filename().string();
    auto r = testing::run_cli("extract " + testing::quote_path(dff) + " -o " + testing::quote_path(out));
    // a native-geometry atomic is left out with a note, not an error; nothing else may fail
    EXPECT_EQ(r.exit_code, 0) << dff << "\n" << r.err;
    for (const auto& e : fs::directory_iterator(out))
      if (e.path().extension() == ".glb") written.push_back(e.path());
  }
  ASSERT_GE(written.size(), 79u + 6u);  // Manhunt's 79 clumps and one per other DFF
  testing::expect_valid_gltf(written);
  for (const fs::path& p : written) EXPECT_EQ(testing::read_gltf(p).error, "") << p;
}

}  // namespace
}  // namespace assay

namespace assay {
namespace {

// A 4x4 DXT1 texture named `name` in a D3D9 dictionary (one block: colour 0 red, colour 1 blue).
ByteBuffer one_texture_txd(const std::string& name) {
  rw::writer::D3d9Texture t;
  t.name = name;
  t.width = t.height = 4;
  t.d3d_format = rw::d3d::kDxt1;
  t.levels.push_back({0x00, 0xF8, 0x1F, 0x00, 0x00, 0x00, 0x00, 0x00});
  auto native = rw::writer::d3d9_texture_native(t);
  EXPECT_TRUE(native.ok());
  return rw::writer::texture_dictionary({*native}, 2, rw::kStampGtaSa);
}

// The .txd beside the .dff gives the material its texture (names compared without case), as a
// GLB with the PNG inside and as .gltf + .bin + PNG; both pass the validator.
TEST(GltfValidator, TextureFromTheTxdBeside) {
  ASSAY_REQUIRE_SAMPLE(dff, "renderware/rw-parser/wuzimu.dff");
  ASSAY_REQUIRE_VALIDATOR();
  testing::TempDir t;
  fs::copy_file(dff, t / "wuzimu.dff");
  testing::write_file(t / "wuzimu.txd", one_texture_txd("WUZIMU"));
  auto r = testing::run_cli("extract " + testing::quote_path(t / "wuzimu.dff") + " -o " + testing::quote_path(t / "b"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("no dictionary"), std::string::npos) << r.err;
  r = testing::run_cli("extract --gltf " + testing::quote_path(t / "wuzimu.dff") + " -o " + testing::quote_path(t / "g"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : {"wuzimu.gltf", "wuzimu.bin", "wuzimu_wuzimu.png"}) EXPECT_TRUE(fs::exists(t / "g" / f)) << f;
  EXPECT_FALSE(fs::exists(t / "g" / "wuzimu.glb"));
  testing::expect_valid_gltf({t / "b" / "wuzimu.glb", t / "g" / "wuzimu.gltf"});
  EXPECT_EQ(testing::read_gltf(t / "b" / "wuzimu.glb").images, 1u);
  EXPECT_EQ(testing::read_gltf(t / "g" / "wuzimu.gltf").images, 1u);
  // --txd names a dictionary elsewhere; a --txd that is not one is a usage error naming it
  fs::create_directories(t / "elsewhere");
  fs::rename(t / "wuzimu.txd", t / "elsewhere" / "peds.txd");
  r = testing::run_cli("extract " + testing::quote_path(t / "wuzimu.dff") + " -o " + testing::quote_path(t / "x") +
                       " --txd " + testing::quote_path(t / "elsewhere" / "peds.txd"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("no dictionary"), std::string::npos) << r.err;
  EXPECT_EQ(testing::read_gltf(t / "x" / "wuzimu.glb").images, 1u);
  r = testing::run_cli("extract " + testing::quote_path(t / "wuzimu.dff") + " -o " + testing::quote_path(t / "y"));
  EXPECT_NE(r.err.find("1 textures are in no dictionary (no wuzimu.txd beside it)"), std::string::npos) << r.err;
  r = testing::run_cli("extract " + testing::quote_path(t / "wuzimu.dff") + " -o " + testing::quote_path(t / "z") +
                       " --txd " + testing::quote_path(t / "wuzimu.dff"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--txd"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace assay

namespace assay {
namespace {

TEST(GltfValidator, TwoDEffectLightIsAPunctualLight) {
  ASSAY_REQUIRE_VALIDATOR();
  rw::writer::ClumpDesc d;
  d.geometries[0].plugins.push_back({0x0253F2F8, testing::two_effects()});
  testing::TempDir t;
  testing::write_file(t / "lamp.dff", rw::writer::clump(d));
  auto r = testing::run_cli("extract " + testing::quote_path(t / "lamp.dff") + " -o " + testing::quote_path(t / "o"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const fs::path glb = t / "o" / "lamp.glb";
  testing::expect_valid_gltf({glb});
  const ByteBuffer b = testing::read_file(glb);
  std::uint32_t len;
  std::memcpy(&len, b.data() + 12, 4);
  const auto doc = nlohmann::json::parse(std::string(b.begin() + 20, b.begin() + 20 + len));
  const auto& lights = doc["extensions"]["KHR_lights_punctual"]["lights"];
  ASSERT_EQ(lights.size(), 1u);
  EXPECT_EQ(lights[0]["type"], "point");
  EXPECT_EQ(lights[0]["name"], "coronastar");
  EXPECT_NEAR(lights[0]["color"][1].get<double>(), 128.0 / 255.0, 1e-6);
  EXPECT_EQ(lights[0]["range"], 5.5);
  std::size_t with_light = 0;
  for (const auto& n : doc["nodes"]) {
    if (!n.contains("extensions")) continue;
    ++with_light;
    EXPECT_EQ(n["translation"], nlohmann::json::array({1.0, 2.0, 3.0}));
    EXPECT_EQ(n["extras"]["corona_size"], 1.25);
    EXPECT_EQ(n["extras"]["shadow_texture"], "shad_exp");
  }
  EXPECT_EQ(with_light, 1u);
  EXPECT_EQ(doc["nodes"][1]["extras"]["rockstar_2d_effect_types"], nlohmann::json::array({1}));
}

}  // namespace
}  // namespace assay
