// The level set: counts known by construction (samples.cc builds them with our writer), name
// resolution (level 0 wins, placeholders passed over, level 0 walked alone), walk problems, the
// template check, export + pack round trip, and the `oni check` CLI.
#include <gtest/gtest.h>

#include <set>

#include <nlohmann/json.hpp>

#include "fixtures.h"
#include "testing/testing.h"

namespace assay::oni {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;
using testing::shell_quote;

struct SampleDir {
  testing::TempDir dir;
  SampleDir() { EXPECT_TRUE(write_sample_files(dir.path()).ok()); }
  fs::path operator/(const std::string& s) const { return dir / s; }
  // Overwrites a u32 at `field` inside descriptor `index`'s instance of `file`.
  void patch_instance(const std::string& file, std::uint32_t index, std::uint32_t field, std::uint32_t v) const {
    ByteBuffer b = testing::read_file(dir / file);
    auto f = InstanceFile::open(b, file);
    ASSERT_TRUE(f.ok());
    store<std::uint32_t>(b.data() + f->instance_file_offset(f->descriptor(index)) + field, v, Endian::little);
    testing::write_file(dir / file, b);
  }
  void patch(const std::string& file, std::size_t at, std::uint32_t v) const {
    ByteBuffer b = testing::read_file(dir / file);
    store<std::uint32_t>(b.data() + at, v, Endian::little);
    testing::write_file(dir / file, b);
  }
};

bool has(const Diagnostics& d, const std::string& part, Severity s = Severity::error) {
  for (const auto& x : d.items())
    if (x.severity == s && x.where.str().find(part) != std::string::npos) return true;
  return false;
}

TEST(OniLevelSet, CountsKnownByConstruction) {
  SampleDir s;
  auto rep = check_level_set({s.dir.path()}, test::sample_layouts(), 1);
  ASSERT_TRUE(rep.ok()) << rep.error().str();
  EXPECT_TRUE(rep->ok());
  ASSERT_EQ(rep->levels.size(), 2u);
  const LevelCounts& l0 = rep->levels[0];
  EXPECT_EQ(l0.level, 0u);
  EXPECT_EQ(l0.instances, 6u);      // placeholders included
  EXPECT_EQ(l0.placeholders, 1u);
  EXPECT_EQ(l0.links, 5u);          // ZTEXbrick 2 + ZLSTmenu 3 (TXMP links are 0)
  EXPECT_FALSE(l0.into_level0.has_value());
  EXPECT_EQ(l0.unresolved, 1u);     // ZLSTmenu -> placeholder ZANMlevel1_only, although level 1 has it
  const LevelCounts& l1 = rep->levels[1];
  EXPECT_EQ(l1.level, 1u);
  EXPECT_EQ(l1.instances, 5u);
  EXPECT_EQ(l1.placeholders, 2u);
  EXPECT_EQ(l1.links, 9u);          // level 0's 5 + ZLSTlist's 4
  EXPECT_EQ(l1.into_level0, 2u);    // ZANMwalk (placeholder here) and TXMPbrick (level 0's copy wins)
  EXPECT_EQ(l1.unresolved, 2u);     // level 0's 1 + ZANMmissing (in no level)
  EXPECT_EQ(rep->instances, 11u);
  EXPECT_EQ(rep->links, 9u);
  EXPECT_TRUE(has(rep->diags, "level 1 has no level1_Final.dat", Severity::warning));
}

// Levels run in parallel, each waiting for level 0 only to resolve: copies of level 1 under other
// level numbers each count as level 1 does (known by construction above), with any thread count.
TEST(OniLevelSet, ParallelLevelsWaitForLevel0) {
  SampleDir s;
  for (int lev = 2; lev <= 7; ++lev) fs::copy_file(s / "level1_X.dat", s / ("level" + std::to_string(lev) + "_X.dat"));
  std::optional<std::uint32_t> hash1;
  for (unsigned threads : {1u, 2u, 4u}) {
    auto rep = check_level_set({s.dir.path()}, test::sample_layouts(), threads);
    ASSERT_TRUE(rep.ok()) << rep.error().str();
    ASSERT_EQ(rep->levels.size(), 8u);
    EXPECT_EQ(rep->levels[0].links, 5u);
    for (unsigned lev = 1; lev <= 7; ++lev) {
      const LevelCounts& c = rep->levels[lev];
      EXPECT_EQ(c.level, lev);
      EXPECT_EQ(c.instances, 5u);
      EXPECT_EQ(c.placeholders, 2u);
      EXPECT_EQ(c.links, 9u);
      EXPECT_EQ(c.into_level0, 2u);
      EXPECT_EQ(c.unresolved, 2u);
    }
    EXPECT_EQ(rep->instances, 6u + 7 * 5);
    if (!hash1) hash1 = rep->hash;
    EXPECT_EQ(rep->hash, *hash1) << threads << " threads";  // the same walk in the same order
  }
}

// The name index's slots come from the key's low bits: 7,000 names alike but for their last bytes
// (the bench's "ZANMa0_123" shape) must spread over a 16,384-slot table as random keys would
// (about 5,360 distinct slots expected; a multiply-only key put them in a few dozen).
TEST(OniLevelSet, NameKeysSpreadOverTheSlots) {
  std::set<std::uint64_t> slots;
  for (int k = 0; k < 7000; ++k) slots.insert(detail::name_key("ZANMa0_" + std::to_string(k)) & 16383);
  EXPECT_GT(slots.size(), 5000u);
  std::set<std::uint64_t> short_slots;  // names under 8 bytes take the other branch
  for (int k = 0; k < 1000; ++k) short_slots.insert(detail::name_key("ZAN" + std::to_string(k)) & 4095);
  EXPECT_GT(short_slots.size(), 700u);  // about 905 expected
}

// The Bloom filter in front of the name index: every indexed name passes (no false negative), and
// names not indexed mostly stop there. At the densest table index_names builds (7,000 names, 16,384
// slots, 512 words: 4.7 bits a name, two bits set) theory gives about 13% false positives.
TEST(OniLevelSet, NameBloomHasNoFalseNegativesAndFewFalsePositives) {
  std::vector<std::uint64_t> bloom(16384 / 32, 0);
  for (int k = 0; k < 7000; ++k) {
    const std::uint64_t key = detail::name_key("ZANMa0_" + std::to_string(k));
    bloom[detail::name_bloom_word(key, bloom.size())] |= detail::name_bloom_bits(key);
  }
  auto passes = [&](const std::string& name) {
    const std::uint64_t key = detail::name_key(name);
    const std::uint64_t bits = detail::name_bloom_bits(key);
    return (bloom[detail::name_bloom_word(key, bloom.size())] & bits) == bits;
  };
  for (int k = 0; k < 7000; ++k) EXPECT_TRUE(passes("ZANMa0_" + std::to_string(k))) << k;
  int false_positives = 0;
  for (int k = 0; k < 7000; ++k) false_positives += passes("ZANMa10_" + std::to_string(k));
  EXPECT_LT(false_positives, 7000 * 18 / 100);
  EXPECT_GT(false_positives, 7000 * 5 / 100);  // two bits in 64-bit words: not a looser filter
}

TEST(OniLevelSet, ResolutionHandles) {
  SampleDir s;
  const LayoutSet layouts = test::sample_layouts();
  auto l0 = load_file(s / "level0_Final.dat", &layouts);
  auto l1 = load_file(s / "level1_X.dat", &layouts);
  ASSERT_FALSE(l0->diags.has_errors());
  ASSERT_FALSE(l1->diags.has_errors());
  // Level 0 alone: ZLSTmenu's third link names a level-0 placeholder: unresolved.
  const auto h0 = resolve_links({l0.get()}, 0);
  ASSERT_EQ(h0.size(), 5u);
  EXPECT_EQ(h0[0], 0x00000000u);  // ZTEXbrick -> ZANMwalk (named, level 0 index 0)
  EXPECT_EQ(h0[1], 0x00000002u);  // ZTEXbrick -> unnamed ZPTS: that instance
  EXPECT_EQ(h0[2], 0x00000001u);  // ZLSTmenu -> ZTEXbrick
  EXPECT_EQ(h0[3], 0x00000003u);  // ZLSTmenu -> TXMPbrick
  EXPECT_EQ(h0[4], kUnresolved);
  // Level 1 with level 0 loaded first (slot 0).
  const auto h1 = resolve_links({l0.get(), l1.get()}, 1);
  ASSERT_EQ(h1.size(), 4u);
  EXPECT_EQ(h1[0], 0x00000000u);  // placeholder ZANMwalk -> level 0's
  EXPECT_EQ(h1[1], 0x01000001u);  // level 0 has only a placeholder: passed over, level 1's copy
  EXPECT_EQ(h1[2], kUnresolved);  // ZANMmissing: no file has data
  EXPECT_EQ(h1[3], 0x00000003u);  // level 1 has TXMPbrick data, but level 0's copy wins
}

TEST(OniLevelSet, WrongTemplateChecksumMakesTheLevelInvalid) {
  SampleDir s;
  const ByteBuffer f_bytes = testing::read_file(s / "level1_X.dat");
  auto f = InstanceFile::open(f_bytes, "x");
  ASSERT_TRUE(f.ok());
  std::size_t at = 0;
  for (std::uint32_t k = 0; k < f->template_count(); ++k)
    if (f->template_entry(k).tag == make_tag("ZLST"))
      at = 0x40 + f->instance_count() * 0x14 + f->name_count() * 8 + k * 0x10;
  ASSERT_NE(at, 0u);
  s.patch("level1_X.dat", at, 0xbad);
  auto rep = check_level_set({s.dir.path()}, test::sample_layouts(), 1);
  ASSERT_TRUE(rep.ok());
  EXPECT_FALSE(rep->ok());
  EXPECT_TRUE(has(rep->diags, "level 1: template ZLST: checksums do not match"));
  EXPECT_EQ(rep->levels[1].problems, 1u);
  EXPECT_EQ(rep->levels[0].problems, 0u);
  // A template missing from the layouts altogether.
  auto partial = test::layouts_from("ZANM 0x00000000000000a4 2 02 02 05 18 04 06 06\n");
  auto rep2 = check_level_set({s / "level0_Final.dat"}, partial, 1);
  ASSERT_TRUE(rep2.ok());
  EXPECT_TRUE(has(rep2->diags, "template ZTEX checksum 0x00000000000000a2 unknown"));
}

TEST(OniLevelSet, WalkProblemsNameFileInstanceTagNameOffset) {
  SampleDir s;
  s.patch_instance("level0_Final.dat", 1, 0x20, test::link_to(2));   // ZANM link -> ZPTS
  s.patch_instance("level0_Final.dat", 4, 0x20, test::link_to(99));  // missing index
  s.patch_instance("level0_Final.dat", 4, 0x24, 0x500);              // bad value
  s.patch_instance("level0_Final.dat", 1, 0x28, 0x10);               // raw offset in the junk bytes
  auto rep = check_level_set({s / "level0_Final.dat"}, test::sample_layouts(), 1);
  ASSERT_TRUE(rep.ok());
  EXPECT_TRUE(has(rep->diags, "level0_Final.dat: oni: instance[1] ZTEX ZTEXbrick at 0x"));
  EXPECT_TRUE(has(rep->diags, "link to wrong template: 2 is ZPTS, the layout wants ZANM"));
  EXPECT_TRUE(has(rep->diags, "instance[4] ZLST ZLSTmenu"));
  EXPECT_TRUE(has(rep->diags, "link to missing index 99"));
  EXPECT_TRUE(has(rep->diags, "bad link value 0x00000500"));
  EXPECT_TRUE(has(rep->diags, ".raw offset 0x10 inside the 32 junk bytes"));
  EXPECT_EQ(rep->levels[0].problems, 4u);
  // The error offset is absolute: instance 1's field 0x20.
  const ByteBuffer f_bytes = testing::read_file(s / "level0_Final.dat");
  auto f = InstanceFile::open(f_bytes, "x");
  const std::uint64_t want = f->instance_file_offset(f->descriptor(1)) + 0x20;
  bool found = false;
  for (const auto& d : rep->diags.items()) found |= d.where.message.find("wrong template") != std::string::npos && d.where.offset == want;
  EXPECT_TRUE(found);
}

TEST(OniLevelSet, RawOffsetsPastTheFileAndMissingCompanion) {
  SampleDir s;
  s.patch_instance("level0_Final.dat", 3, 0x9C, 0x100000);  // TXMP pixels (v1.0 checksum: raw at 0x9c)
  auto rep = check_level_set({s / "level0_Final.dat"}, test::sample_layouts(), 1);
  ASSERT_TRUE(rep.ok());
  EXPECT_TRUE(has(rep->diags, "instance[3] TXMP TXMPbrick"));
  EXPECT_TRUE(has(rep->diags, "at or past the end of the .raw"));
  s.patch_instance("level0_Final.dat", 3, 0x9C, 0x70);  // chunk of 32 bytes runs past the 0x80-byte .raw
  rep = check_level_set({s / "level0_Final.dat"}, test::sample_layouts(), 1);
  EXPECT_TRUE(has(rep->diags, "chunk 0x70+0x20 past the end of the .raw"));
  fs::remove(s / "level0_Final.raw");
  rep = check_level_set({s / "level0_Final.dat"}, test::sample_layouts(), 1);
  EXPECT_TRUE(has(rep->diags, "the .raw file is missing"));
}

TEST(OniLevelSet, CollisionsAndToolsFiles) {
  SampleDir s;
  fs::copy_file(s / "level1_X.dat", s / "level1_tools.dat");
  auto rep = check_level_set({s.dir.path()}, test::sample_layouts(), 1);
  ASSERT_TRUE(rep.ok());
  EXPECT_TRUE(rep->ok());  // the tools file is skipped
  EXPECT_EQ(rep->levels[1].files, std::vector<std::string>{"level1_X.dat"});
  fs::copy_file(s / "level0_Final.dat", s / "level0_0H.dat");  // hash 0: same id as Final
  rep = check_level_set({s.dir.path()}, test::sample_layouts(), 1);
  EXPECT_TRUE(has(rep->diags, "collides with level0_Final.dat"));
  EXPECT_FALSE(rep->ok());
}

TEST(OniLevelSet, ExportThenPackKeepsTheCounts) {
  SampleDir s;
  const LayoutSet layouts = test::sample_layouts();
  testing::TempDir out;
  for (const char* name : {"level0_Final.dat", "level1_X.dat"}) {
    auto f = load_file(s / name, &layouts);
    Diagnostics d;
    const auto sub = out / (std::string(name) + ".oni");
    fs::create_directories(sub);
    auto st = export_oni_files(*f, {}, OutputDir(sub, false), d);
    ASSERT_TRUE(st.ok()) << st.error().str();
    EXPECT_FALSE(d.has_errors());
    Diagnostics pd;
    auto p = pack_level(sub, out / "packed" / name, layouts, {}, pd);
    if (!fs::exists(out / "packed")) fs::create_directories(out / "packed");
    if (!p.ok()) {
      fs::create_directories(out / "packed");
      p = pack_level(sub, out / "packed" / name, layouts, {}, pd);
    }
    ASSERT_TRUE(p.ok()) << p.error().str();
  }
  // level0: 4 named instances with data -> 4 .oni files (ZPTS travels inside ZTEXbrick.oni).
  EXPECT_TRUE(fs::exists(out / "level0_Final.dat.oni" / "ZTEXbrick.oni"));
  EXPECT_FALSE(fs::exists(out / "level0_Final.dat.oni" / "ZANMlevel1_only.oni"));  // a placeholder has no data
  const ByteBuffer z_bytes = testing::read_file(out / "level0_Final.dat.oni" / "ZTEXbrick.oni");
  auto z = InstanceFile::open(z_bytes, "z");
  ASSERT_TRUE(z.ok());
  EXPECT_TRUE(z->is_oni());
  EXPECT_EQ(z->instance_count(), 3u);  // main, unnamed ZPTS, placeholder ZANMwalk
  EXPECT_EQ(z->descriptor(1).tag, make_tag("ZPTS"));
  EXPECT_TRUE(z->descriptor(2).placeholder());
  EXPECT_EQ(z->raw_block().size() % 32, 0u);
  auto zl = load_file(out / "level0_Final.dat.oni" / "ZTEXbrick.oni", &layouts);
  EXPECT_FALSE(zl->diags.has_errors()) << zl->diags.items().front().where.str();
  ASSERT_EQ(zl->links.size(), 2u);  // to the placeholder (index 2) and to the unnamed ZPTS (index 1)
  EXPECT_EQ(zl->links[0].target, 2u);
  EXPECT_EQ(zl->links[1].target, 1u);
  ASSERT_EQ(zl->chunks.size(), 1u);
  EXPECT_EQ(zl->chunks[0].value, 32u);  // first chunk of the raw block
  EXPECT_EQ(zl->raw[32], 0x5A);
  auto a = check_level_set({s.dir.path()}, layouts, 1);
  auto b = check_level_set({out / "packed"}, layouts, 1);
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(b.ok());
  EXPECT_TRUE(b->ok());
  ASSERT_EQ(b->levels.size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(a->levels[k].instances, b->levels[k].instances);
    EXPECT_EQ(a->levels[k].placeholders, b->levels[k].placeholders);
    EXPECT_EQ(a->levels[k].links, b->levels[k].links);
    EXPECT_EQ(a->levels[k].into_level0, b->levels[k].into_level0);
    EXPECT_EQ(a->levels[k].unresolved, b->levels[k].unresolved);
  }
  // The raw parts came along: ZTEXbrick's 40-byte blob of 0x5a, TXMPbrick's pixels.
  auto packed = load_file(out / "packed" / "level0_Final.dat", &layouts);
  ASSERT_FALSE(packed->diags.has_errors());
  auto idx = packed->file.find("ZTEXbrick");
  ASSERT_TRUE(idx.has_value());
  bool blob = false;
  for (const auto& c : packed->chunks)
    if (c.instance == *idx) blob = packed->raw.size() >= c.value + 40 && packed->raw[c.value] == 0x5A && packed->raw[c.value + 39] == 0x5A;
  EXPECT_TRUE(blob);
}

TEST(OniLevelSet, CheckCli) {
  SampleDir s;
  auto r = run_cli("oni check " + shell_quote(s.dir.path().string()) + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["levels"].size(), 2u);
  EXPECT_EQ(j["levels"][0]["file"], "level0_Final.dat");
  EXPECT_EQ(j["levels"][0]["level"], 0);
  EXPECT_EQ(j["levels"][0]["instances"], 6);
  EXPECT_EQ(j["levels"][0]["placeholders"], 1);
  EXPECT_EQ(j["levels"][0]["links"], 5);
  EXPECT_TRUE(j["levels"][0]["into_level0"].is_null());
  EXPECT_EQ(j["levels"][0]["unresolved"], 1);
  EXPECT_EQ(j["levels"][0]["errors"], 0);
  EXPECT_EQ(j["levels"][1]["into_level0"], 2);
  EXPECT_EQ(j["levels"][1]["links"], 9);
  EXPECT_EQ(j["all"]["levels"], 2);
  EXPECT_EQ(j["all"]["instances"], 11);
  EXPECT_EQ(j["all"]["links"], 9);
  EXPECT_TRUE(j["all"]["hash"].is_number());
  // The hash is reproducible, and changes when a link target changes.
  auto again = nlohmann::json::parse(run_cli("oni check " + shell_quote(s.dir.path().string()) + " --json --threads 2").out);
  EXPECT_EQ(again["all"]["hash"], j["all"]["hash"]);
  auto text = run_cli("oni check " + shell_quote(s.dir.path().string()) + " --layouts " + shell_quote((s / "oni-layouts.txt").string()));
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("all: levels=2 instances=11 links=9 hash="), std::string::npos);
  s.patch_instance("level1_X.dat", 2, 0x20, test::link_to(77));
  auto bad = run_cli("oni check " + shell_quote(s.dir.path().string()) + " --json");
  EXPECT_EQ(bad.exit_code, 1);
  const auto bad_json = nlohmann::json::parse(bad.out);
  EXPECT_EQ(bad_json["levels"][1]["errors"], 1);
  // The level's problems list holds that error, naming the patched file (and not level 0).
  std::size_t errors_in_1 = 0;
  for (const auto& p : bad_json["levels"][1]["problems"])
    errors_in_1 += p["severity"] == "error" && p["file"] == "level1_X.dat";
  EXPECT_EQ(errors_in_1, 1u) << bad_json["levels"][1]["problems"].dump();
  for (const auto& p : bad_json["levels"][0]["problems"]) EXPECT_NE(p["severity"], "error") << p.dump();
  auto bad_text = run_cli("oni check " + shell_quote(s.dir.path().string()));
  EXPECT_NE(bad_text.out.find("level1_X.dat: error: oni: instance[2] ZLST ZLSTlist at 0x"), std::string::npos) << bad_text.out;
  EXPECT_NE(bad_text.out.find("link to missing index 77"), std::string::npos);
  EXPECT_EQ(run_cli("oni check /nonexistent-dir-assay").exit_code, 2);
}

TEST(OniLevelSet, ListInfoVerifyCli) {
  SampleDir s;
  auto l = run_cli("list " + shell_quote((s / "level0_Final.dat").string()) + " --json");
  ASSERT_EQ(l.exit_code, 0);
  auto j = nlohmann::json::parse(l.out);
  EXPECT_EQ(j["format"], "oni");
  ASSERT_EQ(j["entries"].size(), 6u);
  EXPECT_EQ(j["entries"][5]["name"], "ZANMlevel1_only");
  EXPECT_EQ(j["entries"][5]["placeholder"], true);
  EXPECT_EQ(j["entries"][5]["flags"], 2);
  EXPECT_TRUE(j["entries"][2]["name"].is_null());
  EXPECT_EQ(j["entries"][2]["flags"], 1);
  EXPECT_EQ(j["entries"][3]["tag"], "TXMP");
  EXPECT_EQ(j["entries"][3]["size"], 0xC0);
  auto i = run_cli("info " + shell_quote((s / "level1_X.dat").string()) + " --json");
  auto ij = nlohmann::json::parse(i.out);
  EXPECT_EQ(ij["version"], "VR31");
  EXPECT_EQ(ij["file_id"], 0x02000031);  // level 1, suffix "X" hashes to 24
  EXPECT_EQ(ij["template_set"], "v1.0");
  auto v = run_cli("verify " + shell_quote((s / "level1_X.dat").string()) + " --json");
  EXPECT_EQ(v.exit_code, 0) << v.out;
  s.patch_instance("level1_X.dat", 2, 0x24, 0x502);
  EXPECT_EQ(run_cli("verify " + shell_quote((s / "level1_X.dat").string())).exit_code, 1);
}

TEST(OniLevelSet, ExtractAndPackCli) {
  SampleDir s;
  testing::TempDir out;
  auto x = run_cli("extract " + shell_quote((s / "level0_Final.dat").string()) + " -o " + shell_quote((out / "all").string()));
  ASSERT_EQ(x.exit_code, 0) << x.err;
  EXPECT_TRUE(fs::exists(out / "all" / "ZANMwalk.oni"));
  // GLOBs select by full name (through the library: see the report on the CLI's positional GLOBs).
  const LayoutSet layouts = test::sample_layouts();
  auto lf = load_file(s / "level0_Final.dat", &layouts);
  Diagnostics d;
  fs::create_directories(out / "x");
  auto st = export_oni_files(*lf, {"ZTEX*"}, OutputDir(out / "x", false), d);
  ASSERT_TRUE(st.ok());
  EXPECT_EQ(st->files, 1u);
  EXPECT_TRUE(fs::exists(out / "x" / "ZTEXbrick.oni"));
  EXPECT_FALSE(fs::exists(out / "x" / "ZANMwalk.oni"));
  auto p = run_cli("pack oni -o " + shell_quote((out / "level5_Final.dat").string()) + " " + shell_quote((out / "x").string()) +
                   " --layouts " + shell_quote((s / "oni-layouts.txt").string()));
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_TRUE(fs::exists(out / "level5_Final.raw"));
  EXPECT_FALSE(fs::exists(out / "level5_Final.sep"));
  const ByteBuffer f_bytes = testing::read_file(out / "level5_Final.dat");
  auto f = InstanceFile::open(f_bytes, "p");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->instance_count(), 3u);  // ZTEXbrick, its ZPTS, placeholder ZANMwalk
  auto inst = f->instance_bytes(0);
  EXPECT_EQ(load<std::uint32_t>(inst->data() + 4, Endian::little), 0x0A000001u);  // level 5's file id
  // A second pack to the same name needs --force; a colliding id is refused.
  EXPECT_EQ(run_cli("pack oni -o " + shell_quote((out / "level5_Final.dat").string()) + " " + shell_quote((out / "x").string()) +
                    " --layouts " + shell_quote((s / "oni-layouts.txt").string())).exit_code, 2);
  EXPECT_EQ(run_cli("pack oni -o " + shell_quote((out / "level5_0H.dat").string()) + " " + shell_quote((out / "x").string()) +
                    " --layouts " + shell_quote((s / "oni-layouts.txt").string())).exit_code, 2);
}

}  // namespace
}  // namespace assay::oni

namespace assay::oni {
namespace {

TEST(OniLevelSet, ManyProblemsAreCappedPerFile) {
  LevelFileSpec spec;
  spec.template_checksums = {{make_tag("ZLST"), 0xa3}};
  for (int i = 0; i < 6000; ++i) {
    test::Bytes z(0x24);
    z.u16(0x1E, 1).u32(0x20, test::link_to(0xFFFFFF));  // a missing index
    spec.instances.push_back({make_tag("ZLST"), "", 0, z.b});
  }
  auto b = write_level_file(spec);
  ASSERT_TRUE(b.ok());
  const LayoutSet layouts = test::sample_layouts();
  auto f = load_file("", *b, nullptr, &layouts);
  EXPECT_EQ(f->diags.items().size(), 5001u);
  EXPECT_NE(f->diags.items().back().where.message.find("not listed"), std::string::npos);
  EXPECT_EQ(f->links.size(), 6000u);  // every link still walked and counted
}

}  // namespace
}  // namespace assay::oni
