// igz models of 64-bit files and skinned igz models to glTF (issue #28 item 3), read back without
// assay's code (tinygltf) and checked by the Khronos validator: writer fixtures in the 64-bit
// version 9, Crash NST and CTR layouts (tests/formats/igz/model_fixture.h), and the skinned fixture
// in the 32-bit and NST layouts, whose joints, weights, inverse bind matrices and bind pose are
// computed here by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "../formats/igz/model_fixture.h"
#include "assay/container.h"
#include "golden.h"
#include "gltf_reader.h"
#include "testing/testing.h"

namespace assay {
namespace igz_model64_gltf_test {
namespace {

namespace fs = std::filesystem;
using igz::fixtures::FixtureLayout;

// The model entry (entry 1, after the root igObjectList) as a GLB file in `t`.
fs::path export_glb(const igz::fixtures::ModelSpec& s, const testing::TempDir& t, const std::string& name) {
  auto b = igz::fixtures::build_model_igz(s);
  EXPECT_TRUE(b.ok());
  if (!b.ok()) return {};
  auto c = open(Input::from_buffer("fixture.igz", std::move(*b)));
  EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().str());
  if (!c.ok() || (*c)->entries().size() < 2) return {};
  const Entry& e = (*c)->entries()[1];
  EXPECT_EQ(e.kind, EntryKind::model);
  auto glb = (*c)->model(e);
  EXPECT_TRUE(glb.ok()) << (glb.ok() ? "" : glb.error().str());
  if (!glb.ok()) return {};
  const fs::path p = t / (name + ".glb");
  testing::write_file(p, *glb);
  return p;
}

TEST(IgzModel64Gltf, EveryLayoutReadsBackAndValidates) {
  testing::TempDir t;
  std::vector<fs::path> files;
  const std::pair<FixtureLayout, const char*> layouts[] = {
      {FixtureLayout::v9_64, "v9_64"}, {FixtureLayout::nst, "nst"}, {FixtureLayout::ctr, "ctr"}};
  for (const auto& [layout, name] : layouts) {
    auto s = igz::fixtures::triangle_spec(Endian::little);
    s.layout = layout;
    const fs::path p = export_glb(s, t, name);
    ASSERT_FALSE(p.empty()) << name;
    const testing::ReadModel m = testing::read_gltf(p);
    ASSERT_EQ(m.error, "") << name;
    ASSERT_EQ(m.meshes.size(), 1u) << name;
    EXPECT_EQ(m.meshes[0].positions, (std::vector<std::array<float, 3>>{{1, 2, 3}, {-4, 5, 6}, {7, -8, 0.5f}})) << name;
    EXPECT_EQ(m.meshes[0].triangles, (std::vector<std::array<std::uint32_t, 3>>{{0, 1, 2}})) << name;
    files.push_back(p);
  }
  ASSAY_REQUIRE_VALIDATOR();
  testing::expect_valid_gltf(files);
}

// skinned_spec: hip (blend matrix 0) bound at (0, 1, 0), leg (blend matrix 1) at (0, 0.5, 0);
// vertex slots map through _blendMatrixIndices {1, 0}, so vertex 0 (index 0) is the leg's, vertex 1
// (index 1) the hip's, vertex 2 128/255 leg and 127/255 hip.
TEST(IgzModel64Gltf, SkinReadsBackAndValidates) {
  testing::TempDir t;
  std::vector<fs::path> files;
  const std::tuple<Endian, FixtureLayout, const char*> cases[] = {
      {Endian::big, FixtureLayout::v32, "skin32"}, {Endian::little, FixtureLayout::nst, "skin_nst"}};
  for (const auto& [endian, layout, name] : cases) {
    const fs::path p = export_glb(igz::fixtures::skinned_spec(endian, layout), t, name);
    ASSERT_FALSE(p.empty()) << name;
    const testing::ReadModel m = testing::read_gltf(p);
    ASSERT_EQ(m.error, "") << name;
    ASSERT_EQ(m.meshes.size(), 1u);
    const testing::ReadMesh& mesh = m.meshes[0];
    EXPECT_EQ(mesh.skin, 0);
    EXPECT_EQ(mesh.joints, (std::vector<std::array<std::uint32_t, 4>>{{1, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}})) << name;
    ASSERT_EQ(mesh.weights.size(), 3u);
    EXPECT_EQ(mesh.weights[1], (std::array<float, 4>{1, 0, 0, 0}));
    EXPECT_NEAR(mesh.weights[2][0], 128.0 / 255, 1e-6);
    EXPECT_NEAR(mesh.weights[2][1], 127.0 / 255, 1e-6);
    ASSERT_EQ(m.inverse_bind.size(), 1u);
    ASSERT_EQ(m.inverse_bind[0].size(), 2u);
    EXPECT_EQ(m.inverse_bind[0][0][13], -1.0f);  // hip: translate(0, -1, 0)
    EXPECT_EQ(m.inverse_bind[0][1][13], -0.5f);  // leg: translate(0, -0.5, 0)
    ASSERT_EQ(m.joint_world.size(), 1u);
    EXPECT_NEAR(m.joint_world[0][0][13], 1.0, 1e-6);  // the bind pose: each joint's world matrix
    EXPECT_NEAR(m.joint_world[0][1][13], 0.5, 1e-6);  // is the inverse of its inverse bind matrix
    files.push_back(p);
  }
  ASSAY_REQUIRE_VALIDATOR();
  testing::expect_valid_gltf(files);
}

}  // namespace
}  // namespace igz_model64_gltf_test
}  // namespace assay
