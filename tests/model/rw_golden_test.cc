// RenderWare clumps to glTF, checked against librw's decode of the same files
// (../shared/goldens/renderware, its README says how it was made) and read back with tinygltf,
// an independent reader: counts, positions, normals (normalised), texture coordinates, prelit
// colours, triangles as position triples (repeated-index ones dropped), skin joints and weights.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <nlohmann/json.hpp>

#include "assay/container.h"
#include "golden.h"
#include "formats/serialise.h"

namespace assay {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using testing::load_golden;
float value(const json& v) { return testing::golden_float(v); }

using Triple = std::array<float, 9>;

Triple triple(const std::vector<std::array<float, 3>>& pos, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  return {pos[a][0], pos[a][1], pos[a][2], pos[b][0], pos[b][1], pos[b][2], pos[c][0], pos[c][1], pos[c][2]};
}

void compare_geometry(const json& g, const testing::ReadMesh& m, const std::string& where) {
  const std::size_t n = g["num_vertices"];
  const json& mt = g["morph_targets"][0];
  ASSERT_EQ(m.positions.size(), n) << where;
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) ASSERT_EQ(m.positions[i][k], value(mt["positions"][i][k])) << where << " vertex " << i;
  if (mt["normals"].is_array() && !mt["normals"].empty()) {
    ASSERT_EQ(m.normals.size(), n) << where;
    for (std::size_t i = 0; i < n; ++i) {
      double v[3], len = 0;
      for (int k = 0; k < 3; ++k) {
        v[k] = value(mt["normals"][i][k]);
        len += v[k] * v[k];
      }
      len = std::sqrt(len);
      if (len < 1e-12) continue;
      for (int k = 0; k < 3; ++k) ASSERT_NEAR(m.normals[i][k], v[k] / len, 1e-5) << where << " normal " << i;
    }
  }
  ASSERT_EQ(m.texcoords.size(), g["texcoords"].size()) << where;
  for (std::size_t s = 0; s < m.texcoords.size(); ++s)
    for (std::size_t i = 0; i < n; ++i)
      for (int k = 0; k < 2; ++k) ASSERT_EQ(m.texcoords[s][i][k], value(g["texcoords"][s][i][k])) << where << " uv " << i;
  if (g["prelit"].is_array()) {
    ASSERT_EQ(m.colors.size(), n) << where;
    for (std::size_t i = 0; i < n; ++i)
      for (int k = 0; k < 4; ++k) ASSERT_EQ(m.colors[i][k], g["prelit"][i][k].get<int>()) << where << " prelit " << i;
  }
  std::vector<Triple> want, got;
  std::vector<std::array<float, 3>> gp(n);
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) gp[i][k] = value(mt["positions"][i][k]);
  for (const json& t : g["triangles"]) {
    const std::uint32_t a = t[0], b = t[1], c = t[2];
    if (a != b && b != c && a != c) want.push_back(triple(gp, a, b, c));
  }
  for (const auto& t : m.triangles) got.push_back(triple(m.positions, t[0], t[1], t[2]));
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  ASSERT_EQ(got.size(), want.size()) << where;
  EXPECT_TRUE(got == want) << where << ": the triangles differ";
}

void compare_skin(const json& s, const testing::ReadMesh& m, const testing::ReadModel& model, const std::string& where) {
  ASSERT_GE(m.skin, 0) << where;
  ASSERT_EQ(m.weights.size(), m.positions.size()) << where;
  for (std::size_t v = 0; v < m.positions.size(); ++v) {
    std::map<std::uint32_t, double> want, got;
    double sum = 0;
    for (int k = 0; k < 4; ++k) {
      const double w = value(s["weights"][v][k]);
      if (w > 0) want[s["indices"][v][k].get<std::uint32_t>()] += w, sum += w;
    }
    for (auto& [j, w] : want) w /= sum;
    double total = 0;
    for (int k = 0; k < 4; ++k)
      if (m.weights[v][k] > 0) got[m.joints[v][k]] += m.weights[v][k], total += m.weights[v][k];
    ASSERT_NEAR(total, 1.0, 1e-6) << where << " vertex " << v;
    ASSERT_EQ(got.size(), want.size()) << where << " vertex " << v;
    for (const auto& [j, w] : want) ASSERT_NEAR(got[j], w, 1e-6) << where << " vertex " << v << " joint " << j;
  }
  const auto& ibm = model.inverse_bind.at(static_cast<std::size_t>(m.skin));
  ASSERT_EQ(ibm.size(), s["num_bones"].get<std::size_t>()) << where;
  for (std::size_t b = 0; b < ibm.size(); ++b)
    for (int k = 0; k < 16; ++k) {
      const float want = k == 15 ? 1.0f : (k == 3 || k == 7 || k == 11) ? 0.0f : value(s["inverse_bind_matrices"][b][k]);
      ASSERT_EQ(ibm[b][k], want) << where << " bone " << b << " element " << k;
    }
}

// At rest (each joint at its node's world matrix) the skinned mesh stands where the stored
// positions are, turned from RenderWare's Z-up to glTF's Y-up: (x, y, z) -> (x, z, -y).
void check_rest_pose(const json& g, const testing::ReadMesh& m, const testing::ReadModel& model, const std::string& where) {
  const auto& ibm = model.inverse_bind.at(static_cast<std::size_t>(m.skin));
  const auto& jw = model.joint_world.at(static_cast<std::size_t>(m.skin));
  const json& pos = g["morph_targets"][0]["positions"];
  std::size_t off = 0;
  for (std::size_t v = 0; v < m.positions.size(); ++v) {
    std::array<double, 3> got{0, 0, 0};
    for (int k = 0; k < 4; ++k) {
      const double w = m.weights[v][k];
      if (w == 0) continue;
      const auto& a = jw.at(m.joints[v][k]);
      const auto& b = ibm.at(m.joints[v][k]);
      std::array<double, 4> p{m.positions[v][0], m.positions[v][1], m.positions[v][2], 1}, q{}, r{};
      for (int row = 0; row < 4; ++row)
        for (int c = 0; c < 4; ++c) q[row] += b[c * 4 + row] * p[c];
      for (int row = 0; row < 3; ++row)
        for (int c = 0; c < 4; ++c) r[row] += a[c * 4 + row] * q[c];
      for (int row = 0; row < 3; ++row) got[row] += w * r[row];
    }
    const double x = value(pos[v][0]), y = value(pos[v][1]), z = value(pos[v][2]);
    const std::array<double, 3> want{x, z, -y};
    for (int k = 0; k < 3; ++k)
      if (std::fabs(got[k] - want[k]) > 1e-3 * std::max(1.0, std::fabs(want[k]))) ++off;
  }
  EXPECT_EQ(off, 0u) << where << ": skinned positions at rest away from the stored ones";
}

// Every clump, atomic and geometry of `golden` against the export of `sample`.
void check_against_golden(const std::string& sample, const std::string& golden, std::size_t clumps,
                          std::size_t atomics, std::uint64_t triangles) {
  ASSAY_REQUIRE_SAMPLE(dff, sample);
  ASSAY_REQUIRE_GOLDEN(gold, golden);
  const json j = load_golden(gold);
  // the README's counts, so the golden itself is the file it says it is
  ASSERT_EQ(j["counts"]["clumps"], clumps);
  ASSERT_EQ(j["counts"]["atomics"], atomics);
  ASSERT_EQ(j["counts"]["triangles"], triangles);
  testing::TempDir t;
  const std::vector<testing::ReadModel> exported = testing::export_models(dff, t);
  ASSERT_EQ(exported.size(), clumps);
  std::size_t seen = 0;
  for (std::size_t c = 0; c < clumps; ++c) {
    const json& jc = j["clumps"][c];
    ASSERT_EQ(exported[c].meshes.size(), jc["atomics"].size()) << "clump " << c;
    for (std::size_t a = 0; a < jc["atomics"].size(); ++a, ++seen) {
      const json& g = jc["atomics"][a]["geometry"];
      const std::string where = "clump " + std::to_string(c) + " atomic " + std::to_string(a);
      const testing::ReadMesh& m = exported[c].meshes[a];
      compare_geometry(g, m, where);
      if (g["skin"].is_object()) {
        compare_skin(g["skin"], m, exported[c], where);
        check_rest_pose(g, m, exported[c], where);
      }
      EXPECT_EQ(m.morph_targets + 1, g["num_morph_targets"].get<std::size_t>()) << where;
    }
  }
  EXPECT_EQ(seen, atomics);
}

TEST(RenderWareGltfGolden, WuzimuSkinnedPed) {
  check_against_golden("renderware/rw-parser/wuzimu.dff", "renderware/json/real/wuzimu.dff.json", 1, 1, 1218);
}

TEST(RenderWareGltfGolden, TorusRw3403WithHAnim) {
  check_against_golden("renderware/more2/industrialpark_Torus_rw3403_hanim.dff",
                       "renderware/json/real/industrialpark_Torus_rw3403_hanim.dff.json", 1, 1, 192);
}

TEST(RenderWareGltfGolden, ManhuntModels79Clumps) {
  check_against_golden("renderware/more/mh1_ps2_MODELS.DFF", "renderware/json/real/mh1_ps2_MODELS.DFF.json.gz", 79,
                       84, 29675);
}

}  // namespace
}  // namespace assay

namespace assay {
namespace {

// list --json's typed atomic details against the golden's counts for the same geometry.
TEST(RenderWareGltfGolden, AtomicDetailsMatchTheGolden) {
  ASSAY_REQUIRE_SAMPLE(dff, "renderware/more/mh1_ps2_MODELS.DFF");
  ASSAY_REQUIRE_GOLDEN(gold, "renderware/json/real/mh1_ps2_MODELS.DFF.json.gz");
  const json j = load_golden(gold);
  auto c = open_path(dff.string());
  ASSERT_TRUE(c.ok());
  const Json list = list_json(**c);
  std::vector<json> atomics;
  for (const json& jc : j["clumps"])
    for (const json& a : jc["atomics"]) atomics.push_back(a["geometry"]);
  std::size_t k = 0, skinned = 0;
  for (const auto& e : list["entries"]) {
    if (e["kind"] != "atomic") continue;
    ASSERT_LT(k, atomics.size());
    const json& g = atomics[k++];
    EXPECT_EQ(e["vertices"].get<std::uint64_t>(), g["num_vertices"].get<std::uint64_t>()) << k;
    EXPECT_EQ(e["morph_targets"].get<std::uint64_t>(), g["num_morph_targets"].get<std::uint64_t>()) << k;
    EXPECT_EQ(e["texcoord_sets"].get<std::uint64_t>(), g["num_texcoord_sets"].get<std::uint64_t>()) << k;
    EXPECT_EQ(e["skinned"].get<bool>(), g["skin"].is_object()) << k;
    skinned += e["skinned"].get<bool>();
  }
  EXPECT_EQ(k, 84u);
  EXPECT_EQ(skinned, 19u);  // the golden README: 19 skinned atomics
}

}  // namespace
}  // namespace assay

namespace assay {
namespace {

// MatFX in the exported materials' extras, against librw's decode of the same materials: every
// exported material of a clump has a golden material of that clump with its texture and the same
// effects (environment: texture, coefficient, frame-buffer alpha; dual pass: texture, blends).
std::string text(const json& v) { return v.is_string() ? v.get<std::string>() : std::string(); }

std::string matfx_key(const json& texture, const json& fx) {
  std::string k = text(texture);
  for (const json& e : fx) {
    const int type = e["type"].get<int>();
    if (type == 2)
      k += "|env:" + text(e["texture"]) + ":" + std::to_string(e["coefficient"].get<float>()) + ":" +
           std::to_string(e["fb_alpha"].get<int>());
    if (type == 4)
      k += "|dual:" + text(e["texture"]) + ":" + std::to_string(e["src_blend"].get<int>()) + ":" +
           std::to_string(e["dst_blend"].get<int>());
  }
  return k;
}

std::string exported_key(const json& x) {
  std::string k = x.value("texture", "");
  if (x.contains("matfx_env_coefficient"))
    k += "|env:" + x.value("matfx_env_texture", "") + ":" + std::to_string(x["matfx_env_coefficient"].get<float>()) +
         ":" + std::to_string(x["matfx_env_fb_alpha"].get<int>());
  if (x.contains("matfx_dual_blend"))
    k += "|dual:" + x.value("matfx_dual_texture", "") + ":" + std::to_string(x["matfx_dual_blend"][0].get<int>()) +
         ":" + std::to_string(x["matfx_dual_blend"][1].get<int>());
  return k;
}

TEST(RenderWareGltfGolden, ManhuntMatFxInExtras) {
  ASSAY_REQUIRE_SAMPLE(dff, "renderware/more/mh1_ps2_MODELS.DFF");
  ASSAY_REQUIRE_GOLDEN(gold, "renderware/json/real/mh1_ps2_MODELS.DFF.json.gz");
  const json j = load_golden(gold);
  auto c = open_path(dff.string());
  ASSERT_TRUE(c.ok());
  std::size_t clump = 0, with_fx = 0;
  for (const Entry& e : (*c)->entries()) {
    if (e.kind != assay::EntryKind::model) continue;
    std::set<std::string> want;
    for (const json& a : j["clumps"][clump]["atomics"])
      for (const json& m : a["geometry"]["materials"])
        want.insert(m["matfx"].is_array() ? matfx_key(m["texture"], m["matfx"]) : text(m["texture"]));
    auto glb = (*c)->model(e);
    ASSERT_TRUE(glb.ok());
    std::uint32_t len;
    std::memcpy(&len, glb->data() + 12, 4);
    const json doc = json::parse(std::string(glb->begin() + 20, glb->begin() + 20 + len));
    for (const json& m : doc.value("materials", json::array())) {
      const json x = m.value("extras", json::object());
      if (!x.contains("texture")) continue;
      with_fx += x.contains("matfx_effects");
      EXPECT_TRUE(want.count(exported_key(x))) << "clump " << clump << ": " << exported_key(x);
    }
    ++clump;
  }
  EXPECT_EQ(clump, 79u);
  EXPECT_GT(with_fx, 0u);
}

}  // namespace
}  // namespace assay
