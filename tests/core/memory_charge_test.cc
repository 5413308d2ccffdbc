// Issue 15 item 6: MemoryBudget::process().acquire (core/memory.h) is the one call a decode path
// makes before allocating in proportion to file data; it draws on the budget --max-memory sets,
// and a refusal names the entry and the limit.
#include <gtest/gtest.h>

#include "assay/core/memory.h"

namespace assay {
namespace {

// Restores the process budget's limit whatever the test does.
struct LimitGuard {
  std::uint64_t old = MemoryBudget::process().limit();
  ~LimitGuard() { MemoryBudget::process().set_limit(old); }
};

TEST(ProcessBudget, DrawsOnTheProcessBudget) {
  LimitGuard g;
  EXPECT_EQ(kDefaultMaxMemory, 1073741824u);  // the documented default, 1 GiB
  MemoryBudget::process().set_limit(1000);
  const std::uint64_t before = MemoryBudget::process().in_use();
  {
    auto l = MemoryBudget::process().acquire(600, "a.arc::x.igz");
    ASSERT_TRUE(l.ok()) << l.error().str();
    EXPECT_EQ(l->bytes(), 600u);
    EXPECT_EQ(MemoryBudget::process().in_use(), before + 600);
  }
  EXPECT_EQ(MemoryBudget::process().in_use(), before);  // given back with the lease
}

TEST(ProcessBudget, RefusalNamesTheEntryAndTheLimit) {
  LimitGuard g;
  MemoryBudget::process().set_limit(4096);
  auto l = MemoryBudget::process().acquire(5000, "level.txd::grass mip 0");
  ASSERT_FALSE(l.ok());
  EXPECT_EQ(l.error().kind, ErrorKind::io);  // exit 2 in the CLI
  const std::string m = l.error().str();
  EXPECT_NE(m.find("level.txd::grass mip 0 needs 5000 bytes; the memory budget is 4096 bytes"), std::string::npos) << m;
  EXPECT_NE(m.find("--max-memory"), std::string::npos) << m;
}

}  // namespace
}  // namespace assay
