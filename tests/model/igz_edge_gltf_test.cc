// PS3 EDGE models to glTF (issue #28 item 3), read back without assay's code: zap.pak's five
// EDGE models and the writer fixture pass the Khronos validator with no error and no warning,
// and tinygltf reads the fixture's quad with the values written.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../formats/igz/edge_fixture.h"
#include "assay/container.h"
#include "assay/core/output.h"
#include "assay/image/png.h"
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

// The container's one model written to `dir`; "" (and a failure) unless it has exactly one.
fs::path only_model(const Container& c, const fs::path& dir) {
  std::vector<fs::path> files;
  write_models(c, dir, "", files);
  EXPECT_EQ(files.size(), 1u);
  return files.size() == 1 ? files[0] : fs::path();
}

TEST(IgzEdgeGltf, FixtureReadsBackAsWritten) {
  auto b = igz::fixtures::build_edge_igz({});
  ASSERT_TRUE(b.ok());
  auto c = open(Input::from_buffer("quad.igz", std::move(*b)));
  ASSERT_TRUE(c.ok()) << c.error().str();
  testing::TempDir t;
  const std::vector<fs::path> files{only_model(**c, t.path())};
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
  EXPECT_TRUE(fs::exists(g / "zapwave_ColorMap_WaterCaustic02_11.png"));  // its material's texture, named after the texture igz
  ASSAY_REQUIRE_VALIDATOR();
  testing::expect_valid_gltf({g / "zapwave.gltf", g / "zapminiwave.gltf"});
}

// The GLB's JSON chunk (the materials' extras are not in tinygltf's reading of the test reader).
nlohmann::json glb_json(const ByteBuffer& glb) {
  const std::uint32_t n = glb[12] | glb[13] << 8 | glb[14] << 16 | static_cast<std::uint32_t>(glb[15]) << 24;
  return nlohmann::json::parse(glb.begin() + 20, glb.begin() + 20 + n);
}

// zapwave.igz's material names zapwave_igb_materials::ZapWave (its TDEP: materials:/
// zapwave_igb_materials.igz, kept in the archive's materialinstances\ folder), whose unit 0
// binds ColorMap_WaterCaustic02_11 (textures\colormap_watercaustic02_11.igz): the GLB carries
// that texture's pixels (decoded by libspng from the GLB's image, against the texture entry of
// the texture igz), with the sampler the igTextureAttr2 states (linear, linear mipmap linear,
// repeat), on the only material. Validator-clean.
TEST(IgzEdgeGltf, MaterialTextureFoundInTheArchive) {
  ASSAY_REQUIRE_SAMPLE(zap, "alchemy/skylanders_zap.pak");
  auto c = open_path(zap.string() + "::models\\characters\\skylanders\\zap\\zapwave.igz");
  ASSERT_TRUE(c.ok()) << c.error().str();
  testing::TempDir t;
  const std::vector<fs::path> files{only_model(**c, t.path())};
  const testing::ReadModel m = testing::read_gltf(files[0]);
  ASSERT_EQ(m.error, "");
  ASSERT_EQ(m.images, 1u);
  ASSERT_EQ(m.base_color_image, std::vector<int>{0});
  EXPECT_EQ(m.base_color_sampler[0], (std::array<int, 4>{9729, 9987, 10497, 10497}));
  auto png = image::decode_png(ByteView(m.image_data[0].data(), m.image_data[0].size()));
  ASSERT_TRUE(png.ok()) << png.error().str();
  auto tex = open_path(zap.string() + "::textures\\colormap_watercaustic02_11.igz");
  ASSERT_TRUE(tex.ok());
  const Entry* image = (*tex)->find("igImage2");
  ASSERT_NE(image, nullptr);
  auto want = (*tex)->texture(*image, 0);
  ASSERT_TRUE(want.ok());
  EXPECT_EQ(png->width, want->width);
  EXPECT_EQ(png->height, want->height);
  EXPECT_TRUE(png->pixels == want->pixels);
  ASSAY_REQUIRE_VALIDATOR();
  testing::expect_valid_gltf(files);
}

// The same igz with nothing beside it: no texture, and the material says why.
TEST(IgzEdgeGltf, MaterialWithoutItsFileSaysWhy) {
  ASSAY_REQUIRE_SAMPLE(zap, "alchemy/skylanders_zap.pak");
  auto in = resolve_path(zap.string() + "::models\\characters\\skylanders\\zap\\zapwave.igz");
  ASSERT_TRUE(in.ok());
  auto c = open(Input::from_buffer("zapwave.igz", ByteBuffer(in->bytes.begin(), in->bytes.end())));
  ASSERT_TRUE(c.ok()) << c.error().str();
  const Entry* e = nullptr;
  for (const Entry& x : (*c)->entries())
    if (x.kind == EntryKind::model) e = &x;
  ASSERT_NE(e, nullptr);
  auto glb = (*c)->model(*e);
  ASSERT_TRUE(glb.ok());
  const nlohmann::json j = glb_json(*glb);
  EXPECT_FALSE(j.contains("images"));
  EXPECT_EQ(j["materials"][0]["extras"]["texture_note"],
            "zapwave_igb_materials.igz (the material) is not in this container or folder");
}

// With the option off (the viewer's scan of which members open), no material file is read.
TEST(IgzEdgeGltf, MaterialTexturesOffReadsNoMaterial) {
  ASSAY_REQUIRE_SAMPLE(zap, "alchemy/skylanders_zap.pak");
  ContainerOptions opt;
  opt.igz.material_textures = false;
  auto c = open_path(zap.string() + "::models\\characters\\skylanders\\zap\\zapwave.igz", opt);
  ASSERT_TRUE(c.ok()) << c.error().str();
  testing::TempDir t;
  const nlohmann::json j = glb_json(*(*c)->model(*(*c)->find("#24")));
  EXPECT_FALSE(j.contains("images"));
  EXPECT_FALSE(j["materials"][0]["extras"].contains("texture_note"));
  EXPECT_EQ(j["materials"][0]["name"], "zapwave_igb_materials::ZapWave");
}

// An archive extracted to a folder: the model igz finds its material and texture in the folders
// beside its ancestors (models\...\zapwave.igz, materialinstances\, textures\).
TEST(IgzEdgeGltf, MaterialTextureFoundInAnExtractedFolder) {
  ASSAY_REQUIRE_SAMPLE(zap, "alchemy/skylanders_zap.pak");
  testing::TempDir t;
  auto st = testing::run_cli("extract " + testing::quote_path(zap) + " -q -o " + testing::quote_path(t / "raw") +
                             " 'models*zapwave.igz' 'materialinstances*' 'textures*watercaustic02*'");
  ASSERT_EQ(st.exit_code, 0) << st.err;
  const fs::path igz = t / "raw" / "models" / "characters" / "skylanders" / "zap" / "zapwave.igz";
  ASSERT_TRUE(fs::exists(igz));
  auto c = open_path(igz.string());
  ASSERT_TRUE(c.ok()) << c.error().str();
  const testing::ReadModel m = testing::read_gltf(only_model(**c, t.path()));
  EXPECT_EQ(m.images, 1u);
  EXPECT_EQ(m.base_color_image, std::vector<int>{0});
}

}  // namespace
}  // namespace igz_edge_gltf_test
}  // namespace assay
