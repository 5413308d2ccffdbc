// Progress on the long verbs (issue 11 item 5, docs/cli.md#conventions): drawn on stderr when it
// is a terminal (run here under a pseudo-terminal through script(1)), nothing when it is a file.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "assay/formats/igarchive/writer.h"
#include "testing/testing.h"

namespace assay {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;
using testing::quote_path;
using testing::shell_quote;

// The CLI with stdin, stdout and stderr on a pseudo-terminal; returns what the terminal showed.
std::string run_in_terminal(const std::string& args, const fs::path& scratch) {
  const fs::path shown = scratch / "terminal.txt";
  const std::string inner = std::string(ASSAY_CLI) + " " + args;
  const std::string cmd = "script -qefc " + shell_quote(inner) + " /dev/null </dev/null >" + quote_path(shown) + " 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream f(shown, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

ByteBuffer noise(std::size_t n, std::uint32_t seed) {
  ByteBuffer b(n);
  for (auto& c : b) seed = seed * 1664525u + 1013904223u, c = static_cast<std::uint8_t>(seed >> 24);
  return b;
}

class ProgressCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::system("script -qefc true /dev/null </dev/null >/dev/null 2>&1") != 0) GTEST_SKIP() << "no script(1)";
    fs::create_directories(t / "in");
    testing::write_file(t / "in" / "alpha.bin", noise(300000, 1));
    testing::write_file(t / "in" / "beta.bin", noise(200000, 2));
    testing::write_file(t / "new.bin", noise(250000, 3));
  }
  testing::TempDir t;
};

TEST_F(ProgressCli, PackAndReplaceDrawInATerminal) {
  std::string shown = run_in_terminal("pack igarchive -o " + quote_path(t / "a.arc") + " " + quote_path(t / "in"), t.path());
  ASSERT_TRUE(fs::exists(t / "a.arc")) << shown;
  EXPECT_NE(shown.find("\rpack: "), std::string::npos) << shown;
  EXPECT_NE(shown.find("% "), std::string::npos) << shown;
  EXPECT_NE(shown.find("KiB"), std::string::npos) << shown;  // byte counts as units, not raw numbers
  EXPECT_TRUE(shown.find("alpha.bin") != std::string::npos || shown.find("beta.bin") != std::string::npos) << shown;
  shown = run_in_terminal("replace " + quote_path(t / "a.arc") + " -o " + quote_path(t / "b.arc") + " alpha.bin=" + quote_path(t / "new.bin"), t.path());
  ASSERT_TRUE(fs::exists(t / "b.arc")) << shown;
  EXPECT_NE(shown.find("\rreplace: "), std::string::npos) << shown;
  EXPECT_NE(shown.find("alpha.bin"), std::string::npos) << shown;
  // with -q: nothing drawn
  shown = run_in_terminal("-q pack igarchive -o " + quote_path(t / "c.arc") + " " + quote_path(t / "in"), t.path());
  EXPECT_EQ(shown.find("pack: "), std::string::npos) << shown;
}

TEST_F(ProgressCli, SilentWhenStderrIsAFile) {
  auto r = run_cli("pack igarchive -o " + quote_path(t / "a.arc") + " " + quote_path(t / "in"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("%"), std::string::npos) << r.err;
  r = run_cli("replace " + quote_path(t / "a.arc") + " -o " + quote_path(t / "b.arc") + " alpha.bin=" + quote_path(t / "new.bin"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
  r = run_cli("extract " + quote_path(t / "a.arc") + " -o " + quote_path(t / "x"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
}

TEST_F(ProgressCli, ExtractAndVerifyDrawInATerminal) {
  ASSERT_EQ(run_cli("pack igarchive -o " + quote_path(t / "a.arc") + " " + quote_path(t / "in")).exit_code, 0);
  std::string shown = run_in_terminal("extract " + quote_path(t / "a.arc") + " -o " + quote_path(t / "x") + " --threads 1", t.path());
  EXPECT_NE(shown.find("\rextract: "), std::string::npos) << shown;
  EXPECT_NE(shown.find("% "), std::string::npos) << shown;
  EXPECT_TRUE(fs::exists(t / "x" / "alpha.bin"));
  shown = run_in_terminal("verify " + quote_path(t / "a.arc"), t.path());  // every block decoded
  EXPECT_NE(shown.find("\rverify: "), std::string::npos) << shown;
  EXPECT_NE(shown.find("ok (0 errors"), std::string::npos) << shown;
  const auto v = run_cli("verify " + quote_path(t / "a.arc"));
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.err.find('\r'), std::string::npos) << v.err;
}

}  // namespace
}  // namespace assay
