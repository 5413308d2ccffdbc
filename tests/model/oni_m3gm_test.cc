// Oni M3GM to GLB (issue 27): the shared levels' M3GMs against OniSplit's decoded goldens
// (../shared/goldens/oni/models/json, read back with tinygltf), the Khronos validator's verdict,
// and a mutation sweep over the linked instances.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "assay/formats/oni/m3gm.h"
#include "golden.h"
#include "gltf_reader.h"
#include "oni_m3gm_fixture.h"
#include "testing/testing.h"

namespace assay {
namespace {

namespace fs = std::filesystem;
using Tri = std::array<std::uint32_t, 3>;

struct Case {
  const char* level;     // under samples/oni/GameDataFolder
  const char* instance;
  const char* golden;    // under goldens/oni/models/json
};
const Case kCases[] = {{"level0_Final.dat", "M3GMcube", "GameDataFolder__level0__M3GMcube.json"},
                       {"level1_Final.dat", "M3GMpyramid", "GameDataFolder__level1__M3GMpyramid.json"}};

// A triangle's canonical form: the same winding, the smallest index first.
Tri canonical(Tri t) {
  while (t[0] > t[1] || t[0] > t[2]) t = {t[1], t[2], t[0]};
  return t;
}

std::multiset<Tri> tri_set(const nlohmann::json& tris) {
  std::multiset<Tri> out;
  for (const auto& t : tris) out.insert(canonical({t[0].get<std::uint32_t>(), t[1].get<std::uint32_t>(), t[2].get<std::uint32_t>()}));
  return out;
}

void write(const fs::path& p, const ByteBuffer& b) {
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

std::unique_ptr<oni::LoadedFile> load(const fs::path& p) { return oni::load_file(p, oni::LayoutSource{}); }

// Points, normals, UVs (V flipped back from the stored 1 - V) and the triangle set with its
// winding equal the golden's decode of OniSplit's level, within 1e-5.
void expect_golden(const testing::ReadMesh& m, const nlohmann::json& g) {
  const auto& st = g["stored"];
  ASSERT_EQ(m.positions.size(), st["points"].size());
  ASSERT_EQ(m.normals.size(), st["vertex_normals"].size());
  ASSERT_EQ(m.texcoords.size(), 1u);
  ASSERT_EQ(m.texcoords[0].size(), st["texcoords"].size());
  for (std::size_t v = 0; v < m.positions.size(); ++v)
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(m.positions[v][k], st["points"][v][k].get<float>(), 1e-5) << v;
      EXPECT_NEAR(m.normals[v][k], st["vertex_normals"][v][k].get<float>(), 1e-5) << v;
    }
  for (std::size_t v = 0; v < m.positions.size(); ++v) {
    EXPECT_NEAR(m.texcoords[0][v][0], st["texcoords"][v][0].get<float>(), 1e-5) << v;
    EXPECT_NEAR(m.texcoords[0][v][1], 1.0f - st["texcoords"][v][1].get<float>(), 1e-5) << v;
  }
  std::multiset<Tri> got;
  for (const auto& t : m.triangles) got.insert(canonical(t));
  EXPECT_EQ(got, tri_set(g["triangles_onisplit"]));
  EXPECT_EQ(m.triangles.size(), g["triangle_count"].get<std::size_t>());
}

TEST(OniM3gm, GoldenModelsExportAsOniSplitDecodes) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  ASSAY_REQUIRE_GOLDEN(gdir, "oni/models/json");
  const auto level0 = load(dir / "level0_Final.dat");
  testing::TempDir t;
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.instance);
    const auto f = load(dir / c.level);
    ASSERT_TRUE(f->opened);
    const auto i = f->file.find(c.instance);
    ASSERT_TRUE(i.has_value());
    const nlohmann::json g = testing::load_golden(gdir / c.golden);
    auto geo = oni::decode_m3gm(*f, *i);
    ASSERT_TRUE(geo.ok()) << geo.error().message;
    EXPECT_EQ(geo->strips.size(), g["strip_count"].get<std::size_t>());
    EXPECT_EQ(geo->texture_name, g["texture"].get<std::string>());
    EXPECT_EQ(geo->winding_flips, g["winding_flipped_by_face_normal"].size());
    auto counts = oni::m3gm_counts(f->file, *i);
    ASSERT_TRUE(counts.ok());
    EXPECT_EQ(counts->vertices, g["vertex_count"].get<std::uint32_t>());
    EXPECT_EQ(counts->triangles, g["triangle_count"].get<std::uint32_t>());
    EXPECT_EQ(counts->texture, g["texture"].get<std::string>());
    auto glb = oni::export_m3gm_glb(*f, *i, level0.get());
    ASSERT_TRUE(glb.ok()) << glb.error().message;
    const fs::path out = t / (std::string(c.instance) + ".glb");
    write(out, *glb);
    const testing::ReadModel m = testing::read_gltf(out);
    ASSERT_EQ(m.error, "");
    ASSERT_EQ(m.meshes.size(), 1u);
    EXPECT_EQ(m.images, 1u);  // the TXMP as PNG (level 1's is a placeholder: level 0 has its pixels)
    expect_golden(m.meshes[0], g);
    Diagnostics d;
    oni::verify_m3gm(f->file, *i, d);
    EXPECT_TRUE(d.items().empty());
  }
}

TEST(OniM3gm, ValidatorFindsNothing) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  ASSAY_REQUIRE_VALIDATOR();
  const auto level0 = load(dir / "level0_Final.dat");
  testing::TempDir t;
  std::vector<fs::path> written;
  for (const Case& c : kCases) {
    const auto f = load(dir / c.level);
    auto glb = oni::export_m3gm_glb(*f, *f->file.find(c.instance), level0.get());
    ASSERT_TRUE(glb.ok()) << glb.error().message;
    write(t / (std::string(c.instance) + ".glb"), *glb);
    written.push_back(t / (std::string(c.instance) + ".glb"));
  }
  testing::expect_valid_gltf(written);
}

// Every byte of the M3GM and its linked instances set to 0x00, 0xFF and 0x80 in turn: decode and
// export never crash, and a failure is an "oni.m3gm" error naming an instance.
TEST(OniM3gm, MutationSweepOverLinkedInstances) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  const fs::path p = dir / "level0_Final.dat";
  std::ifstream in(p, std::ios::binary);
  auto bytes = std::make_shared<ByteBuffer>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  const auto f = oni::load_file(p, ByteView(*bytes), bytes, oni::LayoutSource{});
  ASSERT_TRUE(f->opened);
  const std::uint32_t m = *f->file.find("M3GMcube");
  std::vector<std::uint32_t> parts{m};
  const ByteView mb = *f->file.instance_bytes(m);
  for (std::uint32_t at = 0x0C; at < 0x28; at += 4) parts.push_back((mb[at] | mb[at + 1] << 8 | mb[at + 2] << 16) >> 8);
  std::size_t errors = 0, runs = 0;
  for (std::uint32_t part : parts) {
    const auto d = f->file.descriptor(part);
    if (!f->has_data[part] || d.tag == oni::make_tag("TXMP")) continue;
    const std::size_t from = f->file.instance_file_offset(d);
    for (std::size_t k = from; k < from + d.size; ++k)
      for (std::uint8_t v : {0x00, 0xFF, 0x80}) {
        const std::uint8_t keep = (*bytes)[k];
        (*bytes)[k] = v;
        // the decoder on every mutation, the whole export (PNG included) on every 16th (ASan time)
        auto r = runs % 16 == 0 ? oni::export_m3gm_glb(*f, m, f.get()) : oni::decode_m3gm(*f, m).ok() ? Result<ByteBuffer>(ByteBuffer{}) : oni::decode_m3gm(*f, m).error();
        ++runs;
        if (!r) {
          ++errors;
          EXPECT_TRUE(r.error().code.starts_with("oni.m3gm")) << r.error().message;
          EXPECT_NE(r.error().structure.find("instance["), std::string::npos) << r.error().str();
          EXPECT_NE(r.error().offset, kNoOffset) << r.error().str();
        }
        (*bytes)[k] = keep;
      }
  }
  EXPECT_GT(runs, 1000u);
  EXPECT_GT(errors, 20u);  // counts, links and strip indices are refused
}

std::set<Tri> canonical_set(const std::vector<Tri>& tris) {
  std::set<Tri> out;
  for (const Tri& t : tris) out.insert(canonical(t));
  return out;
}

Result<oni::M3gmGeometry> decode_hand(const testing::M3gmFixture& x, ByteBuffer& keep) {
  keep = testing::m3gm_level(x);
  EXPECT_FALSE(keep.empty());
  auto f = oni::InstanceFile::open(ByteView(keep), "hand.dat");
  if (!f) return f.error();
  return oni::decode_m3gm(*f, 0);
}

// The fixture's strips and winding, worked out by hand (oni_m3gm_fixture.h).
TEST(OniM3gm, HandMadeStripsRestartAndWinding) {
  ByteBuffer keep;
  auto g = decode_hand({}, keep);
  ASSERT_TRUE(g.ok()) << g.error().str();
  EXPECT_EQ(g->strips, (std::vector<std::vector<std::uint32_t>>{{0, 1, 2, 3}, {4, 0, 1}}));
  EXPECT_EQ(canonical_set(g->triangles), (std::set<Tri>{canonical({0, 1, 2}), canonical({2, 1, 3}), canonical({4, 1, 0})}));
  EXPECT_EQ(g->winding_flips, 1u);
  EXPECT_FLOAT_EQ(g->uvs[0][1], 0.75f);  // as stored; the scene flips it back
  Diagnostics d;
  auto f = oni::InstanceFile::open(ByteView(keep), "hand.dat");
  oni::verify_m3gm(*f, 0, d);
  EXPECT_TRUE(d.items().empty());
  auto counts = oni::m3gm_counts(*f, 0);  // what list shows: 5 points, 2 + 1 strip triangles
  ASSERT_TRUE(counts.ok());
  EXPECT_EQ(counts->vertices, 5u);
  EXPECT_EQ(counts->triangles, 3u);
}

// Without the face normals pointing the other way, strip B keeps the strip's own winding.
TEST(OniM3gm, HandMadeWindingFollowsFaceNormals) {
  testing::M3gmFixture x;
  x.face_normals[2] = {0, -1, 0};
  ByteBuffer keep;
  auto g = decode_hand(x, keep);
  ASSERT_TRUE(g.ok()) << g.error().str();
  EXPECT_EQ(g->winding_flips, 0u);
  EXPECT_EQ(canonical_set(g->triangles).count(canonical({4, 0, 1})), 1u);
}

TEST(OniM3gm, HandMadeRefusals) {
  ByteBuffer keep;
  testing::M3gmFixture x;
  x.strips[3] = 5;  // past the 5 points
  auto g = decode_hand(x, keep);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error().code, "oni.m3gm-strip");
  EXPECT_NE(g.error().message.find("strip index 5"), std::string::npos) << g.error().str();
  x = {};
  x.face_normal_indices.pop_back();  // 2 indices for 3 strip triangles
  g = decode_hand(x, keep);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error().code, "oni.m3gm");
  x = {};
  x.strips[4] = 4;  // no restart bit: one strip of 7, so 5 triangles for 3 face normal indices
  g = decode_hand(x, keep);
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.error().message.find("3 face normal indices for 5 strip triangles"), std::string::npos) << g.error().str();
}

// The writer-built level truncated at every length and with every byte set to 0xFF: never a
// crash; what opens either decodes or gives an error naming a structure.
TEST(OniM3gm, HandMadeTruncationAndMutationSweep) {
  const ByteBuffer good = testing::m3gm_level();
  std::size_t decoded = 0;
  const auto once = [&](const ByteBuffer& b) {
    auto f = oni::InstanceFile::open(ByteView(b), "hand.dat");
    if (!f || f->instance_count() == 0) return;
    Diagnostics d;
    oni::verify_m3gm(*f, 0, d);
    auto g = oni::decode_m3gm(*f, 0);
    if (g) ++decoded;
    else EXPECT_FALSE(g.error().structure.empty()) << g.error().str();
  };
  for (std::size_t n = 0; n < good.size(); ++n) once(ByteBuffer(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n)));
  for (std::size_t k = 0; k < good.size(); ++k) {
    ByteBuffer b = good;
    b[k] = 0xFF;
    once(b);
  }
  EXPECT_GT(decoded, good.size() / 4);  // padding and float bytes do not matter
}

// A point outside PNTA's stored box is a verify warning (oni.m3gm-bounds).
TEST(OniM3gm, VerifyBounds) {
  testing::M3gmFixture x;
  x.bbox_max = {1, 0.5f, 1};
  const ByteBuffer b = testing::m3gm_level(x);
  auto f = oni::InstanceFile::open(ByteView(b), "hand.dat");
  ASSERT_TRUE(f.ok());
  Diagnostics d;
  oni::verify_m3gm(*f, 0, d);
  ASSERT_EQ(d.items().size(), 1u);
  EXPECT_EQ(d.items()[0].where.code, "oni.m3gm-bounds");
  EXPECT_NE(d.items()[0].where.message.find("2 of 5 points outside the PNTA's stored bounding box"), std::string::npos);
}

}  // namespace
}  // namespace assay
