// The older, non-EDGE scene graph's igGeometryAttr as a model entry (model.h find_geometry_attrs):
// the writer fixture (geometry_fixture.h) decodes to the positions and triangles written, takes
// its igGeometry's igAABox as stored bounds and its igFxMaterialNode's handle as material; verify
// warns where the file's figures differ; 64-bit files and every mutation fail cleanly.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>

#include "assay/container.h"
#include "assay/image/png.h"
#include "../formats/igz/geometry_fixture.h"
#include "../formats/igz/image_fixture.h"
#include "../formats/igz/material_fixture.h"
#include "golden.h"
#include "gltf_reader.h"
#include "testing/testing.h"

namespace assay {
namespace igz_geometry_test {
namespace {

using fs_path = std::filesystem::path;

std::unique_ptr<Container> open_fixture(const igz::fixtures::GeometrySpec& g) {
  auto b = igz::fixtures::build_geometry_igz(g);
  if (!b) return nullptr;
  auto c = open(Input::from_buffer("quad.igz", std::move(*b)));
  return c ? std::move(*c) : nullptr;
}

const Entry* model_entry(const Container& c) {
  for (const Entry& e : c.entries())
    if (e.kind == EntryKind::model) return &e;
  return nullptr;
}

std::string warnings(const Container& c) {
  Diagnostics d;
  c.verify(d);
  std::string out;
  for (const Diagnostic& x : d.items())
    if (x.severity != Severity::note) out += x.where.structure + ": " + x.where.message + "\n";
  return out;
}

TEST(IgzGeometryAttr, FixtureIsAModelWithItsStoredBoundsAndMaterial) {
  auto c = open_fixture({});
  ASSERT_TRUE(c);
  const Entry* e = model_entry(*c);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->path, fmt::format("{:04}_quad.glb", e->index));
  EXPECT_EQ(c->entries()[e->index].name, "igGeometryAttr");
  EXPECT_EQ(warnings(*c), "");
  auto glb = c->model(*e);
  ASSERT_TRUE(glb.ok()) << glb.error().str();
  testing::TempDir t;
  testing::write_file(t / "quad.glb", *glb);
  const testing::ReadModel m = testing::read_gltf(t / "quad.glb");
  ASSERT_EQ(m.error, "");
  ASSERT_EQ(m.meshes.size(), 1u);
  EXPECT_EQ(m.meshes[0].positions, (std::vector<std::array<float, 3>>{{1, 2, 3}, {-4, 5, 6}, {7, -8, 0.5f}}));
  EXPECT_EQ(m.meshes[0].triangles, (std::vector<std::array<std::uint32_t, 3>>{{0, 1, 2}}));
  EXPECT_EQ(m.materials, 1u);
  ASSAY_REQUIRE_VALIDATOR();
  testing::expect_valid_gltf({t / "quad.glb"});
}

TEST(IgzGeometryAttr, VerifyWarnsOnBoundsAndPrimitiveCount) {
  igz::fixtures::GeometrySpec g;
  g.buffers.max[0] = 9;           // the igAABox: x up to 9, the vertices up to 7
  g.buffers.primitive_count = 2;  // one triangle
  auto c = open_fixture(g);
  ASSERT_TRUE(c);
  const std::string w = warnings(*c);
  EXPECT_NE(w.find("igGeometryAttr["), std::string::npos) << w;
  EXPECT_NE(w.find("_min/_max"), std::string::npos) << w;
  EXPECT_NE(w.find("says 2 primitives"), std::string::npos) << w;
}

TEST(IgzGeometryAttr, OffsetIsANote) {
  igz::fixtures::GeometrySpec g;
  g.offset = 3;
  auto c = open_fixture(g);
  ASSERT_TRUE(c);
  Diagnostics d;
  c->verify(d);
  bool noted = false;
  for (const Diagnostic& x : d.items()) noted = noted || (x.severity == Severity::note && x.where.message.find("_offset 3 not applied") != std::string::npos);
  EXPECT_TRUE(noted);
}

TEST(IgzGeometryAttr, SixtyFourBitIsNotDecoded) {
  igz::fixtures::GeometrySpec g;
  g.layout = {.version = 9, .endian = Endian::little, .platform = 1, .pointer_size = 8};
  g.buffers = igz::fixtures::triangle_spec(Endian::little);
  auto b = igz::fixtures::build_geometry_igz(g);
  ASSERT_TRUE(b.ok());
  auto c = open(Input::from_buffer("quad64.igz", std::move(*b)));
  ASSERT_TRUE(c.ok()) << c.error().str();
  EXPECT_EQ(model_entry(**c), nullptr);
}

TEST(IgzGeometryAttr, TruncationAndMutationSweep) {
  auto b = igz::fixtures::build_geometry_igz({});
  ASSERT_TRUE(b.ok());
  const ByteBuffer good = *b;
  auto run = [](ByteBuffer bytes) {
    auto c = open(Input::from_buffer("m.igz", std::move(bytes)));
    if (!c) return;
    Diagnostics d;
    (*c)->verify(d);
    if (const Entry* e = model_entry(**c)) (void)(*c)->model(*e);
  };
  for (std::size_t cut = 0; cut < good.size(); cut += 5) run(ByteBuffer(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(cut)));
  for (std::size_t i = 0; i < good.size(); ++i) {
    ByteBuffer m = good;
    m[i] ^= 0x5A;
    run(std::move(m));
  }
}

// A model, its material and its texture, each an igz of our writers in the folders a game's
// archive keeps them in (models\\, materials\\, textures\\): packed into an igArchive and
// extracted with --models, the GLB carries the texture at unit 0 (ColorMap_A_11, not unit 1's
// NormalMap_B_11 nor the other material's ColorMap_C_11), with the igTextureAttr2's sampler
// (_magFilter 0 nearest, _minFilter 3 nearest mipmap linear, _wrapS 0 clamp, _wrapT 1 repeat);
// the same from the folder on disk. libspng decodes the GLB's image to the texture entry's pixels.
TEST(IgzGeometryAttr, MaterialTextureThroughAnArchiveAndAFolder) {
  testing::TempDir t;
  const fs_path tree = t / "tree";
  igz::fixtures::GeometrySpec g;  // the triangle with FLOAT2 TEXCOORD 0 at +12 (20-byte vertices)
  g.buffers.stride = 20;
  g.buffers.elements.push_back(igz::VertexElement{.type = 1 /*FLOAT2*/, .usage = igz::vertex_usage::kTexcoord, .offset = 12});
  const ByteBuffer pos = g.buffers.vertex_bytes;
  g.buffers.vertex_bytes.assign(60, 0);
  for (unsigned v = 0; v < 3; ++v) std::copy(pos.begin() + 12 * v, pos.begin() + 12 * v + 12, g.buffers.vertex_bytes.begin() + 20 * v);
  auto model = igz::fixtures::build_geometry_igz(g);
  auto material = igz::fixtures::material_igz({.version = 7, .endian = Endian::big, .platform = 6, .names_as_tstr = true}, "QuadMat");
  igz::fixtures::ImageSpec spec;
  spec.pixels = igz::fixtures::dxt1_blocks(8, 8);
  auto texture = igz::fixtures::build_image_igz(spec);
  ASSERT_TRUE(model.ok() && material.ok() && texture.ok());
  testing::write_file(tree / "models" / "quad.igz", *model);
  testing::write_file(tree / "materials" / "quad_materials.igz", *material);
  testing::write_file(tree / "textures" / "ColorMap_A_11.igz", *texture);
  auto tex = open_path((tree / "textures" / "ColorMap_A_11.igz").string());
  ASSERT_TRUE(tex.ok());
  const Entry* image = igz::fixtures::texture_entry(**tex);
  ASSERT_NE(image, nullptr);
  auto want = (*tex)->texture(*image, 0);
  ASSERT_TRUE(want.ok());
  auto check = [&](const fs_path& glb) {
    const testing::ReadModel m = testing::read_gltf(glb);
    ASSERT_EQ(m.error, "") << glb;
    ASSERT_EQ(m.images, 1u) << glb;
    EXPECT_EQ(m.base_color_image, std::vector<int>{0});
    EXPECT_EQ(m.base_color_sampler[0], (std::array<int, 4>{9728, 9986, 33071, 10497}));
    auto png = image::decode_png(ByteView(m.image_data[0].data(), m.image_data[0].size()));
    ASSERT_TRUE(png.ok());
    EXPECT_EQ(png->width, 8u);
    EXPECT_TRUE(png->pixels == want->pixels);
  };
  auto st = testing::run_cli("pack igarchive -q -o " + testing::quote_path(t / "quad.pak") + " " + testing::quote_path(tree));
  ASSERT_EQ(st.exit_code, 0) << st.err;
  st = testing::run_cli("extract " + testing::quote_path(t / "quad.pak") + " --models -q -o " + testing::quote_path(t / "out"));
  ASSERT_EQ(st.exit_code, 0) << st.err;
  ASSERT_TRUE(std::filesystem::exists(t / "out" / "models" / "quad.glb"));
  check(t / "out" / "models" / "quad.glb");
  auto c = open_path((tree / "models" / "quad.igz").string());
  ASSERT_TRUE(c.ok());
  const Entry* e = model_entry(**c);
  ASSERT_NE(e, nullptr);
  auto glb = (*c)->model(*e);
  ASSERT_TRUE(glb.ok());
  testing::write_file(t / "folder.glb", *glb);
  check(t / "folder.glb");
  // The same model without texture coordinates: no image, and the material says why.
  testing::write_file(tree / "models" / "quad.igz", *igz::fixtures::build_geometry_igz({}));
  auto bare = open_path((tree / "models" / "quad.igz").string());
  ASSERT_TRUE(bare.ok());
  auto bare_glb = (*bare)->model(*model_entry(**bare));
  ASSERT_TRUE(bare_glb.ok());
  const std::uint32_t n = (*bare_glb)[12] | (*bare_glb)[13] << 8 | (*bare_glb)[14] << 16 | std::uint32_t{(*bare_glb)[15]} << 24;
  const auto doc = nlohmann::json::parse(bare_glb->begin() + 20, bare_glb->begin() + 20 + n);
  EXPECT_FALSE(doc.contains("images"));
  EXPECT_EQ(doc["materials"][0]["extras"]["texture_note"], "the mesh has no texture coordinates");
  ASSAY_REQUIRE_VALIDATOR();
  testing::expect_valid_gltf({t / "out" / "models" / "quad.glb", t / "folder.glb"});
}

TEST(IgzGeometryAttr, WritesFuzzCorpus) {
  const char* dir = std::getenv("ASSAY_WRITE_IGZ_MODEL_CORPUS");
  if (dir == nullptr) GTEST_SKIP() << "set ASSAY_WRITE_IGZ_MODEL_CORPUS to write the corpus";
  auto b = igz::fixtures::build_geometry_igz({});
  ASSERT_TRUE(b.ok());
  testing::write_file(std::filesystem::path(dir) / "geometry_attr.igz", *b);
}

}  // namespace
}  // namespace igz_geometry_test
}  // namespace assay
