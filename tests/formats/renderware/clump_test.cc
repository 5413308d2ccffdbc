// Clump summaries on writer-built clumps, and R19-R21. spec: renderware.md#rw-7, #rw-9.
#include <gtest/gtest.h>

#include "assay/formats/renderware/clump.h"
#include "assay/formats/renderware/walker.h"
#include "assay/formats/renderware/writer.h"
#include "rw_test_util.h"

namespace assay::rw {
namespace {

namespace w = writer;

TEST(RwClump, WriterClumpSummary) {
  const ByteBuffer b = w::clump({.frames = 3,
                                 .geometries = {{5, 4, "brick"}, {3, 1, ""}, {6, 2, "brick"}},
                                 .node_names = {"root", "arm"}});
  Diagnostics d;
  auto s = summarize_clump(b, 0x40, d.sink());
  ASSERT_TRUE(s.ok()) << s.error().str();
  EXPECT_EQ(d.items().size(), 0u);
  EXPECT_EQ(s->offset, 0x40u);
  EXPECT_EQ(s->struct_atomic_count, 3u);
  EXPECT_EQ(s->atomic_count(), 3u);  // two or more: the Warriors push 0x50 (warriors.md#wr-7-1)
  ASSERT_EQ(s->frames.size(), 3u);
  EXPECT_EQ(s->frames[0].parent, -1);
  EXPECT_EQ(s->frames[2].parent, 1);
  EXPECT_EQ(s->frames[0].node_name, "root");
  EXPECT_EQ(s->frames[1].node_name, "arm");
  EXPECT_TRUE(s->frames[2].node_name.empty());
  ASSERT_EQ(s->geometries.size(), 3u);
  EXPECT_EQ(s->total_triangles(), 7u);
  EXPECT_EQ(s->total_vertices(), 14u);
  EXPECT_EQ(s->geometries[0].mesh_indices, 12u);
  EXPECT_EQ(s->material_count, 3u);
  ASSERT_EQ(s->texture_names.size(), 1u);
  EXPECT_EQ(s->texture_names[0], "brick");
  EXPECT_EQ(s->atomics[2].frame_index, 2u);
  EXPECT_EQ(s->atomics[2].geometry_index, 2u);
  // plugins: Bin Mesh, Right To Render, node name
  EXPECT_EQ(s->plugins, (std::vector<std::uint32_t>{0x1F, 0x50E, 0x0253F2FE}));
}

// Patch the u32 at `at` of a copy.
ByteBuffer patched(ByteBuffer b, std::size_t at, std::uint32_t v) {
  store<std::uint32_t>(b.data() + at, v, Endian::little);
  return b;
}

TEST(RwClump, AtomicCountMismatchR20) {
  const ByteBuffer b = w::clump({.frames = 1, .geometries = {{3, 1, ""}}});
  const ByteBuffer s_bytes = patched(b, 24, 2);
      auto s = summarize_clump(s_bytes);  // clump struct atomicCount at 12 + 12
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, "R20") << s.error().str();
}

TEST(RwClump, AtomicIndexOutOfRangeR20) {
  const ByteBuffer b = w::clump({.frames = 1, .geometries = {{3, 1, ""}}});
  auto t = walk(b, 0, {});
  ASSERT_TRUE(t.ok());
  std::uint64_t atomic_struct = 0;
  for (const auto& s : t->sections)
    if (s.header.type == id::kAtomic) atomic_struct = s.body_offset() + 12;
  ASSERT_NE(atomic_struct, 0u);
  const ByteBuffer s_bytes = patched(b, atomic_struct + 4, 7);
      auto s = summarize_clump(s_bytes);  // geometry index 7
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, "R20") << s.error().str();
}

TEST(RwClump, GeometryStructTooShortR21) {
  const ByteBuffer b = w::clump({.frames = 1, .geometries = {{3, 1, ""}}});
  auto t = walk(b, 0, {});
  ASSERT_TRUE(t.ok());
  for (const auto& s : t->sections)
    if (s.header.type == id::kGeometry) {
      // triangle count 1000 in a struct sized for 1
      const ByteBuffer r_bytes = patched(b, s.body_offset() + 12 + 4, 1000);
      auto r = summarize_clump(r_bytes);
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.error().code, "R21") << r.error().str();
      // vertex count 0xFFFFFFFF: no overflow, no allocation, a clear error
      const ByteBuffer r2_bytes = patched(b, s.body_offset() + 12 + 8, 0xFFFFFFFFu);
      auto r2 = summarize_clump(r2_bytes);
      ASSERT_FALSE(r2.ok());
      EXPECT_EQ(r2.error().code, "R21") << r2.error().str();
    }
}

TEST(RwClump, MaterialListIndicesR19) {
  const ByteBuffer b = w::clump({.frames = 1, .geometries = {{3, 1, "t"}}});
  auto t = walk(b, 0, {});
  ASSERT_TRUE(t.ok());
  for (const auto& s : t->sections)
    if (s.header.type == id::kMaterialList) {
      // the index -1 becomes 0: entry 0 reuses material 0 (>= its position)
      const ByteBuffer r_bytes = patched(b, s.body_offset() + 12 + 4, 0);
      auto r = summarize_clump(r_bytes);
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.error().code, "R19") << r.error().str();
    }
}

TEST(RwClump, FrameCountLargerThanStruct) {
  const ByteBuffer b = w::clump({.frames = 2});
  auto t = walk(b, 0, {});
  ASSERT_TRUE(t.ok());
  for (const auto& s : t->sections)
    if (s.header.type == id::kFrameList) {
      const ByteBuffer r_bytes = patched(b, s.body_offset() + 12, 0x10000000u);
      auto r = summarize_clump(r_bytes);
      ASSERT_FALSE(r.ok());
      EXPECT_NE(r.error().message.find("frames need"), std::string::npos);
    }
}

TEST(RwClump, NotAClump) {
  const ByteBuffer b = w::texture_dictionary({}, 6);
  EXPECT_FALSE(summarize_clump(b).ok());
  EXPECT_FALSE(summarize_clump(ByteView()).ok());
}

}  // namespace
}  // namespace assay::rw
