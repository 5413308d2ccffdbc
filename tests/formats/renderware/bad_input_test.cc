// Truncation and mutation sweeps over writer-built streams: every entry point returns an error or
// a value, never crashes (run under ASan/UBSan in the sanitizer build). spec: renderware.md#rw-9.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <set>

#include "assay/formats/renderware/clump.h"
#include "assay/formats/renderware/texture.h"
#include "assay/formats/renderware/verify.h"
#include "assay/formats/renderware/walker.h"
#include "assay/formats/renderware/writer.h"
#include "assay/image/dxt.h"
#include "assay/image/ps2.h"
#include "rw_test_util.h"
#include "testing/testing.h"

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

image::Rgba exact(std::uint32_t wd, std::uint32_t h, bool c16) {
  image::Rgba r{wd, h, ByteBuffer(std::size_t{wd} * h * 4)};
  for (std::size_t k = 0; k < std::size_t{wd} * h; ++k)
    for (int c = 0; c < 4; ++c)
      r.pixels[4 * k + c] = c == 3 ? (c16 ? (k % 2 ? 255 : 0) : image::ps2::expand_alpha(std::uint8_t(k * 9 % 129)))
                                   : static_cast<std::uint8_t>(c16 ? (k * 3 + c) % 32 * 255 / 31 : k * 40 + c);
  return r;
}

ByteBuffer native_tc(std::uint32_t fmt, std::vector<image::Rgba> lv, std::uint16_t layout) {
  w::Ps2TrueColourTexture t;
  t.name = fmt == 0x100 ? "c16" : "c32";
  t.pixel_format = fmt;
  t.levels = std::move(lv);
  t.layout_version = layout;
  return *w::ps2_true_colour_native(t);
}

// spec: renderware.md#rw-real: 8888 with a mip and a padded 1555 level, in GS packets
ByteBuffer ps2_true_colour_txd() {
  return w::texture_dictionary({native_tc(0x500, {exact(4, 2, false), exact(2, 1, false)}, 2),
                                native_tc(0x100, {exact(2, 2, true)}, 2)},
                               6, kStampGtaSa);
}

// the old raster layout (no packets): PAL8 version 1 (swizzled) and 8888 version 0
ByteBuffer ps2_old_layout_txd() {
  auto t8 = w::ps2_texture_from_rgba("old8", {img(16, 4, 20)}, false);
  t8->layout_version = 1;
  return w::texture_dictionary({*w::ps2_texture_native(*t8), native_tc(0x500, {exact(4, 2, false)}, 0)}, 6,
                               kStampGtaSa);
}

// several top-level clumps back to back (Manhunt's model files)
ByteBuffer many_clumps() {
  return w::clumps({{.frames = 1, .geometries = {{3, 1, "a"}}}, {.frames = 2, .geometries = {{3, 1, ""}, {4, 2, "b"}}},
                    {.frames = 1, .geometries = {{3, 1, ""}}}});
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

// `whole` are the prefix lengths that are complete streams themselves (clump boundaries).
void sweep(const ByteBuffer& good, const std::set<std::size_t>& whole = {}) {
  ASSERT_TRUE(exercise(good));
  Diagnostics d;
  ASSERT_TRUE(verify_stream(good, 0, d.sink())) << d.items()[0].where.str();
  for (std::size_t n = 0; n < good.size(); ++n) {
    // a copy of exactly n bytes, so ASan sees any read past the end
    const ByteBuffer cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
    EXPECT_EQ(exercise(cut), whole.count(n) == 1) << "prefix " << n;
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
TEST(RwBadInput, SweepPs2TrueColour) { sweep(ps2_true_colour_txd()); }
TEST(RwBadInput, SweepPs2OldLayout) { sweep(ps2_old_layout_txd()); }
TEST(RwBadInput, SweepManyClumps) {
  const ByteBuffer b = many_clumps();
  std::set<std::size_t> ends;
  auto t = walk(b, 0, {});
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->top.size(), 3u);
  for (std::uint32_t i : t->top) ends.insert(t->sections[i].end());
  ends.erase(b.size());
  sweep(b, ends);
}

// The fuzz seeds of fuzz/corpus/renderware are these writer-built fixtures: with
// ASSAY_RW_CORPUS_DIR set, this writes them there (each must verify clean first).
TEST(RwBadInput, FuzzSeedsVerifyClean) {
  const std::pair<const char*, ByteBuffer> seeds[] = {{"ps2_true_colour.txd", ps2_true_colour_txd()},
                                                      {"ps2_old_layout.txd", ps2_old_layout_txd()},
                                                      {"many_clumps.dff", many_clumps()}};
  const char* dir = std::getenv("ASSAY_RW_CORPUS_DIR");
  for (const auto& [name, bytes] : seeds) {
    Diagnostics d;
    EXPECT_TRUE(verify_stream(bytes, 0, d.sink())) << name;
    EXPECT_LT(bytes.size(), 4096u) << name;
    if (dir) ::assay::testing::write_file(std::filesystem::path(dir) / name, bytes);
  }
}

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
