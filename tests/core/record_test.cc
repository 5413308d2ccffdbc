// Checked record and table views (include/assay/core/record.h), against hand-computed bytes.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "assay/core/record.h"

namespace assay {
namespace {

// A 6-byte record: u16 then u32.
struct Pair {
  static constexpr std::size_t kSize = 6;
  std::uint16_t a = 0;
  std::uint32_t b = 0;
  // A braced list is evaluated left to right: a then b.
  static constexpr Pair decode(RecordCursor& c) { return {c.u16(), c.u32()}; }
};

// Declares 8 bytes but reads 6: must be caught at compile time.
struct Short {
  static constexpr std::size_t kSize = 8;
  std::uint16_t a = 0;
  std::uint32_t b = 0;
  static constexpr Short decode(RecordCursor& c) { return {c.u16(), c.u32()}; }
};

// Reads 4 bytes, 8 when its first byte says so: zero bytes pass the compile-time check, so the
// run-time check must catch the long path.
struct DataDependent {
  static constexpr std::size_t kSize = 4;
  std::uint32_t a = 0, b = 0;
  static constexpr DataDependent decode(RecordCursor& c) {
    const std::uint32_t a = c.u32();
    return {a, (a & 0xFF) == 1 ? c.u32() : 0u};
  }
};

static_assert(kRecordSizeMatches<Pair>);
static_assert(!kRecordSizeMatches<Short>);
static_assert(decoded_size<Short>() == 6);
static_assert(kRecordSizeMatches<DataDependent>);
static_assert(kRecordSizeMatches<Word32> && Word32::kSize == 4);

const std::vector<std::uint8_t> kPairs = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06,   // record 0
                                          0x10, 0x20, 0x30, 0x40, 0x50, 0x60,   // record 1
                                          0xFF, 0xFE, 0xFD, 0xFC, 0xFB, 0xFA};  // record 2

TEST(RecordCursor, LittleAndBigEndianFields) {
  RecordCursor le(ByteView(kPairs).first(6), Endian::little);
  EXPECT_EQ(le.u16(), 0x0201u);
  EXPECT_EQ(le.u32(), 0x06050403u);
  EXPECT_EQ(le.pos(), 6u);
  EXPECT_FALSE(le.overrun());
  RecordCursor be(ByteView(kPairs).first(6), Endian::big);
  EXPECT_EQ(be.u16(), 0x0102u);
  EXPECT_EQ(be.u32(), 0x03040506u);
  RecordCursor w(ByteView(kPairs).subspan(12, 6), Endian::little);
  EXPECT_EQ(w.word(2), 0xFEFFu);
  EXPECT_EQ(w.word(4), 0xFAFBFCFDu);
}

TEST(RecordCursor, FloatAndSixtyFourBit) {
  const std::uint8_t one[] = {0x00, 0x00, 0x80, 0x3F, 1, 2, 3, 4, 5, 6, 7, 8};  // 1.0f LE
  RecordCursor c(ByteView(one), Endian::little);
  EXPECT_EQ(c.f32(), 1.0f);
  EXPECT_EQ(c.u64(), 0x0807060504030201ull);
  RecordCursor b(ByteView(one).subspan(4), Endian::big);
  EXPECT_EQ(b.u64(), 0x0102030405060708ull);
}

TEST(RecordCursor, OverrunReadsNothingOutside) {
  RecordCursor c(ByteView(kPairs).first(3), Endian::little);
  EXPECT_EQ(c.u16(), 0x0201u);
  EXPECT_EQ(c.u32(), 0u);  // only 1 byte left
  EXPECT_TRUE(c.overrun());
  EXPECT_EQ(c.pos(), 6u);  // the size asked for, for the size check
  EXPECT_TRUE(c.bytes(1).empty());
}

TEST(ReadRecord, DecodesAndNamesTruncation) {
  ByteReader r(ByteView(kPairs), Endian::little, "test", 0x100);
  auto p = read_record<Pair>(r, 6, "pair");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->a, 0x2010u);
  EXPECT_EQ(p->b, 0x60504030u);
  auto bad = read_record<Pair>(r, 13, "pair");  // 5 bytes remain
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().structure, "pair");
  EXPECT_EQ(bad.error().offset, 0x100u + 13);
}

TEST(ReadRecord, RunTimeCheckCatchesDataDependentOverrun) {
  const std::uint8_t zero[] = {0, 0, 0, 0};
  const std::uint8_t one[] = {1, 0, 0, 0};
  ByteReader ok(ByteView(zero), Endian::little, "test");
  ByteReader bad(ByteView(one), Endian::little, "test");
  EXPECT_TRUE(read_record<DataDependent>(ok, 0, "dd").ok());
  auto e = read_record<DataDependent>(bad, 0, "dd");
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().message.find("consumed 0x8 bytes of its 0x4"), std::string::npos) << e.error().message;
}

TEST(RecordTable, YieldsRecordsByIndexAndIteration) {
  ByteReader r(ByteView(kPairs), Endian::big, "test");
  auto t = RecordTable<Pair>::open(r, 0, 3, "pairs");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->size(), 3u);
  EXPECT_EQ(t->byte_size(), 18u);
  EXPECT_EQ(t->offset_of(2), 12u);
  EXPECT_EQ((*t)[1].a, 0x1020u);
  EXPECT_EQ((*t)[2].b, 0xFDFCFBFAu);
  std::vector<std::uint16_t> as;
  for (const Pair& p : *t) as.push_back(p.a);
  EXPECT_EQ(as, (std::vector<std::uint16_t>{0x0102, 0x1020, 0xFFFE}));
  auto out = t->at(3);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().structure, "pairs");
  EXPECT_NE(out.error().message.find("index 3"), std::string::npos);
  EXPECT_EQ(out.error().offset, 0u);  // the table's offset
}

// An index outside the table is never a silent all-zero record: at() gives an Error naming the
// table and index, operator[] (for loops bounded by size()) stops the program.
TEST(RecordTableDeathTest, OutOfRangeIndexIsAnErrorNeverZero) {
  ByteReader r(ByteView(kPairs), Endian::little, "test", 0x200);
  auto t = RecordTable<Pair>::open(r, 6, 2, "pairs");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ((*t)[1].a, 0xFEFFu);  // the last record: bytes 12-13, little-endian
  for (std::uint64_t i : {2ull, 3ull, ~0ull}) {
    auto e = t->at(i);
    ASSERT_FALSE(e.ok()) << i;
    EXPECT_EQ(e.error().structure, "pairs");
    EXPECT_EQ(e.error().offset, 0x206u);
    EXPECT_NE(e.error().message.find("outside the table of 2 records"), std::string::npos) << e.error().message;
  }
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH((void)(*t)[2], "pairs\\[2\\] read outside the table of 2 records");
  EXPECT_DEATH((void)(*t)[~0ull], "outside the table");
  RecordTable<Word32> empty;
  EXPECT_DEATH((void)empty[0], "outside the table of 0 records");
}

// in_order<E>: the same records as operator[] for a table of order E (values worked out by hand
// from kPairs in each order), and the same stop outside the table.
TEST(RecordTableDeathTest, InOrderDecodesAsTheTablesOrder) {
  ByteReader be(ByteView(kPairs), Endian::big, "test");
  ByteReader le(ByteView(kPairs), Endian::little, "test");
  auto tb = RecordTable<Pair>::open(be, 0, 3, "pairs");
  auto tl = RecordTable<Pair>::open(le, 0, 3, "pairs");
  ASSERT_TRUE(tb.ok() && tl.ok());
  EXPECT_EQ(tb->in_order<Endian::big>(1).a, 0x1020u);
  EXPECT_EQ(tb->in_order<Endian::big>(2).b, 0xFDFCFBFAu);
  EXPECT_EQ(tl->in_order<Endian::little>(1).a, 0x2010u);
  EXPECT_EQ(tl->in_order<Endian::little>(2).b, 0xFAFBFCFDu);
  for (std::uint64_t i = 0; i < 3; ++i) {
    EXPECT_EQ(tl->in_order<Endian::little>(i).b, (*tl)[i].b);
    EXPECT_EQ(tb->in_order<Endian::big>(i).a, (*tb)[i].a);
  }
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH((void)tl->in_order<Endian::little>(3), "pairs\\[3\\] read outside the table of 3 records");
}

TEST(RecordTable, TruncationAtEveryByte) {
  for (std::size_t len = 0; len < kPairs.size(); ++len) {
    ByteReader r(ByteView(kPairs).first(len), Endian::little, "test", 0x40);
    auto t = RecordTable<Pair>::open(r, 0, 3, "pairs");
    ASSERT_FALSE(t.ok()) << len;
    EXPECT_EQ(t.error().structure, "pairs");
    EXPECT_EQ(t.error().offset, 0x40u);
    EXPECT_NE(t.error().message.find("need 0x12 bytes"), std::string::npos) << t.error().message;
    // The records that do fit are still reachable through a smaller table.
    auto fit = RecordTable<Pair>::open(r, 0, len / 6, "pairs");
    EXPECT_TRUE(fit.ok()) << len;
  }
  ByteReader whole(ByteView(kPairs), Endian::little, "test");
  EXPECT_TRUE(RecordTable<Pair>::open(whole, 0, 3, "pairs").ok());
  EXPECT_TRUE(RecordTable<Pair>::open(whole, 18, 0, "pairs").ok());   // empty table at the end
  EXPECT_FALSE(RecordTable<Pair>::open(whole, 19, 0, "pairs").ok());  // offset past the end
}

TEST(RecordTable, OverflowingCountsAreRejectedBeforeAnyRead) {
  ByteReader r(ByteView(kPairs), Endian::little, "test");
  // 0x2AAAAAAAAAAAAAAB * 6 wraps to 2 (mod 2^64): a naive multiply would accept it.
  auto wrap = RecordTable<Pair>::open(r, 0, 0x2AAAAAAAAAAAAAABull, "pairs");
  ASSERT_FALSE(wrap.ok());
  EXPECT_NE(wrap.error().message.find("overflow"), std::string::npos) << wrap.error().message;
  auto big = RecordTable<Word32>::open(r, 4, 0xFFFFFFFFull, "hashes");  // 16 GiB of words
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().offset, 4u);
  EXPECT_FALSE(RecordTable<Word64>::open(r, ~0ull, 1, "x").ok());  // offset + size wraps
}

TEST(RecordTable, WordTables) {
  ByteReader r(ByteView(kPairs), Endian::little, "test");
  auto t = RecordTable<Word32>::open(r, 2, 4, "words");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ((*t)[0].value, 0x06050403u);
  EXPECT_EQ((*t)[2].value, 0xFEFF6050u);
  EXPECT_EQ((*t)[3].value, 0xFAFBFCFDu);
  ASSERT_TRUE(t->at(3).ok());
  EXPECT_EQ(t->at(3)->value, 0xFAFBFCFDu);
}

TEST(ReadWord, WidthsAndOutOfRange) {
  ByteReader le(ByteView(kPairs), Endian::little, "test", 0x300);
  ByteReader be(ByteView(kPairs), Endian::big, "test");
  EXPECT_EQ(*read_word(le, 6, 2, "w"), 0x2010u);
  EXPECT_EQ(*read_word(be, 6, 4, "w"), 0x10203040u);
  EXPECT_EQ(*read_word(le, 10, 8, "w"), 0xFAFBFCFDFEFF6050ull);  // bytes 10-17
  EXPECT_EQ(*read_word(be, 17, 1, "w"), 0xFAu);
  auto past = read_word(le, 11, 8, "igObjectList element");  // 7 bytes remain
  ASSERT_FALSE(past.ok());
  EXPECT_EQ(past.error().structure, "igObjectList element");
  EXPECT_EQ(past.error().offset, 0x300u + 11);
  EXPECT_FALSE(read_word(le, 18, 1, "w").ok());
  EXPECT_FALSE(read_word(le, ~0ull, 4, "w").ok());  // offset + width wraps
}

// "IGA\x1A" as a u32 is 0x1A414749 (spec: alchemy.md#overview-byteorder): little-endian files store
// 49 47 41 1A, big-endian ones 1A 41 47 49.
constexpr std::uint8_t kIgaLe[] = {0x49, 0x47, 0x41, 0x1A, 0x0B, 0, 0, 0};
constexpr std::uint8_t kIgaBe[] = {0x1A, 0x41, 0x47, 0x49, 0, 0, 0, 0x08};
static_assert(probe_byte_order(ByteView(kIgaLe), 0x1A414749u)->endian == Endian::little);
static_assert(probe_byte_order(ByteView(kIgaBe), 0x1A414749u)->prefix.version == 8);

TEST(ProbeByteOrder, FindsTheOrderWhereTheMagicReadsRight) {
  auto le = probe_byte_order(ByteView(kIgaLe), 0x1A414749u);
  ASSERT_TRUE(le.has_value());
  EXPECT_EQ(le->endian, Endian::little);
  EXPECT_EQ(le->prefix.magic, 0x1A414749u);
  EXPECT_EQ(le->prefix.version, 0x0Bu);
  auto be = probe_byte_order(ByteView(kIgaBe), 0x1A414749u);
  ASSERT_TRUE(be.has_value());
  EXPECT_EQ(be->endian, Endian::big);
  EXPECT_EQ(be->prefix.version, 8u);
  EXPECT_FALSE(probe_byte_order(ByteView(kIgaLe), 0x49475A01u).has_value());  // IGZ\x01
  EXPECT_FALSE(probe_byte_order(ByteView(kIgaLe).first(7), 0x1A414749u).has_value());
  EXPECT_FALSE(probe_byte_order(ByteView{}, 0).has_value());
}

TEST(NextRecord, AdvancesTheCursor) {
  ByteReader r(ByteView(kPairs), Endian::little, "test");
  Cursor c(r, 0);
  ASSERT_TRUE(next_record<Pair>(r, c, "pair").ok());
  EXPECT_EQ(c.pos(), 6u);
  c.seek(14);
  EXPECT_FALSE(next_record<Pair>(r, c, "pair").ok());
  EXPECT_EQ(c.pos(), 14u);  // unchanged on failure
}

// decode_in: a word at a checked offset reads in the byte order asked; one past the view stops.
TEST(DecodeInDeathTest, ReadsInsideAndStopsOutside) {
  const std::uint8_t b[6] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06};
  EXPECT_EQ(decode_in<Word32>(ByteView(b, 6), 2).value, 0x06050403u);
  EXPECT_EQ(decode_in<Word16>(ByteView(b, 6), 0, Endian::big).value, 0x0102u);
  EXPECT_DEATH((void)decode_in<Word32>(ByteView(b, 6), 3), "4 bytes at 0x3 lies outside 6 bytes");
}


// A record that lists its fields once (decode and encode): u8, 2 pad bytes, u16, u32, float,
// 4 raw bytes, u64: 1 + 2 + 2 + 4 + 4 + 4 + 8 = 25 bytes.
struct Listed {
  static constexpr std::size_t kSize = 25;
  std::uint8_t kind = 0;
  std::uint16_t count = 0;
  std::uint32_t offset = 0;
  float scale = 0;
  ByteView tag;
  std::uint64_t id = 0;
  static constexpr void fields(auto& r, auto&& f) { f(r.kind, Pad<2>{}, r.count, r.offset, r.scale, fixed_bytes<4>(r.tag), r.id); }
};
static_assert(FieldRecord<Listed> && Record<Listed> && kRecordSizeMatches<Listed>);
static_assert(!FieldRecord<Pair> && Record<Pair>);

const std::uint8_t kTag[] = {'T', 'X', 'M'};  // 3 bytes: written NUL-padded to 4
const Listed kListed{0x7F, 0x0102, 0x03040506, 1.5f, ByteView(kTag, 3), 0x1122334455667788};

// Bytes by hand: 1.5f is 0x3FC00000 (IEEE 754: sign 0, exponent 127, mantissa .1 binary).
TEST(FieldRecord, EncodesByHandInBothByteOrders) {
  const std::array<std::uint8_t, 25> le = {0x7F, 0, 0, 0x02, 0x01, 0x06, 0x05, 0x04, 0x03, 0x00, 0x00, 0xC0, 0x3F,
                                           'T', 'X', 'M', 0, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11};
  const std::array<std::uint8_t, 25> be = {0x7F, 0, 0, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x3F, 0xC0, 0x00, 0x00,
                                           'T', 'X', 'M', 0, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88};
  EXPECT_EQ(encode_record(kListed), le);
  EXPECT_EQ(encode_record(kListed, Endian::big), be);
}

TEST(FieldRecord, DecodesWhatItEncodes) {
  for (const Endian e : {Endian::little, Endian::big}) {
    const auto bytes = encode_record(kListed, e);
    const ByteReader r(ByteView(bytes), e, "test");
    auto back = read_record<Listed>(r, 0, "listed");
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->kind, 0x7F);
    EXPECT_EQ(back->count, 0x0102);
    EXPECT_EQ(back->offset, 0x03040506u);
    EXPECT_EQ(back->scale, 1.5f);
    EXPECT_EQ(std::string(back->tag.begin(), back->tag.end()), std::string("TXM\0", 4));
    EXPECT_EQ(back->id, 0x1122334455667788u);
  }
}

// store_in writes over a buffer's bytes at an offset and nothing else; outside it stops.
TEST(FieldRecordDeathTest, StoreInWritesInsideAndStopsOutside) {
  ByteBuffer b(30, 0xEE);
  store_in(b, 2, kListed);
  EXPECT_EQ(b[0], 0xEE);
  EXPECT_EQ(b[1], 0xEE);
  EXPECT_EQ(b[2], 0x7F);
  EXPECT_EQ(b[26], 0x11);
  EXPECT_EQ(b[27], 0xEE);
  ByteWriter w(Endian::big);
  w.u8(9);
  put_record(w, kListed);
  ASSERT_EQ(w.size(), 26u);
  EXPECT_EQ(w.buffer()[4], 0x01);  // 9, kind, 2 pad bytes, then count big-endian
  EXPECT_EQ(w.buffer()[5], 0x02);
  EXPECT_DEATH(store_in(b, 6, kListed), "25 bytes at 0x6 lies outside 30 bytes");
}

}  // namespace
}  // namespace assay
