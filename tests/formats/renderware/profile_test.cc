// Reader profiles (rules R13, R14, R17, R22 of renderware.md#rw-9 supplied by a game family's code;
// RenderWare itself knows no game). A made-up "Game X" profile here; the Warriors one lives in
// src/formats/warriors and is exercised by the Warriors tests.
#include <gtest/gtest.h>

#include "assay/formats/renderware/profile.h"
#include "assay/formats/renderware/texture.h"
#include "assay/formats/renderware/verify.h"
#include "assay/formats/renderware/walker.h"
#include "assay/formats/renderware/writer.h"
#include "rw_test_util.h"

namespace assay::rw {
namespace {

namespace w = writer;
using testing::hdr;

Profile game_x() {
  Profile p;
  p.name = "Game X";
  p.min_texture_version = 0x35000;
  p.max_texture_version = 0x37002;
  p.ps2_raster_formats = {0x2504};
  p.raster_severity = Severity::error;
  p.native_data_size = Severity::note;
  p.plugins = {{0x7777, "Game X plugin"}};
  return p;
}

std::size_t count_with(const Diagnostics& d, Severity s, std::string_view text) {
  std::size_t n = 0;
  // a rule id is the problem's code; other text is looked for in the message
  const bool rule = text.starts_with("(R");
  const std::string code = rule ? std::string(text.substr(1, text.size() - 2)) : std::string();
  for (const auto& i : d.items())
    n += i.severity == s && (rule ? i.where.code == code : i.where.message.find(text) != std::string::npos);
  return n;
}

TEST(RwProfile, GenericAcceptsEveryRenderWare3) {
  const Profile& g = generic_profile();
  EXPECT_TRUE(g.accepts_texture_version(0x30000));
  EXPECT_TRUE(g.accepts_texture_version(0x3FFFF));
  EXPECT_TRUE(g.ps2_raster_formats.empty());
  EXPECT_EQ(g.native_data_size, Severity::warning);
  EXPECT_EQ(&profile_or_generic(nullptr), &g);
  // no game's plugin ids in RenderWare's own table
  EXPECT_TRUE(section_name(0x3F0).empty());
  EXPECT_TRUE(section_name(0x3F1).empty());
}

TEST(RwProfile, TextureVersionsR14AndRasterFormatsR13) {
  const Profile p = game_x();
  TextureOptions o;
  o.profile = &p;
  o.keep_going = false;
  // PAL8 at 3.7.0.2 (inside), PAL4 (0x4504, not in the profile's list: an error at its severity)
  auto t8 = w::ps2_texture_from_rgba("p8", {image::Rgba{16, 4, ByteBuffer(16 * 4 * 4, 255)}}, false);
  const ByteBuffer ok = w::texture_dictionary({*w::ps2_texture_native(*t8)}, 6);
  Diagnostics d;
  EXPECT_TRUE(TextureDictionary::open(ok, 0, d.sink(), o).ok());
  EXPECT_EQ(d.items().size(), 0u);
  auto t4 = w::ps2_texture_from_rgba("p4", {image::Rgba{16, 4, ByteBuffer(16 * 4 * 4, 255)}}, true);
  const ByteBuffer four = w::texture_dictionary({*w::ps2_texture_native(*t4)}, 6);
  Diagnostics d4;
  EXPECT_TRUE(TextureDictionary::open(four, 0, d4.sink(), o).ok());
  EXPECT_EQ(count_with(d4, Severity::error, "(R13)"), 1u);
  EXPECT_EQ(count_with(d4, Severity::error, "Game X"), 1u);
  Diagnostics g4;  // the generic profile takes any raster format
  EXPECT_TRUE(TextureDictionary::open(four, 0, g4.sink()).ok());
  EXPECT_EQ(g4.items().size(), 0u);
  // 3.6.0.3 is inside, 3.4.0.5 outside: an error naming the profile
  t8->stamp = kStampGtaSa;
  const ByteBuffer sa = w::texture_dictionary({*w::ps2_texture_native(*t8)}, 6, kStampGtaSa);
  EXPECT_TRUE(TextureDictionary::open(sa, 0, {}, o).ok());
  t8->stamp = 0x1005FFFF;
  const ByteBuffer old = w::texture_dictionary({*w::ps2_texture_native(*t8)}, 6, 0x1005FFFF);
  auto r = TextureDictionary::open(old, 0, {}, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, "R14") << r.error().str();
  EXPECT_NE(r.error().message.find("Game X"), std::string::npos) << r.error().str();
  EXPECT_TRUE(TextureDictionary::open(old, 0, {}).ok());  // plain RenderWare: fine
}

TEST(RwProfile, NativeDataSeverityR17AndPluginsR22) {
  // a 0x510 whose inner struct claims more than the body, and a plugin id 0x7777
  ByteWriter b;
  hdr(b, 0x03, 36 + 16);
  hdr(b, 0x510, 24);
  hdr(b, 0x01, 878);
  b.zeros(12);
  hdr(b, 0x7777, 4), b.u32(0);
  const Profile p = game_x();
  Diagnostics generic, game;
  EXPECT_TRUE(verify_stream(b.buffer(), 0, generic.sink()));
  EXPECT_TRUE(verify_stream(b.buffer(), 0, game.sink(), {.walk = {.profile = &p}}));
  EXPECT_EQ(count_with(generic, Severity::warning, "(R17)"), 1u);
  EXPECT_EQ(count_with(game, Severity::note, "(R17)"), 1u);
  EXPECT_EQ(count_with(generic, Severity::note, "(R22)"), 1u);  // unknown to RenderWare
  EXPECT_EQ(count_with(game, Severity::note, "(R22)"), 0u);     // registered by the game
}

}  // namespace
}  // namespace assay::rw
