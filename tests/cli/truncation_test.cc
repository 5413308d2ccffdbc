// Issue 15 item 5: truncation is explained (what is missing and where), never "unrecognised file
// format"; a truncated WAD is a warning for info and an error for verify; a write that fails
// (full disk, file size limit) reports the errno and leaves nothing behind.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <nlohmann/json.hpp>
#include <fmt/format.h>

#include "assay/formats/igarchive/writer.h"
#include "assay/formats/warriors/samples.h"
#include "assay/formats/warriors/writer.h"
#include "testing/testing.h"

// The warriors tests' independent ISO 9660 writer (tests/formats/warriors/helpers.cc).
#include "../formats/warriors/helpers.cc"  // NOLINT(bugprone-suspicious-include)

namespace assay {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;
using testing::shell_quote;

ByteBuffer head(const ByteBuffer& b, std::size_t n) { return ByteBuffer(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(n)); }

warriors::DiscImage small_disc() {
  std::vector<warriors::DiscEntrySpec> e;
  for (std::uint32_t i = 0; i < 4; ++i) e.push_back({0x1000u + i, ByteBuffer(3000, static_cast<std::uint8_t>(i))});
  return warriors::write_disc(e);
}

TEST(Truncation, WarriorsDirSaysWhatIsMissing) {
  testing::TempDir t;
  const auto d = small_disc();  // 4 rows: 16 + 48 = 64 bytes
  ASSERT_EQ(d.dir.size(), 64u);
  testing::write_file(t / "WARRIORS.DIR", head(d.dir, 40));
  testing::write_file(t / "WARRIORS.WAD", d.wad);
  for (const auto& f : {t / "WARRIORS.DIR", t.path()}) {
    auto r = run_cli("info " + shell_quote(f.string()));
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(r.err.find("unrecognised"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("DIR truncated"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("needs 64 bytes"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("24 bytes missing from offset 0x28"), std::string::npos) << r.err;
  }
  auto r = run_cli("verify " + shell_quote((t / "WARRIORS.DIR").string()));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("DIR truncated"), std::string::npos) << r.out;
}

TEST(Truncation, WarriorsWadWarnsInInfoFailsVerify) {
  testing::TempDir t;
  const auto d = small_disc();  // entries at 0, 4096, 8192, 12288 (+3000): the WAD needs 15288 bytes
  testing::write_file(t / "WARRIORS.DIR", d.dir);
  testing::write_file(t / "WARRIORS.WAD", head(d.wad, 5000));
  auto r = run_cli("info --json " + shell_quote(t.path().string()));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.contains("warning")) << r.out;
  EXPECT_NE(j["warning"].get<std::string>().find("need 15288 bytes, the WAD has 5000: 10288 bytes missing from offset 0x1388 (3 of 4 entries"),
            std::string::npos)
      << j["warning"];
  r = run_cli("verify " + shell_quote(t.path().string()));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("error: warriors: WAD at 0x1388: WAD truncated"), std::string::npos) << r.out;
}

TEST(Truncation, LevSaysWhichChunk) {
  testing::TempDir t;
  const ByteBuffer lev = warriors::samples::level();
  testing::write_file(t / "whole.lev", lev);
  testing::write_file(t / "cut.lev", head(lev, lev.size() - 100));
  EXPECT_EQ(run_cli("info " + shell_quote((t / "whole.lev").string())).exit_code, 0);
  for (const char* verb : {"info", "list", "verify"}) {
    auto r = run_cli(std::string(verb) + " " + shell_quote((t / "cut.lev").string()));
    EXPECT_EQ(r.exit_code, 1) << verb;
    const std::string all = r.out + r.err;
    EXPECT_EQ(all.find("unrecognised"), std::string::npos) << verb << ": " << all;
    EXPECT_NE(all.find("runs past the entry's end"), std::string::npos) << verb << ": " << all;
    EXPECT_NE(all.find("chunk "), std::string::npos) << verb << ": " << all;
  }
}

TEST(Truncation, IsoSaysWhatIsMissing) {
  testing::TempDir t;
  const auto d = small_disc();
  const ByteBuffer iso = warriors::test::make_iso({{"WARRIORS.DIR;1", d.dir}, {"WARRIORS.WAD;1", d.wad}});
  testing::write_file(t / "whole.iso", iso);
  EXPECT_EQ(run_cli("info " + shell_quote((t / "whole.iso").string())).exit_code, 0);
  const std::size_t cut = iso.size() - 4096;  // into the WAD, the last file
  testing::write_file(t / "cut.iso", head(iso, cut));
  auto r = run_cli("info " + shell_quote((t / "cut.iso").string()));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err.find("unrecognised"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("ISO image truncated"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(fmt::format("missing from offset 0x{:x}", cut)), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("WARRIORS.WAD"), std::string::npos) << r.err;
}

std::string small_archive(const testing::TempDir& t) {
  std::vector<igarchive::WriterFile> files = {{.name = "big.bin", .data = ByteBuffer(200000, 7)}};
  auto a = igarchive::write_archive(files, {});
  EXPECT_TRUE(a.ok());
  testing::write_file(t / "a.arc", *a);
  return shell_quote((t / "a.arc").string());
}

bool no_temporaries(const fs::path& dir) {
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.path().filename().string().rfind(".assay-tmp", 0) == 0) return false;
  return true;
}

// A write limit (RLIMIT_FSIZE, with SIGXFSZ ignored) makes writes fail with EFBIG: the message
// carries the errno text and no partial file stays. Runs anywhere, no root needed.
TEST(Truncation, WriteFailureReportsErrno) {
  testing::TempDir t;
  const std::string arc = small_archive(t);
  const auto out = t / "out";
  fs::create_directories(out);
  auto r = run_cli("extract " + arc + " -o " + shell_quote(out.string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  fs::remove_all(out);
  fs::create_directories(out);
  const std::string cmd = "sh -c " + shell_quote("trap '' XFSZ; ulimit -f 16; exec " + std::string(ASSAY_CLI) +
                                                 " extract " + arc + " -o " + shell_quote(out.string()) + " 2>" +
                                                 shell_quote((t / "err").string()));
  const int st = std::system(cmd.c_str());
  EXPECT_EQ(WEXITSTATUS(st), 2);
  const ByteBuffer err = testing::read_file(t / "err");
  const std::string e(err.begin(), err.end());
  EXPECT_NE(e.find(std::strerror(EFBIG)), std::string::npos) << e;
  EXPECT_FALSE(fs::exists(out / "big.bin"));
  EXPECT_TRUE(no_temporaries(out));
}

// A real full disk (a 64 KiB tmpfs): needs root and mount; skipped elsewhere.
TEST(Truncation, FullDiskReportsEnospc) {
  testing::TempDir t;
  const std::string arc = small_archive(t);
  const auto mnt = t / "small";
  fs::create_directories(mnt);
  if (::geteuid() != 0 || ::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=64k") != 0)
    GTEST_SKIP() << "needs root to mount a small tmpfs";
  auto r = run_cli("extract " + arc + " -o " + shell_quote(mnt.string()));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(std::strerror(ENOSPC)), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(mnt / "big.bin"));
  EXPECT_TRUE(no_temporaries(mnt));
  ::umount(mnt.c_str());
}

}  // namespace
}  // namespace assay
