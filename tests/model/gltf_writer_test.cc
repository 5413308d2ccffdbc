// The glTF writer's bytes checked by hand (the GLB header and chunks, glTF 2.0 section 4.4) and
// matrix decomposition on matrices whose translation, rotation and scale are known.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "assay/model/gltf.h"

namespace assay::model {
namespace {

std::uint32_t u32(const ByteBuffer& b, std::size_t at) {
  std::uint32_t v;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}

Scene one_triangle() {
  Scene s;
  Mesh m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  m.primitives.push_back({{0, 1, 2}, std::nullopt});
  s.meshes.push_back(m);
  Node n;
  n.mesh = 0;
  s.nodes.push_back(n);
  return s;
}

TEST(GltfWriter, GlbHeaderAndChunks) {
  auto glb = write_glb(one_triangle());
  ASSERT_TRUE(glb.ok());
  const ByteBuffer& b = *glb;
  EXPECT_EQ(u32(b, 0), 0x46546C67u);  // "glTF"
  EXPECT_EQ(u32(b, 4), 2u);
  EXPECT_EQ(u32(b, 8), b.size());
  const std::uint32_t json_len = u32(b, 12);
  EXPECT_EQ(u32(b, 16), 0x4E4F534Au);  // "JSON"
  EXPECT_EQ(json_len % 4, 0u);
  const std::uint32_t bin_at = 20 + json_len;
  EXPECT_EQ(u32(b, bin_at + 4), 0x004E4942u);  // "BIN\0"
  // 3 positions (36 bytes), padded to 4, then 3 u16 indices (6 bytes), padded: 44 bytes
  EXPECT_EQ(u32(b, bin_at), 44u);
  EXPECT_EQ(b.size(), bin_at + 8 + 44u);
  const auto j = nlohmann::json::parse(std::string(b.begin() + 20, b.begin() + 20 + json_len));
  EXPECT_EQ(j["asset"]["version"], "2.0");
  const auto& pos = j["accessors"][0];
  EXPECT_EQ(pos["componentType"], 5126);
  EXPECT_EQ(pos["count"], 3);
  EXPECT_EQ(pos["min"], nlohmann::json::array({0.0, 0.0, 0.0}));
  EXPECT_EQ(pos["max"], nlohmann::json::array({1.0, 1.0, 0.0}));
  EXPECT_EQ(j["accessors"][1]["componentType"], 5123);  // u16 indices for 3 vertices
  float x;
  std::memcpy(&x, b.data() + bin_at + 8 + 12, 4);  // vertex 1's x
  EXPECT_EQ(x, 1.0f);
}

TEST(GltfWriter, AttributeCountsMustAgree) {
  Scene s = one_triangle();
  s.meshes[0].normals = {{0, 0, 1}};  // one normal for three positions
  EXPECT_FALSE(write_glb(s).ok());
  s = one_triangle();
  s.meshes[0].primitives[0].indices = {0, 1, 3};  // index past the vertices
  EXPECT_FALSE(write_glb(s).ok());
}

TEST(GltfWriter, NonFiniteFloatsAreWrittenAsZero) {
  Scene s = one_triangle();
  s.meshes[0].positions[1][0] = std::nanf("");
  auto glb = write_glb(s);
  ASSERT_TRUE(glb.ok());
  const std::uint32_t bin_at = 20 + u32(*glb, 12);
  float x;
  std::memcpy(&x, glb->data() + bin_at + 8 + 12, 4);
  EXPECT_EQ(x, 0.0f);
}

// The JSON text itself (not a parse of it): numbers as the shortest text that reads back (integral
// values below 1e15 without a fraction, exponents from 1e16 and below 1e-4, as `{}` formats them),
// bounds from finite values only (a NaN counted as 0), keys escaped. Expected strings by hand:
// float 1e20 is 100000002004087734272, float 0.1 is 0.100000001490116119384765625.
TEST(GltfWriter, JsonNumbersAndKeysAsText) {
  Scene s = one_triangle();
  s.meshes[0].positions = {{-1.5f, 2, -3}, {4, std::nanf(""), 1e20f}, {0.1f, 0.25f, INFINITY}};
  s.extras["a"] = 1e-7;
  s.extras["b"] = -7.0;
  s.extras["c"] = 123456789012.0;
  s.extras["d"] = static_cast<double>(0.1f);
  s.extras["e\"q"] = std::string("x\ty");
  auto glb = write_glb(s);
  ASSERT_TRUE(glb.ok());
  const std::uint32_t json_len = u32(*glb, 12);
  const std::string json(glb->begin() + 20, glb->begin() + 20 + json_len);
  EXPECT_NE(json.find(R"("min":[-1.5,0,-3],"max":[4,2,1.0000000200408773e+20])"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("extras":{"a":1e-07,"b":-7,"c":123456789012,"d":0.10000000149011612,"e\"q":"x\ty"})"), std::string::npos) << json;
  EXPECT_NE(json.find(R"({"bufferView":0,"componentType":5126,"count":3,"type":"VEC3",)"), std::string::npos) << json;
  const std::uint32_t bin_at = 20 + json_len;
  float y1, z2, x2;
  std::memcpy(&y1, glb->data() + bin_at + 8 + 16, 4);  // vertex 1's y (NaN)
  std::memcpy(&z2, glb->data() + bin_at + 8 + 32, 4);  // vertex 2's z (infinity)
  std::memcpy(&x2, glb->data() + bin_at + 8 + 24, 4);  // vertex 2's x, kept
  EXPECT_EQ(y1, 0.0f);
  EXPECT_EQ(z2, 0.0f);
  EXPECT_EQ(x2, 0.1f);
}

TEST(GltfWriter, SeparateFilesNameTheirBinAndImages) {
  Scene s = one_triangle();
  s.images.push_back({"a b/c", {0x89, 'P', 'N', 'G'}});
  auto files = write_gltf(s, "m y");
  ASSERT_TRUE(files.ok());
  ASSERT_EQ(files->size(), 3u);
  EXPECT_EQ((*files)[0].name, "m y.gltf");
  EXPECT_EQ((*files)[1].name, "m_y.bin");  // URIs with nothing to escape
  EXPECT_EQ((*files)[2].name, "m_y_a_b_c.png");
  const auto j = nlohmann::json::parse(std::string((*files)[0].bytes.begin(), (*files)[0].bytes.end()));
  EXPECT_EQ(j["buffers"][0]["uri"], "m_y.bin");
  EXPECT_EQ(j["images"][0]["uri"], "m_y_a_b_c.png");
}

// Names are the game's bytes: quotes, control characters and bytes that are not UTF-8 must still
// give JSON that a strict parser reads, with U+FFFD (EF BF BD) for each bad byte.
TEST(GltfWriter, NamesAreEscapedAndMadeUtf8) {
  Scene s = one_triangle();
  s.nodes[0].name = std::string("a\"b\\c\x01\xff\xc3\xa9", 9);
  s.nodes[0].extras["note"] = std::string("tab\there");
  s.nodes[0].extras["list"] = std::vector<double>{1.5, -2};
  s.name = "scene";
  for (const bool glb : {true, false}) {
    std::string text;
    if (glb) {
      auto b = write_glb(s);
      ASSERT_TRUE(b.ok());
      text.assign(b->begin() + 20, b->begin() + 20 + u32(*b, 12));
    } else {
      auto f = write_gltf(s, "x");
      ASSERT_TRUE(f.ok());
      text.assign((*f)[0].bytes.begin(), (*f)[0].bytes.end());
    }
    const auto j = nlohmann::json::parse(text);  // throws on invalid JSON or UTF-8
    EXPECT_EQ(j["nodes"][0]["name"], std::string("a\"b\\c\x01\xef\xbf\xbd\xc3\xa9"));
    EXPECT_EQ(j["nodes"][0]["extras"]["note"], "tab\there");
    EXPECT_EQ(j["nodes"][0]["extras"]["list"], nlohmann::json::array({1.5, -2.0}));
    EXPECT_EQ(j["scenes"][0]["nodes"], nlohmann::json::array({0}));
    EXPECT_EQ(j["scenes"][0]["name"], "scene");
    EXPECT_EQ(j["scene"], 0);
  }
}

TEST(Decompose, RotationScaleTranslation) {
  // 90 degrees about Z, scale 2, at (1, 2, 3): columns (0,2,0), (-2,0,0), (0,0,2)
  const Mat4 m{0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1};
  const Trs t = decompose(m);
  EXPECT_EQ(t.translation, (Vec3{1, 2, 3}));
  EXPECT_NEAR(t.rotation[2], std::sqrt(0.5), 1e-6);
  EXPECT_NEAR(t.rotation[3], std::sqrt(0.5), 1e-6);
  EXPECT_NEAR(t.rotation[0], 0, 1e-6);
  for (float s : t.scale) EXPECT_NEAR(s, 2, 1e-6);
}

// 90 degrees about Z then (1, 2, 3): the inverse turns back and moves by -R^T t = (-2, 1, -3),
// worked out by hand.
TEST(AffineInverse, RotationAndTranslation) {
  const Mat4 m{0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1};
  const auto inv = inverse_affine(m);
  ASSERT_TRUE(inv);
  const Mat4 want{0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, -2, 1, -3, 1};
  for (int k = 0; k < 16; ++k) EXPECT_NEAR((*inv)[k], want[k], 1e-6) << k;
  const Mat4 id = multiply(m, *inv);
  for (int k = 0; k < 16; ++k) EXPECT_NEAR(id[k], k % 5 == 0 ? 1.0f : 0.0f, 1e-6) << k;
  const Mat4 singular{1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  EXPECT_FALSE(inverse_affine(singular));
}

TEST(Decompose, MirrorGoesIntoTheScale) {
  const Mat4 m{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1};
  const Trs t = decompose(m);
  EXPECT_EQ(t.scale, (Vec3{1, 1, -1}));
  EXPECT_NEAR(t.rotation[3], 1, 1e-6);
}

}  // namespace
}  // namespace assay::model
