// PS3 EDGE models to glTF (issue #28 item 3), read back without assay's code: zap.pak's five
// EDGE models and the writer fixture pass the Khronos validator with no error and no warning,
// and tinygltf reads the fixture's quad with the values written.
#include <gtest/gtest.h>

#include "../formats/igz/edge_fixture.h"
#include "assay/container.h"
#include "assay/core/output.h"
#include "golden.h"
#include "gltf_reader.h"
#include "testing/testing.h"

namespace assay {
namespace igz_edge_gltf_test {
namespace {

namespace fs = std::filesystem;

void write_models(const Container& c, const fs::path& dir, const std::string& prefix, std::vector<fs::path>& out) {
  for (const Entry& e : c.entries()) {
    if (e.kind != EntryKind::model) continue;
    auto glb = c.model(e);
    ASSERT_TRUE(glb.ok()) << e.path << ": " << glb.error().str();
    out.push_back(dir / (prefix + e.path));
    testing::write_file(out.back(), *glb);
  }
}

TEST(IgzEdgeGltf, FixtureReadsBackAsWritten) {
  auto b = igz::fixtures::build_edge_igz({});
  ASSERT_TRUE(b.ok());
  auto c = open(Input::from_buffer("quad.igz", std::move(*b)));
  ASSERT_TRUE(c.ok()) << c.error().str();
  testing::TempDir t;
  std::vector<fs::path> files;
  write_models(**c, t.path(), "", files);
  ASSERT_EQ(files.size(), 1u);
  const testing::ReadModel m = testing::read_gltf(files[0]);
  ASSERT_EQ(m.error, "");
  ASSERT_EQ(m.meshes.size(), 1u);
  EXPECT_EQ(m.meshes[0].positions, (std::vector<std::array<float, 3>>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}));
  EXPECT_EQ(m.meshes[0].triangles, (std::vector<std::array<std::uint32_t, 3>>{{0, 1, 2}, {2, 1, 3}}));
  EXPECT_EQ(m.meshes[0].normals[0], (std::array<float, 3>{0, 0, 1}));
  ASSAY_REQUIRE_VALIDATOR();
  testing::expect_valid_gltf(files);
}

TEST(IgzEdgeGltf, ZapModelsAndTheSkinnedActorValidate) {
  ASSAY_REQUIRE_SAMPLE(zap, "alchemy/skylanders_zap.pak");
  testing::TempDir t;
  std::vector<fs::path> files;
  for (const char* m : {"zapwave", "zapminiwave", "waterdragon2jetpack", "waterdragon2jetpackl2"}) {
    auto c = open_path(zap.string() + "::models\\characters\\skylanders\\zap\\" + m + ".igz");
    ASSERT_TRUE(c.ok()) << c.error().str();
    write_models(**c, t.path(), std::string(m) + "_", files);
  }
  ASSERT_EQ(files.size(), 5u);
  std::vector<fs::path> actor;
  auto c = open_path(zap.string() + "::actors\\zap.igz");  // skinned: three meshes on a 32-bone skeleton
  ASSERT_TRUE(c.ok()) << c.error().str();
  write_models(**c, t.path(), "actor_", actor);
  ASSERT_EQ(actor.size(), 3u);
  for (const fs::path& f : actor) {
    const testing::ReadModel m = testing::read_gltf(f);
    EXPECT_EQ(m.error, "") << f;
    ASSERT_FALSE(m.meshes.empty());
    EXPECT_EQ(m.meshes[0].skin, 0) << f;
    EXPECT_EQ(m.meshes[0].joints.size(), m.meshes[0].positions.size()) << f;
    for (const auto& w : m.meshes[0].weights) EXPECT_NEAR(w[0] + w[1] + w[2] + w[3], 1.0f, 1e-6f);
  }
  files.insert(files.end(), actor.begin(), actor.end());
  for (std::size_t i = 0; i < 5; ++i) {  // the models' one segment each
    const fs::path& f = files[i];
    const testing::ReadModel m = testing::read_gltf(f);
    EXPECT_EQ(m.error, "") << f;
    ASSERT_EQ(m.meshes.size(), 1u) << f;
    EXPECT_EQ(m.meshes[0].normals.size(), m.meshes[0].positions.size()) << f;
    EXPECT_EQ(m.meshes[0].texcoords.size(), 1u) << f;
  }
  ASSAY_REQUIRE_VALIDATOR();
  testing::expect_valid_gltf(files);
}

// extract ARCHIVE --models writes each igz member holding models as <member path>.glb, and with
// --gltf the .gltf with its .bin beside it (the URI is relative to the .gltf's folder).
TEST(IgzEdgeGltf, ArchiveExtractWritesMembersAsModels) {
  ASSAY_REQUIRE_SAMPLE(zap, "alchemy/skylanders_zap.pak");
  testing::TempDir t;
  auto st = testing::run_cli("extract " + testing::quote_path(zap) + " --models 'models*' -q -o " + testing::quote_path(t / "glb"));
  ASSERT_EQ(st.exit_code, 0) << st.err;
  const fs::path folder = t / "glb" / "models" / "characters" / "skylanders" / "zap";
  EXPECT_TRUE(fs::exists(folder / "zapwave.glb"));
  EXPECT_TRUE(fs::exists(folder / "waterdragon2jetpack.29.glb"));  // two EDGE geometries: by object index
  EXPECT_FALSE(fs::exists(folder / "zapwave.igz"));
  st = testing::run_cli("extract " + testing::quote_path(zap) + " --models --gltf 'models*' -q -o " + testing::quote_path(t / "gltf"));
  ASSERT_EQ(st.exit_code, 0) << st.err;
  const fs::path g = t / "gltf" / "models" / "characters" / "skylanders" / "zap";
  EXPECT_TRUE(fs::exists(g / "zapwave.bin"));
  ASSAY_REQUIRE_VALIDATOR();
  testing::expect_valid_gltf({g / "zapwave.gltf", g / "zapminiwave.gltf"});
}

}  // namespace
}  // namespace igz_edge_gltf_test
}  // namespace assay
