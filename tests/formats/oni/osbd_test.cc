// OSBD sound bindings (issue 27, optional item) against ../shared/goldens/oni/sounds: the sound
// group OSBDgrp_sine that OniSplit built from osbd_in/grp_sine.xml (volume 1, pitch 1, one
// channel; permutations weight 10, volume 0.5-1, pitch 0.9-1.1, sine440_m22 and weight 5, all 1,
// noise_s22), in the PC level's .raw and the Mac level's .sep; and hand-made chunks.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "assay/formats/oni/oni.h"
#include "assay/formats/oni/sound_binding.h"
#include "../../../src/formats/oni/sound_parts.h"
#include "testing/testing.h"
#include "formats/serialise.h"

namespace assay::oni {
namespace {

TEST(OniOsbd, GoldenSoundGroupAsTheXmlSaid) {
  ASSAY_REQUIRE_GOLDEN(dir, "oni/sounds");
  for (const char* level : {"GameDataFolder", "GameDataFolder_sep"}) {
    SCOPED_TRACE(level);
    auto f = load_file(dir / level / "level0_Final.dat", LayoutSource{});
    ASSERT_TRUE(f->opened);
    std::uint32_t i = 0;
    while (i < f->file.instance_count() && f->names[i] != "OSBDgrp_sine") ++i;
    ASSERT_LT(i, f->file.instance_count());
    auto j = sound_binding_json(*f, i);
    ASSERT_TRUE(j.ok()) << j.error().str();
    EXPECT_EQ((*j)["kind"], "OSGr");
    EXPECT_EQ((*j)["version"], 6);
    EXPECT_EQ((*j)["size"], 136);
    EXPECT_EQ((*j)["volume"], 1.0);
    EXPECT_EQ((*j)["pitch"], 1.0);
    EXPECT_EQ((*j)["channels"], 1);
    const Json& p = (*j)["permutations"];
    ASSERT_EQ(p.size(), 2u);
    EXPECT_EQ(p[0]["weight"], 10);
    EXPECT_EQ(p[0]["sound"], "sine440_m22");
    EXPECT_FLOAT_EQ(p[0]["volume"][0].get<float>(), 0.5f);
    EXPECT_FLOAT_EQ(p[0]["pitch"][0].get<float>(), 0.9f);
    EXPECT_FLOAT_EQ(p[0]["pitch"][1].get<float>(), 1.1f);
    EXPECT_EQ(p[1]["weight"], 5);
    EXPECT_EQ(p[1]["sound"], "noise_s22");
  }
}

// A version 2 group (wiki: volume only; pitch 1, prevent repeats 0 by default) with one permutation.
ByteBuffer group_v2(std::uint32_t count, std::size_t perms) {
  ByteWriter w;
  w.str("rGSO");
  w.u32(0);
  w.u32(2);
  w.f32(0.25f);
  w.u32(2);  // channels
  w.u32(count);
  for (std::size_t k = 0; k < perms; ++k) {
    w.u32(3), w.f32(1), w.f32(1), w.f32(1), w.f32(1);
    w.str("abc");
    w.zeros(29);
  }
  w.patch<std::uint32_t>(4, static_cast<std::uint32_t>(w.size() - 8));
  return w.take();
}

TEST(OniOsbd, VersionedFieldsAndBounds) {
  auto g = read_sound_group(group_v2(1, 1), 0);
  ASSERT_TRUE(g.ok()) << g.error().str();
  EXPECT_EQ(g->volume, 0.25f);
  EXPECT_EQ(g->pitch, 1.0f);
  EXPECT_EQ(g->prevent_repeats, 0);
  EXPECT_EQ(g->channels, 2u);
  ASSERT_EQ(g->permutations.size(), 1u);
  EXPECT_EQ(g->permutations[0].sound, "abc");
  EXPECT_FALSE(read_sound_group(group_v2(0x10000000, 1), 0).ok());  // count past the chunk: refused before allocating
  const ByteBuffer b = group_v2(1, 1);
  for (std::size_t cut = 0; cut < b.size(); ++cut) EXPECT_FALSE(read_sound_group(ByteView(b).first(cut), 0).ok()) << cut;
}

// What extract --sounds writes for an OSBD: NAME.json, the same JSON.
TEST(OniOsbd, WritesTheBindingAsJson) {
  ASSAY_REQUIRE_GOLDEN(dir, "oni/sounds/GameDataFolder/level0_Final.dat");
  auto f = load_file(dir, LayoutSource{});
  std::uint32_t i = 0;
  while (i < f->file.instance_count() && f->names[i] != "OSBDgrp_sine") ++i;
  ASSERT_LT(i, f->file.instance_count());
  testing::TempDir t;
  auto n = write_sound_binding(*f, i, "OSBDgrp_sine", OutputDir(t.path(), false));
  ASSERT_TRUE(n.ok()) << n.error().str();
  const ByteBuffer b = testing::read_file(t / "OSBDgrp_sine.json");
  const Json j = Json::parse(b.begin(), b.end());
  EXPECT_EQ(j["permutations"][1]["sound"], "noise_s22");
  EXPECT_EQ(j, *sound_binding_json(*f, i));
}

// A sound name that is not UTF-8 (one byte of "sine440_m22" in the .raw set to 0xFF, as a user
// damaged it): the extract writes the JSON by the escaping rule (docs/cli.md#escaping: U+FFFD in
// the text, the raw bytes beside it) instead of failing with an internal error.
TEST(OniOsbd, ANameThatIsNotUtf8IsEscapedInTheJson) {
  ASSAY_REQUIRE_GOLDEN(src, "oni/sounds/GameDataFolder/level0_Final.dat");
  testing::TempDir t;
  for (const char* ext : {".dat", ".raw"})
    std::filesystem::copy_file(src.parent_path() / (std::string("level0_Final") + ext), t / (std::string("level0_Final") + ext));
  ByteBuffer raw = testing::read_file(t / "level0_Final.raw");
  const std::string needle = "sine440_m22";
  const auto at = std::search(raw.begin(), raw.end(), needle.begin(), needle.end());
  ASSERT_NE(at, raw.end());
  at[3] = 0xFF;
  testing::write_file(t / "level0_Final.raw", raw);
  const auto r = testing::run_cli("extract " + testing::shell_quote((t / "level0_Final.dat").string()) + " --sounds -o " +
                                  testing::shell_quote((t / "out").string()));
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  const ByteBuffer b = testing::read_file(t / "out" / "OSBDgrp_sine.json");
  ASSERT_FALSE(b.empty()) << r.err;
  const std::string text(b.begin(), b.end());
  EXPECT_NE(text.find("\"sin\xef\xbf\xbd" "440_m22\""), std::string::npos) << text;  // U+FFFD for the byte
  EXPECT_NE(text.find("_bytes"), std::string::npos) << text;                           // and the bytes beside it
  EXPECT_NO_THROW((void)Json::parse(text));
}

}  // namespace
}  // namespace assay::oni
