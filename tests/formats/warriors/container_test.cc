// Chunk containers and the loaders: spec warriors.md#wr-11-3 (synthetic containers, built byte
// by byte), #wr-5-3 (loader choice), #wr-5-4, #wr-4-3 (checked pops, windows, sizes first).
#include <gtest/gtest.h>

#include "assay/core/hash.h"
#include "assay/formats/warriors/chunks.h"
#include "assay/formats/warriors/classify.h"
#include "assay/formats/warriors/writer.h"
#include "helpers.h"

namespace assay::warriors {
namespace {

using test::append;
using test::le32;
using test::set32;

// The 80-byte flat resource of spec #wr-11-3.
ByteBuffer flat80() {
  ByteBuffer b = le32({2, 32, 0, 0xD87F7E0C});
  append(b, le32({0x28, 16, 0, 0xD87F7E0C}));
  append(b, ByteBuffer(16, 0x01));
  append(b, le32({0x28, 16, 0, 0xD87F7E0C}));
  append(b, ByteBuffer(16, 0x02));
  return b;
}

// The 64-byte pack of spec #wr-11-3.
ByteBuffer pack64() {
  ByteBuffer b = le32({1, 48, 0, 0xDE686795});
  append(b, le32({1, 16, 0, 0xE8B7BE43}));
  append(b, le32({0x28, 16, 0, 0xE8B7BE43}));
  append(b, ByteBuffer(16, 0x03));
  return b;
}

bool has_warning(const LoadResult& r, std::string_view rule) {
  for (const auto& d : r.diags.items())
    if (d.severity == Severity::warning && d.where.message.rfind(std::string(rule) + ":", 0) == 0) return true;
  return false;
}

TEST(WarriorsContainer, Flat80IsExactAndLoadsTwoRawChunks) {
  const ByteBuffer b = flat80();
  ASSERT_EQ(b.size(), 80u);
  EXPECT_EQ(crc32(std::string_view("test")), 0xD87F7E0Cu);
  EXPECT_TRUE(check_exact_resource(b).exact);
  EXPECT_EQ(classify_entry(b), EntryKind::resource);
  LoadResult r = load_flat(b, HandlerTable::standard());
  ASSERT_TRUE(r.ok()) << r.error->str();
  ASSERT_EQ(r.stacks.chunks().size(), 2u);
  EXPECT_EQ(r.stacks.chunks()[0].type, 0x28u);
  EXPECT_EQ(r.stacks.chunks()[1].type, 0x28u);
  EXPECT_EQ(r.stacks.chunks()[0].data.data(), b.data() + 32);  // a view of the entry, exactly its 16 bytes
  EXPECT_EQ(r.stacks.chunks()[1].data.size(), 16u);
  EXPECT_TRUE(r.stacks.objects().empty());
  EXPECT_EQ(r.trailing, 0u);
}

TEST(WarriorsContainer, Flat80Mutations) {
  ByteBuffer b = flat80();
  set32(b, 4, 48);  // dataSize 48: not exact (C1) but loads flat with a warning
  EXPECT_FALSE(check_exact_resource(b).exact);
  EXPECT_NE(check_exact_resource(b).why.find("C1"), std::string::npos);
  EXPECT_TRUE(load_flat(b, HandlerTable::standard()).ok());

  b = flat80();
  set32(b, 48, 0x54);  // chunk 1 type 0x54
  LoadResult r = load_flat(b, HandlerTable::standard());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error->message.find("V3"), std::string::npos);
  EXPECT_NE(r.error->message.find("0x54"), std::string::npos);
  EXPECT_EQ(r.error->offset, 48u);
  EXPECT_EQ(r.stacks.chunks().size(), 1u);  // the stack keeps what was pushed before

  b = flat80();
  set32(b, 52, 32);  // chunk 1 size 32: past the end
  r = load_flat(b, HandlerTable::standard());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error->message.find("past the entry"), std::string::npos);

  b = flat80();
  set32(b, 0, 3);  // count 3: the third header needs 16 bytes, 0 left
  r = load_flat(b, HandlerTable::standard());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->offset, 80u);

  b = flat80();
  set32(b, 0, 0x7FFFFFFF);  // a count that cannot fit is refused before the loop
  r = load_flat(b, HandlerTable::standard());
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.chunks.empty());
  EXPECT_NE(r.error->message.find("count 2147483647"), std::string::npos);

  // chunk 0 size 15 with 15 data bytes: not exact (C4)
  ByteBuffer c = le32({2, 31, 0, 0xD87F7E0C});
  append(c, le32({0x28, 15, 0, 0}));
  append(c, ByteBuffer(15, 1));
  append(c, le32({0x28, 16, 0, 0}));
  append(c, ByteBuffer(16, 2));
  EXPECT_NE(check_exact_resource(c).why.find("C4"), std::string::npos);
  EXPECT_TRUE(load_flat(c, HandlerTable::standard()).ok());
}

TEST(WarriorsContainer, FlatEntryLeavingTrailingBytes) {
  ByteBuffer b = flat80();
  append(b, ByteBuffer(24, 0x55));
  LoadResult r = load_container(b, HandlerTable::standard());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.shape, ContainerShape::flat);
  EXPECT_EQ(r.consumed, 80u);
  EXPECT_EQ(r.trailing, 24u);
  EXPECT_TRUE(has_warning(r, "V17"));
  EXPECT_FALSE(check_exact_resource(b).exact);  // C6
}

TEST(WarriorsContainer, Pack64IsExactAndLoadsGrouped) {
  const ByteBuffer b = pack64();
  ASSERT_EQ(b.size(), 64u);
  EXPECT_TRUE(check_exact_pack(b).exact);
  EXPECT_EQ(classify_entry(b), EntryKind::pack);
  LoadResult r = load_container(b, HandlerTable::standard());  // the marker chooses grouped
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.shape, ContainerShape::grouped);
  ASSERT_EQ(r.stacks.chunks().size(), 1u);
  EXPECT_EQ(r.stacks.chunks()[0].type, 0x28u);
  EXPECT_FALSE(r.ended_by_zero_group);
  EXPECT_EQ(r.trailing, 0u);
}

TEST(WarriorsContainer, GroupedEndsAtAZeroResourceId) {
  ByteBuffer b = pack64();
  set32(b, 28, 0);  // the group's fourth word
  LoadResult r = load_container(b, HandlerTable::standard());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.shape, ContainerShape::grouped);
  EXPECT_TRUE(r.ended_by_zero_group);
  EXPECT_TRUE(r.chunks.empty());
  EXPECT_TRUE(r.stacks.chunks().empty());
  EXPECT_TRUE(has_warning(r, "V16"));
  EXPECT_TRUE(has_warning(r, "V17"));
  EXPECT_EQ(r.trailing, 48u);
}

TEST(WarriorsContainer, GroupedWithoutMarkerIsTriedAfterFlatFails) {
  // Two groups without the marker: the flat parse reads type 1 / size 16... and fails.
  ByteBuffer b = le32({2, 0, 0, 0});
  for (std::uint32_t g = 1; g <= 2; ++g) {
    append(b, le32({1, 16, 0, g}));
    append(b, le32({0x28, 16, 0, g}));
    append(b, ByteBuffer(16, 0));
  }
  // flat: chunk 0 = {1, 16, 0, 1} (type 1, 16 bytes), chunk 1 = type 0x28 size 16 but its header is
  // group 1's chunk data... make the flat parse fail by giving the flat reading a type >= 0x54.
  set32(b, 48, 0x1000);  // group 0's chunk data starts with 0x1000 (data, for grouped)
  LoadResult flat = load_flat(b, HandlerTable::standard());
  ASSERT_FALSE(flat.ok());
  LoadResult r = load_container(b, HandlerTable::standard());
  ASSERT_TRUE(r.ok()) << r.error->str();
  EXPECT_EQ(r.shape, ContainerShape::grouped);
  EXPECT_EQ(r.group_ids, (std::vector<std::uint32_t>{1, 2}));
  EXPECT_EQ(r.stacks.chunks().size(), 2u);
  // an explicit choice overrides
  LoadOptions lo;
  lo.shape = ContainerShape::flat;
  EXPECT_FALSE(load_container(b, HandlerTable::standard(), lo).ok());
  // the skip predicate skips a group's chunks like the resource manager would
  lo.shape = ContainerShape::grouped;
  lo.skip_group = [](const GroupHeader& g) { return g.id == 1; };
  LoadResult s = load_container(b, HandlerTable::standard(), lo);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s.group_ids, std::vector<std::uint32_t>{2});
}

TEST(WarriorsContainer, ZeroSizeRawChunkPushesEmptyBytes) {
  ByteBuffer b = le32({1, 0, 0, 0});
  append(b, le32({0x28, 0, 0, 0}));
  LoadResult r = load_flat(b, HandlerTable::standard());
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.stacks.chunks().size(), 1u);
  EXPECT_TRUE(r.stacks.chunks()[0].data.empty());
  ByteBuffer p = le32({1, 32, 0, kPackageMarker});
  append(p, le32({1, 0, 0, 7}));
  append(p, le32({0x28, 0, 0, 7}));
  LoadResult g = load_grouped(p, HandlerTable::standard());
  ASSERT_TRUE(g.ok());
  ASSERT_EQ(g.stacks.chunks().size(), 1u);
  EXPECT_TRUE(g.stacks.chunks()[0].data.empty());
}

TEST(WarriorsContainer, WorldPartShapeIsNotAContainer) {
  // spec #wr-11-3: header {1,0,0,crc32("level1s_ms1.sec")} then an RW 0x16 header.
  const ByteBuffer part = samples::world_part("level1s_ms1.sec", 1);
  EXPECT_EQ(test::get32(part, 12), 0xCBAC271Eu);
  EXPECT_EQ(test::get32(part, 16), 0x16u);
  EXPECT_EQ(test::get32(part, 24), 0x1C02000Au);
  EXPECT_FALSE(check_exact_resource(part).exact);
  EXPECT_EQ(classify_entry(part), EntryKind::world_part);
  EXPECT_EQ(classify_entry(part, std::string_view("level1s_ms1.sec")), EntryKind::world_part);
  EXPECT_NE(classify_entry(part, std::string_view("Level1s_ms1.sec")), EntryKind::world_part);
  LoadResult r = load_flat(part, HandlerTable());  // loosely: one chunk of type 0x16, zero word = stamp
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.chunks.size(), 1u);
  EXPECT_EQ(r.chunks[0].header.type, 0x16u);
  EXPECT_EQ(r.chunks[0].header.zero, 0x1C02000Au);
  // with the handlers, the World Header model meets an empty stack: an error, not corruption
  LoadResult h = load_flat(part, HandlerTable::standard());
  ASSERT_FALSE(h.ok());
  EXPECT_NE(h.error->message.find("expected 0x42"), std::string::npos);
  ASSERT_EQ(h.stacks.chunks().size(), 1u);  // unchanged by the failed model
}

TEST(WarriorsContainer, ReadFromStreamSeesExactlyItsChunk) {
  HandlerTable t;
  std::uint64_t seen = 0;
  ASSERT_TRUE(t.set_handlers(0x30, nullptr, [&](LoadContext&, const ChunkHeader&, ChunkWindow& w) -> Result<void> {
    seen = w.remaining();
    ASSAY_CHECK(w.read(8, "probe"));  // leaves the rest: skipped by the loader
    return {};
  }));
  ByteBuffer b = le32({2, 48, 0, 0});
  append(b, le32({0x30, 32, 0, 0}));
  append(b, ByteBuffer(32, 9));
  append(b, le32({0x28, 16, 0, 0}));
  append(b, ByteBuffer(16, 8));
  LoadResult r = load_flat(b, t);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(seen, 32u);
  ASSERT_EQ(r.stacks.chunks().size(), 1u);  // the handler pushed nothing; the next chunk was read in place
  EXPECT_EQ(r.stacks.chunks()[0].offset, 80u);
  // reading past the window is V8
  ASSERT_TRUE(t.set_handlers(0x30, nullptr, [](LoadContext&, const ChunkHeader&, ChunkWindow& w) -> Result<void> {
    ASSAY_CHECK(w.read(33, "probe"));
    return {};
  }));
  LoadResult bad = load_flat(b, t);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error->message.find("V8"), std::string::npos);
  EXPECT_FALSE(t.set_handlers(0x54, nullptr, nullptr));
}

TEST(WarriorsContainer, TypeTableNames) {
  EXPECT_EQ(chunk_type_name(0x00), "Anim Rot Keyframes");
  EXPECT_EQ(chunk_type_name(0x17), "Level Header");
  EXPECT_EQ(chunk_type_name(0x2A), "Renderware Texture Dic");
  EXPECT_EQ(chunk_type_name(0x47), "Preinstance Object");
  EXPECT_EQ(chunk_type_name(0x53), "Occluders");
  EXPECT_EQ(chunk_type_name(0x54), "");
  int on_disc = 0;
  for (std::uint32_t t = 0; t < kChunkTypeCount; ++t) on_disc += chunk_type_on_disc(t);
  EXPECT_EQ(on_disc, 29);
}

TEST(WarriorsContainer, WriterProducesTheSpecsBytes) {
  ChunkSpec c{0x28, 0xD87F7E0C, ByteBuffer(16, 0x01), 0};
  ChunkSpec d{0x28, 0xD87F7E0C, ByteBuffer(16, 0x02), 0};
  auto r = write_resource(0xD87F7E0C, {c, d});
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, flat80());
  auto res = le32({1, 16, 0, 0xE8B7BE43});
  append(res, le32({0x28, 16, 0, 0xE8B7BE43}));
  append(res, ByteBuffer(16, 0x03));
  auto p = write_pack({res});
  ASSERT_TRUE(p);
  EXPECT_EQ(*p, pack64());
  EXPECT_FALSE(write_resource(0, {{0x54, 0, {}, 0}}));
  // padding to 16 (C4)
  auto q = write_resource(1, {{0x28, 0, ByteBuffer(5, 1), 0}});
  ASSERT_TRUE(q);
  EXPECT_EQ(q->size(), 48u);
  EXPECT_EQ(test::get32(*q, 20), 16u);
}

}  // namespace
}  // namespace assay::warriors

namespace assay::warriors {
namespace {

TEST(WarriorsContainer, DeepStacksWarnV7) {
  std::vector<ChunkSpec> many(2049, ChunkSpec{0x28, 0, {}, 0});
  auto b = write_resource(1, many);
  ASSERT_TRUE(b);
  LoadResult r = load_flat(*b, HandlerTable::standard());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.stacks.chunks().size(), 2049u);
  bool v7 = false;
  for (const auto& d : r.diags.items()) v7 = v7 || d.where.message.rfind("V7:", 0) == 0;
  EXPECT_TRUE(v7);
  std::vector<ChunkSpec> ok(2048, ChunkSpec{0x28, 0, {}, 0});
  LoadResult s = load_flat(*write_resource(1, ok), HandlerTable::standard());
  for (const auto& d : s.diags.items()) EXPECT_NE(d.where.message.rfind("V7:", 0), 0u);
}

}  // namespace
}  // namespace assay::warriors
