// Temporaries that interrupted work cannot leave behind (issue 29 item 2, core/temp_file.h,
// core/interrupt.h): unnamed files where the file system allows, named ones registered for the
// signal handler, and the removal of those a killed process left, told by the owner in the name.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "assay/core/interrupt.h"
#include "assay/core/output.h"
#include "assay/core/temp_file.h"
#include "testing/testing.h"

namespace assay {
namespace {

namespace fs = std::filesystem;

std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.insert(e.path().filename().string());
  return out;
}

// This process's start time in clock ticks since boot: /proc/self/stat field 22, read here
// independently of the library.
std::string my_start_ticks() {
  std::ifstream f("/proc/self/stat");
  std::string line;
  std::getline(f, line);
  std::istringstream rest(line.substr(line.rfind(')') + 2));
  std::string field;
  for (int i = 3; i <= 22; ++i) rest >> field;
  return field;
}

// A pid that has ended: a child that exited and was reaped.
pid_t dead_pid() {
  const pid_t p = ::fork();
  if (p == 0) ::_exit(0);
  int st = 0;
  ::waitpid(p, &st, 0);
  return p;
}

void touch(const fs::path& p, std::time_t mtime) {
  testing::write_file(p, ByteBuffer{1, 2, 3});
  const timespec times[2] = {{mtime, 0}, {mtime, 0}};
  ::utimensat(AT_FDCWD, p.c_str(), times, 0);
}

bool tmpfile_supported(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR, 0600);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

struct NamedTemporaries {
  NamedTemporaries() { ::setenv("ASSAY_DEBUG_NAMED_TEMP", "1", 1); }
  ~NamedTemporaries() { ::unsetenv("ASSAY_DEBUG_NAMED_TEMP"); }
};

TEST(TempNames, WhatPackSkips) {
  EXPECT_TRUE(is_assay_temporary(".assay-tmp-Ab12Cd"));
  EXPECT_TRUE(is_assay_temporary(".assay-tmp-123-456-Ab12Cd"));
  EXPECT_TRUE(is_assay_temporary("new.pak.assay-edit-Ab12Cd"));
  EXPECT_TRUE(is_assay_temporary("WARRIORS.WAD.assay-edit-9-9-zzzzzz"));
  EXPECT_FALSE(is_assay_temporary("assay-tmp-x"));     // not hidden
  EXPECT_FALSE(is_assay_temporary("x.assay-tmp-abc"));  // the prefix only at the start
  EXPECT_FALSE(is_assay_temporary("a.bin"));
}

// The next run removes what a killed run left: the owner named in the file has ended (or its pid
// now belongs to a process started at another time) and the file is older than this run.
TEST(StaleTemporaries, RemovesOnlyThoseNoLiveProcessHolds) {
  testing::TempDir t;
  const std::time_t hour_ago = std::time(nullptr) - 3600;
  const std::string dead = std::to_string(dead_pid());
  const std::string me = std::to_string(::getpid()) + "-" + my_start_ticks();
  touch(t / (".assay-tmp-" + dead + "-12345-Ab12Cd"), hour_ago);           // owner ended
  touch(t / ("out.pak.assay-edit-" + dead + "-12345-Zz09aa"), hour_ago);    // an edit's, owner ended
  touch(t / ".assay-tmp-1-999999999999-Qq11qq", hour_ago);                  // pid 1, another start: reused
  touch(t / (".assay-tmp-" + me + "-Live00"), hour_ago);                    // this process: alive
  touch(t / ".assay-tmp-Old123", hour_ago);                                 // old style, an hour old
  touch(t / ".assay-tmp-New123", std::time(nullptr));                       // old style, just written
  touch(t / (".assay-tmp-" + dead + "-12345-Later0"), std::time(nullptr) + 3600);  // newer than this run
  touch(t / ".assay-tmp-notours", hour_ago);                                // not of our making
  touch(t / "keep.bin", hour_ago);
  fs::create_symlink("keep.bin", t / (".assay-tmp-" + dead + "-1-Link00"));  // not a regular file
  EXPECT_EQ(remove_stale_temporaries(t.path()), 4u);
  EXPECT_EQ(names_in(t.path()), (std::set<std::string>{".assay-tmp-" + me + "-Live00", ".assay-tmp-New123",
                                                        ".assay-tmp-" + dead + "-12345-Later0", ".assay-tmp-notours",
                                                        "keep.bin", ".assay-tmp-" + dead + "-1-Link00"}));
}

// Where the file system allows it, nothing has a name until commit(): a kill leaves nothing.
TEST(AtomicFileTemp, UnnamedUntilCommitted) {
  testing::TempDir t;
  if (!tmpfile_supported(t.path())) GTEST_SKIP() << "no O_TMPFILE here";
  auto f = AtomicFile::create(t / "a.bin", false);
  ASSERT_TRUE(f.ok()) << f.error().str();
  ASSERT_TRUE(f->write(ByteBuffer{1, 2, 3, 4}).ok());
  EXPECT_TRUE(names_in(t.path()).empty());
  ASSERT_TRUE(f->commit().ok());
  EXPECT_EQ(names_in(t.path()), std::set<std::string>{"a.bin"});
  EXPECT_EQ(testing::read_file(t / "a.bin"), (ByteBuffer{1, 2, 3, 4}));
  EXPECT_EQ(fs::status(t / "a.bin").permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read);
  // No overwrite without force, atomically at the link; with force the bytes are replaced.
  auto g = AtomicFile::create(t / "b.bin", false);
  ASSERT_TRUE(g.ok());
  ASSERT_TRUE(g->write(ByteBuffer{9}).ok());
  testing::write_file(t / "b.bin", ByteBuffer{7});  // appears meanwhile
  auto c = g->commit();
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("exists"), std::string::npos);
  EXPECT_EQ(testing::read_file(t / "b.bin"), ByteBuffer{7});
  ASSERT_TRUE(write_file_atomic(t / "b.bin", ByteBuffer{5, 6}, true).ok());
  EXPECT_EQ(testing::read_file(t / "b.bin"), (ByteBuffer{5, 6}));
  EXPECT_EQ(names_in(t.path()), (std::set<std::string>{"a.bin", "b.bin"}));
  EXPECT_EQ(registered_temporaries(), 0u);
}

// The named fallback: ".assay-tmp-<pid>-<start>-XXXXXX", registered while it exists.
TEST(AtomicFileTemp, NamedFallbackCarriesTheOwner) {
  NamedTemporaries named;
  testing::TempDir t;
  auto f = AtomicFile::create(t / "a.bin", false);
  ASSERT_TRUE(f.ok()) << f.error().str();
  const auto during = names_in(t.path());
  ASSERT_EQ(during.size(), 1u);
  const std::string prefix = ".assay-tmp-" + std::to_string(::getpid()) + "-" + my_start_ticks() + "-";
  EXPECT_EQ(during.begin()->substr(0, prefix.size()), prefix);
  EXPECT_EQ(during.begin()->size(), prefix.size() + 6);
  EXPECT_EQ(registered_temporaries(), 1u);
  EXPECT_EQ(remove_stale_temporaries(t.path()), 0u);  // ours, alive
  ASSERT_TRUE(f->write(ByteBuffer{1}).ok());
  ASSERT_TRUE(f->commit().ok());
  EXPECT_EQ(names_in(t.path()), std::set<std::string>{"a.bin"});
  EXPECT_EQ(registered_temporaries(), 0u);
  {  // dropped without commit: removed and forgotten
    auto g = AtomicFile::create(t / "b.bin", false);
    ASSERT_TRUE(g.ok());
    EXPECT_EQ(registered_temporaries(), 1u);
  }
  EXPECT_EQ(names_in(t.path()), std::set<std::string>{"a.bin"});
  EXPECT_EQ(registered_temporaries(), 0u);
}

// An edit's temporary: "<target>.assay-edit-<pid>-<start>-XXXXXX" when named, readable back
// through path() either way, renamed over the target by commit().
TEST(EditTemp, BesideTheTargetAndReadBack) {
  for (const bool named : {false, true}) {
    SCOPED_TRACE(named ? "named" : "default");
    if (named) ::setenv("ASSAY_DEBUG_NAMED_TEMP", "1", 1);
    testing::TempDir t;
    testing::write_file(t / "out.pak", ByteBuffer{0});
    ::chmod((t / "out.pak").c_str(), 0640);
    {
      auto f = TempFile::create(t / "out.pak");
      ASSERT_TRUE(f.ok()) << f.error().str();
      ASSERT_TRUE(f->write(ByteBuffer{4, 5, 6}).ok());
      ASSERT_TRUE(f->finish().ok());
      EXPECT_EQ(testing::read_file(f->path()), (ByteBuffer{4, 5, 6}));
      const auto during = names_in(t.path());
      if (named) {
        ASSERT_EQ(during.size(), 2u);
        EXPECT_EQ(during.rbegin()->rfind("out.pak.assay-edit-" + std::to_string(::getpid()) + "-", 0), 0u);
      } else if (tmpfile_supported(t.path())) {
        EXPECT_EQ(during, std::set<std::string>{"out.pak"});
      }
      ASSERT_TRUE(f->commit().ok());
    }
    EXPECT_EQ(names_in(t.path()), std::set<std::string>{"out.pak"});
    EXPECT_EQ(testing::read_file(t / "out.pak"), (ByteBuffer{4, 5, 6}));
    EXPECT_EQ(fs::status(t / "out.pak").permissions() & fs::perms::all,
              fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);  // the target's mode kept
    EXPECT_EQ(registered_temporaries(), 0u);
    ::unsetenv("ASSAY_DEBUG_NAMED_TEMP");
  }
}

// The handler in a child process: SIGTERM while a named temporary is open removes it, clears a
// drawn progress line, says "assay: interrupted" and exits 130.
TEST(InterruptHandler, RemovesRegisteredTemporariesAndExits130) {
  testing::TempDir t;
  const fs::path err = t / "stderr.txt";
  const fs::path out = t / "out";
  fs::create_directories(out);
  const pid_t p = ::fork();
  if (p == 0) {
    ::setenv("ASSAY_DEBUG_NAMED_TEMP", "1", 1);
    const int fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, STDERR_FILENO);
    install_interrupt_handlers();
    auto f = AtomicFile::create(out / "a.bin", false);
    auto g = TempFile::create(out / "b.bin");
    if (!f || !g || registered_temporaries() != 2) ::_exit(3);
    note_progress_line(true);
    ::kill(::getpid(), SIGTERM);
    ::_exit(4);  // not reached
  }
  int st = 0;
  ASSERT_EQ(::waitpid(p, &st, 0), p);
  ASSERT_TRUE(WIFEXITED(st)) << st;
  EXPECT_EQ(WEXITSTATUS(st), 130);
  EXPECT_TRUE(names_in(out).empty());
  EXPECT_EQ(testing::read_file(err), (ByteBuffer{'\r', 0x1B, '[', 'K', 'a', 's', 's', 'a', 'y', ':', ' ', 'i', 'n', 't', 'e',
                                                 'r', 'r', 'u', 'p', 't', 'e', 'd', '\n'}));
}

TEST(InterruptRegistry, RegisterAndForget) {
  const std::size_t before = registered_temporaries();
  {
    SignalShield s;
    ASSERT_TRUE(register_temporary("/nonexistent/a").ok());
    ASSERT_TRUE(register_temporary("/nonexistent/ab").ok());
  }
  EXPECT_EQ(registered_temporaries(), before + 2);
  unregister_temporary("/nonexistent/a");  // not a prefix match of ".../ab"
  EXPECT_EQ(registered_temporaries(), before + 1);
  unregister_temporary("/nonexistent/a");
  EXPECT_EQ(registered_temporaries(), before + 1);
  unregister_temporary("/nonexistent/ab");
  EXPECT_EQ(registered_temporaries(), before);
  EXPECT_FALSE(register_temporary(std::string(5000, 'x')).ok());
}

}  // namespace
}  // namespace assay
