// The walker: R1-R6, the two exceptions, padding, depth cap, headers-only.
// spec: renderware.md#rw-4, #rw-9.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include "assay/formats/renderware/walker.h"
#include "assay/formats/renderware/writer.h"
#include "rw_test_util.h"

namespace assay::rw {
namespace {

using testing::hdr;
namespace w = writer;

ByteBuffer small_clump() { return w::clump({.frames = 2, .geometries = {{3, 1, "tex"}, {4, 2, ""}}}); }

Diagnostics walk_diags(ByteView b, Result<SectionTree>* out = nullptr, WalkOptions o = {}) {
  Diagnostics d;
  auto t = walk(b, 0, d.sink(), o);
  if (out) *out = std::move(t);
  else if (!t) d.error(t.error());
  return d;
}

TEST(RwWalk, WriterClumpWalksCleanly) {
  const ByteBuffer b = small_clump();
  Diagnostics d;
  auto t = walk(b, 0, d.sink());
  ASSERT_TRUE(t.ok()) << t.error().str();
  EXPECT_EQ(d.items().size(), 0u);
  EXPECT_EQ(t->top.size(), 1u);
  EXPECT_EQ(t->sections[0].header.type, id::kClump);
  EXPECT_EQ(t->stream_end, b.size());
  EXPECT_EQ(t->padding, 0u);
  // Clump > Geometry List > Geometry > Material List > Material > Texture > String: depth 6
  EXPECT_EQ(t->max_depth, 6u);
  const auto kids = t->children(0);
  ASSERT_GE(kids.size(), 3u);
  EXPECT_EQ(t->sections[kids[0]].header.type, id::kStruct);
  EXPECT_EQ(t->sections[kids[1]].header.type, id::kFrameList);
}

TEST(RwWalk, BaseOffsetsAreAbsolute) {
  const ByteBuffer b = small_clump();
  auto t = walk(b, 0x1000, {});
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->sections[0].offset, 0x1000u);
  EXPECT_EQ(t->sections[1].offset, 0x100Cu);
  ByteBuffer cut(b.begin(), b.end() - 1);
  auto e = walk(cut, 0x1000, {});
  ASSERT_FALSE(e.ok());
  EXPECT_GE(e.error().offset, 0x1000u);
}

TEST(RwWalk, PaddingIsANoteR5) {
  ByteBuffer b = small_clump();
  const std::size_t stream = b.size();
  b.resize((stream + 2047) / 2048 * 2048, 0);
  Diagnostics d;
  auto t = walk(b, 0, d.sink());
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->padding, b.size() - stream);
  EXPECT_EQ(t->stream_end, stream);
  EXPECT_FALSE(d.has_errors());
  ASSERT_EQ(d.count(Severity::note), 1u);
  EXPECT_EQ(d.items()[0].where.code, "R5");
}

TEST(RwWalk, NonZeroTailIsErrorR5) {
  ByteBuffer b = small_clump();
  b.insert(b.end(), {0, 0, 0, 1, 0});
  auto t = walk(b, 0, {});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, "R5");
  EXPECT_EQ(t.error().offset, b.size() - 5);
  // a second top-level section is walked, or refused with single_top_level
  ByteBuffer two = small_clump();
  const ByteBuffer tx = w::texture_dictionary({}, 6);
  two.insert(two.end(), tx.begin(), tx.end());
  auto t2 = walk(two, 0, {});
  ASSERT_TRUE(t2.ok());
  EXPECT_EQ(t2->top.size(), 2u);
  EXPECT_FALSE(walk(two, 0, {}, {.single_top_level = true}).ok());
}

TEST(RwWalk, ChildPastParentR1) {
  ByteWriter b;
  hdr(b, 0x10, 24);
  hdr(b, 0x01, 13);  // 12 + 13 > 24
  b.zeros(12);
  auto t = walk(b.buffer(), 0, {});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, "R1");
  EXPECT_EQ(t.error().offset, 12u);
  EXPECT_NE(t.error().message.find("Clump"), std::string::npos);  // names the parent
}

TEST(RwWalk, SizeFFFFFFFFIsR1) {
  ByteWriter b;
  hdr(b, 0x16, 0xFFFFFFFFu);
  b.zeros(20);
  auto t = walk(b.buffer(), 0, {});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, "R1");
  ByteWriter c;
  hdr(c, 0x10, 12);
  hdr(c, 0x01, 0xFFFFFFFFu);
  EXPECT_FALSE(walk(c.buffer(), 0, {}).ok());
}

TEST(RwWalk, ChildrenNotFillingR2) {
  ByteWriter b;  // a 5-byte tail inside a container
  hdr(b, 0x10, 12 + 4 + 5);
  hdr(b, 0x01, 4), b.u32(1);
  b.zeros(5);
  auto t = walk(b.buffer(), 0, {});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, "R2");
  EXPECT_EQ(t.error().offset, 0u);
}

TEST(RwWalk, BadStampR3AndDifferentStampR4) {
  ByteWriter b;
  hdr(b, 0x10, 16);
  hdr(b, 0x01, 4, 0x00000100);  // version 0x10000: not RW3
  b.u32(0);
  auto t = walk(b.buffer(), 0, {});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, "R3");
  ByteWriter c;
  hdr(c, 0x10, 16);
  hdr(c, 0x01, 4, kStampGtaSa);
  c.u32(0);
  Diagnostics d;
  ASSERT_TRUE(walk(c.buffer(), 0, d.sink()).ok());
  ASSERT_EQ(d.count(Severity::warning), 1u);
  EXPECT_EQ(d.items()[0].where.code, "R4");
}

TEST(RwWalk, DeepNestingIsCappedR6) {
  // 100,000 nested Extensions: an iterative walk with a depth cap; no stack overflow
  const std::uint32_t n = 100000;
  ByteBuffer b(std::size_t{n} * 12);
  for (std::uint32_t i = 0; i < n; ++i) {
    store<std::uint32_t>(b.data() + 12 * i, 0x03, Endian::little);
    store<std::uint32_t>(b.data() + 12 * i + 4, (n - 1 - i) * 12, Endian::little);
    store<std::uint32_t>(b.data() + 12 * i + 8, kStampDefault, Endian::little);
  }
  auto t = walk(b, 0, {});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, "R6");
  EXPECT_EQ(t.error().offset, 65u * 12);
  // exactly 64 levels deep is allowed
  ByteBuffer ok(b.end() - 65 * 12, b.end());
  auto t2 = walk(ok, 0, {});
  ASSERT_TRUE(t2.ok()) << t2.error().str();
  EXPECT_EQ(t2->max_depth, 64u);
}

TEST(RwWalk, UnknownIdIsANoteR22) {
  ByteWriter b;
  hdr(b, 0x10, 16);
  hdr(b, 0x7777, 4), b.u32(0);
  Diagnostics d;
  ASSERT_TRUE(walk(b.buffer(), 0, d.sink()).ok());
  ASSERT_EQ(d.count(Severity::note), 1u);
  EXPECT_EQ(d.items()[0].where.code, "R22");
}

TEST(RwWalk, Ps2RasterStructIsAContainer) {
  // spec #rw-4-3 exception 1: the third child of a PS2 native holds two structs
  const ByteBuffer nat = testing::ps2_fixture_native();
  auto t = walk(nat, 0, {});
  ASSERT_TRUE(t.ok()) << t.error().str();
  const auto kids = t->children(0);
  ASSERT_EQ(kids.size(), 5u);
  const Section& raster = t->sections[kids[3]];
  EXPECT_TRUE(raster.container);
  EXPECT_EQ(raster.child_count, 2u);
  EXPECT_FALSE(t->sections[kids[0]].container);  // the platform struct is raw
  // a D3D native's struct is raw even with the same shape
  ByteBuffer d3d = nat;
  store<std::uint32_t>(d3d.data() + 24, 9, Endian::little);
  auto t2 = walk(d3d, 0, {});
  ASSERT_TRUE(t2.ok());
  EXPECT_FALSE(t2->sections[t2->children(0)[3]].container);
}

TEST(RwWalk, NativeDataIsRawEvenWhenItsStructLies) {
  // spec #rw-4-3 exception 2: the inner struct claims 878 bytes inside a 24-byte 0x510
  ByteWriter b;
  hdr(b, 0x03, 36);
  hdr(b, 0x510, 24);
  hdr(b, 0x01, 878);
  b.zeros(12);
  auto t = walk(b.buffer(), 0, {});
  ASSERT_TRUE(t.ok()) << t.error().str();
  EXPECT_EQ(t->sections.size(), 2u);
}

TEST(RwWalk, FindSection) {
  ByteBuffer b = w::texture_dictionary({}, 6);
  const ByteBuffer c = small_clump();
  b.insert(b.end(), c.begin(), c.end());
  auto off = find_section(b, id::kClump);
  ASSERT_TRUE(off.ok());
  EXPECT_EQ(*off, 40u);  // after the 12 + 16 + 12 bytes of the empty dictionary
  EXPECT_FALSE(find_section(b, id::kWorld).ok());
  auto v = section_bytes(b, *off);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->size(), c.size());
}

// The walker touches only headers: a raw body on PROT_NONE pages would fault if read.
TEST(RwWalk, TouchesOnlyHeaders) {
  const long page = sysconf(_SC_PAGESIZE);
  const std::size_t pages = 4;
  void* m = mmap(nullptr, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(m, MAP_FAILED);
  auto* p = static_cast<std::uint8_t*>(m);
  // Clump header at page end - 24, a raw Spline whose 2-page body starts at page 1, then an
  // empty Extension header on page 3.
  const std::size_t at = page - 24;
  const std::uint32_t raw = static_cast<std::uint32_t>(2 * page);
  auto put = [&](std::size_t o, std::uint32_t t, std::uint32_t s) {
    store<std::uint32_t>(p + o, t, Endian::little);
    store<std::uint32_t>(p + o + 4, s, Endian::little);
    store<std::uint32_t>(p + o + 8, kStampDefault, Endian::little);
  };
  put(at, 0x10, 12 + raw + 12);
  put(at + 12, 0x0C, raw);
  put(at + 24 + raw, 0x03, 0);
  ASSERT_EQ(mprotect(p + page, 2 * page, PROT_NONE), 0);
  auto t = walk(ByteView(p + at, 24 + raw + 12), 0, {});
  ASSERT_TRUE(t.ok()) << t.error().str();
  EXPECT_EQ(t->sections.size(), 3u);
  munmap(m, pages * page);
}

}  // namespace
}  // namespace assay::rw
