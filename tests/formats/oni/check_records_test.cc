// The instance file's records (core/record.h decodes in instance_file.h): fields at the offsets of
// spec oni.md#oni-3-1, #oni-3-5, #oni-3-7, #oni-3-8 and #oni-3-9 over hand-made bytes; InstanceFile's
// tables reading those records at the spec's positions on our writer's files, and stopping the
// program on an index past the table.
#include <gtest/gtest.h>

#include <numeric>

#include "fixtures.h"
#include "testing/testing.h"

namespace assay::oni {
namespace {

// The record T at `offset` of b (a test failure, and a zero record, when it does not fit).
template <Record T>
T record_at(ByteView b, std::uint64_t offset = 0) {
  auto r = read_record<T>(ByteReader(b, Endian::little, kFormat), offset, "test record");
  EXPECT_TRUE(r.ok()) << r.error().str();
  return r.ok() ? *r : T{};
}

// Bytes 0, 1, 2, ...: every little-endian field reads as its own offsets.
ByteBuffer counting(std::size_t n) {
  ByteBuffer b(n);
  std::iota(b.begin(), b.end(), std::uint8_t{0});
  return b;
}

TEST(OniRecords, FileHeaderFieldsSitAtTheSpecOffsets) {
  const ByteBuffer b = counting(0x40);
  const FileHeader h = record_at<FileHeader>(b);
  EXPECT_EQ(h.checksum, 0x0706050403020100ull);
  EXPECT_EQ(h.version, 0x0B0A0908u);
  EXPECT_EQ(h.header_size, 0x0D0Cu);
  EXPECT_EQ(h.name_entry_size, 0x1312u);
  EXPECT_EQ(h.instance_count, 0x17161514u);
  EXPECT_EQ(h.template_count, 0x1F1E1D1Cu);
  EXPECT_EQ(h.data_offset, 0x23222120u);
  EXPECT_EQ(h.name_size, 0x2F2E2D2Cu);
  EXPECT_EQ(h.raw_offset, 0x33323130u);
  EXPECT_EQ(h.raw_size, 0x37363534u);
  EXPECT_FALSE(h.padding_zero());
  ByteBuffer z(0x40, 0);
  z[0x3F] = 1;  // the last unused byte alone
  EXPECT_FALSE(record_at<FileHeader>(z).padding_zero());
  z[0x3F] = 0;
  EXPECT_TRUE(record_at<FileHeader>(z).padding_zero());
}

TEST(OniRecords, TableRecordsSitAtTheSpecOffsets) {
  const ByteBuffer b = counting(0x14);
  const Descriptor d = record_at<Descriptor>(b);
  EXPECT_EQ(d.tag, 0x03020100u);
  EXPECT_EQ(d.data_offset, 0x07060504u);
  EXPECT_EQ(d.name_offset, 0x0B0A0908u);
  EXPECT_EQ(d.size, 0x0F0E0D0Cu);
  EXPECT_EQ(d.raw_flags, 0x13121110u);
  const TemplateEntry t = record_at<TemplateEntry>(b);
  EXPECT_EQ(t.checksum, 0x0706050403020100ull);
  EXPECT_EQ(t.tag, 0x0B0A0908u);
  EXPECT_EQ(t.count, 0x0F0E0D0Cu);
  EXPECT_EQ(record_at<NameEntry>(b).index, 0x03020100u);
  const InstanceHeader ih = record_at<InstanceHeader>(b);
  EXPECT_EQ(ih.id, 0x03020100u);
  EXPECT_EQ(ih.file_id, 0x07060504u);
}

TEST(OniRecords, TablesReadTheRecordsAtTheSpecPositions) {
  testing::TempDir dir;
  ASSERT_TRUE(write_sample_files(dir.path()).ok());
  for (const char* name : {"level0_Final.dat", "level1_X.dat"}) {
    const ByteBuffer b = testing::read_file(dir / name);
    auto f = InstanceFile::open(b, name);
    ASSERT_TRUE(f.ok());
    ASSERT_GT(f->instance_count(), 0u);
    for (std::uint32_t i = 0; i < f->instance_count(); ++i) {
      const Descriptor a = f->descriptor(i), r = record_at<Descriptor>(b, kHeaderSize + i * kDescriptorSize);
      EXPECT_EQ(std::tie(a.tag, a.data_offset, a.name_offset, a.size, a.raw_flags), std::tie(r.tag, r.data_offset, r.name_offset, r.size, r.raw_flags));
    }
    const std::uint64_t names = kHeaderSize + std::uint64_t(f->instance_count()) * kDescriptorSize;
    for (std::uint32_t k = 0; k < f->name_count(); ++k)
      EXPECT_EQ(f->name_entry_index(k), record_at<NameEntry>(b, names + k * kNameEntrySize).index);
  }
}

TEST(OniRecordsDeathTest, DescriptorPastTheTableStopsTheProgram) {
  testing::TempDir dir;
  ASSERT_TRUE(write_sample_files(dir.path()).ok());
  const ByteBuffer b = testing::read_file(dir / "level0_Final.dat");
  auto f = InstanceFile::open(b, "level0_Final.dat");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->instance_count(), 6u);  // samples.cc: level 0 has 6 descriptors (placeholder included)
  EXPECT_DEATH((void)f->descriptor(f->instance_count()), "descriptors");
  EXPECT_DEATH((void)f->name_entry_index(f->name_count()), "name directory");
}

}  // namespace
}  // namespace assay::oni
