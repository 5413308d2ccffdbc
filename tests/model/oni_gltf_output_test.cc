// `extract LEVEL --models --gltf` on an Oni level writes each model as NAME.gltf + NAME.bin (+ its
// PNGs) instead of NAME.glb, as RenderWare and igz do (docs/cli.md "--gltf"): an M3GM and OBANs
// (oni_oban_fixture.h), an AKEV (oni_akev_fixture.h) and an ONCC character
// (oni_character_fixture.h). Each .gltf passes the Khronos validator and reads back with tinygltf
// to the same geometry, animations and images as the .glb of the same entry.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "golden.h"
#include "gltf_reader.h"
#include "oni_akev_fixture.h"
#include "oni_character_fixture.h"
#include "oni_oban_fixture.h"
#include "testing/testing.h"

namespace assay {
namespace oni_gltf_output_test {
namespace {

namespace fs = std::filesystem;

// Extracts `level` with --models into b/ and with --models --gltf into g/; every NAME.glb of b/
// is NAME.gltf + NAME.bin in g/ (no .glb there), read back the same. Returns the .gltf files.
std::vector<fs::path> extract_both(const fs::path& level, const testing::TempDir& t, const std::vector<std::string>& must) {
  const fs::path b = t / "b", g = t / "g";
  auto r = testing::run_cli("extract " + testing::quote_path(level) + " --models -o " + testing::quote_path(b));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = testing::run_cli("extract " + testing::quote_path(level) + " --models --gltf -o " + testing::quote_path(g));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<fs::path> gltfs;
  for (const std::string& name : must) {
    EXPECT_TRUE(fs::exists(b / (name + ".glb"))) << name;
    EXPECT_TRUE(fs::exists(g / (name + ".gltf"))) << name;
    EXPECT_TRUE(fs::exists(g / (name + ".bin"))) << name;
  }
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(g, ec)) EXPECT_NE(e.path().extension(), ".glb") << e.path();
  for (const auto& e : fs::directory_iterator(b, ec)) {
    if (e.path().extension() != ".glb") continue;
    const std::string stem = e.path().stem().string();
    SCOPED_TRACE(stem);
    const fs::path gltf = g / (stem + ".gltf");
    EXPECT_TRUE(fs::exists(gltf));
    const testing::ReadModel from_glb = testing::read_gltf(e.path()), from_gltf = testing::read_gltf(gltf);
    EXPECT_EQ(from_gltf.error, "");
    EXPECT_EQ(from_gltf.meshes.size(), from_glb.meshes.size());
    for (std::size_t k = 0; k < std::min(from_glb.meshes.size(), from_gltf.meshes.size()); ++k) {
      EXPECT_EQ(from_gltf.meshes[k].positions, from_glb.meshes[k].positions);
      EXPECT_EQ(from_gltf.meshes[k].triangles, from_glb.meshes[k].triangles);
    }
    EXPECT_EQ(from_gltf.animations.size(), from_glb.animations.size());
    EXPECT_EQ(from_gltf.images, from_glb.images);
    EXPECT_EQ(from_gltf.nodes, from_glb.nodes);
    gltfs.push_back(gltf);
  }
  EXPECT_GE(gltfs.size(), must.size());
  return gltfs;
}

// M3GMtri, and the OBANs OBANhand and OBANcam (oni_oban_test.cc ListExtractVerify's names).
TEST(OniGltfOutput, M3gmAndObans) {
  ASSAY_REQUIRE_VALIDATOR();
  testing::TempDir t;
  fs::create_directories(t / "GameDataFolder");
  const fs::path level = t / "GameDataFolder" / "level1_Final.dat";
  testing::write_file(level, testing::oban_level());
  const auto gltfs = extract_both(level, t, {"M3GMtri", "OBANhand", "OBANcam"});
  testing::expect_valid_gltf(gltfs);
  EXPECT_EQ(testing::read_gltf(t / "g" / "OBANhand.gltf").animations.size(), 1u);
}

TEST(OniGltfOutput, Akev) {
  ASSAY_REQUIRE_VALIDATOR();
  testing::TempDir t;
  fs::create_directories(t / "GameDataFolder");
  const testing::AkevLevel l = testing::akev_level();
  const fs::path level = t / "GameDataFolder" / "level0_Final.dat";
  testing::write_file(level, l.dat);
  testing::write_file(t / "GameDataFolder" / "level0_Final.raw", l.raw);
  const auto gltfs = extract_both(level, t, {"AKEVhand"});
  testing::expect_valid_gltf(gltfs);
  // the two slots' meshes (oni_akev_fixture.h: slots 0 and 1 drawn), their TXMPs as PNG files
  const testing::ReadModel m = testing::read_gltf(t / "g" / "AKEVhand.gltf");
  EXPECT_EQ(m.meshes.size(), 2u);
  EXPECT_EQ(m.images, testing::read_gltf(t / "b" / "AKEVhand.glb").images);
}

TEST(OniGltfOutput, Character) {
  ASSAY_REQUIRE_VALIDATOR();
  testing::TempDir t;
  fs::create_directories(t / "GameDataFolder");
  const testing::CharacterLevel l = testing::character_level();
  const fs::path level = t / "GameDataFolder" / "level0_Final.dat";
  testing::write_file(level, l.dat);
  testing::write_file(t / "GameDataFolder" / "level0_Final.raw", l.raw);
  const auto gltfs = extract_both(level, t, {"ONCChand"});
  testing::expect_valid_gltf(gltfs);
  EXPECT_FALSE(testing::read_gltf(t / "g" / "ONCChand.gltf").animations.empty());
}

}  // namespace
}  // namespace oni_gltf_output_test
}  // namespace assay
