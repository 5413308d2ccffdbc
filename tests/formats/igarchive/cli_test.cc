// The CLI over igArchive: identify, info/list --json, extract, pack (new and --like), ARCHIVE::INNER.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>

#include "assay/core/hash.h"
#include "helpers.h"
#include "testing/testing.h"
#include "formats/serialise.h"

namespace assay::igarchive {
namespace {

namespace fs = std::filesystem;
using assay::testing::read_file;
using assay::testing::run_cli;
using assay::testing::quote_path;
using assay::testing::TempDir;
using assay::testing::write_file;

void make_tree(const fs::path& root) {
  write_file(root / "JAPANESE.pak", test::text(2805, 1));
  write_file(root / "levels" / "level01.igz", test::text(100000, 2));
  write_file(root / "levels" / "noise.bin", test::noise(40000, 3));
  write_file(root / "empty.txt", {});
}

nlohmann::json json_of(const assay::testing::CliResult& r) {
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(IgArchiveCli, PackListExtractRoundTrip) {
  TempDir t;
  make_tree(t / "in");
  for (const std::string opts : {"--version 8", "--version 11 --big-endian --compression deflate",
                                 "--version 11 --compression lz4 --case-insensitive", "--version 12 --compression none",
                                 "--version 10 --compression stored"}) {
    const fs::path arc = t / "a.arc";
    fs::remove(arc);
    auto p = run_cli("pack igarchive -o " + quote_path(arc) + " " + opts + " " + quote_path(t / "in"));
    ASSERT_EQ(p.exit_code, 0) << opts << p.err;
    auto id = run_cli("identify " + quote_path(arc));
    EXPECT_NE(id.out.find("igarchive"), std::string::npos);
    auto info = json_of(run_cli("info --json " + quote_path(arc)));
    EXPECT_EQ(info["format"], "igarchive");
    EXPECT_EQ(info["num_files"], 4);
    EXPECT_EQ(info["sector_size"], 2048);
    EXPECT_EQ(info["hash_search_divider"], 0xFFFFFFFFu / 4);
    EXPECT_EQ(info["byte_order"], opts.find("big") != std::string::npos ? "big" : "little");
    auto list = json_of(run_cli("list --json " + quote_path(arc)));
    EXPECT_EQ(list["format"], "igarchive");
    EXPECT_EQ(list["byte_order"], info["byte_order"]);
    ASSERT_EQ(list["entries"].size(), 4u);
    const std::uint32_t flags = info["flags"];
    std::set<std::string> names;
    for (const auto& e : list["entries"]) {
      names.insert(e["name"]);
      EXPECT_EQ(e["hash"], hash_name(e["name"].get<std::string>(), flags));
      for (const char* k : {"index", "name", "path", "hash", "offset", "size", "compression", "blocks"})
        EXPECT_TRUE(e.contains(k)) << k;
    }
    EXPECT_EQ(names, (std::set<std::string>{"JAPANESE.pak", "empty.txt", "levels/level01.igz", "levels/noise.bin"}));
    auto v = run_cli("verify " + quote_path(arc));
    EXPECT_EQ(v.exit_code, 0) << v.out;
    const fs::path out = t / "out";
    fs::remove_all(out);
    auto x = run_cli("extract " + quote_path(arc) + " -o " + quote_path(out) + " --threads 2");
    ASSERT_EQ(x.exit_code, 0) << x.err;
    for (const auto& n : names) EXPECT_EQ(read_file(out / n), read_file(t / "in" / n)) << n;
    // --like of unchanged files: lists and extracts identically (here: byte-identical).
    const fs::path re = t / "re.arc";
    fs::remove(re);
    auto l = run_cli("pack igarchive -o " + quote_path(re) + " --like " + quote_path(arc) + " " + quote_path(out));
    ASSERT_EQ(l.exit_code, 0) << l.err;
    EXPECT_EQ(run_cli("list --json " + quote_path(re)).out, run_cli("list --json " + quote_path(arc)).out);
    EXPECT_EQ(read_file(re), read_file(arc)) << opts;
  }
}

TEST(IgArchiveCli, LikeKeepsLayoutWithEditedLargerFiles) {
  TempDir t;
  make_tree(t / "in");
  const fs::path arc = t / "a.bld";
  ASSERT_EQ(run_cli("pack igarchive -o " + quote_path(arc) + " --version 11 --big-endian --compression deflate " + quote_path(t / "in")).exit_code, 0);
  ASSERT_EQ(run_cli("extract " + quote_path(arc) + " -o " + quote_path(t / "x")).exit_code, 0);
  write_file(t / "x" / "JAPANESE.pak", test::text(500000, 9));  // edited, now medium table
  write_file(t / "x" / "new.txt", test::text(100, 9));          // not in the original
  const fs::path re = t / "re.bld";
  auto l = run_cli("pack igarchive -o " + quote_path(re) + " --like " + quote_path(arc) + " " + quote_path(t / "x"));
  ASSERT_EQ(l.exit_code, 0) << l.err;
  auto a = json_of(run_cli("info --json " + quote_path(re)));
  EXPECT_EQ(a["version"], 11);
  EXPECT_EQ(a["byte_order"], "big");
  auto list = json_of(run_cli("list --json " + quote_path(re)));
  ASSERT_EQ(list["entries"].size(), 5u);
  for (const auto& e : list["entries"]) {
    if (e["name"] == "JAPANESE.pak") {
      EXPECT_EQ(e["size"], 500000);
      EXPECT_EQ(e["compression"], "deflate");
      EXPECT_EQ(e["table"], "medium");
    }
  }
  EXPECT_EQ(run_cli("verify " + quote_path(re)).exit_code, 0);
  ASSERT_EQ(run_cli("extract " + quote_path(re) + " -o " + quote_path(t / "y")).exit_code, 0);
  EXPECT_EQ(read_file(t / "y" / "JAPANESE.pak"), read_file(t / "x" / "JAPANESE.pak"));
  // A file missing from the folder is an error (exit 2: I/O).
  fs::remove(t / "x" / "empty.txt");
  EXPECT_EQ(run_cli("pack igarchive -o " + quote_path(t / "z.bld") + " --like " + quote_path(arc) + " " + quote_path(t / "x")).exit_code, 2);
}

TEST(IgArchiveCli, InnerFilesAndGlobs) {
  TempDir t;
  make_tree(t / "inner_src");
  ASSERT_EQ(run_cli("pack igarchive -o " + quote_path(t / "outer_src" / "nested.bld") + " --version 8 " + quote_path(t / "inner_src")).exit_code, 2);
  fs::create_directories(t / "outer_src");
  ASSERT_EQ(run_cli("pack igarchive -o " + quote_path(t / "outer_src" / "nested.bld") + " --version 8 " + quote_path(t / "inner_src")).exit_code, 0);
  ASSERT_EQ(run_cli("pack igarchive -o " + quote_path(t / "outer.arc") + " " + quote_path(t / "outer_src")).exit_code, 0);
  auto inner = json_of(run_cli("list --json " + quote_path(t / "outer.arc") + "::nested.bld"));
  EXPECT_EQ(inner["version"], 8);
  EXPECT_EQ(inner["entries"].size(), 4u);
  ASSERT_EQ(run_cli("extract " + quote_path(t / "outer.arc::nested.bld") + " -o " + quote_path(t / "g")).exit_code, 0);
  EXPECT_EQ(read_file(t / "g" / "levels" / "level01.igz"), read_file(t / "inner_src" / "levels" / "level01.igz"));
  // No overwrite without --force.
  EXPECT_EQ(run_cli("extract " + quote_path(t / "outer.arc::nested.bld") + " -o " + quote_path(t / "g")).exit_code, 2);
  EXPECT_EQ(run_cli("extract " + quote_path(t / "outer.arc::nested.bld") + " -o " + quote_path(t / "g") + " --force").exit_code, 0);
  EXPECT_NE(run_cli("list " + quote_path(t / "outer.arc::missing.bld")).exit_code, 0);
}

TEST(IgArchiveCli, BadArchivesExitOne) {
  TempDir t;
  make_tree(t / "in");
  ASSERT_EQ(run_cli("pack igarchive -o " + quote_path(t / "a.bld") + " --version 8 " + quote_path(t / "in")).exit_code, 0);
  ByteBuffer b = read_file(t / "a.bld");
  ByteBuffer cut(b.begin(), b.begin() + 0x40);
  write_file(t / "cut.bld", cut);
  for (const char* verb : {"info", "list", "verify"}) {
    auto r = run_cli(std::string(verb) + " " + quote_path(t / "cut.bld"));
    EXPECT_EQ(r.exit_code, 1) << verb;
    EXPECT_NE((r.err + r.out).find("igarchive"), std::string::npos) << verb << r.err << r.out;
  }
  auto x = run_cli("extract " + quote_path(t / "cut.bld") + " -o " + quote_path(t / "o"));
  EXPECT_EQ(x.exit_code, 1);
  EXPECT_FALSE(fs::exists(t / "o") && !fs::is_empty(t / "o"));
  store<std::uint32_t>(b.data() + 0x0C, 0xFFFFFFFFu, Endian::little);
  write_file(t / "n.bld", b);
  auto v = run_cli("verify --json " + quote_path(t / "n.bld"));
  EXPECT_EQ(v.exit_code, 1);
  auto j = nlohmann::json::parse(v.out);
  EXPECT_EQ(j["files"][0]["ok"], false);
  EXPECT_EQ(j["files"][0]["problems"][0]["offset"], 0x0C);
  EXPECT_EQ(run_cli("pack igarchive -o " + quote_path(t / "p.bld") + " --compression zip " + quote_path(t / "in")).exit_code, 2);
}

}  // namespace
}  // namespace assay::igarchive

namespace assay::igarchive {
namespace {

TEST(IgArchiveCli, MemberCapAndOpenFile) {
  assay::testing::TempDir t;
  write_file(t / "in" / "big.txt", test::text(5000, 1));
  const fs::path arc = t / "a.arc";
  ASSERT_EQ(run_cli("pack igarchive -o " + quote_path(arc) + " " + quote_path(t / "in")).exit_code, 0);
  auto r = run_cli("extract --igarchive-max-member 4999 " + quote_path(arc) + " -o " + quote_path(t / "o"));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("member cap"), std::string::npos);
  EXPECT_FALSE(fs::exists(t / "o" / "big.txt"));
  EXPECT_EQ(run_cli("extract --igarchive-max-member 5000 " + quote_path(arc) + " -o " + quote_path(t / "o")).exit_code, 0);
  auto f = open_file(arc.string());
  ASSERT_TRUE(f.ok()) << f.error().str();
  ASSERT_EQ(f->archive.files().size(), 1u);
  EXPECT_EQ(test::read_ok(f->archive, f->archive.files()[0]), test::text(5000, 1));
  EXPECT_EQ(open_file((t / "missing").string()).error().kind, ErrorKind::io);
}

}  // namespace
}  // namespace assay::igarchive

namespace assay::igarchive {
namespace {

// `pack igarchive -o DIR/x.arc DIR --force` run again: the archive written the first time is not
// packed into the second (a user found 2 files where the folder holds 1), nor added with --like.
TEST(IgArchiveCli, PackNeverTakesItsOwnOutput) {
  testing::TempDir t;
  const std::string hello = "hello\n";
  testing::write_file(t / "in" / "a.txt", ByteView(reinterpret_cast<const std::uint8_t*>(hello.data()), hello.size()));
  const std::string arc = testing::quote_path(t / "in" / "x.arc"), in = testing::quote_path(t / "in");
  for (int k = 0; k < 2; ++k) ASSERT_EQ(testing::run_cli("pack igarchive -o " + arc + " " + in + " --force").exit_code, 0);
  auto names = [](const std::string& a) {
    const auto l = nlohmann::json::parse(testing::run_cli("list --json " + a).out);
    std::vector<std::string> out;
    for (const auto& e : l["entries"]) out.push_back(e["name"].get<std::string>());
    return out;
  };
  EXPECT_EQ(names(arc), std::vector<std::string>{"a.txt"});
  fs::copy_file(t / "in" / "x.arc", t / "orig.arc");
  const auto like = testing::run_cli("pack igarchive -o " + arc + " --like " + testing::quote_path(t / "orig.arc") + " " + in + " --force");
  ASSERT_EQ(like.exit_code, 0) << like.err;
  EXPECT_EQ(names(arc), std::vector<std::string>{"a.txt"});
}

}  // namespace
}  // namespace assay::igarchive
