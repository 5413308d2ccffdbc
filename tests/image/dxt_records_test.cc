// The DXT block and D3D texel records (src/image/dxt_records.h) against renderware.md#rw-6-4 and
// #rw-6-2, decoded from hand-computed little-endian bytes; short inputs give Errors, not reads.
#include <gtest/gtest.h>

#include "../../src/image/dxt_records.h"
#include "assay/image/dxt.h"

namespace assay::image {
namespace {

// spec: #rw-6-4: BC1 blocks are 8 bytes (two u16 colours, a u32 of indices), BC2/BC3 blocks 16
// (8 bytes of alpha first); #rw-6-2: A8R8G8B8 texels are 4 bytes B, G, R, A.
static_assert(records::ColourBlock::kSize == 8 && kRecordSizeMatches<records::ColourBlock>);
static_assert(records::Bc1Block::kSize == 8 && records::Bc2Block::kSize == 16);
static_assert(records::Bc3Block::kSize == 16 && records::Bgra8Texel::kSize == 4);

template <class T>
T decode_le(ByteView b) {
  auto r = read_record<T>(ByteReader(b, Endian::little, "dxt"), 0, "block");
  EXPECT_TRUE(r.ok()) << r.error().str();
  return r.ok() ? *r : T{};
}

TEST(DxtRecords, ColourBlockFieldsAreLittleEndian) {
  const std::uint8_t b[8] = {0x00, 0xF8, 0x1F, 0x00, 0xE4, 0x1B, 0x00, 0xFF};
  const auto c = decode_le<records::Bc1Block>(b).colour;
  EXPECT_EQ(c.c0, 0xF800u);  // pure red in R5G6B5
  EXPECT_EQ(c.c1, 0x001Fu);  // pure blue
  EXPECT_EQ(c.indices, 0xFF001BE4u);
}

TEST(DxtRecords, Bc2AlphaThenColour) {
  const std::uint8_t b[16] = {0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE,
                              0x1F, 0x00, 0x00, 0xF8, 0xE4, 0xE4, 0xE4, 0xE4};
  const auto k = decode_le<records::Bc2Block>(b);
  EXPECT_EQ(k.alphas, 0xFEDCBA9876543210ull);  // texel k's 4-bit alpha is k (low nibble first)
  EXPECT_EQ(k.colour.c0, 0x001Fu);
  EXPECT_EQ(k.colour.c1, 0xF800u);
  EXPECT_EQ(k.colour.indices, 0xE4E4E4E4u);
}

TEST(DxtRecords, Bc3EndpointsAnd48BitCodes) {
  const std::uint8_t b[16] = {0xF0, 0x10, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB,
                              0x00, 0xF8, 0x1F, 0x00, 0x00, 0x00, 0x00, 0x00};
  const auto k = decode_le<records::Bc3Block>(b);
  EXPECT_EQ(k.alpha.e0, 0xF0);
  EXPECT_EQ(k.alpha.e1, 0x10);
  EXPECT_EQ(k.alpha.codes, 0xAB8967452301ull);  // six bytes, little-endian
  EXPECT_EQ(k.colour.c0, 0xF800u);
  EXPECT_EQ(k.colour.c1, 0x001Fu);
}

TEST(DxtRecords, Bgra8TexelByteOrder) {
  const std::uint8_t b[4] = {0x11, 0x22, 0x33, 0x44};
  const auto t = decode_le<records::Bgra8Texel>(b);
  EXPECT_EQ(t.b, 0x11);
  EXPECT_EQ(t.g, 0x22);
  EXPECT_EQ(t.r, 0x33);
  EXPECT_EQ(t.a, 0x44);
}

TEST(DxtRecords, TruncatedBlockTableNamesItsStructure) {
  // Two BC1 blocks need 16 bytes; 15 are given.
  const ByteBuffer b(15);
  auto t = RecordTable<records::Bc1Block>::open(ByteReader(b, Endian::little, "dxt", 0x400), 0, 2, "BC1 blocks");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().structure, "BC1 blocks");
  EXPECT_EQ(t.error().offset, 0x400u);
}

TEST(DxtRecords, ShortLevelsAreErrorsNotReads) {
  // 8 x 4 needs two blocks: 16 bytes of BC1, 32 of BC2/BC3; 8 x 8 R5G6B5 needs 128 bytes.
  const ByteBuffer b(31);
  EXPECT_TRUE(decode_blocks(BlockFormat::bc1, ByteView(b).first(16), 8, 4).ok());
  auto bc1 = decode_blocks(BlockFormat::bc1, ByteView(b).first(15), 8, 4);
  ASSERT_FALSE(bc1.ok());
  EXPECT_NE(bc1.error().message.find("needs 16 bytes of blocks, 15 given"), std::string::npos) << bc1.error().str();
  EXPECT_FALSE(decode_blocks(BlockFormat::bc2, b, 8, 4).ok());
  EXPECT_FALSE(decode_blocks(BlockFormat::bc3, b, 8, 4).ok());
  const ByteBuffer texels(127);
  auto p = decode_pixels(PixelFormat::r5g6b5, texels, 8, 8);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("needs 128 bytes of texels, 127 given"), std::string::npos) << p.error().str();
}

TEST(DxtRecords, PartialBlocksCropAtBothEdges) {
  // A 5 x 5 BC1 level is 2 x 2 blocks (32 bytes); block (1, 1) is red everywhere (indices 0).
  ByteBuffer b(32);
  b[24] = 0x00, b[25] = 0xF8;  // block 3: c0 = red, c1 = 0, indices 0
  auto img = decode_blocks(BlockFormat::bc1, b, 5, 5);
  ASSERT_TRUE(img.ok()) << img.error().str();
  ASSERT_EQ(img->pixels.size(), 5u * 5 * 4);
  const std::uint8_t* corner = img->pixels.data() + (4 * 5 + 4) * 4;  // (4, 4): texel 0 of block 3
  EXPECT_EQ(corner[0], 255);
  EXPECT_EQ(corner[1], 0);
  EXPECT_EQ(corner[2], 0);
  EXPECT_EQ(corner[3], 255);
  EXPECT_EQ(img->pixels[(3 * 5 + 3) * 4], 0);  // (3, 3): block 0, c0 = c1 = 0 -> black
}

}  // namespace
}  // namespace assay::image
