// extract through the container (assay/ops.h): --stored writes each texture native section as a
// RenderWare stream NAME.rws, the bytes the writer made for that native (spec: renderware.md#rw-6-1,
// #rw-5-1: a dictionary's children after its Struct are the natives, in order); the default
// writes each texture as a PNG, and a clump holds nothing to extract.
#include <gtest/gtest.h>

#include "assay/container.h"
#include "assay/ops.h"
#include "assay/formats/renderware/writer.h"
#include "testing/testing.h"

namespace assay::rw {
namespace {

writer::D3d9Texture stored_d3d9(std::string name, std::uint8_t fill) {
  writer::D3d9Texture t;
  t.name = std::move(name);
  t.width = 8, t.height = 8, t.depth = 32;
  t.raster_format = 0x0500, t.d3d_format = 21;  // 8888, D3DFMT_A8R8G8B8
  t.flags = 0;  // not compressed
  t.levels = {ByteBuffer(8 * 8 * 4, fill)};
  return t;
}

struct StoredFixture {
  ByteBuffer a, b, txd;
};

StoredFixture stored_fixture() {
  StoredFixture f;
  f.a = *writer::d3d9_texture_native(stored_d3d9("first", 0x11));
  f.b = *writer::d3d9_texture_native(stored_d3d9("second", 0x22));
  f.txd = writer::texture_dictionary({f.a, f.b}, 2, kStampGtaSa);
  return f;
}

TEST(RwStoredExtract, WritesEachNativeSectionAsTheWriterMadeIt) {
  const StoredFixture f = stored_fixture();
  auto c = assay::open(Input::from_buffer("stored.txd", f.txd), {}, "renderware");
  ASSERT_TRUE(c.ok()) << c.error().str();
  ASSERT_EQ((*c)->entries().size(), 2u);
  ::assay::testing::TempDir dir;
  ExtractOptions x;
  x.stored = true;
  Diagnostics findings;
  auto st = assay::extract(**c, x, OutputDir(dir.path(), false), findings);
  ASSERT_TRUE(st.ok()) << st.error().str();
  EXPECT_EQ(st->files, 2u);
  EXPECT_TRUE(st->failed.empty());
  EXPECT_EQ(findings.items().size(), 0u);
  EXPECT_EQ(::assay::testing::read_file(dir / "first.rws"), f.a);
  EXPECT_EQ(::assay::testing::read_file(dir / "second.rws"), f.b);
  // the same bytes as the input's at each entry's offset and size
  for (const Entry& e : (*c)->entries()) {
    ASSERT_TRUE(e.offset && e.size);
    const ByteBuffer want(f.txd.begin() + static_cast<std::ptrdiff_t>(*e.offset),
                          f.txd.begin() + static_cast<std::ptrdiff_t>(*e.offset + *e.size));
    EXPECT_EQ(::assay::testing::read_file(dir / (*e.name + ".rws")), want) << *e.name;
  }
  // the first native follows the dictionary header (12) and its 4-byte Struct (12 + 4)
  EXPECT_EQ((*c)->entries()[0].offset, 28u);
  EXPECT_FALSE(std::filesystem::exists(dir / "first.png"));
}

TEST(RwStoredExtract, DefaultWritesPngs) {
  const StoredFixture f = stored_fixture();
  auto c = assay::open(Input::from_buffer("stored.txd", f.txd), {}, "renderware");
  ASSERT_TRUE(c.ok()) << c.error().str();
  ::assay::testing::TempDir dir;
  Diagnostics findings;
  auto st = assay::extract(**c, ExtractOptions{}, OutputDir(dir.path(), false), findings);
  ASSERT_TRUE(st.ok()) << st.error().str();
  EXPECT_EQ(st->files, 2u);
  const ByteBuffer png = ::assay::testing::read_file(dir / "first.png");
  ASSERT_GE(png.size(), 8u);
  EXPECT_EQ(png[1], 'P');  // \x89PNG
  EXPECT_FALSE(std::filesystem::exists(dir / "first.rws"));
}

TEST(RwStoredExtract, ClumpIsAModelOrItsStoredBytes) {
  const ByteBuffer dff = writer::clump({.frames = 1, .geometries = {{4, 2, "t"}}, .node_names = {"root"}});
  auto c = assay::open(Input::from_buffer("m.dff", dff), {}, "renderware");
  ASSERT_TRUE(c.ok()) << c.error().str();
  ASSERT_TRUE((*c)->extractable().ok());
  ::assay::testing::TempDir dir;
  Diagnostics findings;
  ExtractOptions x;
  x.stored = true;
  auto st = assay::extract(**c, x, OutputDir(dir.path(), false), findings);
  ASSERT_TRUE(st.ok()) << st.error().str();
  EXPECT_EQ(st->files, 1u);
  EXPECT_EQ(::assay::testing::read_file(dir / "m.dff"), dff);  // the clump section is the whole stream
  // the texture "t" is in no dictionary (none beside an in-memory input): a warning naming it
  ASSERT_EQ(findings.items().size(), 1u);
  EXPECT_EQ(findings.items()[0].severity, Severity::warning);
  EXPECT_EQ(findings.items()[0].where.code, "renderware.texture-missing");
}

}  // namespace
}  // namespace assay::rw
