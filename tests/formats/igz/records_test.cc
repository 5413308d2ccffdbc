// igz record types (src/formats/igz/records.h) against the spec's tables with hand-built bytes.
#include <gtest/gtest.h>

#include "../../../src/formats/igz/records.h"

namespace assay::igz {
namespace {

// spec: alchemy.md#igz-header-v7: five u32 then 32 descriptors x 16 bytes from 0x14;
// #igz-fixups: a 16-byte record header; #igz-header-v6: 0x18-byte record headers, 0x1C inner header.
static_assert(records::HeaderV7::kSize == 0x14 && records::SectionDescriptor::kSize == 16);
static_assert(records::HeaderV7::kSize + 32 * records::SectionDescriptor::kSize == 0x214);
static_assert(records::FixupHeaderV7::kSize == 0x10 && records::FixupHeaderV6::kSize == 0x18);
static_assert(records::FixupInnerHeaderV6::kSize == 0x1C);

TEST(IgzRecords, HeaderV7BothByteOrders) {
  // "IGZ\x01" as the big-endian u32 0x49475A01, version 9, hash 0xA1B2C3D4, platform 2, 5 fixups.
  const std::uint8_t be[] = {0x49, 0x47, 0x5A, 0x01, 0, 0, 0, 9, 0xA1, 0xB2, 0xC3, 0xD4, 0, 0, 0, 2, 0, 0, 0, 5};
  auto p = probe_byte_order(be, kMagic);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->endian, Endian::big);
  EXPECT_EQ(p->prefix.version, 9u);
  auto h = read_record<records::HeaderV7>(ByteReader(be, Endian::big, kFormatName), 0, "header");
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->version, 9u);
  EXPECT_EQ(h->fields_hash, 0xA1B2C3D4u);
  EXPECT_EQ(h->platform, 2u);
  EXPECT_EQ(h->num_fixups, 5u);
  const std::uint8_t le[] = {0x01, 0x5A, 0x47, 0x49, 8, 0, 0, 0};
  auto l = probe_byte_order(le, kMagic);
  ASSERT_TRUE(l.has_value());
  EXPECT_EQ(l->endian, Endian::little);
  EXPECT_EQ(l->prefix.version, 8u);
  EXPECT_FALSE(probe_byte_order(ByteView(le).first(7), kMagic).has_value());
}

TEST(IgzRecords, FixupHeaderV6SkipsItsEightUnknownBytes) {
  // id 3, 8 unknown bytes (0xEE), count 2, length 0x28, dataOffset 0x18 (little-endian).
  const std::uint8_t b[] = {3, 0, 0, 0, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE,
                            2, 0, 0, 0, 0x28, 0, 0, 0, 0x18, 0, 0, 0};
  auto h = read_record<records::FixupHeaderV6>(ByteReader(b, Endian::little, kFormatName), 0, "fixup");
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->id, 3u);
  EXPECT_EQ(h->count, 2u);
  EXPECT_EQ(h->length, 0x28u);
  EXPECT_EQ(h->data_offset, 0x18u);
}

TEST(IgzRecords, PointerPairsFollowThePointerSize) {
  const std::uint8_t b[] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0};
  const ByteReader r(b, Endian::little, kFormatName);
  auto t32 = RecordTable<records::PointerPair32>::open(r, 0, 2, "TMHN");
  ASSERT_TRUE(t32.ok());
  EXPECT_EQ((*t32)[1].first, 3u);
  EXPECT_EQ((*t32)[1].second, 4u);
  auto t64 = RecordTable<records::PointerPair64>::open(r, 0, 1, "TMHN");
  ASSERT_TRUE(t64.ok());
  EXPECT_EQ((*t64)[0].first, 0x0000000200000001ull);
  EXPECT_FALSE(RecordTable<records::PointerPair64>::open(r, 0, 2, "TMHN").ok());
}

}  // namespace
}  // namespace assay::igz
