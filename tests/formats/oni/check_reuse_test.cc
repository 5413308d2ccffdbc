// `oni check` hands a released level's vectors to the next level on the same worker
// (src/formats/oni/check_reuse.h): a smaller level checked after a larger one must get the counts it
// gets alone. Counts worked out by hand from samples.cc's two files (as in level_set_test.cc).
#include <gtest/gtest.h>

#include "fixtures.h"
#include "testing/testing.h"

namespace assay::oni {
namespace {

TEST(OniCheckReuse, ASmallerLevelAfterALargerOneKeepsItsOwnCounts) {
  testing::TempDir dir;
  ASSERT_TRUE(write_sample_files(dir.path()).ok());
  // Level 1: level 0's bytes again (6 instances); level 2: level 1's (5 instances), checked after it.
  testing::write_file(dir / "level2_X.dat", testing::read_file(dir / "level1_X.dat"));
  testing::write_file(dir / "level1_Final.dat", testing::read_file(dir / "level0_Final.dat"));
  std::filesystem::remove(dir / "level1_X.dat");
  auto rep = check_level_set({dir.path()}, test::sample_layouts(), 1);
  ASSERT_TRUE(rep.ok());
  ASSERT_EQ(rep->levels.size(), 3u);
  const LevelCounts& copy0 = rep->levels[1];
  EXPECT_EQ(copy0.instances, 6u);
  EXPECT_EQ(copy0.placeholders, 1u);
  EXPECT_EQ(copy0.links, 10u);        // level 0's 5 + its own 5
  EXPECT_EQ(copy0.into_level0, 3u);   // ZANMwalk, ZTEXbrick, TXMPbrick: level 0 has them first
  EXPECT_EQ(copy0.unresolved, 2u);    // ZANMlevel1_only: a placeholder in both, once per file
  const LevelCounts& l2 = rep->levels[2];
  EXPECT_EQ(l2.instances, 5u);
  EXPECT_EQ(l2.placeholders, 2u);
  EXPECT_EQ(l2.links, 9u);            // level 0's 5 + ZLSTlist's 4
  EXPECT_EQ(l2.into_level0, 2u);      // ZANMwalk (placeholder here) and TXMPbrick
  EXPECT_EQ(l2.unresolved, 2u);       // level 0's 1 + ZANMmissing
  EXPECT_EQ(l2.problems, 0u);
}

}  // namespace
}  // namespace assay::oni
