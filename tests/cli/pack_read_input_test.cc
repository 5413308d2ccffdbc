// Issue 15 item 3 (remainder): the Warriors and Oni pack inputs are read whole (core/folder.h
// FileBytes::read), never mapped: a FIFO given as an input is refused at once instead of blocking
// the pack, a symlink is refused, and a file that shrinks while it is packed cannot raise SIGBUS
// (the bytes are copied and their size checked against fstat while reading).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>

#include "assay/core/folder.h"
#include "assay/core/input.h"
#include "assay/formats/warriors/disc.h"
#include "assay/formats/warriors/writer.h"
#include "testing/testing.h"

namespace assay {
namespace {

namespace fs = std::filesystem;
using testing::shell_quote;

using testing::bytes_of;

TEST(PackReadInput, FileBytesReadsRegularFilesOnly) {
  testing::TempDir t;
  testing::write_file(t / "a.bin", bytes_of("twelve bytes"));
  auto f = FileBytes::read(t / "a.bin");
  ASSERT_TRUE(f.ok()) << f.error().str();
  EXPECT_EQ(std::string(f->bytes().begin(), f->bytes().end()), "twelve bytes");
  ASSERT_EQ(::mkfifo((t / "pipe").c_str(), 0644), 0);
  auto p = FileBytes::read(t / "pipe");  // returns at once (O_NONBLOCK, then fstat)
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().str().find("is a FIFO"), std::string::npos) << p.error().str();
  fs::create_symlink(t / "a.bin", t / "link");
  auto l = FileBytes::read(t / "link");
  ASSERT_FALSE(l.ok());
  EXPECT_NE(l.error().str().find("link"), std::string::npos) << l.error().str();
  EXPECT_EQ(FileBytes{}.bytes().size(), 0u);
}

TEST(PackReadInput, WarriorsContainerFifoAndSymlinkInputs) {
  testing::TempDir t;
  ASSERT_EQ(::mkfifo((t / "pipe").c_str(), 0644), 0);
  testing::write_file(t / "real.bin", bytes_of("chunk"));
  fs::create_symlink(t / "real.bin", t / "link.bin");
  const std::string out = shell_quote((t / "out.res").string());
  for (const std::string& args : {"pack warriors-container -o " + out + " 0x28=" + shell_quote((t / "pipe").string()),
                                  "pack warriors-container --pack -o " + out + " " + shell_quote((t / "pipe").string())}) {
    auto r = testing::run_cli_bounded(args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;  // 124 would be a blocked open()
    EXPECT_NE(r.err.find("FIFO"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(t / "out.res"));
  }
  // Before: the mapped input followed the symlink and packed its target (exit 0).
  auto r = testing::run_cli_bounded("pack warriors-container -o " + out + " 0x28=" + shell_quote((t / "link.bin").string()));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("symlink"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(t / "out.res"));
  // A regular file still packs: its five bytes are in the resource.
  r = testing::run_cli_bounded("pack warriors-container -o " + out + " 0x28=" + shell_quote((t / "real.bin").string()));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const ByteBuffer res = testing::read_file(t / "out.res");
  const std::string s(res.begin(), res.end());
  EXPECT_NE(s.find("chunk"), std::string::npos);
}

// pack warriors --like: a replacement file (named by its hash) is read whole; the new WAD holds
// exactly its bytes at the entry (spec warriors.md#wr-2-6), the other entry is unchanged.
TEST(PackReadInput, WarriorsRepackUsesTheReplacementBytes) {
  testing::TempDir t;
  const warriors::DiscImage d = warriors::write_disc({{0x11111111u, ByteBuffer(3000, 'a')}, {0x22222222u, ByteBuffer(100, 'b')}});
  fs::create_directories(t / "disc");
  testing::write_file(t / "disc" / "WARRIORS.DIR", d.dir);
  testing::write_file(t / "disc" / "WARRIORS.WAD", d.wad);
  fs::create_directories(t / "files");
  testing::write_file(t / "files" / "11111111.bin", ByteBuffer(5000, 'n'));
  auto r = testing::run_cli_bounded("pack warriors --like " + shell_quote((t / "disc").string()) + " -o " +
                       shell_quote((t / "new").string()) + " " + shell_quote((t / "files").string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto in = Input::open(t / "new");
  ASSERT_TRUE(in.ok());
  auto disc = warriors::Disc::open(*in);
  ASSERT_TRUE(disc.ok()) << disc.error().str();
  auto e = disc->find(0x11111111u);
  ASSERT_TRUE(e.has_value());
  auto b = disc->entry_bytes(*e);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(ByteBuffer(b->begin(), b->end()), ByteBuffer(5000, 'n'));
  auto other = disc->entry_bytes(*disc->find(0x22222222u));
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(ByteBuffer(other->begin(), other->end()), ByteBuffer(100, 'b'));
  // A FIFO among the replacement files is refused by name, at once.
  ASSERT_EQ(::mkfifo((t / "files" / "22222222.bin").c_str(), 0644), 0);
  r = testing::run_cli_bounded("pack warriors --force --like " + shell_quote((t / "disc").string()) + " -o " +
                  shell_quote((t / "new").string()) + " " + shell_quote((t / "files").string()));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("22222222.bin"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace assay
