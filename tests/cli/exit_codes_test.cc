// Exit codes of the writing verbs (docs/cli.md#exit-codes; the reading verbs are in
// tests/container/cli_conventions_test.cc): 0 ok, 1 problems in the data, 2 usage or I/O.
#include <gtest/gtest.h>

#include "testing/testing.h"

namespace assay {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;
using testing::shell_quote;

class WritingVerbExitCodes : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(t / "in");
    testing::write_file(t / "in" / "a.txt", ByteBuffer{'h', 'e', 'l', 'l', 'o'});
    testing::write_file(t / "in" / "b.txt", ByteBuffer{'w', 'o', 'r', 'l', 'd'});
    testing::write_file(t / "new.txt", ByteBuffer{'n', 'e', 'w'});
    ASSERT_EQ(run_cli("pack igarchive -o " + q("a.arc") + " " + q("in")).exit_code, 0);
    const ByteBuffer whole = testing::read_file(t / "a.arc");
    testing::write_file(t / "cut.arc", ByteView(whole).first(100));  // its name table runs past the end
  }
  std::string q(const std::string& rel) const { return shell_quote((t / rel).string()); }
  testing::TempDir t;
};

TEST_F(WritingVerbExitCodes, PackReplaceAddRemoveHash) {
  EXPECT_EQ(run_cli("pack igarchive -o " + q("b.arc") + " " + q("missing")).exit_code, 2);  // no such folder
  EXPECT_EQ(run_cli("pack igarchive -o " + q("a.arc") + " " + q("in")).exit_code, 2);       // exists, no --force
  EXPECT_EQ(run_cli("pack igarchive -o " + q("a.arc") + " " + q("in") + " --compression zip").exit_code, 2);
  EXPECT_EQ(run_cli("pack nosuchfamily -o " + q("x") + " " + q("in")).exit_code, 2);

  EXPECT_EQ(run_cli("replace " + q("a.arc") + " -o " + q("r1.arc") + " a.txt=" + q("new.txt")).exit_code, 0);
  EXPECT_EQ(run_cli("replace " + q("a.arc") + " -o " + q("r2.arc") + " zzz.txt=" + q("new.txt")).exit_code, 2);
  auto missing = run_cli("replace " + q("a.arc") + " -o " + q("r3.arc") + " a.txt=" + q("nofile"));
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("no such file"), std::string::npos) << missing.err;
  EXPECT_EQ(run_cli("replace " + q("cut.arc") + " -o " + q("r4.arc") + " a.txt=" + q("new.txt")).exit_code, 1);
  EXPECT_EQ(run_cli("replace " + q("a.arc") + " a.txt=" + q("new.txt")).exit_code, 2);  // neither -o nor --in-place
  EXPECT_EQ(run_cli("add " + q("a.arc") + " -o " + q("d1.arc") + " c.txt=" + q("new.txt")).exit_code, 0);
  EXPECT_EQ(run_cli("add " + q("a.arc") + " -o " + q("d2.arc") + " a.txt=" + q("new.txt")).exit_code, 2);
  EXPECT_EQ(run_cli("remove " + q("a.arc") + " -o " + q("m1.arc") + " b.txt").exit_code, 0);
  EXPECT_EQ(run_cli("remove " + q("a.arc") + " -o " + q("m2.arc") + " zzz.txt").exit_code, 2);
  for (const char* never : {"r2.arc", "r3.arc", "r4.arc", "d2.arc", "m2.arc"}) EXPECT_FALSE(fs::exists(t / never)) << never;

  auto h = run_cli("hash crc32 123456789");
  EXPECT_EQ(h.exit_code, 0);
  EXPECT_EQ(h.out, "cbf43926\n");  // the CRC-32 check value
  EXPECT_EQ(run_cli("hash nosuchalgo x").exit_code, 2);
}

}  // namespace
}  // namespace assay
