// Hostile input: truncation, header-word mutation, TOC corruption, the spec's corruption list
// (#vectors-synthetic 5), broken extraction and hostile names. Never a crash, always a clear error.
#include <cstring>
#include <filesystem>

#include "assay/core/output.h"
#include "assay/options.h"
#include "assay/formats/igarchive/extract.h"
#include "assay/formats/igarchive/verify.h"
#include "helpers.h"
#include "testing/testing.h"

namespace assay::igarchive {
namespace {

namespace fs = std::filesystem;
using test::build;
using test::noise;
using test::open_ok;
using test::text;

ByteBuffer fixture(std::uint32_t version, Endian e) {
  WriterOptions o;
  o.version = version;
  o.endian = e;
  o.lzma_preset = 1;
  std::vector<WriterFile> f = {
      {.name = "a.igz", .data = text(70000, 1)},
      {.name = "b.igz", .data = text(3000, 2), .compression = Compression::deflate},
      {.name = "c.bin", .data = text(500, 3), .compression = Compression::stored},
      {.name = "d.igz", .data = text(40000, 4), .compression = Compression::lz4},
  };
  return build(f, o);
}

// Opens, lists, reads every file and verifies; must never crash. Returns whether everything
// succeeded with no verify error.
bool exercise(ByteView bytes) {
  Diagnostics d;
  verify(bytes, "x", {}, d);
  auto a = Archive::open(bytes, "x");
  if (!a) {
    EXPECT_TRUE(d.has_errors()) << "open failed but verify found nothing: " << a.error().str();
    EXPECT_FALSE(a.error().message.empty());
    return false;
  }
  bool ok = !d.has_errors();
  for (const FileEntry& f : a->files()) {
    ByteBuffer out;
    ok &= a->read(f, out, 1, 1u << 24).ok();
  }
  return ok;
}

TEST(IgArchiveBadInput, TruncationAtEveryOffset) {
  for (auto [v, e] : {std::pair{8u, Endian::little}, std::pair{0x0Bu, Endian::big}, std::pair{0x0Cu, Endian::little}}) {
    const ByteBuffer full = fixture(v, e);
    const Archive a = open_ok(full);
    const std::uint64_t toc_end = a.toc_end();
    std::vector<std::uint64_t> cuts;
    for (std::uint64_t n = 0; n <= toc_end + 300 && n < full.size(); ++n) cuts.push_back(n);
    for (std::uint64_t n = toc_end + 300; n < full.size(); n += 97) cuts.push_back(n);
    cuts.push_back(full.size() - 1);
    for (std::uint64_t n : cuts) {
      ByteBuffer cut(full.begin(), full.begin() + n);
      // The name table is last: any truncation leaves it past the end, so strict open fails
      // and verify reports an error.
      auto s = open_strict(cut, "cut", nullptr);
      EXPECT_FALSE(s.ok()) << "cut at " << n;
      EXPECT_FALSE(exercise(cut)) << "cut at " << n;
    }
  }
}

TEST(IgArchiveBadInput, EveryHeaderWordHostile) {
  for (auto [v, e] : {std::pair{8u, Endian::little}, std::pair{0x0Bu, Endian::big}, std::pair{4u, Endian::little}}) {
    const ByteBuffer full = fixture(v, e);
    const std::uint32_t hs = header_size(v);
    for (std::uint32_t at = 0; at < hs; at += 4) {
      for (std::uint32_t val : {0u, 0xFFFFFFFFu, 0x7FFFFFFFu, 0x80000000u, 1u, 0x10000u,
                                static_cast<std::uint32_t>(full.size()), static_cast<std::uint32_t>(full.size() + 1)}) {
        ByteBuffer m = full;
        store<std::uint32_t>(m.data() + at, val, e);
        exercise(m);  // no crash, no huge allocation (ASan would abort)
        // Structural fields must be reported. (divider/slop/flags/version-4 guesses may be benign)
        const bool structural = at == 0x08 || at == 0x0C || (v == 8 && (at == 0x1C || at == 0x20 || at >= 0x24 && at < 0x30)) ||
                                (v == 0x0B && ((at >= 0x1C && at < 0x34)));
        if (structural && load<std::uint32_t>(full.data() + at, e) != val) {
          Diagnostics d;
          verify(m, "m", {}, d);
          EXPECT_TRUE(d.has_errors()) << "v" << v << " word at 0x" << std::hex << at << " = 0x" << val;
        }
      }
    }
  }
}

TEST(IgArchiveBadInput, EveryTocByteFlipped) {
  const ByteBuffer full = fixture(0x0B, Endian::little);
  const Archive a = open_ok(full);
  for (std::uint64_t i = 0; i < a.toc_end(); ++i) {
    for (std::uint8_t x : {0xFF, 0x80, 0x01}) {
      ByteBuffer m = full;
      m[i] ^= x;
      exercise(m);
    }
  }
}

TEST(IgArchiveBadInput, DataBytesCorrupted) {
  const ByteBuffer full = fixture(8, Endian::little);
  const Archive a = open_ok(full);
  for (std::uint64_t i = a.toc_end(); i < a.header().name_table_offset; i += 61) {
    ByteBuffer m = full;
    m[i] ^= 0x55;
    exercise(m);
  }
}

// spec #vectors-synthetic 5: each corruption is flagged by verify.
class IgArchiveCorruption : public ::testing::Test {
 protected:
  ByteBuffer full = fixture(0x0B, Endian::little);
  Archive a = open_ok(full);
  Endian e = Endian::little;
  void expect_error(const ByteBuffer& m, const std::string& what, const std::string& needle) {
    Diagnostics d;
    verify(m, "c", {}, d);
    std::string all;
    for (const auto& x : d.items())
      if (x.severity == Severity::error) all += x.where.str() + "\n";
    EXPECT_TRUE(d.has_errors()) << what;
    EXPECT_NE(all.find(needle), std::string::npos) << what << ": " << all;
    auto cli = assay::testing::TempDir();
    assay::testing::write_file(cli / "bad.arc", m);
    auto r = assay::testing::run_cli("verify " + assay::testing::shell_quote((cli / "bad.arc").string()));
    EXPECT_EQ(r.exit_code, 1) << what << r.out << r.err;
  }
  const FileEntry& file(std::string_view n) { return *a.find(n); }
  std::uint64_t info_at(const FileEntry& f) { return 0x38 + 4ull * a.files().size() + 16ull * f.index; }
};

TEST_F(IgArchiveCorruption, NumFilesHuge) {
  ByteBuffer m = full;
  store<std::uint32_t>(m.data() + 0x0C, 0xFFFFFFFFu, e);
  expect_error(m, "numFiles", "numFiles");
}
TEST_F(IgArchiveCorruption, TocSizePastEof) {
  ByteBuffer m = full;
  store<std::uint32_t>(m.data() + 0x08, static_cast<std::uint32_t>(full.size()), e);
  expect_error(m, "tocSize", "past the file end");
}
TEST_F(IgArchiveCorruption, UnsortedHashTable) {
  ByteBuffer m = full;
  std::uint8_t tmp[4];
  std::memcpy(tmp, m.data() + 0x38, 4);
  std::memcpy(m.data() + 0x38, m.data() + 0x3C, 4);
  std::memcpy(m.data() + 0x3C, tmp, 4);
  expect_error(m, "unsorted", "strictly ascending");
}
TEST_F(IgArchiveCorruption, BlockIndexPastItsTable) {
  ByteBuffer m = full;
  const FileEntry& f = file("a.igz");
  store<std::uint32_t>(m.data() + info_at(f) + 12, 0x20000000u | 500u, e);
  expect_error(m, "block index", "outside the small table");
}
TEST_F(IgArchiveCorruption, PrefixPastBlockSpan) {
  ByteBuffer m = full;
  auto bl = a.blocks(file("a.igz"));
  ASSERT_TRUE(bl.ok());
  store<std::uint16_t>(m.data() + (*bl)[0].offset, 0xFFF0, Endian::little);
  expect_error(m, "C past span", "span");
}
TEST_F(IgArchiveCorruption, TruncatedLzmaStream) {
  ByteBuffer m = full;
  auto bl = a.blocks(file("a.igz"));
  ASSERT_TRUE(bl.ok());
  const std::uint16_t c = load<std::uint16_t>(m.data() + (*bl)[0].offset, Endian::little);
  store<std::uint16_t>(m.data() + (*bl)[0].offset, static_cast<std::uint16_t>(c / 2), Endian::little);
  expect_error(m, "truncated LZMA", "LZMA");
}
TEST_F(IgArchiveCorruption, NameOffsetPastNameTable) {
  ByteBuffer m = full;
  store<std::uint32_t>(m.data() + a.header().name_table_offset, 0x7FFF, e);
  expect_error(m, "name offset", "nameTableSize");
}
TEST_F(IgArchiveCorruption, WrongNameHashIsAnError) {
  ByteBuffer m = full;
  store<std::uint32_t>(m.data() + 0x38 + 4ull * (a.files().size() - 1), 0xFFFFFFFEu, e);  // last hash, still sorted
  expect_error(m, "hash mismatch", "hashes to");
}
TEST_F(IgArchiveCorruption, OverlappingFiles) {
  ByteBuffer m = full;
  const FileEntry& b = file("b.igz");
  store<std::uint64_t>(m.data() + info_at(b), file("a.igz").offset, e);
  expect_error(m, "overlap", "overlaps");
}
TEST_F(IgArchiveCorruption, CompressedFlagWithCodecZero) {
  ByteBuffer m = full;
  const FileEntry& f = file("a.igz");
  store<std::uint32_t>(m.data() + info_at(f) + 12, f.first_entry, e);  // codec 0, same entries
  expect_error(m, "flag with codec 0", "codec 0");
}
TEST_F(IgArchiveCorruption, CodecNibbleAboveThree) {
  ByteBuffer m = full;
  const FileEntry& f = file("a.igz");
  store<std::uint32_t>(m.data() + info_at(f) + 12, 0x70000000u | f.first_entry, e);
  expect_error(m, "codec 7", "codec nibble");
}
TEST_F(IgArchiveCorruption, BadVersionAndMagic) {
  ByteBuffer m = full;
  store<std::uint32_t>(m.data() + 4, 9, e);
  expect_error(m, "version", "unknown version");
  m = full;
  m[1] = 'X';
  Diagnostics d;
  verify(m, "c", {}, d);
  EXPECT_TRUE(d.has_errors());
}

// A broken file leaves no partial output; files finished before it stay; exit 1 from the CLI.
TEST(IgArchiveBadInput, ExtractOfBrokenArchiveLeavesNoPartialFile) {
  WriterOptions o;
  o.version = 8;
  std::vector<WriterFile> f = {{.name = "first.txt", .data = text(5000, 1), .ordinal = 0},
                               {.name = "broken.bin", .data = text(300000, 2), .ordinal = 1}};
  ByteBuffer bytes = build(f, o);
  const Archive a = open_ok(bytes);
  auto bl = a.blocks(*a.find("broken.bin"));
  ASSERT_TRUE(bl.ok());
  const std::uint64_t at = (*bl)[5].offset + 7 + 20;  // inside block 5's LZMA payload
  for (int i = 0; i < 64; ++i) bytes[at + i] ^= 0xA5;
  assay::testing::TempDir t;
  assay::testing::write_file(t / "bad.bld", bytes);
  auto r = assay::testing::run_cli("extract " + assay::testing::shell_quote((t / "bad.bld").string()) + " -o " +
                                   assay::testing::shell_quote((t / "out").string()));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("block 5"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(t / "out" / "first.txt"));
  EXPECT_EQ(assay::testing::read_file(t / "out" / "first.txt"), f[0].data);
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(t / "out")) left.push_back(e.path().filename().string());
  EXPECT_EQ(left, std::vector<std::string>{"first.txt"});  // no broken.bin, no temporary
}

TEST(IgArchiveBadInput, HostileNamesStayUnderOutput) {
  WriterOptions o;
  o.version = 0x0B;
  std::vector<WriterFile> f = {{.name = "../x1", .data = text(10, 1)},
                               {.name = "/etc/x2", .data = text(10, 2)},
                               {.name = "C:\\x3", .data = text(10, 3)},
                               {.name = "..\\..\\x4", .data = text(10, 4)},
                               {.name = "a/../../x5", .data = text(10, 5)}};
  assay::testing::TempDir t;
  assay::testing::write_file(t / "evil.arc", build(f, o));
  const fs::path out = t / "deep" / "out";
  auto r = assay::testing::run_cli("extract " + assay::testing::shell_quote((t / "evil.arc").string()) + " -o " +
                                   assay::testing::shell_quote(out.string()));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(out / "x1"));
  EXPECT_TRUE(fs::exists(out / "etc" / "x2"));
  EXPECT_TRUE(fs::exists(out / "x3"));
  EXPECT_TRUE(fs::exists(out / "x4"));
  EXPECT_TRUE(fs::exists(out / "a" / "x5"));
  for (const auto& e : fs::recursive_directory_iterator(t.path())) {
    const std::string rel = fs::relative(e.path(), t.path()).generic_string();
    if (e.is_regular_file() && rel != "evil.arc") EXPECT_EQ(rel.rfind("deep/out/", 0), 0u) << rel;
  }
}

// Globs select by logical name (library level: the igarchive record's extract, as the CLI calls it).
TEST(IgArchiveExtract, GlobsSelectByLogicalName) {
  WriterOptions o;
  o.version = 0x0B;
  std::vector<WriterFile> f = {{.name = "levels/a.igz", .path = "build/x/levels/a.igz", .data = text(40000, 1)},
                               {.name = "levels/b.bin", .data = text(10, 2)},
                               {.name = "c.igz", .data = text(10, 3)}};
  const ByteBuffer bytes = build(f, o);
  assay::testing::TempDir t;
  ExtractOptions x;
  x.globs = {"*.igz"};
  auto r = test::extract_archive(bytes, OutputDir(t / "o", false), x);
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(r->selected, 2u);
  EXPECT_EQ(r->files, 2u);
  EXPECT_EQ(r->bytes, 40010u);
  EXPECT_TRUE(r->failed.empty());
  EXPECT_EQ(assay::testing::read_file(t / "o" / "levels" / "a.igz"), f[0].data);
  EXPECT_EQ(assay::testing::read_file(t / "o" / "c.igz"), f[2].data);
  EXPECT_FALSE(fs::exists(t / "o" / "levels" / "b.bin"));
}

// One member longer than the decode window: written window by window (two blocks of 0x8000
// bytes, one window each, the second decoded while the first is written), the same bytes.
TEST(IgArchiveExtract, MemberSpanningSeveralWindows) {
  WriterOptions o;
  o.version = 0x0B;
  const std::vector<WriterFile> f = {{.name = "big.bin", .data = text(3 * kBlockSize + 123, 7)},
                                     {.name = "raw.bin", .data = noise(2 * kBlockSize + 5, 8), .compression = Compression::stored}};
  const ByteBuffer bytes = build(f, o);
  const Archive a = open_ok(bytes);
  assay::testing::TempDir t;
  MemberSettings s;
  s.window = kBlockSize;
  s.threads = 2;
  for (const WriterFile& w : f) {
    auto r = write_member(a, *a.find(w.name), OutputDir(t.path(), false), s);
    ASSERT_TRUE(r.ok()) << r.error().str();
    EXPECT_EQ(r->files, 1u);
    EXPECT_EQ(r->bytes, w.data.size());
    EXPECT_EQ(assay::testing::read_file(t / w.name), w.data) << w.name;
  }
  // above the member cap: refused before anything is created
  s.member_cap = kBlockSize;
  EXPECT_FALSE(write_member(a, *a.find("big.bin"), OutputDir(t / "capped", false), s).ok());
  EXPECT_FALSE(fs::exists(t / "capped" / "big.bin"));
}

// Allocation safety: a stored file whose length claims more than the archive holds.
TEST(IgArchiveBadInput, StoredLengthBeyondFile) {
  ByteBuffer m = fixture(8, Endian::little);
  const Archive a = open_ok(m);
  const FileEntry& c = *a.find("c.bin");
  store<std::uint32_t>(m.data() + 0x34 + 4 * 4 + 12ull * c.index + 4, 0xFFFFFFF0u, Endian::little);
  auto b = Archive::open(m, "x");
  ASSERT_TRUE(b.ok());
  ByteBuffer out;
  EXPECT_FALSE(b->read(b->files()[c.index], out, 1, ~0ull).ok());
  EXPECT_TRUE(out.empty());  // nothing was allocated for it
}

}  // namespace
}  // namespace assay::igarchive
