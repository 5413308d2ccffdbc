// Issue 15 item 6: memory is bounded for the whole process. A large igArchive member is
// identified from its first block (never decoded whole when no format claims it), and every
// whole decode of an inner file takes a lease from one budget shared by all threads
// (--max-memory). ASSAY_REPORT_MEMORY=1 makes the CLI print the budget's peak and its max RSS.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <regex>
#include <thread>

#include "assay/container.h"
#include "assay/core/memory.h"
#include "assay/formats/igarchive/prefix.h"
#include "assay/formats/igarchive/writer.h"
#include "testing/testing.h"

namespace assay {
namespace {

using testing::run_cli;
using testing::shell_quote;

// The CLI prints its memory figures when this is set (tools/assay/main.cc).
const bool kReport = ::setenv("ASSAY_REPORT_MEMORY", "1", 1) == 0;

struct MemoryReport {
  std::uint64_t budget_peak = 0, limit = 0, rss_kib = 0;
};

MemoryReport parse_report(const std::string& err) {
  EXPECT_TRUE(kReport);
  std::smatch m;
  MemoryReport r;
  static const std::regex re(R"(memory: budget peak (\d+) of (\d+) bytes, max RSS (\d+) KiB)");
  if (std::regex_search(err, m, re)) r = {std::stoull(m[1]), std::stoull(m[2]), std::stoull(m[3])};
  return r;
}

std::string zeros_archive(const testing::TempDir& t, const std::string& file, unsigned members, std::size_t each) {
  std::vector<igarchive::WriterFile> files;
  for (unsigned i = 0; i < members; ++i)
    files.push_back({.name = "zeros" + std::to_string(i) + ".bin", .data = ByteBuffer(each, 0),
                     .compression = igarchive::Compression::lz4});
  igarchive::WriterOptions o;
  o.threads = 2;
  auto a = igarchive::write_archive(files, o);
  EXPECT_TRUE(a.ok()) << a.error().str();
  testing::write_file(t / file, *a);
  return shell_quote((t / file).string());
}

TEST(MemoryBudget, LeasesWaitAndRefuse) {
  MemoryBudget b(100);
  auto l1 = b.acquire(60, "a");
  ASSERT_TRUE(l1.ok());
  // This thread holds a lease: a request that does not fit fails at once (it would wait for itself).
  auto again = b.acquire(60, "b");
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.error().message.find("--max-memory"), std::string::npos);
  EXPECT_FALSE(b.acquire(101, "huge").ok());  // larger than the whole budget
  // Another thread waits until the first lease is gone.
  std::uint64_t seen_in_use = 0;
  std::thread other([&] {
    auto l2 = b.acquire(60, "c");
    ASSERT_TRUE(l2.ok());
    seen_in_use = b.in_use();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(b.in_use(), 60u);
  { MemoryLease drop = std::move(*l1); }
  other.join();
  EXPECT_EQ(seen_in_use, 60u);
  EXPECT_EQ(b.in_use(), 0u);
  EXPECT_EQ(b.peak(), 60u);
}

TEST(MemoryBudget, PrefixIsOneBlock) {
  std::vector<igarchive::WriterFile> files = {{.name = "x.bin", .data = ByteBuffer(100000, 0)}};
  for (std::size_t i = 0; i < 16; ++i) files[0].data[i] = static_cast<std::uint8_t>(i + 1);
  auto a = igarchive::write_archive(files, {});
  ASSERT_TRUE(a.ok());
  auto ar = igarchive::Archive::open(*a);
  ASSERT_TRUE(ar.ok());
  auto head = igarchive::read_file_prefix(*ar, ar->files()[0]);
  ASSERT_TRUE(head.ok()) << head.error().str();
  EXPECT_EQ(head->size(), 0x8000u);  // the first block only
  EXPECT_EQ((*head)[0], 1);
  EXPECT_EQ((*head)[15], 16);
  EXPECT_EQ(igarchive::read_file_prefix(*ar, ar->files()[0], 10)->size(), 10u);
}

// Two 64 MiB members of zeros: Container::open(entry) identifies each from its first block and,
// as no format claims zeros, never decodes it whole (no lease taken from the budget).
TEST(MemoryBudget, LargeZeroMembersAreNotDecodedToIdentify) {
  testing::TempDir t;
  (void)zeros_archive(t, "big.arc", 2, std::size_t{64} << 20);
  auto c = open_path((t / "big.arc").string());
  ASSERT_TRUE(c.ok()) << c.error().str();
  const std::uint64_t before = MemoryBudget::process().peak();
  for (const Entry& e : (*c)->entries()) {
    auto inner = (*c)->open(e);
    ASSERT_FALSE(inner.ok());
    EXPECT_EQ(inner.error().message, "unrecognised file format");
    EXPECT_EQ(inner.error().structure, "identified from its first 32768 of 67108864 bytes");
  }
  EXPECT_EQ(MemoryBudget::process().peak(), before);
  EXPECT_EQ(MemoryBudget::process().in_use(), 0u);
  // read() (extract, verify --deep) decodes the whole member under a lease of its size.
  {
    auto whole = (*c)->read((*c)->entries()[0]);
    ASSERT_TRUE(whole.ok());
    EXPECT_EQ(MemoryBudget::process().in_use(), std::uint64_t{64} << 20);
  }
  EXPECT_EQ(MemoryBudget::process().in_use(), 0u);
}

// Members below the identify-from-prefix size are decoded whole, but never more than the budget
// at once, whatever the thread count: 4 members of 12 MiB, 4 threads, --max-memory 13M.
TEST(MemoryBudget, DeepVerifyStaysWithinMaxMemory) {
  testing::TempDir t;
  const std::string arc = zeros_archive(t, "four.arc", 4, std::size_t{12} << 20);
  auto r = run_cli("verify --deep --threads 4 --max-memory 13M " + arc);
  const MemoryReport m = parse_report(r.err);
  EXPECT_EQ(m.limit, 13u << 20) << r.err;
  EXPECT_EQ(m.budget_peak, 12u << 20) << r.err;  // one member at a time
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;  // every member still decoded and checked
  EXPECT_NE(r.out.find(": ok ("), std::string::npos) << r.out;
  r = run_cli("info --max-memory 1M " + arc + "::zeros0.bin");
  EXPECT_EQ(r.exit_code, 2) << r.err;  // a member above the whole budget: an error naming it
  EXPECT_NE(r.err.find("--max-memory"), std::string::npos) << r.err;
  EXPECT_NE(run_cli("info --max-memory 12Q " + arc).exit_code, 0);
  // In verify --deep the member above the budget is an error of the report with its code.
  r = run_cli("verify --deep --json --max-memory 1M " + arc);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("\"code\": \"memory-budget\""), std::string::npos) << r.out;
}

}  // namespace
}  // namespace assay
