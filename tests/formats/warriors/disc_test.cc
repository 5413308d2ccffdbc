// DIR/WAD: spec warriors.md#wr-11-1 (hash vectors), #wr-11-2 (synthetic DIR/WAD and its
// mutations, repack vectors), #wr-1-2 (disc argument: folder, DIR file, ISO image).
#include <gtest/gtest.h>

#include "assay/core/hash.h"
#include "assay/options.h"
#include "assay/formats/warriors/disc.h"
#include "assay/formats/warriors/writer.h"
#include "helpers.h"
#include "testing/families.h"

namespace assay::warriors {
namespace {

using test::get32;
using test::le32;
using test::set32;

TEST(WarriorsHash, SpecVectors) {
  EXPECT_EQ(crc32(std::string_view("123456789")), 0xCBF43926u);
  EXPECT_EQ(name_hash("./ee_files/global.lua"), 0x7E23A6F2u);
  EXPECT_EQ(name_hash("GLOBAL.LUA"), 0x7E23A6F2u);
  EXPECT_EQ(name_hash("ee_files/Global.lua"), 0x7E23A6F2u);
  EXPECT_EQ(name_hash("level1.lev"), 0x393F70E2u);
  EXPECT_EQ(name_hash("level99.lev"), 0x44E9A4F4u);
  EXPECT_EQ(name_hash("warriors.glr"), 0xF5C908B1u);
  EXPECT_EQ(name_hash("scene_list.cnk"), 0x13650964u);
  EXPECT_EQ(name_hash("global.pak"), 0xA564C2ADu);
  EXPECT_EQ(name_hash("level1s_sec.wld"), 0x9BFFEDF8u);
  EXPECT_EQ(name_hash("level1s_sec.mem"), 0x2250C8B3u);
  EXPECT_EQ(name_hash("level1s_ms1.sec"), 0x73EDF170u);
  EXPECT_EQ(crc32(std::string_view("package")), 0xDE686795u);
  EXPECT_EQ(crc32(std::string_view("always")), 0xA6A43C1Bu);
  EXPECT_EQ(crc32(std::string_view("level1")), 0x07F844A5u);
  EXPECT_EQ(crc32(std::string_view("level1s_ms1.sec")), 0xCBAC271Eu);
  EXPECT_EQ(crc32(std::string_view("Level1s_ms1.sec")), 0x43691980u);
  EXPECT_EQ(name_hash("0x7e23a6f2"), 0x7E23A6F2u);  // a raw hash
  EXPECT_EQ(normalise_name("ee_files/Global.lua"), "./ee_files/global.lua");
}

TEST(WarriorsHash, CliPrintsTheWadHash) {
  auto r = assay::testing::run_cli("hash warriors ./ee_files/global.lua GLOBAL.LUA");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "7e23a6f2\n7e23a6f2\n");
}

// spec #wr-11-2, built byte by byte.
struct TwoEntry {
  ByteBuffer dir = [] {
    ByteBuffer d = le32({2, 0, 0, 0, 0, 5, 0x7E23A6F2, 2048, 100, 0x393F70E2});
    return d;
  }();
  ByteBuffer wad = ByteBuffer(4096, 0xAB);
};

std::vector<std::string> messages(const Disc& d, Severity s) {
  Diagnostics diag;
  d.validate(diag);
  std::vector<std::string> out;
  for (const auto& x : diag.items())
    if (x.severity == s) out.push_back(x.where.message);
  return out;
}

bool has_rule(const std::vector<std::string>& m, const std::string& rule) {
  for (const auto& s : m)
    if (s.rfind(rule + ":", 0) == 0) return true;
  return false;
}

TEST(WarriorsDisc, TwoEntryDiscIsClean) {
  TwoEntry t;
  ASSERT_EQ(t.dir.size(), 40u);
  auto d = Disc::from_views(t.dir, t.wad);
  ASSERT_TRUE(d) << d.error().str();
  EXPECT_EQ(d->count(), 2u);
  Diagnostics diag;
  d->validate(diag);
  EXPECT_TRUE(diag.items().empty()) << diag.items().front().where.str();
  EXPECT_EQ(d->find(name_hash("GLOBAL.LUA"))->index, 0u);
  EXPECT_EQ(d->find(name_hash("level1.lev"))->index, 1u);
  auto b = d->entry_bytes(d->entry(1));
  ASSERT_TRUE(b);
  EXPECT_EQ(b->data(), t.wad.data() + 2048);
  EXPECT_EQ(b->size(), 100u);
}

TEST(WarriorsDisc, MutationsGiveTheSpecsRules) {
  {
    TwoEntry t;
    t.dir.pop_back();  // 39 bytes
    auto d = Disc::from_views(t.dir, t.wad);
    ASSERT_FALSE(d);
    EXPECT_NE(d.error().message.find("D1"), std::string::npos);
  }
  auto errors_after = [](auto mutate, Severity s) {
    TwoEntry t;
    mutate(t);
    auto d = Disc::from_views(t.dir, t.wad);
    EXPECT_TRUE(d);
    return messages(*d, s);
  };
  EXPECT_TRUE(has_rule(errors_after([](TwoEntry& t) { set32(t.dir, 28, 2050); }, Severity::error), "D3"));
  EXPECT_TRUE(has_rule(errors_after([](TwoEntry& t) { set32(t.dir, 28, 0); }, Severity::error), "D4"));
  EXPECT_TRUE(has_rule(errors_after([](TwoEntry& t) { set32(t.dir, 32, 3000); }, Severity::error), "D5"));
  EXPECT_TRUE(has_rule(errors_after([](TwoEntry& t) { set32(t.dir, 20, 2049); }, Severity::error), "D6"));
  EXPECT_TRUE(has_rule(errors_after([](TwoEntry& t) { t.wad.resize(8192); }, Severity::warning), "D8"));
  EXPECT_TRUE(has_rule(errors_after([](TwoEntry& t) { set32(t.dir, 36, 0x7E23A6F2); }, Severity::warning), "D9"));
  EXPECT_TRUE(has_rule(errors_after([](TwoEntry& t) { t.dir[5] = 1; }, Severity::warning), "D2"));
  EXPECT_TRUE(has_rule(errors_after([](TwoEntry& t) { set32(t.dir, 20, 0); }, Severity::warning), "D10"));
  // a DIR entry past the WAD: D5, and entry_bytes refuses it
  TwoEntry t;
  set32(t.dir, 28, 1u << 30);
  auto d = Disc::from_views(t.dir, t.wad);
  ASSERT_TRUE(d);
  EXPECT_FALSE(d->entry_bytes(d->entry(1)));
  // a count of 0x7FFFFFFF is refused before any row is read
  set32(t.dir, 0, 0x7FFFFFFF);
  EXPECT_FALSE(Disc::from_views(t.dir, t.wad));
}

std::pair<ByteBuffer, ByteBuffer> repacked(const TwoEntry& t, const ByteBuffer& replacement) {
  assay::testing::TempDir tmp;
  test::write_disc_folder(tmp / "in", {t.dir, t.wad});
  assay::testing::write_file(tmp / "global.lua", replacement);
  auto in = Input::open(tmp / "in");
  EXPECT_TRUE(in);
  auto d = Disc::open(*in);
  EXPECT_TRUE(d);
  auto st = repack(*d, {{0x7E23A6F2u, tmp / "global.lua"}}, tmp / "out", false);
  EXPECT_TRUE(st) << (st ? "" : st.error().str());
  return {assay::testing::read_file(tmp / "out" / "WARRIORS.DIR"), assay::testing::read_file(tmp / "out" / "WARRIORS.WAD")};
}

TEST(WarriorsRepack, Replace3000Bytes) {
  TwoEntry t;
  auto [dir, wad] = repacked(t, ByteBuffer(3000, 0x77));
  EXPECT_EQ(dir, le32({2, 0, 0, 0, 0, 3000, 0x7E23A6F2, 4096, 100, 0x393F70E2}));
  ASSERT_EQ(wad.size(), 6144u);
  for (std::size_t i = 3000; i < 4096; ++i) ASSERT_EQ(wad[i], 0) << i;
  EXPECT_TRUE(std::equal(wad.begin() + 4096, wad.begin() + 4196, t.wad.begin() + 2048));
}

TEST(WarriorsRepack, ReplaceOneByteOnlyChangesTheSize) {
  TwoEntry t;
  auto [dir, wad] = repacked(t, ByteBuffer(1, 0x77));
  EXPECT_EQ(dir, le32({2, 0, 0, 0, 0, 1, 0x7E23A6F2, 2048, 100, 0x393F70E2}));
  ASSERT_EQ(wad.size(), 4096u);
  EXPECT_EQ(wad[0], 0x77);
  EXPECT_TRUE(std::equal(wad.begin() + 2048, wad.end(), t.wad.begin() + 2048));
}

TEST(WarriorsRepack, UnchangedInputIsByteIdentical) {
  TwoEntry t;
  auto [dir, wad] = repacked(t, ByteBuffer(t.wad.begin(), t.wad.begin() + 5));
  EXPECT_EQ(dir, t.dir);
  EXPECT_EQ(wad, t.wad);  // the original's padding bytes (0xAB here) are kept
}

TEST(WarriorsDiscArgument, FolderDirFileAndIso) {
  assay::testing::TempDir tmp;
  TwoEntry t;
  std::filesystem::create_directories(tmp / "lower");
  assay::testing::write_file(tmp / "lower" / "warriors.dir", t.dir);  // case-insensitive names
  assay::testing::write_file(tmp / "lower" / "Warriors.Wad", t.wad);
  for (const auto& p : {tmp / "lower", tmp / "lower" / "warriors.dir"}) {
    auto in = Input::open(p);
    ASSERT_TRUE(in);
    EXPECT_TRUE(looks_like_disc(*in)) << p;
    auto d = Disc::open(*in);
    ASSERT_TRUE(d) << d.error().str();
    EXPECT_EQ(d->count(), 2u);
    EXPECT_EQ(d->wad_bytes().size(), 4096u);
  }
  // ISO 9660 image written by our own minimal writer (no xorriso needed)
  ByteBuffer iso = test::make_iso({{"README.TXT;1", ByteBuffer(10, 'x')}, {"WARRIORS.DIR;1", t.dir}, {"WARRIORS.WAD;1", t.wad}});
  assay::testing::write_file(tmp / "disc.iso", iso);
  auto in = Input::open(tmp / "disc.iso");
  ASSERT_TRUE(in);
  EXPECT_TRUE(looks_like_disc(*in));
  auto d = Disc::open(*in);
  ASSERT_TRUE(d) << d.error().str();
  EXPECT_EQ(d->source(), DiscSource::iso);
  EXPECT_EQ(d->count(), 2u);
  auto e = d->entry_bytes(d->entry(1));
  ASSERT_TRUE(e);
  EXPECT_EQ(e->data(), in->bytes.data() + 2048 * (21 + 1 + 1) + 2048);  // WAD in place, not copied
  // an image without the WAD names it
  assay::testing::write_file(tmp / "nowad.iso", test::make_iso({{"WARRIORS.DIR;1", t.dir}}));
  auto in2 = Input::open(tmp / "nowad.iso");
  auto d2 = Disc::open(*in2);
  ASSERT_FALSE(d2);
  EXPECT_NE(d2.error().message.find("WARRIORS.WAD"), std::string::npos);
  // a folder without the DIR names it
  std::filesystem::create_directories(tmp / "empty");
  auto d3 = Disc::open(*Input::open(tmp / "empty"));
  ASSERT_FALSE(d3);
  EXPECT_NE(d3.error().message.find("WARRIORS.DIR"), std::string::npos);
}

TEST(WarriorsNames, NamesFileGivesNamesAndFiles) {
  assay::testing::TempDir tmp;
  const std::string text = "GLOBAL.LUA\r\n# comment\n  level1.lev\n";
  assay::testing::write_file(tmp / "names.txt", ByteView(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  auto t = NameTable::load({(tmp / "names.txt").string()});
  ASSERT_TRUE(t);
  EXPECT_EQ(t->size(), 2u);
  ASSERT_NE(t->find(0x7E23A6F2), nullptr);
  EXPECT_EQ(*t->find(0x7E23A6F2), "GLOBAL.LUA");
  EXPECT_EQ(entry_file_name({0, 0, 5, 0x393F70E2}, *t), "level1.lev");
  EXPECT_EQ(entry_file_name({0, 0, 5, 0x0000ABCD}, *t), "0000abcd.bin");
}

}  // namespace
}  // namespace assay::warriors

namespace assay::warriors {
namespace {

TEST(WarriorsIdentify, StrictAboutWhatItClaims) {
  auto score = [](const Input& in) { return kWarriorsFamily.identify(in); };
  // RenderWare streams, short and random files are not ours
  EXPECT_EQ(score(Input::from_buffer("a.dff", rw_clump(2))), 0);
  EXPECT_EQ(score(Input::from_buffer("a.txd", rw_texture_dictionary(1))), 0);
  EXPECT_EQ(score(Input::from_buffer("z", ByteBuffer(64, 0))), 0);   // count 0
  EXPECT_EQ(score(Input::from_buffer("r", ByteBuffer(100, 0x5A))), 0);
  // a world part parses loosely but is not a container
  EXPECT_EQ(score(Input::from_buffer("p", samples::world_part("x_ms1.sec"))), 0);
  // exact containers are
  EXPECT_GT(score(Input::from_buffer("l", samples::level())), 0);
  EXPECT_GT(score(Input::from_buffer("p", samples::pack())), 0);
  // a DIR is recognised by its name
  assay::testing::TempDir tmp;
  const DiscImage d = samples::disc(samples::disc_entries());
  assay::testing::write_file(tmp / "OTHER.DIR", d.dir);
  EXPECT_EQ(score(*Input::open(tmp / "OTHER.DIR")), 0);
  ByteBuffer bad = d.dir;
  bad.push_back(0);
  assay::testing::write_file(tmp / "WARRIORS.DIR", bad);
  // The name alone claims a DIR of the wrong size, so open() explains it (D1; issue 15 item 5).
  EXPECT_GT(score(*Input::open(tmp / "WARRIORS.DIR")), 0);
  EXPECT_FALSE(Disc::open(*Input::open(tmp / "WARRIORS.DIR")).ok());
  assay::testing::write_file(tmp / "WARRIORS.DIR", d.dir);
  EXPECT_EQ(score(*Input::open(tmp / "WARRIORS.DIR")), 100);
  EXPECT_EQ(score(*Input::open(tmp.path())), 0);  // a folder needs the WAD too
  assay::testing::write_file(tmp / "WARRIORS.WAD", d.wad);
  EXPECT_EQ(score(*Input::open(tmp.path())), 100);
  // an ISO without the files is not ours
  assay::testing::write_file(tmp / "x.iso", test::make_iso({{"SYSTEM.CNF;1", ByteBuffer(5, 'a')}}));
  EXPECT_EQ(score(*Input::open(tmp / "x.iso")), 0);
}

}  // namespace
}  // namespace assay::warriors

namespace assay::warriors {
namespace {

TEST(WarriorsDiscArgument, InterleavedIsoFileIsAnError) {
  const ByteBuffer dir = test::le32({1, 0, 0, 0, 0, 5, 0x7E23A6F2});
  ByteBuffer iso = test::make_iso({{"WARRIORS.DIR;1", dir}, {"WARRIORS.WAD;1", ByteBuffer(2048, 1)}});
  // root records: ".", "..", then WARRIORS.DIR at 20 * 2048 + 34 + 34
  const std::size_t rec = 20 * 2048 + 34 + 34;
  ASSERT_EQ(iso[rec + 32], 14);
  iso[rec + 26] = 1;  // interleave unit size
  assay::testing::TempDir tmp;
  assay::testing::write_file(tmp / "i.iso", iso);
  auto d = Disc::open(*Input::open(tmp / "i.iso"));
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().message.find("interleaved"), std::string::npos);
}

}  // namespace
}  // namespace assay::warriors
