// extract prints the file's own problems as verify does: errors and warnings, notes only with
// --notes (a user saw two "note:" lines on every extract of OniSplit's level 0, also with -q).
// The sample's notes are facts of the file: 27 instance sizes not a multiple of 32.
#include <gtest/gtest.h>

#include "testing/testing.h"

namespace assay {
namespace {

TEST(ExtractNotes, NotesOnlyWithTheFlag) {
  ASSAY_REQUIRE_SAMPLE(dat, "oni/GameDataFolder/level0_Final.dat");
  testing::TempDir t;
  const std::string base = "extract " + testing::quote_path(dat) + " --force -o ";
  auto quiet = testing::run_cli(base + testing::quote_path(t / "a"));
  EXPECT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.err.find("note:"), std::string::npos) << quiet.err;
  auto q = testing::run_cli(base + testing::quote_path(t / "b") + " -q");
  EXPECT_EQ(q.err.find("note:"), std::string::npos) << q.err;
  auto notes = testing::run_cli(base + testing::quote_path(t / "c") + " --notes");
  EXPECT_EQ(notes.exit_code, 0) << notes.err;
  EXPECT_NE(notes.err.find("27 instance sizes are not a multiple of 32"), std::string::npos) << notes.err;
}

}  // namespace
}  // namespace assay
