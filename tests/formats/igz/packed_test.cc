// Packed lists, pointers, tags, igMemory words, string padding: spec: alchemy.md#vectors-igz.
#include <gtest/gtest.h>

#include "assay/formats/igz/fixups.h"
#include "assay/formats/igz/writer.h"

namespace assay::igz {
namespace {

using V = std::vector<std::uint32_t>;
const V kValues = {0x4, 0x10, 0x14, 0x24, 0x08000010};

ByteBuffer bytes(std::initializer_list<int> b) {
  ByteBuffer out;
  for (int x : b) out.push_back(static_cast<std::uint8_t>(x));
  return out;
}

TEST(IgzPacked, SpecVectorVersion9BothWays) {
  const ByteBuffer expect = bytes({0x31, 0x41, 0xFB, 0xFF, 0xFF, 0xFF, 0x01});
  auto packed = pack_list(kValues, 9);
  ASSERT_TRUE(packed.ok()) << packed.error().str();
  EXPECT_EQ(*packed, expect);
  auto values = unpack_list(expect, 5, 9);
  ASSERT_TRUE(values.ok());
  EXPECT_EQ(*values, kValues);
}

TEST(IgzPacked, SpecVectorVersion8WithBias) {
  const ByteBuffer expect = bytes({0x20, 0x30, 0xFA, 0xFF, 0xFF, 0xFF, 0x01});
  auto packed = pack_list(kValues, 8);
  ASSERT_TRUE(packed.ok());
  EXPECT_EQ(*packed, expect);
  auto values = unpack_list(expect, 5, 8);
  ASSERT_TRUE(values.ok());
  EXPECT_EQ(*values, kValues);
  // version 7 uses the same bias (spec: #igz-versions)
  EXPECT_EQ(*pack_list(kValues, 7), expect);
}

TEST(IgzPacked, PublishedBytesAreWrong) {
  // spec Q13: igRewrite8 IGZ.md's bytes decode to ... 0x28 under the implemented rule.
  auto values = unpack_list(bytes({0x31, 0x41, 0xF1, 0xFF, 0xFF, 0xFF, 0x0B}), 5, 9);
  ASSERT_TRUE(values.ok());
  EXPECT_EQ(*values, (V{0x4, 0x10, 0x14, 0x24, 0x28}));
  EXPECT_NE(*pack_list(kValues, 9), bytes({0x31, 0x41, 0xF1, 0xFF, 0xFF, 0xFF, 0x0B}));
}

TEST(IgzPacked, SampleListsBothWays) {
  struct Case {
    ByteBuffer b;
    V v;
  } cases[] = {
      {bytes({0x70, 0xF9, 0xFF, 0xFF, 0xFF, 0x01}), {0x0, 0x1C, 0x08000000}},  // test_img RVTB
      {bytes({0x1D, 0xED, 0xFF, 0xFF, 0xFF, 0x01}), {0x34, 0x08000008}},       // test_img RSTR
      {bytes({0x15, 0x06}), {0x14, 0x18, 0x30}},                               // test_img ROFS
  };
  for (const auto& c : cases) {
    auto v = unpack_list(c.b, static_cast<std::uint32_t>(c.v.size()), 9);
    ASSERT_TRUE(v.ok());
    EXPECT_EQ(*v, c.v);
    EXPECT_EQ(*pack_list(c.v, 9), c.b);
  }
}

TEST(IgzPacked, EndlessAndOversizedListsFail) {
  // every nibble has the continuation bit: a list that never ends
  auto never = unpack_list(bytes({0xFF, 0xFF, 0xFF, 0xFF}), 1, 9);
  ASSERT_FALSE(never.ok());
  // more values than nibbles: rejected before allocating
  auto big = unpack_list(bytes({0x11}), 0xFFFFFFFF, 9);
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.error().message.find("cannot fit"), std::string::npos);
  // data ends after two of three values
  EXPECT_FALSE(unpack_list(bytes({0x11}), 3, 9).ok());
  // a value past 32 bits
  EXPECT_FALSE(unpack_list(bytes({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x07}), 1, 9).ok());
  // the bias cannot express 0 or duplicates; unaligned values are refused
  EXPECT_FALSE(pack_list({0x0}, 8).ok());
  EXPECT_FALSE(pack_list({0x8, 0x8}, 8).ok());
  EXPECT_FALSE(pack_list({0x6}, 9).ok());
  EXPECT_EQ(*pack_list({0x0}, 9), bytes({0x00}));
}

TEST(IgzPointers, DecodeByVersion) {
  EXPECT_EQ(decode_pointer(9, 0x08000000).pool, 1u);
  EXPECT_EQ(decode_pointer(9, 0x08000000).offset, 0u);
  EXPECT_EQ(decode_pointer(9, 0x10000014).pool, 2u);
  EXPECT_EQ(decode_pointer(9, 0x10000014).offset, 0x14u);
  EXPECT_EQ(decode_pointer(7, 0x18000000).pool, 3u);
  EXPECT_EQ(decode_pointer(6, 0x01000010).pool, 1u);  // 8-bit pool index before version 7
  EXPECT_EQ(decode_pointer(6, 0x01000010).offset, 0x10u);
  EXPECT_EQ(decode_pointer(9, 0x01000010).pool, 0u);
  EXPECT_EQ(decode_pointer(9, 0x01000010).offset, 0x01000010u);  // mask 0x07FFFFFF (Q10)
  EXPECT_EQ(encode_pointer(9, {2, 0x14}), 0x10000014u);
  EXPECT_EQ(encode_pointer(5, {1, 0x10}), 0x01000010u);
}

TEST(IgzTags, TagValuesAndDiskBytes) {
  EXPECT_EQ(tag::TMET, 0x54454D54u);
  EXPECT_EQ(tag::TDEP, 0x50454454u);
  EXPECT_EQ(tag::RSTR, 0x52545352u);
  EXPECT_EQ(tag::RHND, 0x444E4852u);
  std::uint8_t disk[4];
  store<std::uint32_t>(disk, tag::TMET, Endian::big);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(disk), 4), "TEMT");
  store<std::uint32_t>(disk, tag::TMET, Endian::little);
  EXPECT_EQ(std::string(reinterpret_cast<char*>(disk), 4), "TMET");
  EXPECT_EQ(tag_name(tag::EXNM), "EXNM");
  EXPECT_EQ(tag_for_v6_id(0x0E), tag::RSTR);
  EXPECT_EQ(tag_for_v6_id(4), 0u);
}

TEST(IgzMemory, WordDecoding) {
  MemoryWord m = decode_memory_word(0x80000004, 4);
  EXPECT_TRUE(m.optimal_cpu);
  EXPECT_EQ(m.alignment, 4u);
  EXPECT_EQ(m.size, 4u);
  m = decode_memory_word(0x800333E0, 4);
  EXPECT_TRUE(m.optimal_cpu);
  EXPECT_EQ(m.alignment, 4u);
  EXPECT_EQ(m.size, 0x333E0u);
  m = decode_memory_word(0x08000010, 4);  // log2(alignment) - 2 = 1
  EXPECT_FALSE(m.optimal_cpu);
  EXPECT_EQ(m.alignment, 8u);
  m = decode_memory_word((std::uint64_t{1} << 63) | (std::uint64_t{2} << 59) | 0x40, 8);
  EXPECT_TRUE(m.optimal_cpu);
  EXPECT_EQ(m.alignment, 16u);
  EXPECT_EQ(m.size, 0x40u);
}

TEST(IgzPlatform, PointerSizeByVersion) {
  EXPECT_EQ(platform_pointer_size(9, 9), 4u);   // cafe
  EXPECT_EQ(platform_pointer_size(9, 8), 8u);   // win64
  EXPECT_EQ(platform_pointer_size(9, 3), 8u);   // durango
  EXPECT_EQ(platform_pointer_size(9, 12), 8u);  // aspen64
  EXPECT_EQ(platform_pointer_size(8, 12), 4u);  // deprecated in v8
  EXPECT_EQ(platform_pointer_size(7, 14), 8u);  // ps4
  EXPECT_EQ(platform_pointer_size(6, 3), 4u);   // deprecated in v6
  EXPECT_EQ(platform_pointer_size(6, 14), 0u);  // unknown in v6
  EXPECT_EQ(platform_pointer_size(9, 17), 0u);  // e.g. Switch: not established (Q15)
  EXPECT_EQ(platform_name(6, 10), "ngp");
  EXPECT_EQ(platform_name(9, 10), "raspi");
}

// "igObjectList", "igImage2", "igNameList" take 14, 10, 12 bytes in v9: TMET record 0x34.
TEST(IgzStrings, PaddingVersion9And7) {
  for (std::uint32_t version : {9u, 7u}) {
    Writer w({version, Endian::big, 9});
    w.add_pool("Default", 4);
    for (const char* t : {"igObjectList", "igImage2", "igNameList"}) w.add_type(t, 0x18);
    w.set_root(w.add_object(0, 0));
    auto b = w.finish();
    ASSERT_TRUE(b.ok()) << b.error().str();
    auto f = IgzFile::open(*b);
    ASSERT_TRUE(f.ok()) << f.error().str();
    const FixupRecord* tmet = f->find(tag::TMET);
    ASSERT_NE(tmet, nullptr);
    // v7 unpadded: 13 + 9 + 11 = 33 bytes, padded to 36 -> 0x34 as well by the 4-byte rule
    EXPECT_EQ(tmet->length, version == 9 ? 0x34u : 0x10u + 36u);
    auto fx = decode_fixups(*f);
    ASSERT_TRUE(fx.ok());
    EXPECT_EQ(fx->types, (std::vector<std::string_view>{"igObjectList", "igImage2", "igNameList"}));
  }
  // the v9 bytes: each string then NULs up to an even length
  ByteBuffer data;
  for (const char* s : {"igObjectList\0\0", "igImage2\0\0", "metal\0"}) {
    const std::string_view sv(s, std::string_view(s).size() + (std::string_view(s) == "metal" ? 1 : 2));
    data.insert(data.end(), sv.begin(), sv.end());
  }
  ByteReader r(data, Endian::big, "igz");
  auto padded = read_string_table(r, 3, true, "TMET");
  ASSERT_TRUE(padded.ok());
  EXPECT_EQ((*padded)[2], "metal");
  auto plain = read_string_table(r, 3, false, "TMET");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ((*plain)[1], "");  // the padding NUL read as an empty string
  EXPECT_FALSE(read_string_table(r, 100, true, "TMET").ok());
}

}  // namespace
}  // namespace assay::igz
