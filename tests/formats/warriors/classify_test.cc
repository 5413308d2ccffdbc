// The byte rules of the entry classifier (spec: warriors.md#wr-8-1, K5-K14) and the ISO root
// directory check (#wr-1-2, ECMA-119 9.1), on hand-built bytes: each rule matches its spec layout,
// and an entry cut short of the bytes a rule reads is never matched by a made-up zero.
#include <gtest/gtest.h>

#include "assay/core/input.h"
#include "assay/formats/warriors/classify.h"
#include "assay/formats/warriors/disc.h"
#include "../../../src/formats/warriors/disc_iso.h"
#include "helpers.h"

namespace assay::warriors {
namespace {

ByteBuffer bytes(std::initializer_list<std::uint8_t> v) { return ByteBuffer(v); }
ByteBuffer cut(const ByteBuffer& b, std::size_t n) { return ByteBuffer(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(n)); }

TEST(WarriorsClassify, ManifestK5) {
  // size = 12 + 8 x word 2 (one pair); word 1 (7) >= word 0 (3) > 0
  const ByteBuffer m = test::le32({3, 7, 1, 0xAA, 0xBB});
  EXPECT_EQ(classify_entry(m), EntryKind::world_manifest);
  EXPECT_NE(classify_entry(test::le32({3, 2, 1, 0xAA, 0xBB})), EntryKind::world_manifest);  // word 1 < word 0
  EXPECT_NE(classify_entry(cut(m, 11)), EntryKind::world_manifest);
}

TEST(WarriorsClassify, OldRenderWareK6AtZeroOrFour) {
  const ByteBuffer at0 = test::le32({0x10, 0, 0x1803FFFF});
  const ByteBuffer at4 = test::le32({9, 0x10, 0, 0x1803FFFF});
  EXPECT_EQ(classify_entry(at0), EntryKind::old_renderware);
  EXPECT_EQ(classify_entry(at4), EntryKind::old_renderware);
  EXPECT_NE(classify_entry(cut(at4, 15)), EntryKind::old_renderware);  // stamp cut short
}

TEST(WarriorsClassify, LuaK7NeedsAllThirteenBytes) {
  const ByteBuffer lua = bytes({0x1B, 0x4C, 0x75, 0x61, 0x40, 0x01, 0x04, 0x04, 0x04, 0x20, 0x06, 0x09, 0x08, 0x00});
  EXPECT_EQ(classify_entry(lua), EntryKind::lua);
  EXPECT_NE(classify_entry(cut(lua, 12)), EntryKind::lua);
}

TEST(WarriorsClassify, SceneRecordK8NameAtEightOrFour) {
  ByteBuffer header = test::le32({16, 0});  // word 0 = size, word 1 = 0, name at +8
  for (char c : std::string("SC1\0\0\0\0\0", 8)) header.push_back(static_cast<std::uint8_t>(c));
  EXPECT_EQ(classify_entry(header), EntryKind::scene_record);
  ByteBuffer segment = test::le32({16});  // name at +4, then other segment fields
  for (char c : std::string("SEG\0abcdwxyz", 12)) segment.push_back(static_cast<std::uint8_t>(c));
  EXPECT_EQ(classify_entry(segment), EntryKind::scene_record);
  // A name running to the entry's end with no NUL is not a name.
  ByteBuffer open_name = test::le32({8});
  for (char c : std::string("ABCD")) open_name.push_back(static_cast<std::uint8_t>(c));
  EXPECT_NE(classify_entry(open_name), EntryKind::scene_record);
  // 17 printable bytes before the NUL: longer than 16.
  ByteBuffer long_name = test::le32({24});
  for (char c : std::string("ABCDEFGHIJKLMNOPQ\0\0\0", 20)) long_name.push_back(static_cast<std::uint8_t>(c));
  EXPECT_NE(classify_entry(long_name), EntryKind::scene_record);
}

TEST(WarriorsClassify, SoundBankIndexK9) {
  // pairs with non-decreasing offsets, a {0, 0} end, zeros after it
  const ByteBuffer idx = test::le32({0x11, 0, 0x22, 0x800, 0x33, 0x800, 0, 0, 0, 0});
  EXPECT_EQ(classify_entry(idx), EntryKind::sound_bank_index);
  EXPECT_NE(classify_entry(test::le32({0x11, 0x900, 0x22, 0x800, 0, 0})), EntryKind::sound_bank_index);  // decreasing
  EXPECT_NE(classify_entry(test::le32({0x11, 0, 0, 0, 0, 1})), EntryKind::sound_bank_index);  // non-zero after the end
  EXPECT_NE(classify_entry(test::le32({0x11, 0, 0x22, 0x800})), EntryKind::sound_bank_index);  // no end pair
}

TEST(WarriorsClassify, BitmapK12FileSizeWithinTheEntry) {
  ByteBuffer bmp = bytes({'B', 'M', 8, 0, 0, 0, 0, 0});  // header file size 8 = entry size
  EXPECT_EQ(classify_entry(bmp), EntryKind::bitmap);
  bmp[2] = 9;
  EXPECT_NE(classify_entry(bmp), EntryKind::bitmap);
  EXPECT_NE(classify_entry(bytes({'B', 'M', 0, 0, 0})), EntryKind::bitmap);  // the size word is cut short
}

TEST(WarriorsClassify, TextK13StartsWithADigit) {
  const std::string t = "3\r\nrun\tjump\n";
  EXPECT_EQ(classify_entry(ByteBuffer(t.begin(), t.end())), EntryKind::text);
  const std::string nodigit = "run\n";
  EXPECT_NE(classify_entry(ByteBuffer(nodigit.begin(), nodigit.end())), EntryKind::text);
  EXPECT_NE(classify_entry(bytes({'1', 0x01})), EntryKind::text);  // a control byte
}

TEST(WarriorsClassify, AdpcmK14EveryFrameHeader) {
  ByteBuffer a(32, 0x22);  // two frames; their sample bytes (0x22) rule out the earlier kinds
  a[0] = 0x4C;  // predictor 4, shift 12
  a[1] = 7;     // flags
  a[16] = 0x00;
  a[17] = 0x00;
  EXPECT_EQ(classify_entry(a), EntryKind::sound_bank);
  a[17] = 8;  // second frame's flags > 7
  EXPECT_NE(classify_entry(a), EntryKind::sound_bank);
  a[17] = 0;
  a[16] = 0x50;  // predictor 5
  EXPECT_NE(classify_entry(a), EntryKind::sound_bank);
  EXPECT_EQ(classify_entry(ByteBuffer(16, 0x0D)), EntryKind::other);  // shift 13
}

// The root directory records: WARRIORS.DIR is the third record of sector 20 (after "." and "..").
constexpr std::size_t kRoot = 20 * 2048;
constexpr std::size_t kDirRecord = kRoot + 34 + 34;

Result<Disc> open_iso(const ByteBuffer& iso) {
  assay::testing::TempDir tmp;
  assay::testing::write_file(tmp / "t.iso", iso);
  return Disc::open(*Input::open(tmp / "t.iso"));
}

ByteBuffer small_iso() {
  const ByteBuffer dir = test::le32({1, 0, 0, 0, 0, 5, 0x7E23A6F2});
  return test::make_iso({{"WARRIORS.DIR;1", dir}, {"WARRIORS.WAD;1", ByteBuffer(2048, 1)}});
}

TEST(WarriorsIsoRoot, MultiExtentFlagIsAnErrorAtItsRecord) {
  ByteBuffer iso = small_iso();
  ASSERT_TRUE(open_iso(iso).ok());
  ASSERT_EQ(iso[kDirRecord + 32], 14);  // "WARRIORS.DIR;1"
  iso[kDirRecord + 25] = 0x80;          // file flags bit 7: multi-extent (ECMA-119 9.1.6)
  auto d = open_iso(iso);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().structure, "ISO root directory record");
  EXPECT_EQ(d.error().offset, kDirRecord);
  EXPECT_NE(d.error().message.find("WARRIORS.DIR is multi-extent"), std::string::npos) << d.error().message;
}

TEST(WarriorsIsoRoot, RecordShorterThanThirtyFourBytesIsAnError) {
  ByteBuffer iso = small_iso();
  iso[kDirRecord] = 20;  // a record needs 33 fixed bytes and a name
  auto d = open_iso(iso);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().offset, kDirRecord);
  EXPECT_NE(d.error().message.find("bad record length"), std::string::npos) << d.error().message;
}

TEST(WarriorsIsoRoot, SignatureNeedsTheWholeDescriptor) {
  ByteBuffer iso = small_iso();
  EXPECT_TRUE(iso_has_signature(iso));  // "CD001" at 16 x 2048 + 1 (ECMA-119 8.4.2)
  iso[16 * 2048 + 3] = '1';
  EXPECT_FALSE(iso_has_signature(iso));
  iso[16 * 2048 + 3] = '0';
  iso.resize(16 * 2048 + 2047);  // "CD001" is there, the descriptor is not whole
  EXPECT_FALSE(iso_has_signature(iso));
}

}  // namespace
}  // namespace assay::warriors
