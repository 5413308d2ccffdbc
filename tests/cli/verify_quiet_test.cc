// Issue 29 item 5: verify is quieter by default. Text output prints errors and warnings; notes
// only with --notes (their count follows the verdict); -q prints the verdict line alone; --json
// keeps every problem. docs/cli.md#verify.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "assay/formats/igarchive/writer.h"
#include "testing/testing.h"

namespace assay {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::quote_path;
using testing::run_cli;

// stderr without the memory report line that tests/cli/memory_test.cc turns on for the whole binary.
std::string without_memory_report(const std::string& err) {
  std::string out;
  std::size_t start = 0;
  while (start < err.size()) {
    std::size_t end = err.find('\n', start);
    end = end == std::string::npos ? err.size() : end + 1;
    if (err.compare(start, 14, "assay: memory:") != 0) out.append(err, start, end - start);
    start = end;
  }
  return out;
}

using testing::lines_of;

std::size_t count_with(const std::vector<std::string>& lines, const std::string& what) {
  std::size_t n = 0;
  for (const auto& l : lines) n += l.find(what) != std::string::npos;
  return n;
}

// Three LZMA files written with igArchiveLib's zero terminator (one note per file, spec
// alchemy.md#open Q1 and docs/cli.md#igarchive "terminator 0 (note)"), then 16 bytes after the
// end (one warning, "trailing bytes").
fs::path noted_archive(const testing::TempDir& t) {
  std::vector<igarchive::WriterFile> files;
  for (const char* n : {"a.bin", "b.bin", "c.bin"})
    files.push_back({.name = n, .data = ByteBuffer(5000, static_cast<std::uint8_t>(n[0])),
                     .compression = igarchive::Compression::lzma});
  igarchive::WriterOptions o;
  o.zero_terminator = true;
  auto a = igarchive::write_archive(files, o);
  EXPECT_TRUE(a.ok()) << a.error().str();
  ByteBuffer bytes = a ? *a : ByteBuffer{};
  bytes.insert(bytes.end(), 16, 0xEE);
  const fs::path p = t / "noted.arc";
  testing::write_file(p, bytes);
  return p;
}

TEST(VerifyQuiet, NotesOnlyWithNotesFlag) {
  testing::TempDir t;
  const std::string f = quote_path(noted_archive(t));
  // --json keeps everything: three notes (one per terminator) and the one warning.
  auto j = run_cli("verify --json " + f);
  ASSERT_EQ(j.exit_code, 0) << j.err;
  std::size_t notes = 0, warnings = 0;
  const json doc = json::parse(j.out);
  for (const auto& p : doc["files"][0]["problems"]) {
    notes += p["severity"] == "note";
    warnings += p["severity"] == "warning";
  }
  ASSERT_EQ(notes, 3u) << j.out;
  ASSERT_EQ(warnings, 1u) << j.out;

  // default: the warning and the verdict, which counts the notes not shown
  auto r = run_cli("verify " + f);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto lines = lines_of(r.out);
  EXPECT_EQ(count_with(lines, ": note: "), 0u) << r.out;
  EXPECT_EQ(count_with(lines, ": warning: "), 1u) << r.out;
  ASSERT_EQ(lines.size(), 2u) << r.out;
  EXPECT_NE(lines[1].find(": ok (0 errors, 1 warnings), 3 notes not shown (--notes)"), std::string::npos) << r.out;

  // --notes: every problem, and the verdict as it was
  r = run_cli("verify --notes " + f);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  lines = lines_of(r.out);
  EXPECT_EQ(count_with(lines, ": note: "), 3u) << r.out;
  EXPECT_EQ(count_with(lines, ": warning: "), 1u) << r.out;
  ASSERT_EQ(lines.size(), 5u) << r.out;
  EXPECT_TRUE(lines[4].ends_with(": ok (0 errors, 1 warnings)")) << r.out;

  // -q (anywhere on the line): the verdict alone
  for (const std::string args : {"-q verify " + f, "verify " + f + " -q", "verify --notes -q " + f}) {
    r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << args;
    lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 1u) << args << "\n" << r.out;
    EXPECT_NE(lines[0].find(": ok (0 errors, 1 warnings)"), std::string::npos) << r.out;
    EXPECT_TRUE(without_memory_report(r.err).empty()) << r.err;
  }
  // --json is not changed by -q or the lack of --notes
  auto jq = run_cli("-q verify --json " + f);
  EXPECT_EQ(jq.out, j.out);
}

TEST(VerifyQuiet, ErrorsStayAndQuietKeepsTheExitCode) {
  testing::TempDir t;
  const fs::path p = noted_archive(t);
  ByteBuffer b = testing::read_file(p);
  b.resize(b.size() / 2);  // the files' blocks and the name table are cut off
  testing::write_file(t / "cut.arc", b);
  const std::string f = quote_path(t / "cut.arc");
  auto r = run_cli("verify " + f);
  EXPECT_EQ(r.exit_code, 1);
  auto lines = lines_of(r.out);
  EXPECT_GE(count_with(lines, ": error: "), 1u) << r.out;
  EXPECT_NE(lines.back().find(": FAILED ("), std::string::npos) << r.out;
  r = run_cli("-q verify " + f);
  EXPECT_EQ(r.exit_code, 1);
  lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 1u) << r.out;
  EXPECT_NE(lines[0].find(": FAILED ("), std::string::npos) << r.out;
}

// The case: a healthy zap.pak under --deep gave about 290 note lines.
TEST(VerifyQuiet, SkylandersZapDeep) {
  ASSAY_REQUIRE_SAMPLE(pak, "alchemy/skylanders_zap.pak");
  const std::string f = quote_path(pak);
  auto j = run_cli("verify --deep --json " + f);
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const auto file = json::parse(j.out)["files"][0];
  std::size_t notes = 0;
  for (const auto& p : file["problems"]) notes += p["severity"] == "note";
  EXPECT_GT(notes, 200u);  // "about 290" (issue 29)
  auto r = run_cli("verify --deep " + f);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = lines_of(r.out);
  EXPECT_EQ(count_with(lines, ": note: "), 0u);
  EXPECT_EQ(lines.size(), file["warnings"].get<std::size_t>() + 1) << r.out;
  EXPECT_NE(lines.back().find(", " + std::to_string(notes) + " notes not shown (--notes)"), std::string::npos) << r.out;
  r = run_cli("verify --deep --notes " + f);
  EXPECT_EQ(count_with(lines_of(r.out), ": note: "), notes);
  r = run_cli("verify --deep -q " + f);
  EXPECT_EQ(lines_of(r.out).size(), 1u) << r.out;
}

}  // namespace
}  // namespace assay
