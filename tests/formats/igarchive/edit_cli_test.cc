// assay replace/add/remove and pack --like on igArchives through the built CLI (issue 10 items
// 1, 2, 6): exit codes, --json fields, --in-place, an output that is the input, a full disk.
#include <sys/wait.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "assay/formats/igarchive/archive.h"
#include "helpers.h"
#include "testing/testing.h"

namespace assay::igarchive {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;
using testing::shell_quote;

struct IgArchiveEditCli : ::testing::Test {
  testing::TempDir tmp;
  fs::path pak = tmp / "in.pak";
  ByteBuffer orig;
  void SetUp() override {
    WriterOptions o;
    o.version = 0x0B;
    o.lzma_preset = 1;
    orig = test::build({{.name = "a/one.igz", .data = test::text(80000, 1)},
                        {.name = "b/two.igz", .data = test::text(5000, 2)}},
                       o);
    testing::write_file(pak, orig);
    testing::write_file(tmp / "new.bin", test::text(40000, 3));
  }
  std::string q(const fs::path& p) const { return shell_quote(p.string()); }
  void expect_input_untouched() const {
    EXPECT_EQ(testing::read_file(pak), orig);
    EXPECT_FALSE(fs::exists(tmp / "out.pak"));
    for (const auto& e : fs::directory_iterator(tmp.path()))
      EXPECT_EQ(e.path().filename().string().find(".assay-edit-"), std::string::npos) << e.path();
  }
};

TEST_F(IgArchiveEditCli, ReplaceJsonAndInPlace) {
  auto r = run_cli("replace " + q(pak) + " -o " + q(tmp / "out.pak") + " a/one.igz=" + q(tmp / "new.bin") + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["format"], "igarchive");
  EXPECT_EQ(j["files"], 2);
  EXPECT_EQ(j["copied_files"], 1);
  EXPECT_EQ(j["changes"][0]["op"], "replace");
  EXPECT_EQ(j["changes"][0]["old_size"], 80000);
  EXPECT_EQ(j["changes"][0]["new_size"], 40000);
  EXPECT_EQ(j["changes"][0]["compression"], "lzma");
  EXPECT_EQ(j["changes"][0]["hash"], hash_name("a/one.igz", 0));
  EXPECT_EQ(testing::read_file(pak), orig);  // -o never touches the input
  EXPECT_EQ(run_cli("verify " + q(tmp / "out.pak")).exit_code, 0);
  // In place: the input changes; no temporary stays beside it.
  r = run_cli("remove " + q(pak) + " --in-place b/two.igz");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto a = Archive::open(testing::read_file(pak));
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->files().size(), 1u);
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator()), 3);
}

TEST_F(IgArchiveEditCli, RefusalsLeaveNothing) {
  const std::string out = " -o " + q(tmp / "out.pak");
  EXPECT_EQ(run_cli("replace " + q(pak) + " -o " + q(pak) + " a/one.igz=" + q(tmp / "new.bin")).exit_code, 2);
  EXPECT_EQ(run_cli("add " + q(pak) + out + " ../evil=" + q(tmp / "new.bin")).exit_code, 2);
  EXPECT_EQ(run_cli("add " + q(pak) + out + " /abs/evil=" + q(tmp / "new.bin")).exit_code, 2);
  EXPECT_EQ(run_cli("add " + q(pak) + out + " a/one.igz=" + q(tmp / "new.bin")).exit_code, 2);
  EXPECT_EQ(run_cli("replace " + q(pak) + out + " nope=" + q(tmp / "new.bin")).exit_code, 2);
  EXPECT_EQ(run_cli("remove " + q(pak) + out + " a/one.igz nope").exit_code, 2);  // fails after a valid one
  EXPECT_EQ(run_cli("remove " + q(pak) + " a/one.igz").exit_code, 2);              // neither -o nor --in-place
  EXPECT_EQ(run_cli("remove " + q(pak) + out + " --in-place a/one.igz").exit_code, 2);
  expect_input_untouched();
}

// A full disk mid-way (RLIMIT_FSIZE while writing the temporary): the input stays as it was.
TEST_F(IgArchiveEditCli, FullDiskLeavesInputUntouched) {
  testing::write_file(tmp / "big.bin", test::noise(300000, 9));
  const std::string cmd = "ulimit -f 100; trap '' XFSZ; exec " + shell_quote(ASSAY_CLI) + " add " + q(pak) +
                          " --in-place c/big.bin=" + q(tmp / "big.bin") + " 2>/dev/null";
  const int st = std::system(("sh -c " + shell_quote(cmd)).c_str());
  ASSERT_TRUE(WIFEXITED(st));
  EXPECT_EQ(WEXITSTATUS(st), 2);
  // The same to -o OUT: no OUT, no temporary.
  const std::string to_out = "ulimit -f 100; trap '' XFSZ; exec " + shell_quote(ASSAY_CLI) + " add " + q(pak) + " -o " +
                             q(tmp / "out.pak") + " c/big.bin=" + q(tmp / "big.bin") + " 2>/dev/null";
  const int st2 = std::system(("sh -c " + shell_quote(to_out)).c_str());
  ASSERT_TRUE(WIFEXITED(st2));
  EXPECT_EQ(WEXITSTATUS(st2), 2);
  fs::remove(tmp / "big.bin");
  expect_input_untouched();
}

TEST_F(IgArchiveEditCli, PackLikeKeepsStoredBytesAndConvertsOnlyWhenAsked) {
  ASSERT_EQ(run_cli("extract " + q(pak) + " -o " + q(tmp / "x")).exit_code, 0);
  auto r = run_cli("pack igarchive --like " + q(pak) + " -o " + q(tmp / "same.pak") + " " + q(tmp / "x"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::read_file(tmp / "same.pak"), orig);  // byte-identical round trip
  // --compression with --like is a real conversion: every file re-encoded, and it says so.
  r = run_cli("pack igarchive --like " + q(pak) + " --compression deflate -o " + q(tmp / "conv.pak") + " " + q(tmp / "x"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("converting"), std::string::npos) << r.err;
  auto a = Archive::open(testing::read_file(tmp / "conv.pak"));
  ASSERT_TRUE(a.ok());
  for (const FileEntry& f : a->files()) EXPECT_EQ(f.compression, Compression::deflate);
  // --version with --like converts too.
  r = run_cli("pack igarchive --like " + q(pak) + " --version 8 -o " + q(tmp / "v8.pak") + " " + q(tmp / "x"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto b = Archive::open(testing::read_file(tmp / "v8.pak"));
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->version(), 8u);
}

// The README's loop on a real archive: list, extract, replace, verify; others' stored bytes kept.
TEST(IgArchiveEditCliSample, CrashNstLoop) {
  ASSAY_REQUIRE_SAMPLE(path, "alchemy/crash_nst_L332_CollisionTemplate.pak");
  testing::TempDir tmp;
  ASSERT_EQ(run_cli("extract " + shell_quote(path.string()) + " -o " + shell_quote((tmp / "x").string())).exit_code, 0);
  const std::string igz = "maps/Crash1/Custom_Level/StaticCollision_Custom_Level.igz";
  auto r = run_cli("replace " + shell_quote(path.string()) + " -o " + shell_quote((tmp / "same.pak").string()) + " " + igz +
                   "=" + shell_quote((tmp / "x" / igz).string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::read_file(tmp / "same.pak"), testing::read_file(path));
}

}  // namespace
}  // namespace assay::igarchive
