// The Warriors profile's texture rule: a clump chunk in a chunk container exports to glTF with its
// textures from the container's texture dictionary chunks (spec: warriors.md#wr-7-1, #wr-7-2).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "assay/formats/renderware/writer.h"
#include "assay/formats/warriors/writer.h"
#include "gltf_reader.h"
#include "testing/testing.h"

namespace assay {
namespace {

namespace fs = std::filesystem;

// A resource of two chunks: 0x2A with texture "tex0", then 0x47 with a one-triangle clump whose
// material names `texture`.
fs::path write_resource_file(const testing::TempDir& t, const std::string& texture, bool with_dictionary) {
  rw::writer::ClumpDesc d;
  d.geometries = {rw::writer::ClumpGeometry{3, 1, texture}};
  d.stamp = 0x1C02000A;
  std::vector<warriors::ChunkSpec> chunks;
  if (with_dictionary) chunks.push_back({0x2A, 1, warriors::rw_texture_dictionary(1)});
  chunks.push_back({0x47, 1, rw::writer::clump(d)});
  auto bytes = warriors::write_resource(0x1234, chunks);
  EXPECT_TRUE(bytes.ok());
  const fs::path p = t / "model.bin";
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes->data()), static_cast<std::streamsize>(bytes->size()));
  return p;
}

TEST(WarriorsModels, ClumpChunkExportsWithTheContainersTextures) {
  testing::TempDir t;
  const fs::path in = write_resource_file(t, "tex0", true);
  const auto list = testing::run_cli("list --json " + testing::quote_path(in));
  ASSERT_EQ(list.exit_code, 0) << list.err;
  const auto j = nlohmann::json::parse(list.out);
  EXPECT_EQ(j["entries"][0]["path"], "0000_2a.bin");
  EXPECT_EQ(j["entries"][1]["path"], "0001_47.glb");
  const auto r = testing::run_cli("extract -q " + testing::quote_path(in) + " -o " + testing::quote_path(t / "out"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("no dictionary"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(t / "out" / "0000_2a.bin"));
  const testing::ReadModel m = testing::read_gltf(t / "out" / "0001_47.glb");
  ASSERT_EQ(m.error, "");
  ASSERT_EQ(m.meshes.size(), 1u);
  EXPECT_EQ(m.meshes[0].positions.size(), 3u);
  EXPECT_EQ(m.materials, 1u);
  EXPECT_EQ(m.images, 1u);  // tex0, from the 0x2A chunk
}

TEST(WarriorsModels, StoredWritesTheChunkAndAMissingTextureIsNoImage) {
  testing::TempDir t;
  const fs::path in = write_resource_file(t, "absent", true);
  const auto a = testing::run_cli("extract -q " + testing::quote_path(in) + " -o " + testing::quote_path(t / "a"));
  ASSERT_EQ(a.exit_code, 0) << a.err;
  // the texture the clump names and the 0x2A chunk lacks is named in a warning
  EXPECT_NE(a.err.find("texture 'absent' is in no dictionary"), std::string::npos) << a.err;
  const testing::ReadModel m = testing::read_gltf(t / "a" / "0001_47.glb");
  ASSERT_EQ(m.error, "");
  EXPECT_EQ(m.images, 0u);
  const auto r = testing::run_cli("extract -q --stored " + testing::quote_path(in) + " -o " + testing::quote_path(t / "s"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(t / "s" / "0001_47.bin"));
  EXPECT_FALSE(fs::exists(t / "s" / "0001_47.glb"));
}

}  // namespace
}  // namespace assay
