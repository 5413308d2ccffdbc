// Native geometry (PS2 VIF packets, Xbox vertex buffers) exported to glTF and read back with
// tinygltf, against librw's uninstance of the same files (../shared/goldens/renderware, whose
// README explains the comparison): librw merges corners with equal attributes, so vertex
// counts are its merged counts; triangles compare as position triples (winding kept); each
// exported vertex has a golden vertex at the same position with the same texture coordinates,
// normal (normalised, within the int8 quantisation) and skin weights.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "assay/container.h"
#include "golden.h"

namespace assay {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

float num(const json& v) { return testing::golden_float(v); }

using Pos = std::array<float, 3>;
using TriCorners = std::array<float, 9>;

std::vector<Pos> golden_positions(const json& g) {
  std::vector<Pos> out;
  for (const json& p : g["morph_targets"][0]["positions"]) out.push_back({num(p[0]), num(p[1]), num(p[2])});
  return out;
}

void compare_triangles(const json& g, const testing::ReadMesh& m, const std::string& where) {
  const std::vector<Pos> gp = golden_positions(g);
  std::vector<TriCorners> want, got;
  for (const json& t : g["triangles"]) {
    const std::uint32_t a = t[0], b = t[1], c = t[2];
    if (a == b || b == c || a == c) continue;
    want.push_back({gp[a][0], gp[a][1], gp[a][2], gp[b][0], gp[b][1], gp[b][2], gp[c][0], gp[c][1], gp[c][2]});
  }
  for (const auto& t : m.triangles) {
    const Pos &a = m.positions[t[0]], &b = m.positions[t[1]], &c = m.positions[t[2]];
    got.push_back({a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]});
  }
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  ASSERT_EQ(got.size(), want.size()) << where;
  for (std::size_t i = 0; i < got.size(); ++i)
    for (int k = 0; k < 9; ++k) ASSERT_NEAR(got[i][k], want[i][k], 1e-6) << where << " triangle " << i;
}

// Normalised golden normal, or nothing when it is zero.
std::optional<Pos> unit(const json& n) {
  const double x = num(n[0]), y = num(n[1]), z = num(n[2]), l = std::sqrt(x * x + y * y + z * z);
  if (l < 1e-9) return std::nullopt;
  return Pos{static_cast<float>(x / l), static_cast<float>(y / l), static_cast<float>(z / l)};
}

// The golden's weights of vertex v, normalised, by joint.
std::map<std::uint32_t, double> golden_weights(const json& s, std::size_t v) {
  std::map<std::uint32_t, double> w;
  double sum = 0;
  for (int k = 0; k < 4; ++k) {
    const double x = num(s["weights"][v][k]);
    if (x > 0) w[s["indices"][v][k].get<std::uint32_t>()] += x, sum += x;
  }
  for (auto& [j, x] : w) x /= sum;
  return w;
}

bool same_vertex(const json& g, std::size_t gv, const testing::ReadMesh& m, std::size_t v, double weight_tol) {
  const json& mt = g["morph_targets"][0];
  for (std::size_t s = 0; s < m.texcoords.size(); ++s)
    for (int k = 0; k < 2; ++k)
      if (std::abs(m.texcoords[s][v][k] - num(g["texcoords"][s][gv][k])) > 1e-6) return false;
  if (!m.normals.empty())
    if (auto n = unit(mt["normals"][gv]))
      for (int k = 0; k < 3; ++k)
        if (std::abs(m.normals[v][k] - (*n)[k]) > 1e-5) return false;
  if (!g["skin"].is_object()) return true;
  const auto want = golden_weights(g["skin"], gv);
  std::map<std::uint32_t, double> got;
  for (int k = 0; k < 4; ++k)
    if (m.weights[v][k] > 0) got[m.joints[v][k]] += m.weights[v][k];
  if (got.size() != want.size()) return false;
  for (const auto& [j, w] : want)
    if (!got.count(j) || std::abs(got[j] - w) > weight_tol) return false;
  return true;
}

void compare_vertices(const json& g, const testing::ReadMesh& m, const std::string& where, double weight_tol) {
  const std::vector<Pos> gp = golden_positions(g);
  std::multimap<Pos, std::size_t> at;
  for (std::size_t i = 0; i < gp.size(); ++i) at.emplace(gp[i], i);
  ASSERT_EQ(m.texcoords.size(), g["texcoords"].size()) << where;
  if (g["skin"].is_object()) {
    ASSERT_EQ(m.weights.size(), m.positions.size()) << where;
  }
  for (std::size_t v = 0; v < m.positions.size(); ++v) {
    auto [lo, hi] = at.equal_range(m.positions[v]);
    ASSERT_NE(lo, hi) << where << " vertex " << v << " is at no golden position";
    bool found = false;
    for (auto it = lo; it != hi && !found; ++it) found = same_vertex(g, it->second, m, v, weight_tol);
    ASSERT_TRUE(found) << where << " vertex " << v << ": no golden vertex there has its attributes";
  }
}

void check_native(const std::string& dff_rel, bool is_golden_file, const std::string& golden_rel, std::size_t atomics,
                  std::uint64_t vertices, std::uint64_t triangles, double weight_tol = 1e-6) {
  const fs::path dff = is_golden_file ? testing::shared_golden(dff_rel) : testing::shared_sample(dff_rel);
  if (dff.empty()) GTEST_SKIP() << dff_rel << " not present";
  ASSAY_REQUIRE_GOLDEN(gold, golden_rel);
  const json j = testing::load_golden(gold);
  ASSERT_EQ(j["counts"]["atomics"], atomics);  // the README's counts
  ASSERT_EQ(j["counts"]["native_atomics"], atomics);
  ASSERT_EQ(j["counts"]["vertices"], vertices);
  ASSERT_EQ(j["counts"]["triangles"], triangles);
  testing::TempDir t;
  const auto clumps = testing::export_models(dff, t);
  ASSERT_EQ(clumps.size(), 1u);
  const json& jc = j["clumps"][0];
  ASSERT_EQ(clumps[0].meshes.size(), atomics) << "every native atomic is exported";
  std::uint64_t seen_v = 0, seen_t = 0;
  for (std::size_t a = 0; a < atomics; ++a) {
    const json& g = jc["atomics"][a]["geometry"];
    const testing::ReadMesh& m = clumps[0].meshes[a];
    const std::string where = dff_rel + " atomic " + std::to_string(a);
    EXPECT_EQ(m.positions.size(), g["num_vertices"].get<std::size_t>()) << where << ": librw's merged count";
    compare_triangles(g, m, where);
    compare_vertices(g, m, where, weight_tol);
    if (g["skin"].is_object()) {
      ASSERT_GE(m.skin, 0) << where;
      EXPECT_EQ(clumps[0].inverse_bind.at(static_cast<std::size_t>(m.skin)).size(), g["skin"]["num_bones"].get<std::size_t>());
    }
    seen_v += m.positions.size(), seen_t += m.triangles.size();
  }
  EXPECT_EQ(seen_v, vertices);
  EXPECT_EQ(seen_t, triangles);
}

TEST(RenderWareNative, Ps2DefaultPipelineTorus) {
  check_native("renderware/native/industrialpark_Torus.ps2.dff", true,
               "renderware/json/native/industrialpark_Torus.ps2.dff.json", 1, 125, 192);
}

TEST(RenderWareNative, Ps2SkinPipelineWuzimu) {
  check_native("renderware/native/wuzimu.ps2.dff", true, "renderware/json/native/wuzimu.ps2.dff.json", 1, 990, 1218);
}

TEST(RenderWareNative, Ps2SaPedPipelineWuzimu) {
  check_native("renderware/native/wuzimu.ps2-saped.dff", true, "renderware/json/native/wuzimu.ps2-saped.dff.json", 1,
               945, 1218);
}

TEST(RenderWareNative, Ps2SaCarPipelineRccamWithAdcStrips) {
  check_native("renderware/more2/gtasa_ps2_rccam_native_geometry.dff", false,
               "renderware/json/real/gtasa_ps2_rccam_native_geometry.dff.json", 2, 102, 89);
}

}  // namespace
}  // namespace assay

namespace assay {
namespace {

TEST(RenderWareNative, XboxSkinnedWuzimu) {
  check_native("renderware/native/wuzimu.xbox.dff", true, "renderware/json/native/wuzimu.xbox.dff.json", 1, 990, 1218);
}

}  // namespace
}  // namespace assay

namespace assay {
namespace {

// The Khronos validator on the exports of the native goldens: no error, no warning.
TEST(RenderWareNative, ExportsPassTheValidator) {
  ASSAY_REQUIRE_VALIDATOR();
  const std::vector<std::string> files = {"wuzimu.ps2.dff", "wuzimu.ps2-saped.dff", "wuzimu.xbox.dff",
                                          "industrialpark_Torus.ps2.dff"};
  testing::TempDir t;
  std::vector<fs::path> written;
  for (const std::string& f : files) {
    const fs::path dff = testing::shared_golden("renderware/native/" + f);
    if (dff.empty()) GTEST_SKIP() << f << " not present";
    const fs::path out = t / f;
    auto r = testing::run_cli("extract " + testing::quote_path(dff) + " -o " + testing::quote_path(out));
    ASSERT_EQ(r.exit_code, 0) << f << "\n" << r.err;
    for (const auto& e : fs::directory_iterator(out))
      if (e.path().extension() == ".glb") written.push_back(e.path());
  }
  ASSERT_EQ(written.size(), files.size());
  testing::expect_valid_gltf(written);
}

}  // namespace
}  // namespace assay

namespace assay {
namespace {

// The rccam clump's Rockstar collision plugin (0x0253F2FA), found here by scanning the file's
// bytes for its section header: its body size goes into the root node's extras.
TEST(RenderWareExtras, RockstarCollisionSizeOnTheRootNode) {
  ASSAY_REQUIRE_SAMPLE(dff, "renderware/more2/gtasa_ps2_rccam_native_geometry.dff");
  const ByteBuffer bytes = testing::read_file(dff);
  std::uint32_t want = 0;
  for (std::size_t i = 0; i + 8 <= bytes.size(); i += 4)
    if (bytes[i] == 0xFA && bytes[i + 1] == 0xF2 && bytes[i + 2] == 0x53 && bytes[i + 3] == 0x02)
      want = bytes[i + 4] | bytes[i + 5] << 8 | bytes[i + 6] << 16 | static_cast<std::uint32_t>(bytes[i + 7]) << 24;
  ASSERT_EQ(want, 160u);  // what `rw tree` and a hex dump show
  auto c = open_path(dff.string());
  ASSERT_TRUE(c.ok());
  const Entry* e = nullptr;
  for (const Entry& x : (*c)->entries())
    if (x.kind == assay::EntryKind::model) e = &x;
  ASSERT_NE(e, nullptr);
  auto glb = (*c)->model(*e);
  ASSERT_TRUE(glb.ok());
  std::uint32_t len;
  std::memcpy(&len, glb->data() + 12, 4);
  const auto doc = nlohmann::json::parse(std::string(glb->begin() + 20, glb->begin() + 20 + len));
  EXPECT_EQ(doc["nodes"][0]["extras"]["rockstar_collision_bytes"], 160);
}

}  // namespace
}  // namespace assay
