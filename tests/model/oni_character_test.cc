// Oni characters to GLB (issue 27): the goldens' ONCCchar4 (../shared/goldens/oni/characters: a
// 4-part body, one TRAM stored from Euler keys and one from quaternion keys) read back with
// tinygltf against the keys as stored (json/*.json "onisplit_xml_of_stored") and OniSplit's pelvis
// curves; the Khronos validator's verdict; a hand-made character (oni_character_fixture.h) with
// rotations and translations computed by hand; the field offsets against the BFW layouts; a
// mutation sweep.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numbers>

#include "assay/container.h"
#include "assay/formats/oni/character.h"
#include "assay/formats/oni/layout.h"
#include "assay/model/gltf.h"
#include "golden.h"
#include "gltf_reader.h"
#include "oni_character_fixture.h"
#include "testing/testing.h"
#include "formats/serialise.h"

namespace assay {
namespace oni_character_test {
namespace {

namespace fs = std::filesystem;
using Quat = std::array<double, 4>;

void write_file(const fs::path& p, const ByteBuffer& b) {
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

// qx * qy * qz written out (x, y, z, w), angles in degrees: the part turns about z, then y, then x
// (Oni wiki OBD:TRCM).
Quat by_hand(double x, double y, double z) {
  const double r = std::numbers::pi / 360.0;
  const double sx = std::sin(x * r), cx = std::cos(x * r), sy = std::sin(y * r), cy = std::cos(y * r), sz = std::sin(z * r),
               cz = std::cos(z * r);
  return {sx * cy * cz + cx * sy * sz, cx * sy * cz - sx * cy * sz, cx * cy * sz + sx * sy * cz, cx * cy * cz - sx * sy * sz};
}

// Equal as rotations (q and -q are one rotation).
void expect_rotation(const std::array<float, 4>& got, const Quat& want, double tol = 2e-5) {
  const double sign = got[0] * want[0] + got[1] * want[1] + got[2] * want[2] + got[3] * want[3] < 0 ? -1 : 1;
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(got[k], sign * want[k], tol) << k;
}

const testing::ReadChannel* channel(const testing::ReadAnimation& a, int node, const std::string& path) {
  for (const auto& c : a.channels)
    if (c.node == node && c.path == path) return &c;
  return nullptr;
}

testing::ReadModel export_read(const oni::LoadedFile& f, std::uint32_t oncc, const fs::path& out) {
  auto glb = oni::export_character_glb(f, oncc);
  EXPECT_TRUE(glb.ok()) << (glb.ok() ? "" : glb.error().str());
  if (!glb.ok()) return {};
  write_file(out, *glb);
  return testing::read_gltf(out);
}

// The stored keys of one golden animation against its glTF channels: a key per stored key at its
// first frame / 60 s, the rotation qx * qy * qz of the stored degrees.
void expect_stored_keys(const testing::ReadAnimation& a, const nlohmann::json& bones) {
  for (std::size_t b = 0; b < bones.size(); ++b) {
    SCOPED_TRACE(b);
    const auto* c = channel(a, static_cast<int>(b), "rotation");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->interpolation, "LINEAR");
    ASSERT_EQ(c->times.size(), bones[b].size());
    int frame = 0;
    for (std::size_t k = 0; k < bones[b].size(); ++k) {
      const auto& key = bones[b][k];
      EXPECT_EQ(key["kind"], "EKey");
      EXPECT_NEAR(c->times[k], frame / 60.0, 1e-6);
      const auto& v = key["values"];
      expect_rotation(c->values[k], by_hand(v[0].get<double>(), v[1].get<double>(), v[2].get<double>()));
      frame += key["duration"].get<int>();
    }
    ASSERT_FALSE(c->input_min.empty());  // glTF 2.0 3.11: sampler inputs carry min/max
    EXPECT_EQ(c->input_min[0], c->times.front());
    EXPECT_EQ(c->input_max[0], c->times.back());
  }
}

// The pelvis: x and z the velocities summed (frames + 1 samples), y the heights, as OniSplit's DAE
// curves (json "onisplit_dae") and the README's checks say.
void expect_pelvis(const testing::ReadAnimation& a, const nlohmann::json& g) {
  const auto* c = channel(a, 0, "translation");
  ASSERT_NE(c, nullptr);
  const auto& curves = g["onisplit_dae"]["curves"];
  const auto& x = curves["pelvis/pos.X"]["values"];
  const auto& y = curves["pelvis/pos.Y"]["values"];
  const auto& z = curves["pelvis/pos.Z"]["values"];
  const std::size_t frames = g["frames"].get<std::size_t>();
  ASSERT_EQ(c->times.size(), frames + 1);
  ASSERT_EQ(x.size(), frames + 1);
  for (std::size_t k = 0; k <= frames; ++k) {
    EXPECT_NEAR(c->times[k], k / 60.0, 1e-6);
    EXPECT_NEAR(c->values[k][0], x[k].get<float>(), 1e-5) << k;
    EXPECT_NEAR(c->values[k][2], z[k].get<float>(), 1e-5) << k;
    EXPECT_NEAR(c->values[k][1], y[std::min(k, y.size() - 1)].get<float>(), 1e-5) << k;  // the last height held
  }
}

TEST(OniCharacter, GoldenExportsBodyAndBothAnimations) {
  ASSAY_REQUIRE_GOLDEN(dir, "oni/characters");
  const auto f = oni::load_file(dir / "GameDataFolder" / "level0_Final.dat", oni::LayoutSource{});
  ASSERT_TRUE(f->opened);
  const auto oncc = f->file.find("ONCCchar4");
  ASSERT_TRUE(oncc.has_value());
  testing::TempDir t;
  const testing::ReadModel m = export_read(*f, *oncc, t / "char4.glb");
  ASSERT_EQ(m.error, "");
  const nlohmann::json body = testing::load_golden(dir / "json" / "body4.json");
  ASSERT_EQ(m.node_list.size(), body["parts"].size());  // 4 parts, counted, not assumed
  ASSERT_EQ(m.meshes.size(), 4u);
  for (std::size_t k = 0; k < m.node_list.size(); ++k) {
    const auto& p = body["parts"][k];
    const auto& n = m.node_list[k];
    EXPECT_EQ(n.name, p["onisplit_name"].get<std::string>());
    EXPECT_EQ(n.parent, k == 0 ? -1 : p["tria_parent"].get<int>());
    for (int c = 0; c < 3; ++c) EXPECT_EQ(n.translation.empty() ? 0.0 : n.translation[c], p["translation"][c].get<double>());
    EXPECT_EQ(m.meshes[k].positions.size(), p["m3gm"]["vertices"].get<std::size_t>());
    EXPECT_EQ(m.meshes[k].triangles.size(), p["m3gm"]["triangles"].get<std::size_t>());
  }
  ASSERT_EQ(m.animations.size(), 2u);
  for (const char* name : {"TRAMbody4_ekey", "TRAMbody4_qkey"}) {
    SCOPED_TRACE(name);
    const nlohmann::json g = testing::load_golden(dir / "json" / (std::string(name) + ".json"));
    const auto it = std::find_if(m.animations.begin(), m.animations.end(), [&](const auto& a) { return a.name == name; });
    ASSERT_NE(it, m.animations.end());
    EXPECT_EQ(it->channels.size(), 5u);  // 4 rotations, the pelvis translation
    expect_stored_keys(*it, g["onisplit_xml_of_stored"]["bones"]);
    expect_pelvis(*it, g);
  }
}

// One key by hand: TRAMbody4_ekey's pelvis turns to 0x4000 units about y at frame 10 (stored
// 90.00137 degrees: a unit is 360/65535 degrees); half of it is 45.000687 degrees, whose sine and
// cosine are 0.707115255 and 0.707098307.
TEST(OniCharacter, GoldenKeyByHand) {
  ASSAY_REQUIRE_GOLDEN(dir, "oni/characters");
  const auto f = oni::load_file(dir / "GameDataFolder" / "level0_Final.dat", oni::LayoutSource{});
  auto a = oni::decode_tram(*f, *f->file.find("TRAMbody4_ekey"));
  ASSERT_TRUE(a.ok()) << a.error().str();
  EXPECT_EQ(a->frames, 11u);
  EXPECT_EQ(a->frame_size, 6u);
  ASSERT_EQ(a->tracks.size(), 4u);
  ASSERT_EQ(a->tracks[0].size(), 2u);
  EXPECT_EQ(a->tracks[0][1].frame, 10u);
  EXPECT_NEAR(a->tracks[0][1].stored[1], 90.00137, 1e-5);
  expect_rotation(a->tracks[0][1].rotation, {0, 0.707115255, 0, 0.707098307}, 1e-6);
}

TEST(OniCharacter, GoldenValidatorFindsNothing) {
  ASSAY_REQUIRE_GOLDEN(dir, "oni/characters");
  ASSAY_REQUIRE_VALIDATOR();
  const auto f = oni::load_file(dir / "GameDataFolder" / "level0_Final.dat", oni::LayoutSource{});
  testing::TempDir t;
  auto glb = oni::export_character_glb(*f, *f->file.find("ONCCchar4"));
  ASSERT_TRUE(glb.ok()) << glb.error().str();
  write_file(t / "char4.glb", *glb);
  const auto hand = testing::load_character_level(testing::character_level());
  auto h = oni::export_character_glb(*hand, 0);
  ASSERT_TRUE(h.ok()) << h.error().str();
  write_file(t / "hand.glb", *h);
  testing::expect_valid_gltf({t / "char4.glb", t / "hand.glb"});
}

// list and extract through the container and the CLI: ONCC a model entry with its counts, TRAMs
// animation entries; extract --models writes the character's GLB, the same bytes model() gives.
TEST(OniCharacter, GoldenListAndExtract) {
  ASSAY_REQUIRE_GOLDEN(dir, "oni/characters");
  const fs::path level = dir / "GameDataFolder" / "level0_Final.dat";
  auto c = open_path(level.string());
  ASSERT_TRUE(c.ok()) << c.error().str();
  const Entry* oncc = nullptr;
  for (const Entry& e : (*c)->entries()) {
    if (e.name == "ONCCchar4") oncc = &e;
    if (e.name == "TRAMbody4_ekey" || e.name == "TRAMbody4_qkey") {
      EXPECT_EQ(e.kind, assay::EntryKind::animation);
      EXPECT_EQ(details_json(**c, e).at("frames"), *e.name == "TRAMbody4_ekey" ? 11 : 6);  // the goldens' "frames"
      EXPECT_EQ(details_json(**c, e).at("bones"), 4);
    }
  }
  ASSERT_NE(oncc, nullptr);
  EXPECT_EQ(oncc->kind, assay::EntryKind::model);
  EXPECT_EQ(details_json(**c, *oncc).at("bones"), 4);
  EXPECT_EQ(details_json(**c, *oncc).at("animations"), 2);
  EXPECT_EQ(details_json(**c, *oncc).at("frames"), 17);
  auto glb = (*c)->model(*oncc);
  ASSERT_TRUE(glb.ok()) << glb.error().str();
  testing::TempDir t;
  const auto r = testing::run_cli("extract " + testing::quote_path(level) + " --models -o " + testing::quote_path(t.path()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(t / "ONCCchar4.glb", std::ios::binary);
  const ByteBuffer disk((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(disk, *glb);
  const auto v = testing::run_cli("verify " + testing::quote_path(level));
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  EXPECT_NE(v.out.find("0 warnings"), std::string::npos) << v.out;
}

// The hand-made character (oni_character_fixture.h): every rotation and translation by hand.
TEST(OniCharacter, HandMadeRotationsAndTranslations) {
  const auto f = testing::load_character_level(testing::character_level());
  ASSERT_TRUE(f->opened);
  testing::TempDir t;
  const testing::ReadModel m = export_read(*f, 0, t / "hand.glb");
  ASSERT_EQ(m.error, "");
  ASSERT_EQ(m.node_list.size(), 2u);
  EXPECT_EQ(m.node_list[1].parent, 0);
  EXPECT_EQ(m.node_list[1].translation, (std::vector<double>{0, 1, 0}));
  ASSERT_EQ(m.animations.size(), 3u);
  const double u = 360.0 / 65535.0;  // degrees per stored unit
  {
    const auto& a = m.animations[0];
    EXPECT_EQ(a.name, "TRAMeuler");
    const auto* b0 = channel(a, 0, "rotation");
    ASSERT_NE(b0, nullptr);
    EXPECT_EQ(b0->times, (std::vector<float>{0.0f, static_cast<float>(2 / 60.0)}));
    expect_rotation(b0->values[0], {0.707115255, 0, 0, 0.707098307});  // 0x4000 about x
    expect_rotation(b0->values[1], {0, 0, 0, 1});
    const auto* b1 = channel(a, 1, "rotation");
    ASSERT_NE(b1, nullptr);
    ASSERT_EQ(b1->times.size(), 3u);
    expect_rotation(b1->values[0], {0, 0, 0.382688968, 0.923877239});  // 0x2000 about z
    expect_rotation(b1->values[1], {0, 0.707115255, 0, 0.707098307});  // 0x4000 about y
    expect_rotation(b1->values[2], by_hand(1820 * u, 3641 * u, 5461 * u));
    expect_rotation(b1->values[2], {0.127660766, 0.144892622, 0.268521924, 0.943718620}, 1e-6);
    const auto* root = channel(a, 0, "translation");
    ASSERT_NE(root, nullptr);
    // heights 1, 2, 3 (the last held); x = 0, 1, 1, 4 and z = 0, 0, 2, 5: the velocities summed
    const std::vector<std::array<float, 4>> want{{0, 1, 0, 0}, {1, 2, 0, 0}, {1, 3, 2, 0}, {4, 3, 5, 0}};
    EXPECT_EQ(root->values, want);
    EXPECT_EQ(root->times.size(), 4u);
  }
  {
    const auto& a = m.animations[1];  // 16-byte keys: the stored w negated
    EXPECT_EQ(a.name, "TRAMquat");
    const auto* b0 = channel(a, 0, "rotation");
    ASSERT_NE(b0, nullptr);
    expect_rotation(b0->values[0], {0, 0, 0.70710678, 0.70710678});
    expect_rotation(b0->values[1], {0, 0, 0, 1});
    const auto* b1 = channel(a, 1, "rotation");
    ASSERT_NE(b1, nullptr);
    expect_rotation(b1->values[0], {1, 0, 0, 0});
    expect_rotation(b1->values[1], {0, 1, 0, 0});
    const auto* root = channel(a, 0, "translation");
    ASSERT_NE(root, nullptr);  // no heights or velocities: the rest position throughout
    for (const auto& v : root->values) EXPECT_EQ(v, (std::array<float, 4>{0, 0, 0, 0}));
  }
  {
    const auto& a = m.animations[2];  // an overlay moving bone 1 only, without root motion
    EXPECT_EQ(a.name, "TRAMoverlay");
    ASSERT_EQ(a.channels.size(), 1u);
    EXPECT_EQ(a.channels[0].node, 1);
    expect_rotation(a.channels[0].values[0], {0.707115255, 0, 0, 0.707098307});
  }
}

// The conversion's order is the engine's: the quaternion's matrix equals Rx * Ry * Rz built from
// plain rotation matrices (a column vector turned about z first; OBD:TRCM).
// OniSplit's DAE of the goldens lists rotX, rotY, rotZ on every node (COLLADA composes them in order:
// M = Rx Ry Rz), so a vertex turns about z first.
TEST(OniCharacter, EulerOrderIsZThenYThenX) {
  using M = std::array<std::array<double, 3>, 3>;
  const auto mul = [](const M& a, const M& b) {
    M r{};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) r[i][j] += a[i][k] * b[k][j];
    return r;
  };
  const double x = 10 * std::numbers::pi / 180, y = -35 * std::numbers::pi / 180, z = 120 * std::numbers::pi / 180;
  const M rx{{{1, 0, 0}, {0, std::cos(x), -std::sin(x)}, {0, std::sin(x), std::cos(x)}}};
  const M ry{{{std::cos(y), 0, std::sin(y)}, {0, 1, 0}, {-std::sin(y), 0, std::cos(y)}}};
  const M rz{{{std::cos(z), -std::sin(z), 0}, {std::sin(z), std::cos(z), 0}, {0, 0, 1}}};
  const M want = mul(rx, mul(ry, rz));
  const auto q = oni::euler_quaternion(10, -35, 120);
  const double a = q[0], b = q[1], c = q[2], w = q[3];
  const M got{{{1 - 2 * (b * b + c * c), 2 * (a * b - c * w), 2 * (a * c + b * w)},
               {2 * (a * b + c * w), 1 - 2 * (a * a + c * c), 2 * (b * c - a * w)},
               {2 * (a * c - b * w), 2 * (b * c + a * w), 1 - 2 * (a * a + b * b)}}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(got[i][j], want[i][j], 1e-6) << i << j;
}

// Without a TRAC the TRAMs with the body's bone count are the character's (the goldens' case).
TEST(OniCharacter, HandMadeWithoutCollection) {
  testing::CharacterFixture x;
  x.trac = false;
  const auto f = testing::load_character_level(testing::character_level(x));
  auto refs = oni::character_animations(*f, 0, 2);
  ASSERT_TRUE(refs.ok()) << refs.error().str();
  ASSERT_EQ(refs->size(), 3u);
  EXPECT_EQ((*refs)[0].index, 7u);
  auto counts = oni::character_counts(f->file, 0);
  ASSERT_TRUE(counts.ok()) << counts.error().str();
  EXPECT_EQ(counts->bones, 2u);
  EXPECT_EQ(counts->animations, 3u);
  EXPECT_EQ(counts->frames, 3u + 2u + 2u);
}

// Key durations past the frame count, no frames, and a bone count that is not the body's.
TEST(OniCharacter, HandMadeRefusals) {
  testing::CharacterFixture x;
  x.first_duration = 5;  // bone 0: 5 frames of 3
  auto f = testing::load_character_level(testing::character_level(x));
  auto a = oni::decode_tram(*f, 7);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().code, "oni.tram");
  EXPECT_NE(a.error().message.find("bone 0's key durations pass the 3 frames"), std::string::npos) << a.error().str();
  Diagnostics d;
  oni::verify_tram(*f, 7, d);
  ASSERT_EQ(d.items().size(), 1u);
  auto s = oni::character_scene(*f, 0);  // the character still exports, without that animation
  ASSERT_TRUE(s.ok()) << s.error().str();
  EXPECT_EQ(s->animations.size(), 2u);
  EXPECT_EQ(std::get<std::string>(s->extras.at("skipped")), "instance[7] TRAM TRAMeuler");
  x = {};
  x.tram_frames = 0;
  f = testing::load_character_level(testing::character_level(x));
  a = oni::decode_tram(*f, 7);
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.error().message.find("no frames"), std::string::npos);
  x = {};
  x.tram_bones = 1;  // reads one track, but the body has 2 parts
  f = testing::load_character_level(testing::character_level(x));
  d = {};
  oni::verify_character(*f, 0, nullptr, d);
  ASSERT_EQ(d.items().size(), 1u);
  EXPECT_EQ(d.items()[0].where.code, "oni.character-bones");
}

// The offsets character.h uses are where the BFW layouts (oni-templates.txt, built in) put the
// links and .raw offsets: every 4-byte field of an instance set to a link, walked.
std::vector<std::pair<std::uint32_t, std::uint32_t>> walked_links(const char (&tag)[5], std::uint32_t size, std::uint32_t count_at = 0) {
  const oni::LayoutSet& set = oni::builtin_layouts(oni::TemplateSet::v10);
  const oni::CompiledLayout* l = nullptr;
  for (const auto& c : set.all())
    if (c.tag() == oni::make_tag(tag)) l = &c;
  EXPECT_NE(l, nullptr) << tag;
  if (l == nullptr) return {};
  ByteBuffer b(size, 0);
  for (std::uint32_t at = 8; at + 4 <= size; at += 4) b[at] = 1, b[at + 1] = 1;  // 0x101: instance 1
  if (count_at) b[count_at] = 1, b[count_at + 1] = 0;
  std::vector<oni::FieldRef> refs;
  EXPECT_TRUE(oni::walk_instance(*l, ByteView(b), refs).ok()) << tag;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  for (const auto& r : refs)
    if (r.kind == oni::FieldKind::link) out.emplace_back(r.offset, r.tag);
  return out;
}

TEST(OniCharacter, OffsetsAreTheTemplateLayouts) {
  using oni::make_tag;
  const auto has = [](const std::vector<std::pair<std::uint32_t, std::uint32_t>>& v, std::uint32_t at, std::uint32_t tag) {
    return std::find(v.begin(), v.end(), std::pair{at, tag}) != v.end();
  };
  const auto oncc = walked_links("ONCC", oni::OnccFields::kSize);
  EXPECT_TRUE(has(oncc, oni::OnccFields::kBody, make_tag("TRBS")));
  EXPECT_TRUE(has(oncc, oni::OnccFields::kTextures, make_tag("TRMA")));
  EXPECT_TRUE(has(oncc, oni::OnccFields::kAnimations, make_tag("TRAC")));
  const auto trbs = walked_links("TRBS", oni::TrbsFields::kSize);
  for (std::uint32_t k = 0; k < oni::TrbsFields::kBodies; ++k) EXPECT_TRUE(has(trbs, oni::TrbsFields::kFirstBody + 4 * k, make_tag("TRCM")));
  const auto trcm = walked_links("TRCM", oni::TrcmFields::kSize);
  EXPECT_TRUE(has(trcm, oni::TrcmFields::kGeometry, make_tag("TRGA")));
  EXPECT_TRUE(has(trcm, oni::TrcmFields::kTranslations, make_tag("TRTA")));
  EXPECT_TRUE(has(trcm, oni::TrcmFields::kHierarchy, make_tag("TRIA")));
  const auto trac = walked_links("TRAC", oni::TracFields::kFirst + oni::TracFields::kElement, oni::TracFields::kCount);
  EXPECT_TRUE(has(trac, oni::TracFields::kParent, make_tag("TRAC")));
  EXPECT_TRUE(has(trac, oni::TracFields::kFirst + oni::TracFields::kAnimation, make_tag("TRAM")));
  const auto trga = walked_links("TRGA", 0x24, 0x1E);
  EXPECT_TRUE(has(trga, 0x20, make_tag("M3GM")));
  // TRAM's .raw offsets (spec: oni-templates.md, OniSplit's raw fields 0x0C-0x38)
  const auto rules = oni::retail_chunk_rules(make_tag("TRAM"), 0x107e3cc918ull);
  for (std::uint32_t at : {oni::TramFields::kHeights, oni::TramFields::kVelocities, oni::TramFields::kRotations})
    EXPECT_TRUE(std::any_of(rules.begin(), rules.end(), [&](const oni::ChunkRule& r) { return r.offset == at && r.kind == oni::FieldKind::raw; })) << at;
}

// Every byte of the level's instances and of the .raw set to 0x00, 0xFF and 0x80 in turn: the
// export never crashes, and a failure names a structure and has an oni code.
TEST(OniCharacter, MutationSweep) {
  const testing::CharacterLevel good = testing::character_level();
  std::size_t runs = 0, errors = 0;
  const auto once = [&](const testing::CharacterLevel& l) {
    const auto f = testing::load_character_level(l);
    ++runs;
    if (!f->opened) return;
    Diagnostics d;
    oni::verify_character(*f, 0, nullptr, d);
    for (std::uint32_t i = 7; i < 10 && i < f->file.instance_count(); ++i) oni::verify_tram(*f, i, d);
    auto s = oni::character_scene(*f, 0);
    if (!s) {
      ++errors;
      EXPECT_TRUE(s.error().code.starts_with("oni.")) << s.error().str();
      EXPECT_FALSE(s.error().structure.empty()) << s.error().str();
    } else if (runs % 8 == 0) {
      EXPECT_TRUE(model::write_glb(*s).ok());
    }
  };
  const auto f0 = testing::load_character_level(good);
  const std::size_t data_from = f0->file.header().data_offset;
  for (std::size_t k = data_from; k < good.dat.size(); k += 2)
    for (std::uint8_t v : {0x00, 0xFF, 0x80}) {
      testing::CharacterLevel l = good;
      l.dat[k] = v;
      once(l);
    }
  for (std::size_t k = 0; k < good.raw.size(); ++k)
    for (std::uint8_t v : {0x00, 0xFF, 0x80}) {
      testing::CharacterLevel l = good;
      l.raw[k] = v;
      once(l);
    }
  for (std::size_t n = 0; n < good.raw.size(); n += 3) {  // a .raw cut short
    testing::CharacterLevel l = good;
    l.raw.resize(n);
    once(l);
  }
  EXPECT_GT(runs, 3000u);
  EXPECT_GT(errors, 50u);
}


// fuzz/corpus/oni_character holds the hand-made characters in the target's input form (u32 .dat
// length, .dat, .raw); ASSAY_WRITE_ONI_CHARACTER_CORPUS=DIR writes them anew.
TEST(OniCharacter, FuzzCorpusHoldsTheFixtures) {
  auto input = [](const testing::CharacterLevel& l) {
    ByteBuffer b;
    const auto n = static_cast<std::uint32_t>(l.dat.size());
    for (int k = 0; k < 4; ++k) b.push_back(static_cast<std::uint8_t>(n >> (8 * k)));
    b.insert(b.end(), l.dat.begin(), l.dat.end());
    b.insert(b.end(), l.raw.begin(), l.raw.end());
    return b;
  };
  testing::CharacterFixture no_trac;
  no_trac.trac = false;
  const std::vector<std::pair<std::string, ByteBuffer>> seeds = {{"hand.bin", input(testing::character_level())},
                                                                  {"no_trac.bin", input(testing::character_level(no_trac))}};
  testing::check_fuzz_seeds("ASSAY_WRITE_ONI_CHARACTER_CORPUS", "oni_character", seeds);
}

}  // namespace
}  // namespace oni_character_test
}  // namespace assay
