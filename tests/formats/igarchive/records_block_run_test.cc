// A file's block-table run as a checked view (Archive::block_run, BlockRun): sizes and entries
// against alchemy.md#iga-block-tables and the worked archive of #vectors-synthetic item 1; a run
// that leaves its table is an Error naming the file's blocks and its file-info word.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "assay/formats/igarchive/writer.h"
#include "helpers.h"

namespace assay::igarchive {
namespace {

using test::build;
using test::open_ok;

// #vectors-synthetic 1: v8, LZMA, S = 0x800, files of 2,805 and 1,118,636 bytes.
ByteBuffer worked_archive(bool zero_terminator = false) {
  WriterOptions o;
  o.version = 8;
  o.zero_terminator = zero_terminator;
  o.lzma_preset = 0;  // fast; the layout does not depend on it
  return build({{.name = "a.igz", .data = test::text(2805, 1)}, {.name = "b.igz", .data = test::text(1118636, 2)}}, o);
}

const FileEntry& named(const Archive& a, std::string_view name) {
  for (const FileEntry& f : a.files())
    if (f.name == name) return f;
  throw std::runtime_error("no such file");
}

TEST(IgaBlockRun, RunsHoldBPlusOneEntries) {
  const ByteBuffer bytes = worked_archive();
  const Archive a = open_ok(bytes);
  // 2,805 bytes: one block in the small table (<= 0x7F x S); 1,118,636: ceil(/0x8000) = 35
  // blocks in the medium table; the spec's counts are small 2, medium 36.
  const FileEntry& small = named(a, "a.igz");
  const FileEntry& medium = named(a, "b.igz");
  auto rs = a.block_run(small);
  auto rm = a.block_run(medium);
  ASSERT_TRUE(rs.ok() && rm.ok());
  EXPECT_EQ(rs->size(), 2u);
  EXPECT_EQ(rm->size(), 36u);
  // The first entry of each file is "compressed, sector 0": 0x80 small, 0x8000 medium.
  EXPECT_EQ((*rs)[0].raw, 0x80u);
  EXPECT_EQ((*rm)[0].raw, 0x8000u);
  EXPECT_TRUE((*rm)[0].compressed);
  EXPECT_EQ((*rm)[0].sector, 0u);
  // Sectors grow block by block; the terminator has no flag and counts the file's sectors.
  for (std::uint32_t j = 1; j < rm->size(); ++j) EXPECT_GT((*rm)[j].sector, (*rm)[j - 1].sector) << j;
  EXPECT_FALSE(rm->terminator().compressed);
  const std::uint64_t S = a.header().sector_size;
  const std::uint64_t end = a.data_bound(medium);
  EXPECT_EQ(rm->terminator().sector, (end - medium.offset + S - 1) / S);
  // Entry offsets: the medium table's start + 2 bytes per entry.
  EXPECT_EQ(rm->offset_of(3), a.table_offset(BlockTable::medium) + 2ull * (medium.first_entry + 3));
}

TEST(IgaBlockRun, ZeroTerminatorForm) {
  const ByteBuffer bytes = worked_archive(true);  // the Archive is a view: keep its bytes
  const Archive a = open_ok(bytes);
  auto r = a.block_run(named(a, "b.igz"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->terminator().raw, 0u);  // igArchiveLib's form (#open Q1)
}

TEST(IgaBlockRun, RunPastItsTableNamesTheFileInfoWord) {
  ByteBuffer bytes = worked_archive();
  std::size_t index = 0;
  {
    const Archive a = open_ok(bytes);
    index = named(a, "b.igz").index;
  }
  // v8: header 0x34, hash table 4 x 2, file info 12 bytes each; blockIndexAndCompression at +8.
  const std::size_t word_at = 0x34 + 4 * 2 + 12 * index + 8;
  store<std::uint32_t>(bytes.data() + word_at, 0x20000001u, Endian::little);  // LZMA, first entry 1: 1 + 35 >= 36
  auto a = Archive::open(bytes, "test");
  ASSERT_TRUE(a.ok()) << a.error().str();
  const FileEntry& f = named(*a, "b.igz");
  auto r = a->block_run(f);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().structure, fmt::format("file[{}] blocks", index));
  EXPECT_EQ(r.error().offset, word_at);
  EXPECT_NE(r.error().message.find("outside the medium table of 36 entries"), std::string::npos) << r.error().str();
  EXPECT_FALSE(a->blocks(f).ok());  // blocks() goes through the same check
}

}  // namespace
}  // namespace assay::igarchive
