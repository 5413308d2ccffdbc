// verify's cross-entry and shape rules on small synthetic discs: V13 (level shape, spec
// warriors.md#wr-6-3), V18-V20 (streamed-world files, #wr-9-2, #wr-9-4), V1/V2/V21 (#wr-10-2).
#include <gtest/gtest.h>

#include "assay/core/hash.h"
#include "assay/options.h"
#include "assay/formats/warriors/disc.h"
#include "helpers.h"
#include "testing/families.h"

namespace assay::warriors {
namespace {

struct Found {
  std::string rule;
  Severity severity;
  std::string structure;
};

std::vector<Found> verify_disc(const std::vector<samples::SampleEntry>& entries) {
  assay::testing::TempDir tmp;
  test::write_disc_folder(tmp / "d", samples::disc(entries));
  std::string names;
  for (const auto& e : entries) names += e.name + "\n";
  assay::testing::write_file(tmp / "names.txt", ByteView(reinterpret_cast<const std::uint8_t*>(names.data()), names.size()));
  auto in = Input::open(tmp / "d");
  EXPECT_TRUE(in);
  ReadOptions opt;
  opt.names_files = {(tmp / "names.txt").string()};
  Diagnostics d;
  ::assay::testing::verify_of(*in, "warriors", opt, d);
  std::vector<Found> out;
  for (const auto& x : d.items()) {
    const auto& m = x.where.message;
    out.push_back({m.substr(0, m.find(':')), x.severity, x.where.structure});
  }
  return out;
}

bool has(const std::vector<Found>& f, const std::string& rule, Severity s, const std::string& in_structure) {
  for (const auto& x : f)
    if (x.rule == rule && x.severity == s && x.structure.find(in_structure) != std::string::npos) return true;
  return false;
}

TEST(WarriorsVerifyRules, StreamedWorldFiles) {
  const ByteBuffer wld = samples::world_stream(1);
  const ByteBuffer part1 = samples::world_part("level1s_ms1.sec");
  std::vector<samples::SampleEntry> e = {
      {"level1s_sec.wld", EntryKind::world_stream, wld},
      // worldSize one byte off, part 1 size right
      {"level1s_sec.mem", EntryKind::world_manifest,
       samples::world_manifest(static_cast<std::uint32_t>(wld.size() + 1), {static_cast<std::uint32_t>(part1.size())})},
      {"level1s_ms1.sec", EntryKind::world_part, part1},
      {"level1s_ms2.sec", EntryKind::world_part, samples::world_part("level1s_ms2.sec")},  // above partCount 1
      {"level1s_ms3.sec", EntryKind::world_part, samples::world_part("level1s_ms9.sec")},  // wrong own-name hash
  };
  auto f = verify_disc(e);
  EXPECT_TRUE(has(f, "V19", Severity::warning, "level1s_sec.mem"));
  EXPECT_TRUE(has(f, "V20", Severity::note, "level1s_ms2.sec"));
  EXPECT_TRUE(has(f, "V20", Severity::note, "level1s_ms3.sec"));
  EXPECT_TRUE(has(f, "V18", Severity::warning, "level1s_ms3.sec"));
  EXPECT_FALSE(has(f, "V20", Severity::note, "level1s_ms1.sec"));
  for (const auto& x : f) EXPECT_NE(x.severity, Severity::error) << x.rule << " " << x.structure;
}

TEST(WarriorsVerifyRules, LevelShapeAndNamedKinds) {
  auto short_level = samples::level_chunks();
  short_level.pop_back();  // no Subtitles: still loads, but not the 18 chunks of 6.3
  auto extra = samples::level_chunks();
  extra.push_back({0x28, 0, ByteBuffer(544, 0), 0});  // a chunk left on the stack
  std::vector<samples::SampleEntry> e = {
      {"level2.lev", EntryKind::resource, *write_resource(1, short_level)},
      {"level3.lev", EntryKind::resource, *write_resource(1, extra)},
      {"level4.lev", EntryKind::lua, ByteBuffer(40, 0x61)},          // V2: not a resource
      {"global.pak", EntryKind::resource, samples::animation("x")},  // V1: named .pak, not a pack
      {"intro.lua", EntryKind::resource, samples::animation("y")},   // V21: structure differs
  };
  auto f = verify_disc(e);
  EXPECT_TRUE(has(f, "V13", Severity::warning, "level2.lev"));
  EXPECT_TRUE(has(f, "V13", Severity::warning, "level3.lev"));
  EXPECT_TRUE(has(f, "V2", Severity::error, "level4.lev"));
  EXPECT_TRUE(has(f, "V1", Severity::error, "global.pak"));
  EXPECT_TRUE(has(f, "V21", Severity::warning, "intro.lua"));
}

}  // namespace
}  // namespace assay::warriors
