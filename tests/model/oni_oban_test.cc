// Oni OBAN object animations on their M3GM to GLB (issue 27): the hand-made level of
// oni_oban_fixture.h (keys and the expected values worked out by hand there) exported, read back
// with tinygltf and the GLB's own JSON chunk; the quaternion convention checked against the retail
// example the Oni wiki gives on OBD:OBAN (00134-Blackvan_FB: key 0, fixed matrix and initial
// matrix); the Khronos validator's verdict; list/extract/verify through the container and the CLI;
// a mutation sweep of the whole export; the fuzz corpus. No shared sample holds an OBAN (the
// GameDataFolder levels hold none), so nothing here is compared with OniSplit's own export.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "assay/container.h"
#include "assay/formats/oni/oban.h"
#include "golden.h"
#include "gltf_reader.h"
#include "oni_oban_fixture.h"
#include "testing/testing.h"
#include "formats/serialise.h"

namespace assay {
namespace oni_oban_model_test {
namespace {

namespace fs = std::filesystem;
using V4 = std::array<float, 4>;

void write_bytes(const fs::path& p, const ByteBuffer& b) {
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

// The GLB's JSON chunk (glTF 2.0 §4.4: 12-byte header, chunk length at 12, type at 16, data at 20).
nlohmann::json glb_json(const ByteBuffer& glb) {
  if (glb.size() < 20) return {};
  const std::uint32_t n = load<std::uint32_t>(glb.data() + 12, Endian::little);
  return nlohmann::json::parse(glb.begin() + 20, glb.begin() + 20 + n);
}

std::unique_ptr<oni::LoadedFile> load_level(const ByteBuffer& dat) {
  auto keep = std::make_shared<ByteBuffer>(dat);
  return oni::load_file("level1_Final.dat", ByteView(*keep), keep, oni::LayoutSource{}, oni::LoadOptions{true, nullptr});
}

std::uint32_t index_of(const oni::LoadedFile& f, std::string_view name) {
  const auto i = f.file.find(name);
  EXPECT_TRUE(i.has_value()) << name;
  return i.value_or(0);
}

// OBAN `name` of the fixture's level exported to `out` and read back.
testing::ReadModel export_read(const testing::ObanFixture& x, std::string_view name, const fs::path& out, ByteBuffer* glb_out = nullptr) {
  const auto f = load_level(testing::oban_level(x));
  EXPECT_TRUE(f->opened);
  auto glb = oni::export_oban_glb(*f, index_of(*f, name));
  EXPECT_TRUE(glb.ok()) << (glb.ok() ? "" : glb.error().str());
  if (!glb) return {};
  write_bytes(out, *glb);
  if (glb_out) *glb_out = *glb;
  return testing::read_gltf(out);
}

void expect_v4(const std::array<float, 4>& got, const V4& want, const std::string& what) {
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(got[k], want[k], 1e-6) << what << "." << k;
}

// The 3x3 rotation matrix (column vectors) of a unit quaternion x, y, z, w (Hamilton).
std::array<std::array<double, 3>, 3> rotation_matrix(const std::vector<double>& q) {
  const double x = q[0], y = q[1], z = q[2], w = q[3];
  return {{{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
           {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
           {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}}};
}

// The fixture by hand: the object node "door_a" carries key 0 and the channels; its child M3GMtri
// carries the fixed scale 2 and the mesh; the animation is the OBAN's name with frame / 60 s.
TEST(OniObanModel, HandMadeKeysOnTheirGeometry) {
  testing::TempDir t;
  ByteBuffer glb;
  const testing::ReadModel m = export_read({}, "OBANhand", t / "hand.glb", &glb);
  ASSERT_EQ(m.error, "");
  ASSERT_EQ(m.node_list.size(), 2u);
  const testing::ReadNode& door = m.node_list[0];
  EXPECT_EQ(door.name, "door_a");
  EXPECT_EQ(door.parent, -1);
  EXPECT_EQ(door.mesh, -1);
  EXPECT_EQ(door.translation, (std::vector<double>{10, 20, 30}));
  ASSERT_EQ(door.rotation.size(), 4u);
  EXPECT_NEAR(door.rotation[0], -0.70710678, 1e-6);
  EXPECT_NEAR(door.rotation[3], 0.70710678, 1e-6);
  const testing::ReadNode& tri = m.node_list[1];
  EXPECT_EQ(tri.name, "M3GMtri");
  EXPECT_EQ(tri.parent, 0);
  EXPECT_EQ(tri.mesh, 0);
  ASSERT_EQ(m.meshes.size(), 1u);
  EXPECT_EQ(m.meshes[0].positions, (std::vector<std::array<float, 3>>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}));
  const nlohmann::json j = glb_json(glb);
  EXPECT_EQ(j["nodes"][1]["scale"], nlohmann::json::array({2.0, 2.0, 2.0}));  // the fixed matrix
  EXPECT_FALSE(j["nodes"][0].contains("scale"));

  ASSERT_EQ(m.animations.size(), 1u);
  const testing::ReadAnimation& a = m.animations[0];
  EXPECT_EQ(a.name, "OBANhand");
  ASSERT_EQ(a.channels.size(), 2u);
  for (const auto& c : a.channels) {
    EXPECT_EQ(c.node, 0);
    EXPECT_EQ(c.interpolation, "LINEAR");
    EXPECT_EQ(c.times, (std::vector<float>{0.0f, 0.5f, 1.5f}));  // frames 0, 30, 90 at 60 per second
    EXPECT_EQ(c.input_min, (std::vector<double>{0.0}));
    EXPECT_EQ(c.input_max, (std::vector<double>{1.5}));
  }
  const auto& tr = a.channels[0].path == "translation" ? a.channels[0] : a.channels[1];
  const auto& rot = a.channels[0].path == "rotation" ? a.channels[0] : a.channels[1];
  EXPECT_EQ(tr.path, "translation");
  EXPECT_EQ(rot.path, "rotation");
  ASSERT_EQ(tr.values.size(), 3u);
  expect_v4(tr.values[0], {10, 20, 30, 0}, "t0");
  expect_v4(tr.values[1], {10, 25, 30, 0}, "t1");
  expect_v4(tr.values[2], {0, 0, 0, 0}, "t2");
  // Stored x, y, z, w -> glTF (x, y, z, -w): (-0.7071, 0, 0, -0.7071) -> (-0.7071, 0, 0, 0.7071), ...
  ASSERT_EQ(rot.values.size(), 3u);
  expect_v4(rot.values[0], {-0.70710678f, 0, 0, 0.70710678f}, "q0");
  expect_v4(rot.values[1], {0, 0, 0.6f, -0.8f}, "q1");
  expect_v4(rot.values[2], {0, 0, 0, -1}, "q2");
  EXPECT_EQ(j["animations"][0]["extras"]["frames"], 91);
  EXPECT_EQ(j["animations"][0]["extras"]["flags"], 9);
}

// The object's world matrix at key 0 (door node T R, then the child's scale) equals the OBAN's
// stored initial matrix, worked out by hand in the fixture.
TEST(OniObanModel, KeyZeroIsTheInitialMatrix) {
  testing::TempDir t;
  ByteBuffer glb;
  const testing::ReadModel m = export_read({}, "OBANhand", t / "hand.glb", &glb);
  ASSERT_EQ(m.node_list.size(), 2u);
  const auto r = rotation_matrix(m.node_list[0].rotation);
  const double s = glb_json(glb)["nodes"][1]["scale"][0];
  const std::array<float, 12> initial = testing::ObanSpec{}.initial;
  for (int axis = 0; axis < 3; ++axis)  // stored: the image of x, y, z, then the translation
    for (int row = 0; row < 3; ++row) EXPECT_NEAR(r[row][axis] * s, initial[3 * axis + row], 1e-5) << axis << "," << row;
  for (int row = 0; row < 3; ++row) EXPECT_EQ(m.node_list[0].translation[row], initial[9 + row]);
}

// The convention against retail data: the Oni wiki's OBD:OBAN example (00134-Blackvan_FB) gives
// key 0's stored quaternion (-0.7071068, -9.131584e-8, -1.222244e-7, -0.7071067), the fixed matrix
// 1.819999 x identity and the initial matrix rows (1.819999, -7.955471e-8, 5.496247e-7),
// (5.496247e-7, -1.374061e-7, -1.819999), (7.955475e-8, 1.819999, -1.374061e-7), translation
// (1188.825561, -54.997646, -109.012428). The exported placement must rebuild that matrix.
TEST(OniObanModel, WikiRetailExampleConvention) {
  testing::ObanFixture x;
  const float s = 1.819999f;
  x.hand.base = {s, 0, 0, 0, s, 0, 0, 0, s, 0, 0, 0};
  x.hand.initial = {s, -7.955471e-8f, 5.496247e-7f, 5.496247e-7f, -1.374061e-7f, -s, 7.955475e-8f, s, -1.374061e-7f,
                    1188.825561f, -54.997646f, -109.012428f};
  x.hand.keys = {{{-0.7071068f, -9.131584e-8f, -1.222244e-7f, -0.7071067f}, {1188.825561f, -54.997646f, -109.012428f}, 0},
                 {{-0.7071068f, -9.131584e-8f, -1.222244e-7f, -0.7071067f}, {1188.825561f, -54.997646f, -109.012428f}, 500}};
  x.hand.frames = 501;
  testing::TempDir t;
  ByteBuffer glb;
  const testing::ReadModel m = export_read(x, "OBANhand", t / "wiki.glb", &glb);
  ASSERT_EQ(m.node_list.size(), 2u);
  const auto r = rotation_matrix(m.node_list[0].rotation);
  const double scale = glb_json(glb)["nodes"][1]["scale"][0];
  for (int axis = 0; axis < 3; ++axis)
    for (int row = 0; row < 3; ++row) EXPECT_NEAR(r[row][axis] * scale, x.hand.initial[3 * axis + row], 2e-6) << axis << "," << row;
  // The other reading (the stored quaternion as glTF's, w kept) would turn y to +z instead.
  EXPECT_NEAR(r[2][1] * scale, -s, 1e-5);
}

// A level whose object names a placeholder M3GM takes the geometry from level 0 (spec:
// oni.md#oni-7-1), as the engine does; without level 0 the export says which link has no data.
TEST(OniObanModel, GeometryFromLevelZero) {
  using namespace testing::oni_oban_fixture;
  using oni::make_tag;
  ByteBuffer m3ga = array(0x1C, 1);
  u32(m3ga, link(3));
  oni::LevelFileSpec spec;
  spec.file_id = 0x02000001;
  spec.template_checksums = {{make_tag("OBAN"), 0x4e0c24ull}, {make_tag("OBOA"), 0x134f8986e1ull}, {make_tag("M3GA"), 0x5206b20b2ull},
                             {make_tag("M3GM"), 0x27a078e436ull}};
  spec.instances = {{make_tag("OBAN"), "OBANhand", 0, oban(testing::ObanSpec{})},
                    {make_tag("OBOA"), "", 0, oboa("door_a")},
                    {make_tag("M3GA"), "", 0, m3ga},
                    {make_tag("M3GM"), "M3GMtri", oni::kFlagPlaceholder, {}}};
  auto level1 = oni::write_level_file(spec);
  ASSERT_TRUE(level1.ok()) << level1.error().str();
  const auto l1 = load_level(*level1);
  auto keep0 = std::make_shared<ByteBuffer>(testing::oban_level());  // holds M3GMtri with data
  const auto l0 = oni::load_file("level0_Final.dat", ByteView(*keep0), keep0, oni::LayoutSource{}, oni::LoadOptions{true, nullptr});
  ASSERT_TRUE(l1->opened && l0->opened);
  auto alone = oni::export_oban_glb(*l1, 0);
  ASSERT_FALSE(alone.ok());
  EXPECT_EQ(alone.error().code, "oni.oban");
  EXPECT_NE(alone.error().message.find("linked M3GM (instance 3, M3GMtri) has no data here"), std::string::npos) << alone.error().str();
  auto glb = oni::export_oban_glb(*l1, 0, l0.get());
  ASSERT_TRUE(glb.ok()) << glb.error().str();
  testing::TempDir t;
  write_bytes(t / "l1.glb", *glb);
  const testing::ReadModel m = testing::read_gltf(t / "l1.glb");
  ASSERT_EQ(m.meshes.size(), 1u);
  EXPECT_EQ(m.meshes[0].node, "M3GMtri");
  EXPECT_EQ(m.meshes[0].positions, (std::vector<std::array<float, 3>>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}));
  EXPECT_EQ(m.node_list.at(1).parent, 0);
}

// An OBAN no object plays: one empty node named after it, animated (OniSplit's "null node").
TEST(OniObanModel, AnimationWithoutObjectIsAnEmptyNode) {
  testing::TempDir t;
  const testing::ReadModel m = export_read({}, "OBANcam", t / "cam.glb");
  ASSERT_EQ(m.error, "");
  ASSERT_EQ(m.node_list.size(), 1u);
  EXPECT_EQ(m.node_list[0].name, "OBANcam");
  EXPECT_TRUE(m.meshes.empty());
  ASSERT_EQ(m.animations.size(), 1u);
  ASSERT_EQ(m.animations[0].channels.size(), 2u);
  for (const auto& c : m.animations[0].channels) {
    EXPECT_EQ(c.times, (std::vector<float>{0.0f, 1.0f}));
    if (c.path == "translation") expect_v4(c.values[1], {5, 0, 0, 0}, "t1");
    if (c.path == "rotation") expect_v4(c.values[0], {0, 0, 0, -1}, "q0");
  }
}

TEST(OniObanModel, ValidatorFindsNothing) {
  ASSAY_REQUIRE_VALIDATOR();
  testing::TempDir t;
  export_read({}, "OBANhand", t / "hand.glb");
  export_read({}, "OBANcam", t / "cam.glb");
  testing::expect_valid_gltf({t / "hand.glb", t / "cam.glb"});
}

// Keys that cannot be a glTF animation are refused with the verify code; others export.
TEST(OniObanModel, RefusalsCarryTheirCodes) {
  const auto refusal = [](const testing::ObanFixture& x) {
    const auto f = load_level(testing::oban_level(x));
    auto glb = oni::export_oban_glb(*f, 0);
    return glb ? std::string() : glb.error().code;
  };
  testing::ObanFixture x;
  x.hand.keys[2].frame = 30;  // not after key 1
  EXPECT_EQ(refusal(x), "oni.oban-time");
  x = {};
  x.hand.keys[1].q = {0, 0, 0, 0};
  EXPECT_EQ(refusal(x), "oni.oban-rotation");
  x = {};
  x.hand.keys[0].t[1] = std::numeric_limits<float>::infinity();
  EXPECT_EQ(refusal(x), "oni.oban-translation");
  x = {};
  x.hand.keys.clear();
  EXPECT_EQ(refusal(x), "oni.oban-keys");
  x = {};
  x.hand.frames = 10;  // keys past the frame count: a verify warning, still exported
  EXPECT_EQ(refusal(x), "");
  x = {};
  x.hand.keys[1].q = {0, 0, 1.2f, 1.6f};  // length 2: normalised to (0, 0, 0.6, -0.8)
  testing::TempDir t;
  const testing::ReadModel m = export_read(x, "OBANhand", t / "n.glb");
  ASSERT_EQ(m.animations.size(), 1u);
  for (const auto& c : m.animations[0].channels)
    if (c.path == "rotation") expect_v4(c.values[1], {0, 0, 0.6f, -0.8f}, "normalised");
}

// The whole export (walk, geometry, GLB) over every mutated byte of the level: a GLB or an error
// with a code, never a crash.
TEST(OniObanModel, MutatedLevelsExportOrRefuse) {
  const ByteBuffer good = testing::oban_level();
  std::size_t exported = 0, refused = 0;
  for (std::size_t k = 0; k < good.size(); ++k) {
    ByteBuffer b = good;
    b[k] ^= 0xA5;
    const auto f = load_level(b);
    if (!f->opened) continue;
    for (std::uint32_t i = 0; i < f->file.instance_count(); ++i) {
      if (f->file.descriptor(i).tag != oni::make_tag("OBAN")) continue;
      auto glb = oni::export_oban_glb(*f, i);
      if (glb) {
        ++exported;
        EXPECT_EQ((*glb)[0], 'g');
      } else {
        ++refused;
        EXPECT_FALSE(glb.error().message.empty());
      }
    }
  }
  EXPECT_GT(exported, good.size() / 2);
  EXPECT_GT(refused, 10u);
}

// list, extract --models and verify through the container and the CLI.
TEST(OniObanModel, ListExtractVerify) {
  testing::TempDir t;
  const fs::path dir = t / "GameDataFolder";
  fs::create_directories(dir);
  write_bytes(dir / "level1_Final.dat", testing::oban_level());
  auto c = open_path((dir / "level1_Final.dat").string());
  ASSERT_TRUE(c.ok()) << c.error().str();
  const Entry* oban = nullptr;
  for (const Entry& e : (*c)->entries())
    if (e.name == "OBANhand") oban = &e;
  ASSERT_NE(oban, nullptr);
  EXPECT_EQ(oban->kind, assay::EntryKind::animation);
  EXPECT_EQ(details_json(**c, *oban).at("keys"), 3);
  EXPECT_EQ(details_json(**c, *oban).at("frames"), 91);
  EXPECT_EQ(details_json(**c, *oban).at("animation_flags"), 9);
  EXPECT_EQ(details_json(**c, *oban).at("flags"), 0);  // the descriptor's (named, with data)
  EXPECT_EQ(details_json(**c, *oban).at("half_stop_frame"), 30);
  EXPECT_EQ(details_json(**c, *oban).at("ticks_per_frame"), 1);
  auto glb = (*c)->model(*oban);
  ASSERT_TRUE(glb.ok()) << glb.error().str();
  const fs::path out = t / "out";
  const auto r = testing::run_cli("extract " + testing::quote_path(dir / "level1_Final.dat") + " --models -o " + testing::quote_path(out));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::read_file(out / "OBANhand.glb"), *glb);
  EXPECT_TRUE(fs::exists(out / "OBANcam.glb"));
  EXPECT_TRUE(fs::exists(out / "M3GMtri.glb"));
  const testing::ReadModel m = testing::read_gltf(out / "OBANhand.glb");
  EXPECT_EQ(m.error, "");
  EXPECT_EQ(m.animations.size(), 1u);
  const auto l = testing::run_cli("list --json " + testing::quote_path(dir / "level1_Final.dat"));
  EXPECT_EQ(l.exit_code, 0) << l.err;
  EXPECT_NE(l.out.find("\"half_stop_frame\""), std::string::npos) << l.out;
  const auto v = testing::run_cli("verify " + testing::quote_path(dir / "level1_Final.dat"));
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  EXPECT_NE(v.out.find("0 warnings"), std::string::npos) << v.out;
  // Keys out of order: verify warns with the code (exit 0: warnings alone), extract refuses it.
  testing::ObanFixture x;
  x.hand.keys[2].frame = 20;
  write_bytes(dir / "level1_Final.dat", testing::oban_level(x));
  const auto w = testing::run_cli("verify --json " + testing::quote_path(dir / "level1_Final.dat"));
  EXPECT_EQ(w.exit_code, 0) << w.out << w.err;
  EXPECT_NE(w.out.find("oni.oban-time"), std::string::npos) << w.out;
  const auto e = testing::run_cli("extract " + testing::quote_path(dir / "level1_Final.dat") + " --models -o " + testing::quote_path(t / "bad"));
  EXPECT_NE(e.exit_code, 0);
  EXPECT_NE(e.err.find("OBANhand at 0x27c: key 2 at frame 20, not after frame 30"), std::string::npos) << e.err;
}

TEST(OniObanModel, FuzzCorpusHoldsTheFixtures) {
  testing::ObanFixture unordered, local;
  unordered.hand.keys[2].frame = 10;
  local.hand.flags = 0x10;
  local.object_name = "";
  const std::vector<std::pair<std::string, ByteBuffer>> seeds = {{"hand.dat", testing::oban_level()},
                                                                  {"unordered.dat", testing::oban_level(unordered)},
                                                                  {"local_unnamed.dat", testing::oban_level(local)}};
  testing::check_fuzz_seeds("ASSAY_WRITE_ONI_OBAN_CORPUS", "oni_oban", seeds);
}

}  // namespace
}  // namespace oni_oban_model_test
}  // namespace assay
