// igz models to glTF (issue #28 item 3), read back without assay's code: the Wii U sample
// igModelTool_model.igz's GLB passes the Khronos validator with no error and no warning, and
// tinygltf reads its two draw calls with the vertex and triangle counts the file's buffers hold
// and the bounds computed here from the vertex bytes. A writer fixture in both byte orders too.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "../formats/igz/model_fixture.h"
#include "assay/container.h"
#include "assay/core/output.h"
#include "golden.h"
#include "gltf_reader.h"
#include "testing/testing.h"

namespace assay {
namespace igz_model_gltf_test {
namespace {

namespace fs = std::filesystem;

// Vertex buffers of the sample (section 3, pool 2 'Vertex', at file 0x110D; TMHN[0] and TMHN[2]
// data pointers 0x10000000 and 0x100385E0): FLOAT3 positions, 20 bytes a vertex.
struct Buffer {
  std::uint64_t offset;
  std::uint32_t count;
};
constexpr Buffer kBuffers[] = {{0x110D, 10494}, {0x110D + 0x385E0, 828}};

std::array<std::array<float, 3>, 2> bounds_from_bytes(const ByteBuffer& f, const Buffer& b) {
  std::array<std::array<float, 3>, 2> out{{{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}}};
  for (std::uint64_t i = 0; i < b.count; ++i)
    for (unsigned k = 0; k < 3; ++k) {
      const std::uint64_t at = b.offset + 20 * i + 4 * k;
      const float v = std::bit_cast<float>(std::uint32_t{f[at]} << 24 | std::uint32_t{f[at + 1]} << 16 | std::uint32_t{f[at + 2]} << 8 | f[at + 3]);
      out[0][k] = std::min(out[0][k], v), out[1][k] = std::max(out[1][k], v);
    }
  return out;
}

std::array<std::array<float, 3>, 2> bounds_of(const testing::ReadMesh& m) {
  std::array<std::array<float, 3>, 2> out{{{INFINITY, INFINITY, INFINITY}, {-INFINITY, -INFINITY, -INFINITY}}};
  for (const auto& p : m.positions)
    for (unsigned k = 0; k < 3; ++k) out[0][k] = std::min(out[0][k], p[k]), out[1][k] = std::max(out[1][k], p[k]);
  return out;
}

// Every model entry written as extract writes it, their paths.
std::vector<fs::path> export_models(const Container& c, const testing::TempDir& t) {
  std::vector<fs::path> out;
  OutputDir dir(t.path(), false);
  for (const Entry& e : c.entries()) {
    if (e.kind != assay::EntryKind::model) continue;
    auto w = c.write_entry(e, dir, WriteOptions{});
    EXPECT_TRUE(w.ok()) << e.path << ": " << (w.ok() ? "" : w.error().message);
    out.push_back(t / e.path);
  }
  return out;
}

TEST(IgzModelGltf, SampleValidatesAndReadsBackWithItsCountsAndBounds) {
  ASSAY_REQUIRE_SAMPLE(path, "alchemy/igModelTool_model.igz");
  const ByteBuffer bytes = testing::read_file(path);
  auto c = open_path(path.string());
  ASSERT_TRUE(c.ok()) << c.error().str();
  testing::TempDir t;
  const auto files = export_models(**c, t);
  ASSERT_EQ(files.size(), 1u);
  const testing::ReadModel m = testing::read_gltf(files[0]);
  ASSERT_EQ(m.error, "");
  ASSERT_EQ(m.meshes.size(), 2u);
  // _vertexCount 10494 and 828; _indexCount the same (the indices run 0, 1, 2, ...): / 3 triangles
  EXPECT_EQ(m.meshes[0].positions.size(), 10494u);
  EXPECT_EQ(m.meshes[0].triangles.size(), 3498u);
  EXPECT_EQ(m.meshes[1].positions.size(), 828u);
  EXPECT_EQ(m.meshes[1].triangles.size(), 276u);
  EXPECT_EQ(m.meshes[0].texcoords.size(), 1u);
  EXPECT_EQ(m.meshes[0].normals.size(), 10494u);
  EXPECT_EQ(m.materials, 1u);  // both draw calls name Maggs_Staff_materials,Maggs_Staff,1::metal (EXNM 0)
  for (std::size_t i = 0; i < 2; ++i) EXPECT_EQ(bounds_of(m.meshes[i]), bounds_from_bytes(bytes, kBuffers[i])) << i;
  ASSAY_REQUIRE_VALIDATOR();
  testing::expect_valid_gltf(files);
}

TEST(IgzModelGltf, FixtureBothByteOrdersValidate) {
  ASSAY_REQUIRE_VALIDATOR();
  testing::TempDir t;
  std::vector<fs::path> files;
  for (Endian e : {Endian::big, Endian::little}) {
    auto b = igz::fixtures::build_model_igz(igz::fixtures::triangle_spec(e));
    ASSERT_TRUE(b.ok());
    auto c = open(Input::from_buffer("fixture.igz", std::move(*b)));
    ASSERT_TRUE(c.ok()) << c.error().str();
    const Entry* e0 = &(*c)->entries()[1];  // [0] is the root igObjectList, [1] the igModelInfo
    ASSERT_EQ(e0->kind, assay::EntryKind::model);
    auto glb = (*c)->model(*e0);
    ASSERT_TRUE(glb.ok()) << glb.error().str();
    const fs::path p = t / (std::string(e == Endian::big ? "be" : "le") + ".glb");
    testing::write_file(p, *glb);
    const testing::ReadModel m = testing::read_gltf(p);
    ASSERT_EQ(m.meshes.size(), 1u);
    EXPECT_EQ(m.meshes[0].positions, (std::vector<std::array<float, 3>>{{1, 2, 3}, {-4, 5, 6}, {7, -8, 0.5f}}));
    EXPECT_EQ(m.meshes[0].triangles, (std::vector<std::array<std::uint32_t, 3>>{{0, 1, 2}}));
    files.push_back(p);
  }
  testing::expect_valid_gltf(files);
}

}  // namespace
}  // namespace igz_model_gltf_test
}  // namespace assay
