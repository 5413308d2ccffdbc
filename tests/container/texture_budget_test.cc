// Decoded texture pixels are charged to the process memory budget (issue 15 item 6): a level
// whose RGBA bytes exceed --max-memory is refused by name before decoding; within it, it decodes.
#include <gtest/gtest.h>

#include "assay/container.h"
#include "assay/core/memory.h"
#include "testing/testing.h"

namespace assay {
namespace {

struct LimitGuard {  // restores the process budget whatever the test does
  std::uint64_t saved = MemoryBudget::process().limit();
  ~LimitGuard() { MemoryBudget::process().set_limit(saved); }
};

TEST(TextureBudget, ALevelLargerThanTheBudgetIsRefusedByNameAndASmallerOneDecodes) {
  testing::TempDir t;
  ASSERT_EQ(testing::run_cli("make-samples " + testing::shell_quote(t.path().string())).exit_code, 0);
  auto c = open_path((t / "rw_ps2.txd").string());
  ASSERT_TRUE(c.ok()) << c.error().str();
  const Entry* e = (*c)->find("checker_pal4");  // 32 x 32: 4,096 RGBA bytes at level 0
  ASSERT_NE(e, nullptr);
  LimitGuard guard;
  MemoryBudget::process().set_limit(4095);
  auto refused = (*c)->texture(*e, 0);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().str().find("checker_pal4"), std::string::npos) << refused.error().str();
  EXPECT_NE(refused.error().str().find("4096 bytes"), std::string::npos) << refused.error().str();
  MemoryBudget::process().set_limit(4096);
  auto img = (*c)->texture(*e, 0);
  ASSERT_TRUE(img.ok()) << img.error().str();
  EXPECT_EQ(img->width, 32u);
  EXPECT_EQ(img->height, 32u);
  EXPECT_EQ(MemoryBudget::process().in_use(), 0u);  // the lease ends with the decode
}

}  // namespace
}  // namespace assay
