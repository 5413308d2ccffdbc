// Truncation and mutation sweeps over writer-built streams: every entry point returns an error or
// a value, never crashes (run under ASan/UBSan in the sanitizer build). spec: renderware.md#rw-9.
#include <gtest/gtest.h>

#include "assay/formats/renderware/clump.h"
#include "assay/formats/renderware/texture.h"
#include "assay/formats/renderware/verify.h"
#include "assay/formats/renderware/walker.h"
#include "assay/formats/renderware/writer.h"
#include "assay/image/dxt.h"
#include "rw_test_util.h"

namespace assay::rw {
namespace {

namespace w = writer;

image::Rgba img(std::uint32_t wd, std::uint32_t h, std::uint32_t colours) {
  image::Rgba r{wd, h, ByteBuffer(std::size_t{wd} * h * 4)};
  for (std::size_t k = 0; k < std::size_t{wd} * h; ++k) {
    r.pixels[4 * k] = static_cast<std::uint8_t>(k % colours * 9);
    r.pixels[4 * k + 3] = 255;
  }
  return r;
}

ByteBuffer ps2_txd() {
  auto t4 = w::ps2_texture_from_rgba("a", {img(16, 16, 16)}, true);
  auto t8 = w::ps2_texture_from_rgba("b", {img(16, 8, 40), img(8, 4, 40)}, false);
  return w::texture_dictionary({*w::ps2_texture_native(*t4), *w::ps2_texture_native(*t8)}, 6);
}

ByteBuffer pc_txd() {
  w::D3d9Texture t;
  t.name = "d";
  t.width = 8, t.height = 8, t.d3d_format = d3d::kDxt1;
  t.levels = {image::encode_bc1(img(8, 8, 3)), ByteBuffer(8)};
  w::D3d9Texture u;
  u.name = "u";
  u.width = 4, u.height = 2, u.depth = 32, u.raster_format = 0x500, u.d3d_format = d3d::kA8R8G8B8, u.flags = 0;
  u.levels = {ByteBuffer(32, 7)};
  return w::texture_dictionary({*w::d3d9_texture_native(t), *w::d3d9_texture_native(u)}, 2, kStampGtaSa);
}

ByteBuffer model() { return w::clump({.frames = 2, .geometries = {{3, 1, "x"}, {4, 2, ""}}, .node_names = {"n"}}); }

// Every entry point; returns whether the walk succeeded.
bool exercise(ByteView b) {
  Diagnostics d;
  const bool walked = walk(b, 0, d.sink()).ok();
  (void)verify_stream(b, 0, d.sink());
  if (auto dict = TextureDictionary::open(b, 0, d.sink()); dict.ok())
    for (std::size_t i = 0; i < dict->textures().size(); ++i)
      for (std::uint32_t l = 0; l < dict->textures()[i].levels.size(); ++l) (void)dict->decode(i, l);
  (void)testing::open_strict(b, d.sink());
  (void)summarize_clump(b, 0, d.sink());
  (void)find_section(b, id::kClump);
  return walked;
}

void sweep(const ByteBuffer& good) {
  ASSERT_TRUE(exercise(good));
  Diagnostics d;
  ASSERT_TRUE(verify_stream(good, 0, d.sink())) << d.items()[0].where.str();
  for (std::size_t n = 0; n < good.size(); ++n) {
    // a copy of exactly n bytes, so ASan sees any read past the end
    const ByteBuffer cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
    EXPECT_FALSE(exercise(cut)) << "prefix " << n << " walked";
    EXPECT_FALSE(TextureDictionary::open(cut).ok() && summarize_clump(cut).ok());
  }
  ByteBuffer m = good;
  for (std::size_t i = 0; i < m.size(); ++i) {
    const std::uint8_t keep = m[i];
    for (std::uint8_t v : {std::uint8_t(0xFF), std::uint8_t(keep ^ 0x01), std::uint8_t(0x00)}) {
      m[i] = v;
      (void)exercise(m);
    }
    m[i] = keep;
  }
}

TEST(RwBadInput, SweepPs2Dictionary) { sweep(ps2_txd()); }
TEST(RwBadInput, SweepPcDictionary) { sweep(pc_txd()); }
TEST(RwBadInput, SweepClump) { sweep(model()); }
TEST(RwBadInput, SweepSpecFixture) { sweep(testing::dictionary(testing::ps2_fixture_native(), 1)); }

TEST(RwBadInput, HugeCountsDoNotAllocate) {
  // texture count 0xFFFF with one native: R7, not 65,535 allocations
  ByteBuffer b = testing::dictionary(testing::ps2_fixture_native(), 0xFFFF);
  EXPECT_FALSE(TextureDictionary::open(b).ok());
  // a PS2 raster header claiming 0xFFFFFFFF x 0xFFFFFFFF and mips
  ByteBuffer nat = testing::ps2_fixture_native();
  store<std::uint32_t>(nat.data() + 92, 0x80000000u, Endian::little);
  store<std::uint32_t>(nat.data() + 96, 0x80000000u, Endian::little);
  const ByteBuffer nat_dict = testing::dictionary(nat, 1);
  EXPECT_FALSE(testing::open_strict(nat_dict).ok());
}

}  // namespace
}  // namespace assay::rw
