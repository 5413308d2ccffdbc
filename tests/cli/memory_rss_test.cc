// Issue 15 item 6, measured from outside: a small archive whose members inflate large keeps the
// CLI's peak RSS (getrusage in the child, printed by ASSAY_REPORT_MEMORY=1) below the size of one
// member for `verify --deep` and `info ARCHIVE::INNER`, and a member a format claims that is
// larger than --max-memory is a clean error naming the member and the limit (docs/reliability.md).
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>

#include "assay/formats/igarchive/writer.h"
#include "assay/formats/igz/writer.h"
#include "testing/testing.h"

namespace assay {
namespace {

using testing::run_cli;
using testing::shell_quote;

struct Figures {
  bool found = false;
  std::uint64_t budget_peak = 0, limit = 0, rss = 0;  // rss in bytes
};

// The line tools/assay/main.cc prints at exit when ASSAY_REPORT_MEMORY is set.
Figures figures(const std::string& err) {
  static const std::regex re(R"(memory: budget peak (\d+) of (\d+) bytes, max RSS (\d+) KiB)");
  std::smatch m;
  Figures f;
  if (std::regex_search(err, m, re)) f = {true, std::stoull(m[1]), std::stoull(m[2]), std::stoull(m[3]) * 1024};
  return f;
}

testing::CliResult run_reporting(const std::string& args) {
  ::setenv("ASSAY_REPORT_MEMORY", "1", 1);  // left set: tests/cli/memory_test.cc sets it for the whole binary too
  return run_cli(args);
}

// The RSS of `info ARC` (the outer archive only, nothing decoded): the CLI's own start-up cost,
// which sanitizer builds make large, measured in the same run.
std::uint64_t baseline_rss(const std::string& arc) {
  const Figures f = figures(run_reporting("info " + shell_quote(arc)).err);
  EXPECT_TRUE(f.found);
  return f.rss;
}

constexpr std::size_t kMember = std::size_t{160} << 20;  // 160 MiB of zeros: ~10 MiB as LZ4 blocks

std::string write_arc(const testing::TempDir& t, std::vector<igarchive::WriterFile> files) {
  igarchive::WriterOptions o;
  o.threads = 2;
  auto a = igarchive::write_archive(files, o);
  EXPECT_TRUE(a.ok()) << a.error().str();
  EXPECT_LT(a->size(), kMember / 4);  // small on disk, large decoded
  testing::write_file(t / "inflate.arc", *a);
  return (t / "inflate.arc").string();
}

TEST(MemoryRss, InflatingMembersAreNotDecodedToVerifyOrIdentify) {
  testing::TempDir t;
  std::vector<igarchive::WriterFile> files;
  for (int i = 0; i < 2; ++i)
    files.push_back({.name = "zeros" + std::to_string(i) + ".bin", .data = ByteBuffer(kMember, 0),
                     .compression = igarchive::Compression::lz4});
  const std::string arc = write_arc(t, std::move(files));
  files.clear();
  const std::uint64_t base = baseline_rss(arc);
  // Before issue 15 item 6 each thread decoded its member whole: RSS >= 2 x 160 MiB.
  auto r = run_reporting("verify --deep --threads 2 " + shell_quote(arc));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  Figures f = figures(r.err);
  ASSERT_TRUE(f.found) << r.err;
  EXPECT_LT(f.rss, base + kMember / 2) << r.err;
  EXPECT_EQ(f.budget_peak, 0u) << r.err;  // no member was decoded whole
  // ARCHIVE::INNER identifies the member from its first block (32 KiB) only.
  r = run_reporting("info " + shell_quote(arc + "::zeros1.bin"));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("zeros1.bin: unrecognised file format"), std::string::npos) << r.err;
  f = figures(r.err);
  ASSERT_TRUE(f.found) << r.err;
  EXPECT_EQ(f.budget_peak, 0u) << r.err;  // before: 167772160 (decoded whole again for a hint)
  EXPECT_LT(f.rss, base + kMember / 2) << r.err;
  // identify ARCHIVE::INNER: "unknown" from the first block too (before: decoded whole).
  r = run_reporting("identify " + shell_quote(arc + "::zeros0.bin"));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("zeros0.bin: unknown"), std::string::npos) << r.out;
  f = figures(r.err);
  ASSERT_TRUE(f.found) << r.err;
  EXPECT_EQ(f.budget_peak, 0u) << r.err;
  EXPECT_LT(f.rss, base + kMember / 2) << r.err;
}

// An igz header followed by zeros: igz claims it from its magic, so it must be decoded whole,
// which the budget refuses when the member is larger than --max-memory.
TEST(MemoryRss, ClaimedMemberAboveTheBudgetIsACleanError) {
  testing::TempDir t;
  igz::Writer w({9, Endian::big, 9});
  w.add_pool("Default", 4);
  w.add_type("igObjectList", 0x18);
  w.set_root(w.add_object(0, 0));
  auto igz_bytes = w.finish();
  ASSERT_TRUE(igz_bytes.ok()) << igz_bytes.error().str();
  constexpr std::size_t kBig = std::size_t{48} << 20;
  ByteBuffer big = *igz_bytes;
  big.resize(kBig, 0);
  const std::string arc = write_arc(t, {{.name = "big.igz", .data = std::move(big), .compression = igarchive::Compression::lz4}});
  const std::uint64_t base = baseline_rss(arc);
  auto r = run_reporting("verify --deep --max-memory 16M " + shell_quote(arc));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("big.igz needs 50331648 bytes; the memory budget is 16777216 bytes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--max-memory"), std::string::npos) << r.out;
  Figures f = figures(r.err);
  ASSERT_TRUE(f.found) << r.err;
  EXPECT_EQ(f.limit, 16u << 20);
  EXPECT_EQ(f.budget_peak, 0u);
  EXPECT_LT(f.rss, base + kBig / 2) << r.err;
  r = run_reporting("info --max-memory 16M " + shell_quote(arc + "::big.igz"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("big.igz needs 50331648 bytes; the memory budget is 16777216 bytes"), std::string::npos) << r.err;
  // With the budget raised the same member decodes and opens.
  r = run_reporting("info --max-memory 64M " + shell_quote(arc + "::big.igz"));
  f = figures(r.err);
  EXPECT_EQ(f.budget_peak, kBig) << r.err;
}

}  // namespace
}  // namespace assay
