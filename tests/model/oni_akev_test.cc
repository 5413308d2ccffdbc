// Oni AKEV level geometry to GLB (issue 27): the hand-made level of oni_akev_fixture.h (values by
// hand there) read back with tinygltf and the GLB's own JSON chunk; the Khronos validator's verdict;
// list/extract/verify through the container and the CLI; refusals with their codes; a truncation and
// mutation sweep; the fuzz corpus. No shared sample holds an AKEV (samples/oni: level0/level1 with
// M3GM/ONCC/TRAM/SNDD only), so nothing here is compared with OniSplit's own export.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "assay/container.h"
#include "assay/formats/oni/akev.h"
#include "golden.h"
#include "gltf_reader.h"
#include "oni_akev_fixture.h"
#include "testing/testing.h"
#include "formats/serialise.h"

namespace assay {
namespace oni_akev_test {
namespace {

namespace fs = std::filesystem;
using V3 = std::array<float, 3>;
using V2 = std::array<float, 2>;
using Tri = std::array<std::uint32_t, 3>;

void write_bytes(const fs::path& p, const ByteBuffer& b) {
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

// The GLB's JSON chunk (glTF 2.0 §4.4: 12-byte header, chunk length at 12, type at 16, data at 20).
nlohmann::json glb_json(const ByteBuffer& glb) {
  if (glb.size() < 20) return {};
  const std::uint32_t n = load<std::uint32_t>(glb.data() + 12, Endian::little);
  return nlohmann::json::parse(glb.begin() + 20, glb.begin() + 20 + n);
}

// The fixture's level exported, written to `out` and read back.
testing::ReadModel export_read(const testing::AkevFixture& x, const fs::path& out, ByteBuffer* glb_out = nullptr) {
  const auto f = testing::load_akev_level(testing::akev_level(x));
  EXPECT_TRUE(f->opened);
  auto glb = oni::export_akev_glb(*f, 0);
  EXPECT_TRUE(glb.ok()) << (glb.ok() ? "" : glb.error().str());
  if (!glb) return {};
  write_bytes(out, *glb);
  if (glb_out) *glb_out = *glb;
  return testing::read_gltf(out);
}

void expect_v3(const std::vector<V3>& got, const std::vector<V3>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t v = 0; v < got.size(); ++v)
    for (int k = 0; k < 3; ++k) EXPECT_FLOAT_EQ(got[v][k], want[v][k]) << v << "." << k;
}
void expect_v2(const std::vector<V2>& got, const std::vector<V2>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t v = 0; v < got.size(); ++v)
    for (int k = 0; k < 2; ++k) EXPECT_FLOAT_EQ(got[v][k], want[v][k]) << v << "." << k;
}

// The fixture's quads by hand (oni_akev_fixture.h): mesh 0 (TXMPstone) the floor quad's corners in
// stored order, triangles (0,1,2) (0,2,3), i.e. points (0,3,2) (0,2,1); mesh 1 (TXMPglass) the
// triangle (4,5,6); V flipped; colours as stored RGB; the ghost quad nowhere.
TEST(OniAkev, HandMadeQuadsPerTexture) {
  testing::TempDir t;
  ByteBuffer glb;
  const testing::ReadModel m = export_read({}, t / "hand.glb", &glb);
  ASSERT_EQ(m.error, "");
  ASSERT_EQ(m.meshes.size(), 2u);
  EXPECT_EQ(m.materials, 2u);
  EXPECT_EQ(m.images, 2u);
  const auto& stone = m.meshes[0];
  EXPECT_EQ(stone.node, "TXMPstone");
  expect_v3(stone.positions, {{0, 0, 0}, {0, 0, 2}, {2, 0, 2}, {2, 0, 0}});
  ASSERT_EQ(stone.texcoords.size(), 1u);
  expect_v2(stone.texcoords[0], {{0, 1}, {1, 1}, {1, 0}, {0, 0}});
  EXPECT_EQ(stone.triangles, (std::vector<Tri>{{0, 1, 2}, {0, 2, 3}}));
  ASSERT_EQ(stone.colors.size(), 4u);
  EXPECT_EQ(stone.colors[0], (std::array<std::uint8_t, 4>{255, 0, 0, 255}));
  EXPECT_EQ(stone.colors[1], (std::array<std::uint8_t, 4>{128, 128, 128, 255}));
  const auto& glass = m.meshes[1];
  EXPECT_EQ(glass.node, "TXMPglass");
  expect_v3(glass.positions, {{0, 1, 0}, {1, 1, 0}, {0, 2, 0}});
  expect_v2(glass.texcoords[0], {{0, 1}, {1, 1}, {0.5f, 0.75f}});
  EXPECT_EQ(glass.triangles, (std::vector<Tri>{{0, 1, 2}}));
  // The winding: the floor's first triangle faces +y, the wall's +z (cross products in the fixture).
  const auto normal = [](const testing::ReadMesh& r, const Tri& tr) {
    const auto& a = r.positions[tr[0]];
    const auto& b = r.positions[tr[1]];
    const auto& c = r.positions[tr[2]];
    const V3 u{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    return V3{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
  };
  EXPECT_GT(normal(stone, stone.triangles[0])[1], 0);
  EXPECT_GT(normal(stone, stone.triangles[1])[1], 0);
  EXPECT_GT(normal(glass, glass.triangles[0])[2], 0);
  // Materials: one primitive each, the glass blended (alpha 128 texels), the stone opaque.
  const nlohmann::json j = glb_json(glb);
  ASSERT_EQ(j["meshes"].size(), 2u);
  for (const auto& mesh : j["meshes"]) EXPECT_EQ(mesh["primitives"].size(), 1u);
  EXPECT_EQ(j["materials"][0]["name"], "TXMPstone");
  EXPECT_EQ(j["materials"][0].value("alphaMode", "OPAQUE"), "OPAQUE");
  EXPECT_EQ(j["materials"][1]["name"], "TXMPglass");
  EXPECT_EQ(j["materials"][1]["alphaMode"], "BLEND");
  EXPECT_TRUE(j["materials"][1]["pbrMetallicRoughness"].contains("baseColorTexture"));
}

// A quad without the triangle flag whose 4th corner repeats its 3rd draws one triangle (the second
// is degenerate); a two-sided quad (0x200) draws both windings.
TEST(OniAkev, HandMadeRepeatedCornerAndTwoSided) {
  testing::AkevFixture x;
  x.quads[1].flags = 0x200;  // (4,5,6,6) without 0x40: one triangle, twice
  testing::TempDir t;
  const testing::ReadModel m = export_read(x, t / "two.glb");
  ASSERT_EQ(m.meshes.size(), 2u);
  EXPECT_EQ(m.meshes[1].triangles, (std::vector<Tri>{{0, 1, 2}, {0, 2, 1}}));
}

TEST(OniAkev, Counts) {
  const testing::AkevLevel l = testing::akev_level();
  auto f = oni::InstanceFile::open(ByteView(l.dat), "hand.dat");
  ASSERT_TRUE(f.ok());
  auto c = oni::akev_counts(*f, 0);
  ASSERT_TRUE(c.ok()) << c.error().str();
  EXPECT_EQ(c->vertices, 7u);   // PNTA points
  EXPECT_EQ(c->triangles, 3u);  // 2 + 1, the ghost left out
  EXPECT_EQ(c->textures, 2u);
  auto g = oni::decode_akev(*f, 0);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->quad_count, 3u);
  EXPECT_EQ(g->quad(1).texture, 1u);
  EXPECT_TRUE(g->quad(1).triangle());
  EXPECT_TRUE(g->quad(2).ghost());
  EXPECT_EQ(g->texture_names, (std::vector<std::string>{"TXMPstone", "TXMPglass"}));
  Diagnostics d;
  oni::verify_akev(*f, 0, d);
  EXPECT_TRUE(d.items().empty());
}

TEST(OniAkev, ValidatorFindsNothing) {
  ASSAY_REQUIRE_VALIDATOR();
  testing::TempDir t;
  testing::AkevFixture two;
  two.quads[1].flags = 0x200;
  export_read({}, t / "hand.glb");
  export_read(two, t / "two.glb");
  testing::expect_valid_gltf({t / "hand.glb", t / "two.glb"});
}

Result<oni::AkevGeometry> decode_hand(const testing::AkevFixture& x, ByteBuffer& keep) {
  keep = testing::akev_level(x).dat;
  auto f = oni::InstanceFile::open(ByteView(keep), "hand.dat");
  if (!f) return f.error();
  return oni::decode_akev(*f, 0);
}

// Bad indices and counts are errors naming the instance and offset, and verify warnings.
TEST(OniAkev, HandMadeRefusals) {
  ByteBuffer keep;
  testing::AkevFixture x;
  x.quads[0].points[2] = 7;  // past the 7 points
  auto g = decode_hand(x, keep);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error().code, "oni.akev-quad");
  EXPECT_NE(g.error().message.find("quad 0 corner 2: point 7 outside the 7 points"), std::string::npos) << g.error().str();
  EXPECT_NE(g.error().structure.find("AGQG"), std::string::npos) << g.error().str();
  EXPECT_NE(g.error().offset, kNoOffset);
  auto f = oni::InstanceFile::open(ByteView(keep), "hand.dat");
  Diagnostics d;
  oni::verify_akev(*f, 0, d);
  ASSERT_EQ(d.items().size(), 1u);
  EXPECT_EQ(d.items()[0].where.code, "oni.akev-quad");
  EXPECT_NE(d.items()[0].where.message.find("1 of 3 quads"), std::string::npos) << d.items()[0].where.message;

  x = {};
  x.quads[1].uvs[3] = 9;  // a triangle's 4th corner is not read: still fine
  EXPECT_TRUE(decode_hand(x, keep).ok());
  x.quads[0].uvs[3] = 5;  // past the 5 texture coordinates
  g = decode_hand(x, keep);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error().code, "oni.akev-quad");

  x = {};
  x.quads[2].texture = 2;  // TXMA has 2 slots
  g = decode_hand(x, keep);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error().code, "oni.akev-texture");
  EXPECT_NE(g.error().message.find("quad 2: texture 2 outside the 2 TXMA textures"), std::string::npos) << g.error().str();
  f = oni::InstanceFile::open(ByteView(keep), "hand.dat");
  d = {};
  oni::verify_akev(*f, 0, d);
  ASSERT_EQ(d.items().size(), 1u);
  EXPECT_EQ(d.items()[0].where.code, "oni.akev-texture");

  x = {};
  x.render_count = 2;  // AGQR shorter than AGQG
  g = decode_hand(x, keep);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error().code, "oni.akev");
  EXPECT_NE(g.error().message.find("2 quad textures (AGQR) for 3 quads (AGQG)"), std::string::npos) << g.error().str();
}

// The writer-built level truncated at every length and with every byte set to 0xFF and 0x80:
// never a crash; what opens either decodes or gives an "oni.akev" error naming an instance.
TEST(OniAkev, HandMadeTruncationAndMutationSweep) {
  const ByteBuffer good = testing::akev_level().dat;
  std::size_t decoded = 0, refused = 0;
  const auto once = [&](const ByteBuffer& b) {
    auto f = oni::InstanceFile::open(ByteView(b), "hand.dat");
    if (!f || f->instance_count() == 0) return;
    Diagnostics d;
    oni::verify_akev(*f, 0, d);
    (void)oni::akev_counts(*f, 0);
    auto g = oni::decode_akev(*f, 0);
    if (g) {
      ++decoded;
      std::array<std::array<std::uint8_t, 3>, 4> tris;
      for (std::uint32_t k = 0; k < g->quad_count; ++k) {
        const oni::AkevQuad q = g->quad(k);
        ASSERT_LT(q.texture, g->textures.size());
        const std::size_t n = q.triangles(tris);
        for (std::size_t tr = 0; tr < n; ++tr)
          for (auto c : tris[tr]) {
            ASSERT_LT(q.points[c], g->point_count);
            ASSERT_LT(q.uvs[c], g->uv_count);
          }
      }
      return;
    }
    ++refused;
    EXPECT_TRUE(g.error().code.starts_with("oni.akev")) << g.error().str();
    EXPECT_FALSE(g.error().structure.empty()) << g.error().str();
  };
  testing::sweep_cuts_and_bytes(good, once);
  EXPECT_GT(decoded, good.size() / 4);  // padding and float bytes do not matter
  EXPECT_GT(refused, 20u);              // links, counts and indices are refused
}

// The whole export (walk, textures, GLB) over every mutated byte of the AKEV's own instances: a GLB
// or an error, never a crash.
TEST(OniAkev, MutatedLevelsExportOrRefuse) {
  const testing::AkevLevel good = testing::akev_level();
  std::size_t exported = 0;
  for (std::size_t k = 0; k < good.dat.size(); k += 3) {
    testing::AkevLevel l = good;
    l.dat[k] ^= 0xA5;
    const auto f = testing::load_akev_level(l);
    if (!f->opened || f->file.instance_count() == 0) continue;
    auto glb = oni::export_akev_glb(*f, 0);
    if (!glb) continue;
    ++exported;
    EXPECT_EQ((*glb)[0], 'g');
  }
  EXPECT_GT(exported, 0u);
}

// list, extract --models and verify through the container and the CLI.
TEST(OniAkev, ListExtractVerify) {
  testing::TempDir t;
  const testing::AkevLevel l = testing::akev_level();
  const fs::path dir = t / "GameDataFolder";
  fs::create_directories(dir);
  write_bytes(dir / "level0_Final.dat", l.dat);
  write_bytes(dir / "level0_Final.raw", l.raw);
  auto c = open_path((dir / "level0_Final.dat").string());
  ASSERT_TRUE(c.ok()) << c.error().str();
  const Entry* akev = nullptr;
  for (const Entry& e : (*c)->entries())
    if (e.name == "AKEVhand") akev = &e;
  ASSERT_NE(akev, nullptr);
  EXPECT_EQ(akev->kind, assay::EntryKind::model);
  EXPECT_EQ(details_json(**c, *akev).at("vertices"), 7);
  EXPECT_EQ(details_json(**c, *akev).at("triangles"), 3);
  EXPECT_EQ(details_json(**c, *akev).at("textures"), 2);
  auto glb = (*c)->model(*akev);
  ASSERT_TRUE(glb.ok()) << glb.error().str();
  const fs::path out = t / "out";
  const auto r = testing::run_cli("extract " + testing::quote_path(dir / "level0_Final.dat") + " --models -o " + testing::quote_path(out));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::read_file(out / "AKEVhand.glb"), *glb);
  const testing::ReadModel m = testing::read_gltf(out / "AKEVhand.glb");
  EXPECT_EQ(m.error, "");
  EXPECT_EQ(m.meshes.size(), 2u);
  const auto v = testing::run_cli("verify " + testing::quote_path(dir / "level0_Final.dat"));
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  EXPECT_NE(v.out.find("0 warnings"), std::string::npos) << v.out;
  // A bad texture slot: verify warns with the code, exit 0 (warnings alone).
  testing::AkevFixture x;
  x.quads[2].texture = 5;
  write_bytes(dir / "level0_Final.dat", testing::akev_level(x).dat);
  const auto w = testing::run_cli("verify --json " + testing::quote_path(dir / "level0_Final.dat"));
  EXPECT_NE(w.out.find("oni.akev-texture"), std::string::npos) << w.out;
}

TEST(OniAkev, FuzzCorpusHoldsTheFixtures) {
  auto input = [](const testing::AkevLevel& l) {
    ByteBuffer b;
    const auto n = static_cast<std::uint32_t>(l.dat.size());
    for (int k = 0; k < 4; ++k) b.push_back(static_cast<std::uint8_t>(n >> (8 * k)));
    b.insert(b.end(), l.dat.begin(), l.dat.end());
    b.insert(b.end(), l.raw.begin(), l.raw.end());
    return b;
  };
  testing::AkevFixture two_sided, bad;
  two_sided.quads[1].flags = 0x200;
  bad.quads[0].points[1] = 99;
  const std::vector<std::pair<std::string, ByteBuffer>> seeds = {{"hand.bin", input(testing::akev_level())},
                                                                  {"two_sided.bin", input(testing::akev_level(two_sided))},
                                                                  {"bad_index.bin", input(testing::akev_level(bad))}};
  testing::check_fuzz_seeds("ASSAY_WRITE_ONI_AKEV_CORPUS", "oni_akev", seeds);
}

}  // namespace
}  // namespace oni_akev_test
}  // namespace assay
