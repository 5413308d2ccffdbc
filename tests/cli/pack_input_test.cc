// Issue 15 item 3: `pack` never follows a symlink, never blocks on a FIFO, and a file that
// vanishes or changes while it is read fails the pack cleanly (core/folder.h).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>

#include "assay/core/folder.h"
#include "assay/formats/igarchive/writer.h"
#include "testing/testing.h"

namespace assay {
namespace {

namespace fs = std::filesystem;
using testing::shell_quote;

using testing::bytes_of;

struct PackFolder {
  testing::TempDir t;
  fs::path dir = t / "in", secret = t / "outside-secret.bin", original = t / "orig.arc", out = t / "new.arc";
  PackFolder() {
    fs::create_directories(dir / "sub");
    testing::write_file(dir / "a.txt", bytes_of("inside a"));
    testing::write_file(dir / "sub" / "b.txt", bytes_of("inside b"));
    testing::write_file(secret, bytes_of("SECRET OUTSIDE THE FOLDER"));
    std::vector<igarchive::WriterFile> files = {{.name = "a.txt", .data = bytes_of("old a")},
                                                {.name = "sub/b.txt", .data = bytes_of("old b")}};
    auto a = igarchive::write_archive(files, {});
    EXPECT_TRUE(a.ok());
    testing::write_file(original, *a);
  }
  std::string pack(bool like) const {
    return "pack igarchive -o " + shell_quote(out.string()) + (like ? " --like " + shell_quote(original.string()) : "") +
           " " + shell_quote(dir.string());
  }
};

TEST(PackInput, SymlinkOutsideIsRefusedWithAndWithoutLike) {
  for (bool like : {true, false}) {
    PackFolder f;
    fs::remove(f.dir / "sub" / "b.txt");
    fs::create_symlink(f.secret, f.dir / "sub" / "b.txt");  // a member of the original, now a link out
    auto r = testing::run_cli_bounded(f.pack(like));
    EXPECT_EQ(r.exit_code, 2) << "like=" << like << " " << r.err;
    EXPECT_NE(r.err.find("b.txt"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("symlink"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(f.out)) << "like=" << like;
  }
}

TEST(PackInput, SymlinkedFolderIsRefused) {
  PackFolder f;
  fs::create_directory_symlink(f.t.path(), f.dir / "escape");
  auto r = testing::run_cli_bounded(f.pack(false));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("escape"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(f.out));
}

TEST(PackInput, FifoDoesNotBlock) {
  for (bool like : {true, false}) {
    PackFolder f;
    ASSERT_EQ(::mkfifo((f.dir / "pipe").c_str(), 0644), 0);
    auto r = testing::run_cli_bounded(f.pack(like));
    EXPECT_EQ(r.exit_code, 2) << "like=" << like << " " << r.err;  // 124 would be the timeout
    EXPECT_NE(r.err.find("pipe"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("FIFO"), std::string::npos) << r.err;
  }
  // A FIFO named as the original's member, opened directly, is refused too.
  PackFolder f;
  fs::remove(f.dir / "a.txt");
  ASSERT_EQ(::mkfifo((f.dir / "a.txt").c_str(), 0644), 0);
  auto r = testing::run_cli_bounded(f.pack(true));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("a.txt"), std::string::npos) << r.err;
  // Reading verbs on a FIFO return at once too.
  r = testing::run_cli_bounded("identify " + shell_quote((f.dir / "a.txt").string()));
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

TEST(PackInput, CleanFolderStillPacks) {
  PackFolder f;
  auto r = testing::run_cli_bounded(f.pack(true));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = testing::run_cli_bounded("list --json " + shell_quote(f.out.string()));
  EXPECT_NE(r.out.find("sub/b.txt"), std::string::npos) << r.out;
}

TEST(PackInput, CoreWalkerAndReader) {
  PackFolder f;
  auto files = regular_files_under(f.dir);
  ASSERT_TRUE(files.ok()) << files.error().str();
  EXPECT_EQ(*files, (std::vector<std::string>{"a.txt", "sub/b.txt"}));
  auto skipped = regular_files_under(f.dir, [](const std::string& rel) { return rel == "sub"; });
  ASSERT_TRUE(skipped.ok());
  EXPECT_EQ(*skipped, (std::vector<std::string>{"a.txt"}));
  auto b = read_file_beneath(f.dir, "sub/b.txt");
  ASSERT_TRUE(b.ok()) << b.error().str();
  EXPECT_EQ(std::string(b->begin(), b->end()), "inside b");
  EXPECT_FALSE(read_file_beneath(f.dir, "../outside-secret.bin").ok());
  // A file listed, then removed before it is read: a clean error that says so.
  fs::remove(f.dir / "a.txt");
  auto gone = read_file_beneath(f.dir, "a.txt");
  ASSERT_FALSE(gone.ok());
  EXPECT_NE(gone.error().str().find("vanished"), std::string::npos) << gone.error().str();
  // A file whose size differs from what fstat said when it was opened (procfs reports 0 bytes
  // and then delivers more): "changed while it was being read".
  auto changing = read_regular_file("/proc/self/status");
  ASSERT_FALSE(changing.ok());
  EXPECT_NE(changing.error().str().find("changed while"), std::string::npos) << changing.error().str();
  // A symlinked folder on the way is never entered.
  fs::create_directory_symlink(f.t.path(), f.dir / "up");
  EXPECT_FALSE(read_file_beneath(f.dir, "up/outside-secret.bin").ok());
}

}  // namespace
}  // namespace assay
