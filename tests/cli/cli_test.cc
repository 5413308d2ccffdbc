// The CLI's common contract: exit codes, hash output, JSON shapes for unknown input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "testing/testing.h"

namespace assay {
namespace {

using testing::run_cli;
using testing::shell_quote;

TEST(Cli, HashKnownVectors) {
  // zlib crc32("123456789") = cbf43926; FNV-1a-32("a") = e40c292c (published vectors).
  auto r = run_cli("hash crc32 123456789");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "cbf43926\n");
  r = run_cli("hash fnv1a a ''");
  EXPECT_EQ(r.out, "e40c292c\n811c9dc5\n");
  EXPECT_EQ(run_cli("hash nosuch x").exit_code, 2);
}

TEST(Cli, UsageAndIoErrorsExit2) {
  EXPECT_EQ(run_cli("").exit_code, 2);
  EXPECT_EQ(run_cli("frobnicate").exit_code, 2);
  EXPECT_EQ(run_cli("list").exit_code, 2);
  auto r = run_cli("list /nonexistent/file.bld");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/nonexistent/file.bld"), std::string::npos);
}

TEST(Cli, UnknownFormatIsAProblem) {
  testing::TempDir t;
  const std::string junk = "this is not any container format at all\n";
  testing::write_file(t / "junk.bin", ByteView(reinterpret_cast<const std::uint8_t*>(junk.data()), junk.size()));
  const std::string f = shell_quote((t / "junk.bin").string());
  auto r = run_cli("identify --json " + f);
  EXPECT_EQ(r.exit_code, 1);
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["files"].size(), 1u);
  EXPECT_TRUE(j["files"][0]["format"].is_null());
  r = run_cli("verify --json " + f);
  EXPECT_EQ(r.exit_code, 1);
  j = nlohmann::json::parse(r.out);
  EXPECT_FALSE(j["files"][0]["ok"].get<bool>());
  EXPECT_EQ(j["files"][0]["errors"].get<int>(), 1);
  EXPECT_EQ(run_cli("list " + f).exit_code, 1);
}

TEST(Cli, ExtractNeedsOutput) {
  EXPECT_EQ(run_cli("extract x.bld").exit_code, 2);
}

}  // namespace
}  // namespace assay

namespace assay {
namespace {

// GLOBs after the file select entries for list and extract (any format; igArchive here).
TEST(Cli, GlobsSelectEntries) {
  testing::TempDir t;
  ASSERT_EQ(run_cli("make-samples " + shell_quote(t.path().string())).exit_code, 0);
  const std::string bld = shell_quote((t / "demo_v8_lzma.bld").string());
  auto all = nlohmann::json::parse(run_cli("list --json " + bld).out)["entries"];
  auto r = run_cli("list --json " + bld + " '*.txt'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto some = nlohmann::json::parse(r.out)["entries"];
  ASSERT_FALSE(some.empty());
  EXPECT_LT(some.size(), all.size());
  for (const auto& e : some) EXPECT_TRUE(e["name"].get<std::string>().ends_with(".txt"));
  r = run_cli("extract " + bld + " -o " + shell_quote((t / "out").string()) + " '*.txt'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::size_t n = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(t / "out")) {
    if (!e.is_regular_file()) continue;
    ++n;
    EXPECT_EQ(e.path().extension(), ".txt");
  }
  EXPECT_EQ(n, some.size());
}

}  // namespace
}  // namespace assay
