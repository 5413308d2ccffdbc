// `verify` of an igz draws progress in a terminal (issue 11 item 5: progress on every long verb,
// with the current file), and nothing when stderr is a file or with -q. The terminal is a
// pseudo-terminal made by script(1), as in progress_test.cc.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "assay/formats/igz/writer.h"
#include "testing/testing.h"

namespace assay {
namespace {

namespace fs = std::filesystem;
using testing::quote_path;
using testing::run_cli;
using testing::shell_quote;

class IgzVerifyProgress : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::have_terminal()) GTEST_SKIP() << "no script(1)";
    auto igz = igz::build_sample({9, Endian::big, 9});  // a Wii U (cafe) igz by our writer
    ASSERT_TRUE(igz.ok()) << igz.error().str();
    testing::write_file(file, *igz);
  }

  std::string terminal(const std::string& args) { return testing::run_in_terminal(args, t.path()); }

  testing::TempDir t;
  fs::path file = t / "model.igz";
};

TEST_F(IgzVerifyProgress, DrawnInATerminalWithTheFileName) {
  const std::string shown = terminal("verify " + quote_path(file));
  EXPECT_NE(shown.find("\rverify: "), std::string::npos) << shown;
  EXPECT_NE(shown.find("% "), std::string::npos) << shown;
  EXPECT_NE(shown.find("KiB"), std::string::npos) << shown;  // the file's size, as units
  EXPECT_NE(shown.find("model.igz\033[K"), std::string::npos) << shown;  // the current file, then the line is ended
  EXPECT_NE(shown.find("ok (0 errors"), std::string::npos) << shown;
}

TEST_F(IgzVerifyProgress, SilentWithQuietOrWhenStderrIsAFile) {
  EXPECT_EQ(terminal("-q verify " + quote_path(file)).find("verify: "), std::string::npos);
  const auto r = run_cli("verify " + quote_path(file));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("verify: "), std::string::npos) << r.err;
}

}  // namespace
}  // namespace assay
