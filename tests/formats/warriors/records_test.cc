// Warriors record types (disc.h DirRow/DirHeader, src/formats/warriors/records.h) against the
// spec's tables with hand-built bytes.
#include <gtest/gtest.h>

#include "../../../src/formats/warriors/records.h"

namespace assay::warriors {
namespace {

// spec: warriors.md#wr-2-1: a 16-byte header, 12-byte rows {wadOffset, size, nameHash}.
static_assert(DirHeader::kSize == 16 && DirRow::kSize == 12 && records::Header16::kSize == 16);
static_assert(records::PrimaryVolumeDescriptor::kSize == 2048);

TEST(WarriorsRecords, DirRowFieldOrder) {
  // count 2, 12 zero bytes, then rows {0x800, 5, 0xAABBCCDD} and {0x1000, 7, 0x11223344}.
  const std::uint8_t dir[] = {2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                              0x00, 0x08, 0, 0, 5, 0, 0, 0, 0xDD, 0xCC, 0xBB, 0xAA,
                              0x00, 0x10, 0, 0, 7, 0, 0, 0, 0x44, 0x33, 0x22, 0x11};
  auto d = Disc::from_views(ByteView(dir), ByteView(), nullptr, DiscSource::folder);
  ASSERT_TRUE(d.ok()) << d.error().str();
  EXPECT_EQ(d->count(), 2u);
  const DirEntry e1 = d->entry(1);
  EXPECT_EQ(e1.offset, 0x1000u);
  EXPECT_EQ(e1.size, 7u);
  EXPECT_EQ(e1.hash, 0x11223344u);
  // One byte short of the second row: D1 before any row is read.
  EXPECT_FALSE(Disc::from_views(ByteView(dir).first(sizeof dir - 1), ByteView(), nullptr, DiscSource::folder).ok());
}

TEST(WarriorsRecords, PackageMarkerAndCheckedWords) {
  // {count 1, size 0x20, 0, crc32("package") = 0xDE686795} (spec #wr-5-3).
  const std::uint8_t pack[] = {1, 0, 0, 0, 0x20, 0, 0, 0, 0, 0, 0, 0, 0x95, 0x67, 0x68, 0xDE};
  EXPECT_TRUE(records::has_package_marker(pack));
  EXPECT_FALSE(records::has_package_marker(ByteView(pack).first(15)));
  EXPECT_EQ(records::u32_at(pack, 12), 0xDE686795u);
  EXPECT_FALSE(records::u32_at(pack, 13).has_value());  // past the end: no value, no read
  EXPECT_EQ(records::u16_at(pack, 4), 0x20u);
}

TEST(WarriorsRecords, PrimaryVolumeDescriptorFields) {
  // ECMA-119 8.4: type at 0, volume space size (LE half) at 80, block size at 128, root record at
  // 156 with its extent at +2 and data length at +10.
  std::vector<std::uint8_t> pvd(2048, 0);
  pvd[0] = 1;
  pvd[80] = 0x34, pvd[81] = 0x12;
  pvd[128] = 0x00, pvd[129] = 0x08;
  pvd[158] = 0x16;
  pvd[166] = 0x00, pvd[167] = 0x08;
  auto p = read_record<records::PrimaryVolumeDescriptor>(records::le_reader(pvd), 0, "pvd");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->type, 1u);
  EXPECT_EQ(p->volume_blocks, 0x1234u);
  EXPECT_EQ(p->block_size, 2048u);
  EXPECT_EQ(p->root_extent, 0x16u);
  EXPECT_EQ(p->root_length, 2048u);
}

}  // namespace
}  // namespace assay::warriors
