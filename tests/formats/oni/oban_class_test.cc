// Who names an OBAN (oni/oban.h oban_players): OBOA objects, DOOR and TRIG classes and OBDC door
// class entries, over the hand-made level of tests/model/oni_oban_class_fixture.h (values by hand
// there); the offsets against the templates' byte code (data/oni/templates.txt) and OniSplit's
// field lists; `list` details through the container; the export's structure without a glTF
// reader (tests/model/oni_oban_class_test.cc reads it back); a truncation and mutation sweep of
// players and export.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <memory>

#include "assay/container.h"
#include "assay/formats/oni/oban.h"
#include "formats/json_printer.h"
#include "formats/serialise.h"
#include "model/oni_oban_class_fixture.h"
#include "testing/testing.h"

namespace assay {
namespace oni_oban_class_format_test {
namespace {

using oni::make_tag;

std::unique_ptr<oni::LoadedFile> load_level(const ByteBuffer& dat) {
  auto keep = std::make_shared<ByteBuffer>(dat);
  return oni::load_file("level1_Final.dat", ByteView(*keep), keep, oni::LayoutSource{}, oni::LoadOptions{true, nullptr});
}

// Sizes and offsets from the byte code: DOOR 02 02 | 05 02 09 OFGA 06 (0x08, 0x0C) | 09 OBAN (0x10)
// | 4 x 02 | 2 x char[32] | 02 02 = 0x6C; TRIG 02 02 | 02 03 03 02 02 | 09 M3GM (0x18) | 09 OBLS |
// 02 | 09 TRGE (0x24) | 09 OBAN (0x28) | 2 x char[32] | 02 02 = 0x74; TRGE 02 02 | 6 x 02 | 09 M3GM
// (0x20) | 02 = 0x28; OBDC elements 03 03 09 OBAN (+4) 03 03 02 03 03 02 = 24 bytes; OFGA elements
// 02 09 M3GM (+4) 09 OBLS = 12 bytes.
TEST(OniObanClass, FieldsMatchTheTemplates) {
  EXPECT_EQ(oni::DoorFields::kSize, 8u + 2 * 4 + 4 + 4 * 4 + 2 * 32 + 2 * 4);
  EXPECT_EQ(oni::DoorFields::kAnimation, 8u + 2 * 4);
  EXPECT_EQ(oni::TrigFields::kSize, 8u + 4 + 2 + 2 + 4 + 4 + 4 + 4 + 4 + 4 + 4 + 2 * 32 + 2 * 4);
  EXPECT_EQ(oni::TrigFields::kEmitter, 8u + 4 + 2 + 2 + 4 + 4 + 4 + 4 + 4);
  EXPECT_EQ(oni::TrigFields::kAnimation, oni::TrigFields::kEmitter + 4);
  EXPECT_EQ(oni::TrgeFields::kGeometry, 8u + 6 * 4);
  EXPECT_EQ(oni::ObdcFields::kElement, 2u + 2 + 4 + 2 + 2 + 4 + 2 + 2 + 4);
  EXPECT_EQ(oni::OfgaFields::kElement, 3u * 4);
}

TEST(OniObanClass, PlayersInInstanceOrder) {
  const ByteBuffer dat = testing::oban_class_level();
  auto f = oni::InstanceFile::open(ByteView(dat), "class.dat");
  ASSERT_TRUE(f.ok()) << f.error().str();
  using P = std::vector<oni::ObanPlayer>;
  const P door{{make_tag("DOOR"), 1, 0}, {make_tag("DOOR"), 2, 0}, {make_tag("OBDC"), 9, 0}};
  const P trig{{make_tag("OBDC"), 9, 1}, {make_tag("TRIG"), 11, 0}};
  const P local{{make_tag("OBOA"), 14, 0}};
  EXPECT_EQ(oni::oban_players(*f, 0), door);
  EXPECT_EQ(oni::oban_players(*f, 10), trig);
  EXPECT_EQ(oni::oban_players(*f, 13), local);
  EXPECT_TRUE(oni::oban_players(*f, 4).empty());  // not an OBAN: nothing names it as one
  const auto index = oni::oban_player_index(*f);
  ASSERT_EQ(index.size(), 3u);
  EXPECT_EQ(index.at(0), door);
  EXPECT_EQ(index.at(10), trig);
  EXPECT_EQ(index.at(13), local);
  Json d;
  detail::JsonPrinter p(d);
  oni::print_oban_players(p, door);
  EXPECT_EQ(d.at("oboa_objects"), 0);
  EXPECT_EQ(d.at("door_classes"), 2);
  EXPECT_EQ(d.at("trigger_classes"), 0);
  EXPECT_EQ(d.at("door_class_entries"), 1);
  // The OBOA fixture of oni_oban_fixture.h: one object plays OBANhand, nothing plays OBANcam.
  const ByteBuffer hand = testing::oban_level();
  auto h = oni::InstanceFile::open(ByteView(hand), "hand.dat");
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(oni::oban_players(*h, 0), (P{{make_tag("OBOA"), 1, 0}}));
  EXPECT_TRUE(oni::oban_players(*h, 8).empty());
}

TEST(OniObanClass, ListDetailsCountThePlayers) {
  testing::TempDir t;
  const auto path = t / "level1_Final.dat";
  {
    const ByteBuffer dat = testing::oban_class_level();
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(dat.data()), static_cast<std::streamsize>(dat.size()));
  }
  auto c = open_path(path.string());
  ASSERT_TRUE(c.ok()) << c.error().str();
  std::map<std::string, Json> by_name;
  for (const Entry& e : (*c)->entries())
    if (e.name && e.name->starts_with("OBAN")) by_name[*e.name] = details_json(**c, e);
  ASSERT_EQ(by_name.size(), 3u);
  EXPECT_EQ(by_name["OBANdoor"].at("door_classes"), 2);
  EXPECT_EQ(by_name["OBANdoor"].at("door_class_entries"), 1);
  EXPECT_EQ(by_name["OBANdoor"].at("animation_flags"), 0x18);
  EXPECT_EQ(by_name["OBANtrig"].at("trigger_classes"), 1);
  EXPECT_EQ(by_name["OBANtrig"].at("door_class_entries"), 1);
  EXPECT_EQ(by_name["OBANtrig"].at("oboa_objects"), 0);
  EXPECT_EQ(by_name["OBANlocal"].at("oboa_objects"), 1);
  EXPECT_EQ(by_name["OBANlocal"].at("door_classes"), 0);
  // verify finds nothing wrong with the level (links, OBAN keys).
  Diagnostics d;
  (*c)->verify(d);
  for (const auto& i : d.items()) ADD_FAILURE() << i.where.str();
}

// The scenes before glTF: who supplies the geometry, the node tree, the extras.
TEST(OniObanClass, ScenesTakeTheClassGeometry) {
  const auto f = load_level(testing::oban_class_level());
  ASSERT_TRUE(f->opened);
  auto door = oni::oban_scene(*f, 0);
  ASSERT_TRUE(door.ok()) << door.error().str();
  ASSERT_EQ(door->nodes.size(), 3u);  // Z-up parent, the door class (animated), its M3GM
  EXPECT_EQ(door->nodes[0].name, "OBANdoor Z-up");
  EXPECT_EQ(door->nodes[1].name, "DOORwh");  // DOORbare names the OBAN first but has no geometry
  EXPECT_EQ(door->nodes[1].parent, 0u);
  EXPECT_EQ(door->nodes[2].parent, 1u);
  EXPECT_EQ(std::get<std::string>(door->extras.at("geometry_from")), "DOOR DOORwh (instance 2)");
  EXPECT_EQ(std::get<double>(door->extras.at("door_classes")), 2);
  EXPECT_EQ(std::get<std::string>(door->nodes[1].extras.at("oni_class")), "DOOR");
  EXPECT_EQ(std::get<double>(door->nodes[1].extras.at("class_instance")), 2);
  ASSERT_EQ(door->animations.size(), 1u);
  EXPECT_EQ(door->animations[0].channels[0].node, 1u);

  auto trig = oni::oban_scene(*f, 10);
  ASSERT_TRUE(trig.ok()) << trig.error().str();
  ASSERT_EQ(trig->nodes.size(), 2u);  // not local: the class node is a root
  EXPECT_EQ(trig->nodes[0].name, "TRIGlaser");
  EXPECT_FALSE(trig->nodes[0].parent.has_value());
  EXPECT_EQ(trig->nodes[1].name, "M3GMtri");  // the TRGE emitter's M3GM
  EXPECT_EQ(std::get<std::string>(trig->extras.at("geometry_from")), "TRIG TRIGlaser (instance 11)");

  auto local = oni::oban_scene(*f, 13);
  ASSERT_TRUE(local.ok()) << local.error().str();
  ASSERT_EQ(local->nodes.size(), 3u);  // the crate's origin, the crate (animated), its M3GM
  EXPECT_EQ(local->nodes[0].name, "crate origin");
  EXPECT_EQ(local->nodes[1].name, "crate");
  EXPECT_EQ(local->nodes[1].parent, 0u);
  EXPECT_EQ(std::get<std::string>(local->extras.at("geometry_from")), "OBOA");

  // A singular origin matrix is not applied; the node says so.
  testing::ObanClassFixture x;
  x.origin = false;
  const auto g = load_level(testing::oban_class_level(x));
  auto no_origin = oni::oban_scene(*g, 13);
  ASSERT_TRUE(no_origin.ok()) << no_origin.error().str();
  ASSERT_EQ(no_origin->nodes.size(), 2u);
  EXPECT_EQ(no_origin->nodes[0].name, "crate");
  EXPECT_TRUE(no_origin->nodes[0].extras.contains("note"));
}

// Every cut and byte of the class level: players never point outside their instance or at a
// non-OBAN; the export is a GLB or an error with a code.
TEST(OniObanClass, TruncationAndMutationSweep) {
  const ByteBuffer good = testing::oban_class_level();
  std::size_t exported = 0, refused = 0;
  testing::sweep_cuts_and_bytes(good, [&](const ByteBuffer& b) {
    auto f = oni::InstanceFile::open(ByteView(b), "class.dat");
    if (!f) return;
    for (const auto& [oban, players] : oni::oban_player_index(*f)) {
      ASSERT_EQ(f->descriptor(oban).tag, make_tag("OBAN"));
      for (const auto& p : players) ASSERT_LT(p.instance, f->instance_count());
    }
    const auto l = load_level(b);
    if (!l->opened) return;
    for (std::uint32_t i = 0; i < l->file.instance_count(); ++i) {
      if (l->file.descriptor(i).tag != make_tag("OBAN")) continue;
      auto glb = oni::export_oban_glb(*l, i);
      if (glb) {
        ++exported;
        ASSERT_GE(glb->size(), 12u);
        EXPECT_EQ((*glb)[0], 'g');
      } else {
        ++refused;
        EXPECT_FALSE(glb.error().code.empty()) << glb.error().str();
      }
    }
  });
  EXPECT_GT(exported, good.size());
  EXPECT_GT(refused, 10u);
}

}  // namespace
}  // namespace oni_oban_class_format_test
}  // namespace assay
