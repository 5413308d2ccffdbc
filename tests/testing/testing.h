// Helpers shared by the tests: sample paths, temporary folders, running the CLI.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "assay/core/bytes.h"

namespace assay::testing {

// ../shared/samples/<rel> (or $ASSAY_SAMPLES/<rel>); empty when absent.
std::filesystem::path shared_sample(const std::string& rel);
// ../shared/goldens/<rel> (beside the samples folder); empty when absent.
std::filesystem::path shared_golden(const std::string& rel);
// True when the environment says we run in CI (CI=true or CI=1): there a missing shared sample
// is a failure, not a skip.
bool in_ci();
// GTEST_SKIP()s the calling test when a shared sample is absent; FAILs instead under CI.
#define ASSAY_REQUIRE_SAMPLE(var, rel)                                                  \
  const auto var = ::assay::testing::shared_sample(rel);                               \
  if (var.empty()) {                                                                   \
    if (::assay::testing::in_ci()) FAIL() << "shared sample " << (rel) << " missing in CI"; \
    GTEST_SKIP() << "shared sample " << (rel) << " not present";                      \
  }                                                                                    \
  static_assert(true)

// The same for a golden (reference data a peer tool made).
#define ASSAY_REQUIRE_GOLDEN(var, rel)                                                  \
  const auto var = ::assay::testing::shared_golden(rel);                               \
  if (var.empty()) {                                                                   \
    if (::assay::testing::in_ci()) FAIL() << "shared golden " << (rel) << " missing in CI"; \
    GTEST_SKIP() << "shared golden " << (rel) << " not present";                      \
  }                                                                                    \
  static_assert(true)

// A fresh empty folder removed at destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& rel) const { return path_ / rel; }

 private:
  std::filesystem::path path_;
};

void write_file(const std::filesystem::path& p, ByteView data);
ByteBuffer read_file(const std::filesystem::path& p);
// The truncation and mutation sweep of a parser's test: `once` gets every prefix of `good`
// (0 .. size-1 bytes), then `good` with each byte set to 0xFF and to 0x80 in turn.
void sweep_cuts_and_bytes(const ByteBuffer& good, const std::function<void(const ByteBuffer&)>& once);
// A fuzz target's seeds, made by the test: each must equal fuzz/corpus/<target>/<name> as
// committed; with the environment variable `env` set to a folder, they are written there instead
// (then copied into fuzz/corpus by hand).
void check_fuzz_seeds(const char* env, std::string_view target, const std::vector<std::pair<std::string, ByteBuffer>>& seeds);
inline ByteBuffer bytes_of(std::string_view s) { return ByteBuffer(s.begin(), s.end()); }
// The lines of a CLI's output, without the "assay: memory:" lines ASSAY_REPORT_MEMORY adds (set
// for the whole test_cli binary by tests/cli/memory_test.cc).
std::vector<std::string> lines_of(const std::string& text);

struct CliResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};
// Runs the built assay binary with the given shell-quoted argument string.
CliResult run_cli(const std::string& args);
// run_cli under `timeout SECONDS`: a run that blocks (a FIFO read, a hang) fails the test with exit
// 124 instead of hanging it.
CliResult run_cli_bounded(const std::string& args, unsigned seconds = 30);
std::string shell_quote(const std::string& s);
// A path shell-quoted for run_cli's argument string.
inline std::string quote_path(const std::filesystem::path& p) { return shell_quote(p.string()); }

// Whether script(1) can give the CLI a pseudo-terminal here (progress tests skip without it).
bool have_terminal();
// What a terminal shows of `assay ARGS` run with stdin, stdout and stderr on a pseudo-terminal
// made by script(1); `scratch` receives the screen capture.
std::string run_in_terminal(const std::string& args, const std::filesystem::path& scratch);

}  // namespace assay::testing
