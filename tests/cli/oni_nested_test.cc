// An Oni level inside a container (docs/architecture.md, "Inner files"): packed into an igArchive
// with `assay pack igarchive`, `PACK::levelN_Final.dat` takes its .raw and level 0 from the
// archive's entries, so info, list, extract and verify --deep say what they say of the loose files.
// Counts from ../shared/samples/oni/README.md (OniSplit's own reader).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "testing/testing.h"
#include "formats/serialise.h"

namespace assay {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::quote_path;
using testing::run_cli;

// `assay pack igarchive -o OUT DIR`.
void pack(const fs::path& dir, const fs::path& out) {
  auto r = run_cli("pack igarchive -o " + quote_path(out) + " " + quote_path(dir));
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

std::string nested(const fs::path& pak, const std::string& entry) { return quote_path(pak.string() + "::" + entry); }

json json_of(const std::string& args, int want_exit = 0) {
  auto r = run_cli(args + " --json");
  EXPECT_EQ(r.exit_code, want_exit) << args << "\n" << r.err;
  return json::parse(r.out, nullptr, false);
}

// Every file under `dir` with its bytes.
std::map<std::string, ByteBuffer> files_in(const fs::path& dir) {
  std::map<std::string, ByteBuffer> out;
  std::error_code ec;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec))
    if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = testing::read_file(e.path());
  return out;
}

// "severity message" of every problem of verify --json's one file (the structure and code are
// left out: verify --deep prefixes the entry's name to them).
std::multiset<std::string> problems_of(const json& v) {
  std::multiset<std::string> out;
  if (!v.contains("files") || v["files"].empty()) return out;
  for (const auto& p : v["files"][0]["problems"]) out.insert(p["severity"].get<std::string>() + " " + p["message"].get<std::string>());
  return out;
}

std::size_t count_containing(const std::multiset<std::string>& s, const std::string& what) {
  std::size_t n = 0;
  for (const auto& x : s) n += x.find(what) != std::string::npos;
  return n;
}

// From OniSplit's view of level 1 (README: printed through OniSplit's own reader): its .raw parts
// ("raw 0x..." lines) and its links to placeholders ("->NAME(placeholder)"), level 0's names.
struct ViewCounts {
  std::size_t raw_parts = 0, placeholder_links = 0;
};
ViewCounts level1_view(const fs::path& view) {
  ViewCounts c;
  std::ifstream f(view);
  for (std::string line; std::getline(f, line);) {
    c.raw_parts += line.rfind("raw 0x", 0) == 0;
    for (auto p = line.find("(placeholder)"); p != std::string::npos; p = line.find("(placeholder)", p + 1)) ++c.placeholder_links;
  }
  return c;
}

struct Level {
  const char* file;
  unsigned level, instances, placeholders;
};
// README: level 0 has 31 instances, 0 placeholders; level 1 has 19 instances, 4 placeholders.
constexpr Level kLevels[] = {{"level0_Final.dat", 0, 31, 0}, {"level1_Final.dat", 1, 19, 4}};

TEST(OniNested, InfoAndListAreTheLooseFiles) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  testing::TempDir t;
  pack(dir, t / "pack.pak");
  for (const Level& l : kLevels) {
    const json in = json_of("info " + nested(t / "pack.pak", l.file));
    EXPECT_EQ(in["instances"], l.instances) << l.file;
    EXPECT_EQ(in["level"], l.level) << l.file;  // from the entry's name (spec: oni.md#oni-2-1)
    EXPECT_EQ(in, json_of("info " + quote_path(dir / l.file))) << l.file;
    const json ls = json_of("list " + nested(t / "pack.pak", l.file));
    ASSERT_EQ(ls["entries"].size(), l.instances) << l.file;
    unsigned placeholders = 0;
    for (const auto& e : ls["entries"]) placeholders += e["placeholder"].get<bool>();
    EXPECT_EQ(placeholders, l.placeholders) << l.file;
    EXPECT_EQ(ls, json_of("list " + quote_path(dir / l.file))) << l.file;
  }
}

TEST(OniNested, ExtractTexturesReadsTheRawFromThePack) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  ASSAY_REQUIRE_SAMPLE(pngs, "oni/onisplit_view/png_level0");
  testing::TempDir t;
  pack(dir, t / "pack.pak");
  auto r = run_cli("extract --textures " + nested(t / "pack.pak", "level0_Final.dat") + " -o " + quote_path(t / "in"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_cli("extract --textures " + quote_path(dir / "level0_Final.dat") + " -o " + quote_path(t / "loose"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto written = files_in(t / "in");
  EXPECT_EQ(written.size(), 16u);  // README: 16 TXMPs in level 0
  for (const auto& e : fs::directory_iterator(pngs))  // OniSplit -extract:png: the named TXMPs
    EXPECT_EQ(written.count(e.path().filename().string()), 1u) << e.path().filename();
  EXPECT_EQ(written, files_in(t / "loose"));
  // level 1's .oni files carry its .raw parts (spec: oni.md#oni-8): the same bytes either way
  r = run_cli("extract " + nested(t / "pack.pak", "level1_Final.dat") + " -o " + quote_path(t / "in1"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_cli("extract " + quote_path(dir / "level1_Final.dat") + " -o " + quote_path(t / "loose1"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(files_in(t / "in1").empty());
  EXPECT_EQ(files_in(t / "in1"), files_in(t / "loose1"));
}

TEST(OniNested, VerifyDeepFindsTheRawAndLevel0InThePack) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  ASSAY_REQUIRE_SAMPLE(view, "oni/onisplit_view/GameDataFolder_level1_Final.onisplit_view.txt");
  const ViewCounts counts = level1_view(view);
  ASSERT_GT(counts.placeholder_links, 0u);
  testing::TempDir t;
  pack(dir, t / "pack.pak");
  const json v = json_of("verify --deep " + quote_path(t / "pack.pak"));
  ASSERT_EQ(v["files"].size(), 1u);
  EXPECT_EQ(v["files"][0]["errors"], 0) << v.dump(1);
  EXPECT_EQ(v["files"][0]["warnings"], 0) << v.dump(1);  // no "links unresolved": level 1's links into level 0 resolve
  // without level 0 in the pack those links stay unresolved, as beside a loose level 1 alone
  fs::create_directories(t / "l1");
  for (const char* n : {"level1_Final.dat", "level1_Final.raw"}) fs::copy_file(dir / n, t / "l1" / n);
  pack(t / "l1", t / "l1.pak");
  const auto deep = problems_of(json_of("verify --deep " + quote_path(t / "l1.pak")));
  const auto loose = problems_of(json_of("verify " + quote_path(t / "l1" / "level1_Final.dat")));
  EXPECT_EQ(count_containing(deep, fmt::format("{} links unresolved", counts.placeholder_links)), 1u);
  EXPECT_EQ(count_containing(deep, "missing"), 0u);
  EXPECT_EQ(deep, loose);
}

TEST(OniNested, LevelWithoutItsRawFailsAsALooseOne) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  ASSAY_REQUIRE_SAMPLE(view, "oni/onisplit_view/GameDataFolder_level1_Final.onisplit_view.txt");
  testing::TempDir t;
  fs::create_directories(t / "lone");
  fs::copy_file(dir / "level1_Final.dat", t / "lone" / "level1_Final.dat");
  pack(t / "lone", t / "lone.pak");
  const auto loose = problems_of(json_of("verify " + quote_path(t / "lone" / "level1_Final.dat"), 1));
  const auto deep = problems_of(json_of("verify --deep " + quote_path(t / "lone.pak"), 1));
  // each .raw part OniSplit lists names the missing file
  EXPECT_EQ(count_containing(loose, "but the .raw file is missing"), level1_view(view).raw_parts);
  EXPECT_EQ(deep, loose);
  auto a = run_cli("extract --textures " + nested(t / "lone.pak", "level1_Final.dat") + " -o " + quote_path(t / "x"));
  auto b = run_cli("extract --textures " + quote_path(t / "lone" / "level1_Final.dat") + " -o " + quote_path(t / "y"));
  EXPECT_EQ(a.exit_code, 1) << a.err;
  EXPECT_EQ(b.exit_code, 1) << b.err;
  EXPECT_NE(a.err.find(".raw file is missing"), std::string::npos) << a.err;
  EXPECT_FALSE(fs::exists(t / "x"));
}

TEST(OniNested, VerifyOfTheEntryTakesItsSiblingsFromThePack) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  testing::TempDir t;
  pack(dir, t / "pack.pak");
  const json v = json_of("verify " + nested(t / "pack.pak", "level1_Final.dat"));
  ASSERT_EQ(v["files"].size(), 1u);
  EXPECT_EQ(v["files"][0]["errors"], 0) << v.dump(1);
  EXPECT_EQ(v["files"][0]["warnings"], 0) << v.dump(1);  // the .raw and level 0 found in the pack
}

// oni-layouts.txt is a sibling too (docs/cli.md#oni), also for a level that does not open: verify
// reports the bad layouts file from the pack as it does beside the loose file.
TEST(OniNested, LayoutsFileInThePackIsRead) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  testing::TempDir t;
  fs::create_directories(t / "d");
  for (const char* n : {"level0_Final.dat", "level0_Final.raw"}) fs::copy_file(dir / n, t / "d" / n);
  ByteBuffer cut = testing::read_file(dir / "level1_Final.dat");
  cut.resize(100);  // past the header (0x40), inside the tables: the file does not open
  testing::write_file(t / "d" / "level1_Final.dat", cut);
  const std::string bad = "not a layouts file\n";  // spec: oni.md#oni-5-1: a line's TAG is exactly four bytes
  testing::write_file(t / "d" / "oni-layouts.txt", ByteBuffer(bad.begin(), bad.end()));
  pack(t / "d", t / "d.pak");
  for (const char* level : {"level0_Final.dat", "level1_Final.dat"}) {
    const auto loose = problems_of(json_of("verify " + quote_path(t / "d" / level), 1));
    EXPECT_EQ(count_containing(loose, "tag 'not' is not four bytes"), 1u) << level;
    EXPECT_EQ(problems_of(json_of("verify " + nested(t / "d.pak", level), 1)), loose) << level;
  }
}

}  // namespace
}  // namespace assay
