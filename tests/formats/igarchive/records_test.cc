// igArchive record types (src/formats/igarchive/records.h) against the spec's tables, with
// hand-built bytes: each field comes from the offset the spec gives it.
#include <gtest/gtest.h>

#include "../../../src/formats/igarchive/records.h"

namespace assay::igarchive {
namespace {

// spec: alchemy.md#iga-header-v4 (0x30), #iga-header-v8 (0x34), #iga-header-v10 (0x38),
// #iga-file-info (12 bytes for v4/v8, 16 for v0x0A+).
static_assert(records::HeaderV4::kSize == 0x30 && records::HeaderV8::kSize == 0x34 &&
              records::HeaderV10::kSize == 0x38);
static_assert(records::FileInfo12::kSize == 12 && records::FileInfo16::kSize == 16);
static_assert(kRecordSizeMatches<records::HeaderV10> && kRecordSizeMatches<records::FileInfo16>);

// 0x38 bytes where the u32 at offset o (o = 0x08..0x24, 0x30, 0x34) holds o itself, big-endian.
ByteBuffer v10_header_be() {
  ByteBuffer b(0x38, 0);
  auto put32 = [&](std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
  };
  put32(0, kMagic);  // a big-endian archive stores the magic u32 in its own order: 1A 41 47 49
  put32(4, 0x0B);
  for (std::size_t o = 0x08; o <= 0x24; o += 4) put32(o, static_cast<std::uint32_t>(o));
  put32(0x28, 0x00000001);  // nameTableOffset u64 = 0x1_00000028
  put32(0x2C, 0x00000028);
  put32(0x30, 0x30);
  put32(0x34, 0x34);
  return b;
}

TEST(IgArchiveRecords, HeaderV10FieldsAtTheSpecOffsets) {
  const ByteBuffer b = v10_header_be();
  Endian e = Endian::little;
  auto p = records::read_prefix(b, e);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(e, Endian::big);
  EXPECT_EQ(p->version, 0x0Bu);
  auto r = read_record<records::HeaderV10>(ByteReader(b, Endian::big, kFormatName), 0, "header");
  ASSERT_TRUE(r.ok());
  const Header hh = r->header();
  const Header* h = &hh;
  EXPECT_EQ(h->toc_size, 0x08u);
  EXPECT_EQ(h->num_files, 0x0Cu);
  EXPECT_EQ(h->sector_size, 0x10u);
  EXPECT_EQ(h->divider, 0x14u);
  EXPECT_EQ(h->slop, 0x18u);
  EXPECT_EQ(h->num_large, 0x1Cu);
  EXPECT_EQ(h->num_medium, 0x20u);
  EXPECT_EQ(h->num_small, 0x24u);
  EXPECT_EQ(h->name_table_offset, 0x100000028ull);
  EXPECT_EQ(h->name_table_size, 0x30u);
  EXPECT_EQ(h->flags, 0x34u);
  // One byte short: an error naming the header, never a read past the end.
  auto cut = read_record<records::HeaderV10>(ByteReader(ByteView(b).first(0x37), Endian::big, kFormatName), 0, "header");
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.error().structure, "header");
}

// The writers' and editors' header is the same field list: the hand-made bytes above come back.
TEST(IgArchiveRecords, HeaderEncodesToTheSameBytes) {
  const ByteBuffer b = v10_header_be();
  auto r = read_record<records::HeaderV10>(ByteReader(b, Endian::big, kFormatName), 0, "header");
  ASSERT_TRUE(r.ok());
  Header h = r->header();
  h.endian = Endian::big;
  EXPECT_EQ(records::encode_header(h), b);
  // Version 8, little-endian, by hand: magic, version, then each u32 field holds its own offset
  // (#iga-header-v8: sectorSize 0x10, divider, slop, nameTableOffset 0x1C, size, large, medium,
  // small, flags 0x30).
  ByteBuffer v8(0x34);
  for (std::size_t o = 0; o < v8.size(); o += 4) {
    const std::uint32_t v = o == 0 ? kMagic : o == 4 ? 8u : static_cast<std::uint32_t>(o);
    for (int i = 0; i < 4; ++i) v8[o + i] = static_cast<std::uint8_t>(v >> (8 * i));
  }
  auto r8 = read_record<records::HeaderV8>(ByteReader(v8, Endian::little, kFormatName), 0, "header");
  ASSERT_TRUE(r8.ok());
  Header h8 = r8->header();
  EXPECT_EQ(h8.name_table_offset, 0x1Cu);
  EXPECT_EQ(h8.num_small, 0x2Cu);
  h8.endian = Endian::little;
  EXPECT_EQ(records::encode_header(h8), v8);
}

TEST(IgArchiveRecords, FileInfo16SplitsOffsetAndOrdinal) {
  // Little-endian u64 0x000003_0000001234 (ordinal 3, offset 0x1234), length 0x20, word 0x1000_0005.
  const std::uint8_t b[] = {0x34, 0x12, 0, 0, 0, 0x03, 0, 0, 0x20, 0, 0, 0, 0x05, 0, 0, 0x10};
  auto f = read_record<records::FileInfo16>(ByteReader(ByteView(b), Endian::little, kFormatName), 0, "file info");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->offset_ordinal & 0xFFFFFFFFFFull, 0x1234u);
  EXPECT_EQ(f->offset_ordinal >> 40, 3u);
  EXPECT_EQ(f->length, 0x20u);
  EXPECT_EQ(f->word >> 28, 1u);  // codec nibble: LZMA (spec #iga-file-info)
}

TEST(IgArchiveRecords, SizePrefixWidthsAndOrders) {
  const std::uint8_t b[] = {0x12, 0x34, 0x56, 0x78, 0x5D, 0x00, 0x00, 0x01, 0x00};
  EXPECT_EQ(*records::read_size_prefix(b, 0, 2, true), 0x3412u);
  EXPECT_EQ(*records::read_size_prefix(b, 0, 2, false), 0x1234u);
  EXPECT_EQ(*records::read_size_prefix(b, 0, 4, true), 0x78563412u);
  EXPECT_FALSE(records::read_size_prefix(b, 6, 4, true).ok());
  auto lp = records::read_lzma_props(b, 4, "block");  // 5D, dictionary 0x00010000 (64 KiB)
  ASSERT_TRUE(lp.ok());
  EXPECT_EQ(lp->pb, 0x5Du);
  EXPECT_EQ(lp->dict, 0x10000u);
  EXPECT_FALSE(records::read_lzma_props(b, 5, "block").ok());
}

}  // namespace
}  // namespace assay::igarchive
