// Issue 15 item 1 (remainder): the text lines of identify/verify/extract escape the file name
// (docs/cli.md#escaping: ESC shows as \e, a newline as \n), and any exception reaching the top
// of the CLI is an internal error naming the file, exit 2, never an abort
// (docs/reliability.md#internal-errors; the ASSAY_DEBUG_THROW hook of tools/assay/main.cc).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "assay/formats/igarchive/writer.h"
#include "testing/testing.h"

namespace assay {
namespace {

using testing::run_cli;
using testing::shell_quote;

// A valid one-member igArchive at `p` (the project's writer).
void write_archive_at(const std::filesystem::path& p) {
  const std::string text = "member bytes";
  std::vector<igarchive::WriterFile> files = {{.name = "a.txt", .data = ByteBuffer(text.begin(), text.end())}};
  auto a = igarchive::write_archive(files, {});
  ASSERT_TRUE(a.ok()) << a.error().str();
  testing::write_file(p, *a);
}

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

// ESC [ 3 1 m would turn the terminal red; the newline would split the line in two.
constexpr const char* kHostile = "e\x1B[31m\nx.arc";
constexpr const char* kEscaped = "e\\e[31m\\nx.arc";

TEST(VerbsText, IdentifyEscapesTheFileName) {
  testing::TempDir t;
  const auto p = t / kHostile;
  write_archive_at(p);
  auto r = run_cli("identify " + shell_quote(p.string()));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1B'), std::string::npos) << r.out;
  EXPECT_EQ(lines(r.out), 1u) << r.out;  // one file, one line
  EXPECT_NE(r.out.find(std::string(kEscaped) + ": igarchive"), std::string::npos) << r.out;
}

TEST(VerbsText, VerifyEscapesTheFileName) {
  testing::TempDir t;
  const auto p = t / kHostile;
  write_archive_at(p);
  auto r = run_cli("verify " + shell_quote(p.string()));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find('\x1B'), std::string::npos) << r.out;
  EXPECT_EQ(lines(r.out), 1u) << r.out;
  EXPECT_NE(r.out.find(std::string(kEscaped) + ": ok (0 errors, 0 warnings)"), std::string::npos) << r.out;
  // An unrecognised file: the error line and the verdict line, both escaped.
  const auto junk = t / "j\x1B]0;title\x07.bin";
  const std::string text = "just some text, no format\n";
  testing::write_file(junk, ByteBuffer(text.begin(), text.end()));
  r = run_cli("verify " + shell_quote(junk.string()));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out.find('\x1B'), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\x07'), std::string::npos) << r.out;
  EXPECT_EQ(lines(r.out), 2u) << r.out;
  EXPECT_NE(r.out.find("j\\e]0;title\\x07.bin: FAILED"), std::string::npos) << r.out;
}

TEST(VerbsText, ExtractSummaryEscapesNames) {
  testing::TempDir t;
  const auto p = t / kHostile;
  write_archive_at(p);
  const auto out = t / "out\x1B[2J";
  auto r = run_cli("extract " + shell_quote(p.string()) + " -o " + shell_quote(out.string()));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find('\x1B'), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(std::string(kEscaped) + ": extracted 1 files (12 bytes) to "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("out\\e[2J"), std::string::npos) << r.err;
}

class DebugThrow : public ::testing::Test {
 protected:
  void TearDown() override { ::unsetenv("ASSAY_DEBUG_THROW"); }
  // Runs `info FILE` with the hook set to `kind`.
  testing::CliResult info_with(const char* kind, const std::filesystem::path& file) {
    ::setenv("ASSAY_DEBUG_THROW", kind, 1);
    auto r = run_cli("info " + shell_quote(file.string()));
    ::unsetenv("ASSAY_DEBUG_THROW");
    return r;
  }
};

TEST_F(DebugThrow, EveryExceptionKindIsAnInternalErrorNamingTheFile) {
  testing::TempDir t;
  const auto p = t / "plain.arc";
  write_archive_at(p);
  ASSERT_EQ(run_cli("info " + shell_quote(p.string())).exit_code, 0);  // the hook is off by default
  const struct {
    const char* kind;
    const char* what;
  } cases[] = {{"exception", "ASSAY_DEBUG_THROW test hook"}, {"bad_alloc", "out of memory"}, {"other", "unknown exception"}};
  for (const auto& c : cases) {
    auto r = info_with(c.kind, p);
    EXPECT_EQ(r.exit_code, 2) << c.kind << ": " << r.err;  // an abort would be 134 (SIGABRT)
    EXPECT_NE(r.err.find("assay: internal error on " + p.string() + ": " + c.what), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("terminate called"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;  // the verb never ran
  }
}

TEST_F(DebugThrow, InternalErrorEscapesTheFileName) {
  testing::TempDir t;
  const auto p = t / kHostile;
  write_archive_at(p);
  auto r = info_with("exception", p);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err.find('\x1B'), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(std::string(kEscaped) + ": ASSAY_DEBUG_THROW test hook"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("\nx.arc"), std::string::npos) << r.err;  // the newline did not split the line
}

}  // namespace
}  // namespace assay
