// D3D8 and D3D9 native geometry (hand-made, tests/formats/renderware/d3d_native_fixture.h)
// (the D3D9 one also in packed element types) through `assay extract` to GLB: the Khronos validator reports no error and no warning, and
// tinygltf reads back the hand-worked model: 8 vertices, 4 triangles as position triples (winding
// kept), each vertex's UV sets, normal and prelit colour.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "formats/renderware/d3d_native_fixture.h"
#include "golden.h"
#include "gltf_reader.h"
#include "testing/testing.h"

namespace rw_d3d_native_model_test {
namespace {

namespace fs = std::filesystem;
namespace fx = assay::rw::d3d_native_fixture;
using assay::ByteBuffer;
namespace at = assay::testing;

void write(const fs::path& p, const ByteBuffer& b) {
  std::FILE* f = std::fopen(p.string().c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fwrite(b.data(), 1, b.size(), f);
  std::fclose(f);
}

// Extracts `dff` into `out`; the one GLB written.
fs::path extract(const fs::path& dff, const fs::path& out) {
  auto r = at::run_cli("extract " + at::quote_path(dff) + " -o " + at::quote_path(out));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<fs::path> glbs;
  if (fs::exists(out))
    for (const auto& e : fs::directory_iterator(out))
      if (e.path().extension() == ".glb") glbs.push_back(e.path());
  EXPECT_EQ(glbs.size(), 1u);
  return glbs.empty() ? fs::path() : glbs[0];
}

// The read-back mesh is the hand-worked model.
void expect_model(const at::ReadMesh& m, std::size_t uv_sets, bool d3d9) {
  ASSERT_EQ(m.positions.size(), 8u);
  ASSERT_EQ(m.normals.size(), 8u);
  ASSERT_EQ(m.colors.size(), 8u);
  ASSERT_EQ(m.texcoords.size(), uv_sets);
  std::vector<std::pair<int, int>> who(8, {-1, -1});
  for (std::size_t i = 0; i < 8; ++i) {
    for (int mesh = 0; mesh < 2; ++mesh)
      for (int v = 0; v < 4; ++v)
        if (fx::vertex(mesh, v).position == m.positions[i]) who[i] = {mesh, v};
    ASSERT_GE(who[i].first, 0) << "vertex " << i << " is at no expected position";
    const fx::Vertex x = fx::vertex(who[i].first, who[i].second);
    EXPECT_EQ(m.normals[i], x.normal) << i;  // already unit length
    EXPECT_EQ(m.texcoords[0][i], x.uv) << i;
    if (uv_sets > 1) {
      EXPECT_EQ(m.texcoords[1][i], (std::array<float, 2>{1 - x.uv[0], 1 - x.uv[1]})) << i;
    }
    for (int k = 0; k < 4; ++k) EXPECT_NEAR(m.colors[i][k], x.rgba[k], 1) << i;
  }
  std::vector<std::array<int, 4>> got;
  for (const auto& t : m.triangles) {
    got.push_back({who[t[0]].first, who[t[0]].second, who[t[1]].second, who[t[2]].second});
    EXPECT_EQ(who[t[1]].first, who[t[0]].first);
    EXPECT_EQ(who[t[2]].first, who[t[0]].first);
  }
  auto want = fx::expected_triangles(d3d9);
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
}

TEST(RwD3dNativeModel, ExportsReadBackAndPassTheValidator) {
  at::TempDir t;
  write(t / "d3d8.dff", fx::d3d8_clump());
  write(t / "d3d9.dff", fx::d3d9_clump());
  write(t / "d3d9p.dff", fx::d3d9_clump(true));
  const fs::path g8 = extract(t / "d3d8.dff", t / "out8"), g9 = extract(t / "d3d9.dff", t / "out9"),
                 g9p = extract(t / "d3d9p.dff", t / "out9p");
  ASSERT_FALSE(g8.empty());
  ASSERT_FALSE(g9.empty());
  ASSERT_FALSE(g9p.empty());
  for (const auto& [glb, sets, d3d9] : {std::tuple{g8, std::size_t{1}, false}, std::tuple{g9, std::size_t{2}, true},
                                        std::tuple{g9p, std::size_t{2}, true}}) {
    const at::ReadModel r = at::read_gltf(glb);
    ASSERT_TRUE(r.error.empty()) << r.error;
    ASSERT_EQ(r.meshes.size(), 1u) << glb;
    EXPECT_EQ(r.materials, 2u);
    expect_model(r.meshes[0], sets, d3d9);
  }
  ASSAY_REQUIRE_VALIDATOR();
  at::expect_valid_gltf({g8, g9, g9p});
}

}  // namespace
}  // namespace rw_d3d_native_model_test
