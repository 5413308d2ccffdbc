// OBANs whose geometry comes from the class that names them (a DOOR's OFGA, a TRIG's TRGE emitter)
// and a "local" OBAN (flag 0x10) placed by its OBOA object's origin matrix: the hand-made level of
// oni_oban_class_fixture.h exported, read back with tinygltf and the GLB's own JSON chunk, the
// vertices' world positions at each key computed by hand; the origin matrix checked against the
// quaternion the wiki's OBD:OBOA example stores beside it; the Khronos validator's verdict; `list
// --json` and `extract --models` through the CLI; the fuzz corpus.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "assay/formats/oni/oban.h"
#include "golden.h"
#include "gltf_reader.h"
#include "oni_oban_class_fixture.h"
#include "testing/testing.h"

namespace assay {
namespace oni_oban_class_model_test {
namespace {

namespace fs = std::filesystem;
using D3 = std::array<double, 3>;
using D4 = std::array<double, 4>;

void write_bytes(const fs::path& p, const ByteBuffer& b) {
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

nlohmann::json glb_json(const ByteBuffer& glb) {  // glTF 2.0 §4.4: the JSON chunk at 20
  if (glb.size() < 20) return {};
  const std::uint32_t n = load<std::uint32_t>(glb.data() + 12, Endian::little);
  return nlohmann::json::parse(glb.begin() + 20, glb.begin() + 20 + n);
}

struct Exported {
  testing::ReadModel model;
  nlohmann::json json;
};

Exported export_read(const ByteBuffer& level, std::uint32_t oban, const fs::path& out) {
  auto keep = std::make_shared<ByteBuffer>(level);
  const auto f = oni::load_file("level1_Final.dat", ByteView(*keep), keep, oni::LayoutSource{}, oni::LoadOptions{true, nullptr});
  EXPECT_TRUE(f->opened);
  auto glb = oni::export_oban_glb(*f, oban);
  EXPECT_TRUE(glb.ok()) << (glb.ok() ? "" : glb.error().str());
  if (!glb) return {};
  write_bytes(out, *glb);
  return {testing::read_gltf(out), glb_json(*glb)};
}

// A node's T R S applied to p (glTF: scale, then rotation, then translation).
D3 rotate(const D4& q, const D3& v) {  // q = x, y, z, w (Hamilton): v + 2w(u x v) + 2u x (u x v)
  const D3 u{q[0], q[1], q[2]};
  const auto cross = [](const D3& a, const D3& b) { return D3{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]}; };
  const D3 c = cross(u, v), cc = cross(u, c);
  return {v[0] + 2 * q[3] * c[0] + 2 * cc[0], v[1] + 2 * q[3] * c[1] + 2 * cc[1], v[2] + 2 * q[3] * c[2] + 2 * cc[2]};
}
D3 apply(const D3& t, const D4& r, const D3& s, const D3& p) {
  const D3 v = rotate(r, {p[0] * s[0], p[1] * s[1], p[2] * s[2]});
  return {v[0] + t[0], v[1] + t[1], v[2] + t[2]};
}
D3 d3(const nlohmann::json& node, const char* key, D3 def) {
  if (!node.contains(key)) return def;
  return {node[key][0].get<double>(), node[key][1].get<double>(), node[key][2].get<double>()};
}
D4 d4(const nlohmann::json& node, const char* key) {
  if (!node.contains(key)) return {0, 0, 0, 1};
  return {node[key][0].get<double>(), node[key][1].get<double>(), node[key][2].get<double>(), node[key][3].get<double>()};
}
// Point p of node `n`'s mesh in world space, with the animated node `a` at translation t, rotation r.
D3 world(const nlohmann::json& j, int n, int a, const D3& t, const D4& r, D3 p) {
  for (int k = n; k >= 0;) {
    const auto& node = j["nodes"][k];
    p = k == a ? apply(t, r, d3(node, "scale", {1, 1, 1}), p) : apply(d3(node, "translation", {0, 0, 0}), d4(node, "rotation"), d3(node, "scale", {1, 1, 1}), p);
    int parent = -1;
    for (int q = 0; q < static_cast<int>(j["nodes"].size()); ++q)
      for (const auto& c : j["nodes"][q].value("children", nlohmann::json::array()))
        if (c == k) parent = q;
    k = parent;
  }
  return p;
}
void expect_d3(const D3& got, const D3& want, double tol, const std::string& what) {
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(got[k], want[k], tol) << what << "." << k;
}
const testing::ReadChannel& channel(const testing::ReadAnimation& a, const std::string& path) {
  for (const auto& c : a.channels)
    if (c.path == path) return c;
  ADD_FAILURE() << "no " << path << " channel";
  return a.channels.at(0);
}
D4 as_d4(const std::array<float, 4>& v) { return {v[0], v[1], v[2], v[3]}; }

// The door: DOORwh's OFGA triangle under the animated node "DOORwh", under a node turning Z-up to
// Y-up. At key 1 the triangle is scaled by 2 (the fixed matrix), turned +90 degrees about z
// (stored (0, 0, 0.7071, -0.7071) -> glTF (0, 0, 0.7071, 0.7071)), moved by (1, 2, 3), then
// (x, y, z) -> (x, z, -y): p1 (1,0,0) -> (2,0,0) -> (0,2,0) -> (1,4,3) -> (1,3,-4); p2 (0,1,0) ->
// (0,2,0) -> (-2,0,0) -> (-1,2,3) -> (-1,3,-2). At key 0: p1 -> (2,0,0); p2 -> (0,2,0) -> (0,0,-2).
TEST(OniObanClassModel, DoorClassGeometryUnderItsAnimation) {
  testing::TempDir t;
  const Exported e = export_read(testing::oban_class_level(), 0, t / "door.glb");
  const testing::ReadModel& m = e.model;
  ASSERT_EQ(m.error, "");
  ASSERT_EQ(m.node_list.size(), 3u);
  EXPECT_EQ(m.node_list[0].name, "OBANdoor Z-up");
  EXPECT_EQ(m.node_list[1].name, "DOORwh");
  EXPECT_EQ(m.node_list[1].parent, 0);
  EXPECT_EQ(m.node_list[2].name, "M3GMtri");
  EXPECT_EQ(m.node_list[2].parent, 1);
  ASSERT_EQ(m.meshes.size(), 1u);
  EXPECT_EQ(m.meshes[0].positions, (std::vector<std::array<float, 3>>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}));
  EXPECT_EQ(e.json["extras"]["geometry_from"], "DOOR DOORwh (instance 2)");
  EXPECT_EQ(e.json["extras"]["door_classes"], 2);
  EXPECT_EQ(e.json["extras"]["door_class_entries"], 1);
  EXPECT_EQ(e.json["extras"]["oboa_objects"], 0);
  EXPECT_EQ(e.json["nodes"][1]["extras"]["oni_class"], "DOOR");
  EXPECT_EQ(e.json["nodes"][2]["scale"], nlohmann::json::array({2.0, 2.0, 2.0}));

  ASSERT_EQ(m.animations.size(), 1u);
  const auto& a = m.animations[0];
  EXPECT_EQ(a.name, "OBANdoor");
  ASSERT_EQ(a.channels.size(), 2u);
  for (const auto& c : a.channels) {
    EXPECT_EQ(c.node, 1);
    EXPECT_EQ(c.times, (std::vector<float>{0.0f, 0.5f}));  // frames 0 and 30 at 60 per second
  }
  const auto& tr = channel(a, "translation");
  const auto& rot = channel(a, "rotation");
  ASSERT_EQ(rot.values.size(), 2u);
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(rot.values[1][k], (std::array<float, 4>{0, 0, 0.70710678f, 0.70710678f})[k], 1e-6);
  const D3 t1{tr.values[1][0], tr.values[1][1], tr.values[1][2]};
  expect_d3(t1, {1, 2, 3}, 0, "t1");
  expect_d3(world(e.json, 2, 1, t1, as_d4(rot.values[1]), {1, 0, 0}), {1, 3, -4}, 1e-5, "p1 at key 1");
  expect_d3(world(e.json, 2, 1, t1, as_d4(rot.values[1]), {0, 1, 0}), {-1, 3, -2}, 1e-5, "p2 at key 1");
  const D3 t0{tr.values[0][0], tr.values[0][1], tr.values[0][2]};
  expect_d3(world(e.json, 2, 1, t0, as_d4(rot.values[0]), {1, 0, 0}), {2, 0, 0}, 1e-5, "p1 at key 0");
  expect_d3(world(e.json, 2, 1, t0, as_d4(rot.values[0]), {0, 1, 0}), {0, 0, -2}, 1e-5, "p2 at key 0");
}

// The trigger (not local): its emitter's M3GM under the animated root "TRIGlaser", moved 10 up in 1 s.
TEST(OniObanClassModel, TriggerEmitterMovesAlongItsKeys) {
  testing::TempDir t;
  const Exported e = export_read(testing::oban_class_level(), 10, t / "trig.glb");
  ASSERT_EQ(e.model.error, "");
  ASSERT_EQ(e.model.node_list.size(), 2u);
  EXPECT_EQ(e.model.node_list[0].name, "TRIGlaser");
  EXPECT_EQ(e.model.node_list[0].parent, -1);
  EXPECT_EQ(e.model.node_list[1].parent, 0);
  EXPECT_EQ(e.json["extras"]["geometry_from"], "TRIG TRIGlaser (instance 11)");
  ASSERT_EQ(e.model.animations.size(), 1u);
  const auto& tr = channel(e.model.animations[0], "translation");
  EXPECT_EQ(tr.times, (std::vector<float>{0.0f, 1.0f}));
  const auto& rot = channel(e.model.animations[0], "rotation");
  expect_d3(world(e.json, 1, 0, {tr.values[1][0], tr.values[1][1], tr.values[1][2]}, as_d4(rot.values[1]), {1, 0, 0}), {1, 10, 0}, 1e-6,
            "p1 at key 1");
}

// The local crate: its origin node is the OBOA origin matrix (wiki OBD:OBOA example). Its rotation
// must be the quaternion the same object stores at +0x2C, (0.707107, -0.000249, -0.000249,
// 0.707107), read as glTF (x, y, z, -w) (the OBAN convention), up to sign; its translation the
// object position (207, 123.010002, -408.996826). The key's +5 along local z (Z-up) is then +5 up
// (world y): p0 at key 1 -> (207, 128.01, -408.997).
TEST(OniObanClassModel, LocalAnimationPlacedByTheOriginMatrix) {
  testing::TempDir t;
  const Exported e = export_read(testing::oban_class_level(), 13, t / "local.glb");
  ASSERT_EQ(e.model.error, "");
  ASSERT_EQ(e.model.node_list.size(), 3u);
  EXPECT_EQ(e.model.node_list[0].name, "crate origin");
  EXPECT_EQ(e.model.node_list[1].name, "crate");
  EXPECT_EQ(e.model.node_list[1].parent, 0);
  const auto& origin = e.model.node_list[0];
  EXPECT_EQ(origin.translation, (std::vector<double>{207.0, static_cast<double>(123.010002f), static_cast<double>(-408.996826f)}));
  const D4 stored{0.707107, -0.000249, -0.000249, -0.707107};  // (x, y, z, -w)
  const double sign = origin.rotation.at(0) * stored[0] < 0 ? -1 : 1;
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(origin.rotation[k], sign * stored[k], 2e-6) << k;
  expect_d3(d3(e.json["nodes"][0], "scale", {1, 1, 1}), {1, 1, 1}, 1e-6, "origin scale");
  const auto& a = e.model.animations.at(0);
  const auto& tr = channel(a, "translation");
  const auto& rot = channel(a, "rotation");
  expect_d3(world(e.json, 2, 1, {tr.values[1][0], tr.values[1][1], tr.values[1][2]}, as_d4(rot.values[1]), {0, 0, 0}),
            {207, 128.010002, -408.996826}, 1e-3, "p0 at key 1");
}

TEST(OniObanClassModel, ValidatorFindsNothing) {
  ASSAY_REQUIRE_VALIDATOR();
  testing::TempDir t;
  const ByteBuffer level = testing::oban_class_level();
  export_read(level, 0, t / "door.glb");
  export_read(level, 10, t / "trig.glb");
  export_read(level, 13, t / "local.glb");
  testing::expect_valid_gltf({t / "door.glb", t / "trig.glb", t / "local.glb"});
}

// The CLI: list --json names who plays each OBAN; extract --models writes the door with its geometry.
TEST(OniObanClassModel, ListAndExtractThroughTheCli) {
  testing::TempDir t;
  const fs::path dir = t / "GameDataFolder";
  fs::create_directories(dir);
  write_bytes(dir / "level1_Final.dat", testing::oban_class_level());
  const auto l = testing::run_cli("list --json " + testing::quote_path(dir / "level1_Final.dat"));
  ASSERT_EQ(l.exit_code, 0) << l.err;
  EXPECT_NE(l.out.find("\"door_classes\""), std::string::npos) << l.out;
  EXPECT_NE(l.out.find("\"trigger_classes\""), std::string::npos) << l.out;
  const fs::path out = t / "out";
  const auto x = testing::run_cli("extract " + testing::quote_path(dir / "level1_Final.dat") + " --models -o " + testing::quote_path(out));
  ASSERT_EQ(x.exit_code, 0) << x.err;
  const testing::ReadModel m = testing::read_gltf(out / "OBANdoor.glb");
  EXPECT_EQ(m.error, "");
  EXPECT_EQ(m.meshes.size(), 1u);
  EXPECT_TRUE(fs::exists(out / "OBANtrig.glb"));
  EXPECT_TRUE(fs::exists(out / "OBANlocal.glb"));
}

// An OBAN that is not instance 0 of its level (OniSplit's -import puts it after the geometry): its
// entry was given no .glb path, so extract --models wrote nothing for it (the path was decided
// from instance 0's tag before the entries had their indexes).
TEST(OniObanClassModel, ExtractWritesAnObanThatIsNotTheFirstInstance) {
  using namespace testing::oni_oban_fixture;
  using oni::make_tag;
  const TriangleM3gm tri = triangle_m3gm(1);
  oni::LevelFileSpec spec;
  spec.file_id = 0x02000001;
  spec.template_checksums = {{make_tag("OBAN"), 0x4e0c24ull}, {make_tag("M3GM"), 0x27a078e436ull}, {make_tag("PNTA"), 0x37676cull},
                             {make_tag("VCRA"), 0x54739ull},  {make_tag("TXCA"), 0x9141aull},      {make_tag("IDXA"), 0x2708full}};
  spec.instances = {{make_tag("M3GM"), "M3GMtri", 0, tri.m3gm}, {make_tag("PNTA"), "", 0, tri.points}, {make_tag("VCRA"), "", 0, tri.normals},
                    {make_tag("TXCA"), "", 0, tri.uvs},         {make_tag("IDXA"), "", 0, tri.strips}, {make_tag("OBAN"), "OBANlone", 0, oban({})}};
  auto dat = oni::write_level_file(spec);
  ASSERT_TRUE(dat.ok()) << dat.error().str();
  testing::TempDir t;
  fs::create_directories(t / "GameDataFolder");
  write_bytes(t / "GameDataFolder" / "level1_Final.dat", *dat);
  const auto x = testing::run_cli("extract " + testing::quote_path(t / "GameDataFolder" / "level1_Final.dat") + " --models -o " +
                                  testing::quote_path(t / "out"));
  ASSERT_EQ(x.exit_code, 0) << x.err;
  EXPECT_TRUE(fs::exists(t / "out" / "M3GMtri.glb"));
  const testing::ReadModel m = testing::read_gltf(t / "out" / "OBANlone.glb");
  EXPECT_EQ(m.error, "");
  EXPECT_EQ(m.animations.size(), 1u);
}

TEST(OniObanClassModel, FuzzCorpusHoldsTheFixture) {
  testing::check_fuzz_seeds("ASSAY_WRITE_ONI_OBAN_CORPUS", "oni_oban", {{"classes.dat", testing::oban_class_level()}});
}

}  // namespace
}  // namespace oni_oban_class_model_test
}  // namespace assay
