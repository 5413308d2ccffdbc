// Interrupted work leaves nothing behind (issue 29 item 2, docs/cli.md#interrupted): a real
// SIGINT/SIGTERM sent to the built CLI in the middle of extract, pack and replace ends it with exit
// status 130 and "interrupted" on stderr, no `.assay-tmp-*`/`*.assay-edit-*` under the output, only
// complete files, the input byte-identical; after `kill -9` the next run removes the stale
// temporary; pack never takes one. The work is slowed by ASSAY_DEBUG_SLOW_WRITE_MS (core/temp_file.h:
// a sleep after each write to a temporary), and ASSAY_DEBUG_NAMED_TEMP=1 forces the named temporaries
// that file systems without O_TMPFILE get.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <thread>

#include "assay/formats/igarchive/archive.h"
#include "assay/formats/igarchive/writer.h"
#include "testing/testing.h"

namespace assay {
namespace {

namespace fs = std::filesystem;
using testing::quote_path;
using testing::run_cli;

ByteBuffer noise(std::size_t n, std::uint32_t seed) {
  ByteBuffer b(n);
  for (auto& c : b) seed = seed * 1664525u + 1013904223u, c = static_cast<std::uint8_t>(seed >> 24);
  return b;
}

bool is_temporary(const std::string& name) {
  return name.rfind(".assay-tmp-", 0) == 0 || name.find(".assay-edit-") != std::string::npos;
}

std::vector<fs::path> temporaries_under(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (is_temporary(it->path().filename().string())) out.push_back(it->path());
  return out;
}

// Regular files under `dir` (relative path -> bytes), temporaries left out.
std::map<std::string, ByteBuffer> files_under(const fs::path& dir) {
  std::map<std::string, ByteBuffer> out;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file() && !is_temporary(it->path().filename().string()))
      out[fs::relative(it->path(), dir).generic_string()] = testing::read_file(it->path());
  return out;
}

// The CLI started in the background with extra environment variables, stderr to a file.
struct Running {
  pid_t pid = -1;
  fs::path err;
  ~Running() {
    if (pid > 0) ::kill(pid, SIGKILL), ::waitpid(pid, nullptr, 0);
  }
  // The wait status, or -1 after `seconds` (then the child is killed).
  int wait(unsigned seconds = 60) {
    int st = 0;
    for (unsigned i = 0; i < seconds * 100; ++i) {
      if (::waitpid(pid, &st, WNOHANG) == pid) {
        pid = -1;
        return st;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return -1;
  }
  [[nodiscard]] std::string stderr_text() const {
    const ByteBuffer b = testing::read_file(err);
    return {b.begin(), b.end()};
  }
  // Whether the process has a temporary open anywhere under `dir`, named or not (an O_TMPFILE
  // one shows in /proc/PID/fd as "DIR/#N (deleted)").
  [[nodiscard]] bool writing_under(const fs::path& dir) const {
    std::error_code ec;
    const std::string prefix = fs::canonical(dir, ec).string() + "/";
    if (ec) return false;
    for (fs::directory_iterator it("/proc/" + std::to_string(pid) + "/fd", ec), end; !ec && it != end; it.increment(ec)) {
      std::error_code e2;
      const std::string target = fs::read_symlink(it->path(), e2).string();
      if (e2 || target.rfind(prefix, 0) != 0) continue;
      const std::string deleted = " (deleted)";
      if (target.size() > deleted.size() && target.compare(target.size() - deleted.size(), deleted.size(), deleted) == 0) return true;
      if (is_temporary(fs::path(target).filename().string())) return true;
    }
    return false;
  }
};

Running start(const std::vector<std::string>& args, const std::map<std::string, std::string>& env, const fs::path& err) {
  Running r;
  r.err = err;
  r.pid = ::fork();
  if (r.pid == 0) {
    for (const auto& [k, v] : env) ::setenv(k.c_str(), v.c_str(), 1);
    const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int n = ::open("/dev/null", O_RDWR);
    ::dup2(n, STDIN_FILENO), ::dup2(n, STDOUT_FILENO), ::dup2(e, STDERR_FILENO);
    std::vector<char*> argv{const_cast<char*>(ASSAY_CLI)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(ASSAY_CLI, argv.data());
    ::_exit(127);
  }
  return r;
}

bool wait_for(const std::function<bool()>& cond, unsigned seconds = 60) {
  for (unsigned i = 0; i < seconds * 200; ++i) {
    if (cond()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

bool tmpfile_supported(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR, 0600);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

void expect_interrupted(int status, const Running& r) {
  ASSERT_NE(status, -1) << "the run did not end";
  ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0) << ": " << r.stderr_text();
  EXPECT_EQ(WEXITSTATUS(status), 130) << r.stderr_text();
  EXPECT_NE(r.stderr_text().find("assay: interrupted\n"), std::string::npos) << r.stderr_text();
}

constexpr int kEntries = 24;
std::string entry_name(int i) { return "dir" + std::to_string(i % 3) + "/e" + std::to_string(i) + ".bin"; }
ByteBuffer entry_data(int i) { return noise(20000 + 1000 * i, 100 + i); }

// An igArchive of 24 entries in three folders, built by our writer.
struct InterruptCli : ::testing::Test {
  testing::TempDir t;
  fs::path pak = t / "in" / "in.pak";
  fs::path out = t / "out";
  ByteBuffer original;
  void SetUp() override {
    std::vector<igarchive::WriterFile> files;
    for (int i = 0; i < kEntries; ++i)
      files.push_back({.name = entry_name(i), .data = entry_data(i), .compression = igarchive::Compression::lz4});
    auto b = igarchive::write_archive(files, {});
    ASSERT_TRUE(b.ok()) << b.error().str();
    original = *b;
    testing::write_file(pak, original);
    testing::write_file(t / "new.bin", noise(30000, 7));
    fs::create_directories(out);
  }
  // Every file extracted is whole: exactly the entry's bytes.
  void expect_only_whole_files(std::size_t at_most) {
    const auto got = files_under(out);
    EXPECT_LT(got.size(), at_most) << "the run was not interrupted in the middle";
    for (const auto& [rel, bytes] : got) {
      bool known = false;
      for (int i = 0; i < kEntries; ++i)
        if (rel == entry_name(i)) {
          known = true;
          EXPECT_EQ(bytes, entry_data(i)) << rel << " is not whole";
        }
      EXPECT_TRUE(known) << rel;
    }
  }
};

struct Case {
  bool named;
  int sig;
};

class InterruptExtract : public InterruptCli, public ::testing::WithParamInterface<Case> {};

TEST_P(InterruptExtract, RemovesTemporariesAndExits130) {
  const Case c = GetParam();
  std::map<std::string, std::string> env{{"ASSAY_DEBUG_SLOW_WRITE_MS", "150"}};
  if (c.named) env["ASSAY_DEBUG_NAMED_TEMP"] = "1";
  Running r = start({"extract", pak.string(), "-o", out.string(), "--threads", "1"}, env, t / "err.txt");
  // In the middle: two files whole, the next being written (named: its .assay-tmp-* is there).
  ASSERT_TRUE(wait_for([&] { return files_under(out).size() >= 2 && r.writing_under(out); })) << r.stderr_text();
  if (c.named) {
    ASSERT_TRUE(wait_for([&] { return !temporaries_under(out).empty(); })) << r.stderr_text();
  }
  ::kill(r.pid, c.sig);
  expect_interrupted(r.wait(), r);
  EXPECT_EQ(temporaries_under(out), std::vector<fs::path>{});
  expect_only_whole_files(kEntries);
  EXPECT_EQ(testing::read_file(pak), original);
  EXPECT_EQ(files_under(pak.parent_path()).size(), 1u);  // nothing beside the input
  EXPECT_EQ(temporaries_under(pak.parent_path()), std::vector<fs::path>{});
}

INSTANTIATE_TEST_SUITE_P(Signals, InterruptExtract,
                         ::testing::Values(Case{false, SIGINT}, Case{false, SIGTERM}, Case{true, SIGINT}, Case{true, SIGTERM}),
                         [](const auto& info) {
                           return std::string(info.param.named ? "Named" : "Default") + (info.param.sig == SIGINT ? "Int" : "Term");
                         });

TEST_F(InterruptCli, PackLeavesNoArchiveAndNoTemporary) {
  for (const bool named : {false, true}) {
    SCOPED_TRACE(named ? "named" : "default");
    fs::remove_all(t / "folder");
    for (int i = 0; i < 8; ++i) testing::write_file(t / "folder" / entry_name(i), entry_data(i));
    const auto inputs = files_under(t / "folder");
    std::map<std::string, std::string> env{{"ASSAY_DEBUG_SLOW_WRITE_MS", "5000"}};
    if (named) env["ASSAY_DEBUG_NAMED_TEMP"] = "1";
    Running r = start({"pack", "igarchive", "--compression", "lz4", "-o", (out / "new.pak").string(), (t / "folder").string()},
                      env, t / "err.txt");
    ASSERT_TRUE(wait_for([&] { return r.writing_under(out); })) << r.stderr_text();
    ::kill(r.pid, named ? SIGTERM : SIGINT);
    expect_interrupted(r.wait(), r);
    EXPECT_TRUE(fs::is_empty(out)) << "no archive, no temporary";
    EXPECT_EQ(files_under(t / "folder"), inputs);
    EXPECT_EQ(temporaries_under(t / "folder"), std::vector<fs::path>{});
  }
}

TEST_F(InterruptCli, ReplaceToOutputAndInPlace) {
  for (const bool named : {false, true}) {
    SCOPED_TRACE(named ? "named" : "default");
    std::map<std::string, std::string> env{{"ASSAY_DEBUG_SLOW_WRITE_MS", "5000"}};
    if (named) env["ASSAY_DEBUG_NAMED_TEMP"] = "1";
    const std::string item = entry_name(0) + "=" + (t / "new.bin").string();
    {
      Running r = start({"replace", pak.string(), "-o", (out / "new.pak").string(), item}, env, t / "err.txt");
      ASSERT_TRUE(wait_for([&] { return r.writing_under(out); })) << r.stderr_text();
      ::kill(r.pid, SIGINT);
      expect_interrupted(r.wait(), r);
      EXPECT_TRUE(fs::is_empty(out)) << "no output, no OUT.assay-edit-*";
      EXPECT_EQ(testing::read_file(pak), original);
    }
    {
      Running r = start({"replace", pak.string(), "--in-place", item}, env, t / "err.txt");
      ASSERT_TRUE(wait_for([&] { return r.writing_under(pak.parent_path()); })) << r.stderr_text();
      ::kill(r.pid, SIGTERM);
      expect_interrupted(r.wait(), r);
      EXPECT_EQ(testing::read_file(pak), original);
      std::set<std::string> beside;
      for (const auto& e : fs::directory_iterator(pak.parent_path())) beside.insert(e.path().filename().string());
      EXPECT_EQ(beside, std::set<std::string>{"in.pak"});
    }
  }
}

// On a terminal the progress line is cleared before the message (not left unterminated).
TEST_F(InterruptCli, ProgressLineEndedOnATerminal) {
  if (!testing::have_terminal()) GTEST_SKIP() << "no script(1)";
  const fs::path shown = t / "terminal.txt";
  const std::string inner = "ASSAY_DEBUG_SLOW_WRITE_MS=300 timeout --preserve-status -s INT 3 " + std::string(ASSAY_CLI) +
                            " extract " + quote_path(pak) + " -o " + quote_path(out) + " --threads 1";
  const std::string cmd = "script -qefc " + testing::shell_quote(inner) + " /dev/null </dev/null >" + quote_path(shown) + " 2>&1";
  const int st = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(st));
  EXPECT_EQ(WEXITSTATUS(st), 130);
  const ByteBuffer b = testing::read_file(shown);
  const std::string text(b.begin(), b.end());
  const auto bar = text.rfind("\rextract: ");
  ASSERT_NE(bar, std::string::npos) << text;  // the bar was drawn
  const auto end = text.find("\r\033[Kassay: interrupted", bar);
  EXPECT_NE(end, std::string::npos) << text;
  EXPECT_EQ(temporaries_under(out), std::vector<fs::path>{});
}

// kill -9 cannot be caught: the named temporary stays, and the next run writing that folder removes
// it (also with --skip-existing). With O_TMPFILE, nothing has a name to leave.
TEST_F(InterruptCli, KillNineThenTheNextRunRemovesTheStaleTemporary) {
  {
    Running r = start({"extract", pak.string(), "-o", out.string(), "--threads", "1"},
                      {{"ASSAY_DEBUG_SLOW_WRITE_MS", "150"}, {"ASSAY_DEBUG_NAMED_TEMP", "1"}}, t / "err.txt");
    ASSERT_TRUE(wait_for([&] { return files_under(out).size() >= 2 && !temporaries_under(out).empty(); })) << r.stderr_text();
    ::kill(r.pid, SIGKILL);
    const int st = r.wait();
    ASSERT_TRUE(WIFSIGNALED(st));
  }
  const auto stale = temporaries_under(out);
  ASSERT_EQ(stale.size(), 1u) << "a killed process cannot clean up";
  auto again = run_cli("extract " + quote_path(pak) + " -o " + quote_path(out) + " --skip-existing");
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(temporaries_under(out), std::vector<fs::path>{});
  EXPECT_EQ(files_under(out).size(), static_cast<std::size_t>(kEntries));
  expect_only_whole_files(kEntries + 1);

  // An edit's OUT.assay-edit-* after kill -9, removed by the next edit writing there.
  {
    Running r = start({"replace", pak.string(), "-o", (out / "new.pak").string(), entry_name(1) + "=" + (t / "new.bin").string()},
                      {{"ASSAY_DEBUG_SLOW_WRITE_MS", "5000"}, {"ASSAY_DEBUG_NAMED_TEMP", "1"}}, t / "err.txt");
    ASSERT_TRUE(wait_for([&] { return !temporaries_under(out).empty(); })) << r.stderr_text();
    ::kill(r.pid, SIGKILL);
    ASSERT_TRUE(WIFSIGNALED(r.wait()));
  }
  ASSERT_EQ(temporaries_under(out).size(), 1u);
  EXPECT_EQ(temporaries_under(out)[0].filename().string().rfind("new.pak.assay-edit-", 0), 0u);
  auto edit = run_cli("replace " + quote_path(pak) + " -o " + quote_path(out / "new.pak") + " " + entry_name(1) + "=" +
                      quote_path(t / "new.bin"));
  EXPECT_EQ(edit.exit_code, 0) << edit.err;
  EXPECT_EQ(temporaries_under(out), std::vector<fs::path>{});
  EXPECT_EQ(testing::read_file(pak), original);
}

TEST_F(InterruptCli, KillNineLeavesNothingWithUnnamedTemporaries) {
  if (!tmpfile_supported(out)) GTEST_SKIP() << "no O_TMPFILE here";
  Running r = start({"extract", pak.string(), "-o", out.string(), "--threads", "1"}, {{"ASSAY_DEBUG_SLOW_WRITE_MS", "150"}},
                    t / "err.txt");
  ASSERT_TRUE(wait_for([&] { return files_under(out).size() >= 2 && r.writing_under(out); })) << r.stderr_text();
  ::kill(r.pid, SIGKILL);
  ASSERT_TRUE(WIFSIGNALED(r.wait()));
  EXPECT_EQ(temporaries_under(out), std::vector<fs::path>{});
  expect_only_whole_files(kEntries);
}

// `pack` never takes assay's temporaries, old-style or new (the 3,522 files of 3,520).
TEST_F(InterruptCli, PackSkipsTemporaries) {
  const fs::path in = t / "folder";
  testing::write_file(in / "a.bin", noise(100, 1));
  testing::write_file(in / "b" / "c.bin", noise(100, 2));
  testing::write_file(in / ".assay-tmp-Ab12Cd", {});
  testing::write_file(in / ".assay-tmp-12-34-Ab12Cd", {});
  testing::write_file(in / "b" / "c.bin.assay-edit-12-34-Ab12Cd", noise(10, 3));
  auto r = run_cli("pack igarchive -o " + quote_path(out / "p.pak") + " " + quote_path(in));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const ByteBuffer bytes = testing::read_file(out / "p.pak");
  auto a = igarchive::Archive::open(bytes);
  ASSERT_TRUE(a.ok()) << a.error().str();
  std::set<std::string> names;
  for (const auto& f : a->files()) names.insert(std::string(f.name));
  EXPECT_EQ(names, (std::set<std::string>{"a.bin", "b/c.bin"}));
}

}  // namespace
}  // namespace assay
