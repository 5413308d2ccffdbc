// Findings of the fuzz targets (docs/FUZZING.md), one test each, reduced from the artifact.
// These reach the igArchive extract path; the fix for each belongs where the comment says.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "assay/core/diag.h"
#include "assay/core/output.h"
#include "assay/formats/igarchive/extract.h"
#include "assay/formats/igarchive/writer.h"
#include "helpers.h"
#include "testing/testing.h"

namespace assay::igarchive {
namespace {

// fuzz target sanitize_path, artifact "C:\C:\" (crash-6959c7fe...): sanitize_relative_path drops
// only the first drive component, so "C:\C:\x" comes out as "C:/x", a path that still starts
// with a drive, and sanitising that again changes it ("x"). output.h's contract: a leading drive
// is dropped and the result is a safe relative path. Fix (src/core/output.cc): drop every
// leading "X:" component (loop, not once).
TEST(IgArchiveFuzzFindings, SanitiseDropsEveryLeadingDrive) {
  for (const std::string name : {"C:\\C:\\x", "C:/D:/x", "c:/d:/E:/x"}) {
    auto s = sanitize_relative_path(name);
    ASSERT_TRUE(s.ok()) << name;
    EXPECT_EQ(*s, "x") << name;
    bool changed = true;
    auto again = sanitize_relative_path(*s, &changed);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, *s) << "not idempotent for " << name;
    EXPECT_FALSE(changed);
  }
  // nothing but drives: no safe component at all
  EXPECT_FALSE(sanitize_relative_path("C:\\C:\\").ok());
}

// The same finding through extract: an archive entry "C:\D:\evil.txt" is written as
// "evil.txt", not inside a folder named like a drive.
TEST(IgArchiveFuzzFindings, ExtractDoesNotKeepASecondDrive) {
  WriterOptions o;
  o.version = 0x0B;
  o.threads = 1;
  auto arc = write_archive({{.name = "C:\\D:\\evil.txt", .path = "", .data = ByteBuffer(5, 'e'), .compression = Compression::none}}, o);
  ASSERT_TRUE(arc.ok()) << arc.error().str();
  testing::TempDir tmp;
  auto r = test::extract_archive(*arc, OutputDir(tmp.path(), false));
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(r->files, 1u);
  EXPECT_TRUE(std::filesystem::is_regular_file(tmp / "evil.txt"));
  EXPECT_FALSE(std::filesystem::exists(tmp / "D:"));
}

// fuzz target igarchive, artifact crash-587d0d6d... (833 bytes, ASan heap-buffer-overflow in
// Archive::parse_names): an entry's bytes ran from its offset to the next entry's offset even
// when that offset lay past nameTableSize, so classify() read past the table (and the buffer).
// Fixed concurrently by 4eb9d11 ("an entry's bytes never run past the table"); this keeps it
// fixed: entry 1's offset word points past the table, entry 0's bytes must still end at the
// table's end.
TEST(IgArchiveFuzzFindings, NameEntryNeverRunsPastTheTable) {
  WriterOptions o;
  o.version = 8;
  o.threads = 1;
  auto arc = write_archive({{.name = "a.igz", .path = "", .data = ByteBuffer(10, 'a'), .compression = Compression::none},
                            {.name = "b.igz", .path = "", .data = ByteBuffer(10, 'b'), .compression = Compression::none}},
                           o);
  ASSERT_TRUE(arc.ok()) << arc.error().str();
  auto good = Archive::open(*arc, "two.arc");
  ASSERT_TRUE(good.ok()) << good.error().str();
  const std::uint64_t nto = good->header().name_table_offset, nts = good->header().name_table_size;
  ASSERT_GT(nts, 8u);
  ByteBuffer bad = *arc;
  // entry 1's offset word (relative to the name table) now points 0x100 bytes past the table
  store<std::uint32_t>(bad.data() + nto + 4, static_cast<std::uint32_t>(nts + 0x100), Endian::little);
  Diagnostics d;
  auto a = Archive::open(bad, "bad.arc", d.sink());
  if (!a.ok()) return;  // refusing the archive is fine too
  EXPECT_TRUE(d.has_errors());
  const std::uint8_t* table = bad.data() + nto;
  for (const FileEntry& f : a->files()) {
    if (f.name_raw.empty()) continue;
    EXPECT_GE(f.name_raw.data(), table) << f.index;
    EXPECT_LE(f.name_raw.data() + f.name_raw.size(), table + nts) << "entry " << f.index << " runs past the name table";
  }
}

}  // namespace
}  // namespace assay::igarchive
