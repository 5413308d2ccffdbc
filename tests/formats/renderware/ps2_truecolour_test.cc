// PS2 true-colour rasters, the old raster layout, one bad texture among good ones, mip counts
// beyond the size, several top-level clumps, identify by content and a flat-memory `rw tree`.
// spec: renderware.md#rw-real, #rw-5-6, #rw-5-7, #rw-5-8; issue 15 item 2 (mip counts).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/resource.h>

#include "assay/options.h"
#include "assay/formats/renderware/texture.h"
#include "assay/formats/renderware/verify.h"
#include "assay/formats/renderware/walker.h"
#include "assay/formats/renderware/writer.h"
#include "assay/image/dxt.h"
#include "assay/image/ps2.h"
#include "rw_test_util.h"
#include "testing/testing.h"
#include "testing/families.h"
#include "formats/serialise.h"

namespace assay::rw {
namespace {

namespace w = writer;
using ::assay::testing::run_cli;
using ::assay::testing::shell_quote;
using ::assay::testing::TempDir;

// A w x h image whose every channel value is one `pick(k, channel)` gives.
template <class F>
image::Rgba make(std::uint32_t wd, std::uint32_t h, F pick) {
  image::Rgba r{wd, h, ByteBuffer(std::size_t{wd} * h * 4)};
  for (std::size_t k = 0; k < std::size_t{wd} * h; ++k)
    for (int c = 0; c < 4; ++c) r.pixels[4 * k + c] = pick(k, c);
  return r;
}
// Alphas PS2 can hold exactly (a' * 255 / 128 for a' in 0-128), colours anything.
image::Rgba rgba8888(std::uint32_t wd, std::uint32_t h, int seed) {
  return make(wd, h, [seed](std::size_t k, int c) {
    return c == 3 ? image::ps2::expand_alpha(static_cast<std::uint8_t>((k * 7 + seed) % 129))
                  : static_cast<std::uint8_t>(k * 31 + c * 70 + seed);
  });
}
// Channels that 5 bits hold exactly (v * 255 / 31), alpha 0 or 255.
image::Rgba rgba1555(std::uint32_t wd, std::uint32_t h, int seed) {
  return make(wd, h, [seed](std::size_t k, int c) {
    return c == 3 ? std::uint8_t((k + seed) % 3 ? 255 : 0) : static_cast<std::uint8_t>((k * 5 + c * 11 + seed) % 32 * 255 / 31);
  });
}

ByteBuffer true_colour(std::uint32_t format, std::vector<image::Rgba> levels, std::uint16_t layout = 2,
                       std::string name = "t") {
  w::Ps2TrueColourTexture t;
  t.name = std::move(name);
  t.pixel_format = format;
  t.levels = std::move(levels);
  t.layout_version = layout;
  auto n = w::ps2_true_colour_native(t);
  EXPECT_TRUE(n.ok()) << n.error().str();
  return n.ok() ? *n : ByteBuffer{};
}

void expect_round_trip(const ByteBuffer& dict_bytes, const std::vector<image::Rgba>& levels) {
  Diagnostics d;
  auto dict = TextureDictionary::open(dict_bytes, 0, d.sink());
  ASSERT_TRUE(dict.ok()) << dict.error().str();
  EXPECT_EQ(d.items().size(), 0u) << (d.items().empty() ? "" : d.items()[0].where.str());
  ASSERT_EQ(dict->textures()[0].levels.size(), levels.size());
  for (std::uint32_t l = 0; l < levels.size(); ++l) {
    auto img = dict->decode(0, l);
    ASSERT_TRUE(img.ok()) << img.error().str();
    EXPECT_EQ(img->width, levels[l].width);
    EXPECT_EQ(img->pixels, levels[l].pixels) << "level " << l;
  }
  Diagnostics v;
  EXPECT_TRUE(verify_stream(dict_bytes, 0, v.sink()));
}

TEST(RwPs2TrueColour, C8888PlainTransfersAndMips) {
  const std::vector<image::Rgba> lv = {rgba8888(8, 4, 1), rgba8888(4, 2, 2), rgba8888(2, 1, 3)};
  const ByteBuffer b = w::texture_dictionary({true_colour(raster::k8888, lv)}, 6, kStampGtaSa);
  expect_round_trip(b, lv);
  auto dict = TextureDictionary::open(b);
  ASSERT_TRUE(dict.ok());
  const TextureNative& t = dict->textures()[0];
  EXPECT_EQ(t.format, TexelFormat::bgra8888);
  EXPECT_EQ(t.raster_format, 0x8504u);
  // sent at the level's own size, not doubled as a swizzled PSMT8 level would be (#rw-real):
  // 0x50 + 8 x 4 x 4, 0x50 + 4 x 2 x 4, 0x50 + align16(2 x 1 x 4)
  EXPECT_EQ(t.ps2.pixel_size, 80u + 128 + 80 + 32 + 80 + 16);
  EXPECT_EQ(t.levels[0].stored_width, 8u);
  EXPECT_EQ(t.levels[0].stored_height, 4u);
}

TEST(RwPs2TrueColour, C1555PaddedSmallLevels) {
  // 4 x 4, then 2 x 2 and 1 x 1 padded to the 4-texel minimum of 16-bit transfers
  const std::vector<image::Rgba> lv = {rgba1555(4, 4, 0), rgba1555(2, 2, 1), rgba1555(1, 1, 2)};
  const ByteBuffer b = w::texture_dictionary({true_colour(raster::k1555, lv)}, 6, kStampGtaSa);
  expect_round_trip(b, lv);
  auto dict = TextureDictionary::open(b);
  ASSERT_TRUE(dict.ok());
  EXPECT_EQ(dict->textures()[0].ps2.pixel_size, 80u + 32 + 80 + 16 + 80 + 16);
  EXPECT_EQ(dict->textures()[0].levels[1].stored_width, 4u);
  EXPECT_EQ(dict->textures()[0].levels[2].stored_width, 4u);
  // one texel by hand: v = R | G << 5 | B << 10 | A << 15, each channel widened v * 255 / 31
  ByteBuffer raw = b;
  const std::uint64_t image = dict->textures()[0].levels[0].offset;
  store<std::uint16_t>(raw.data() + image, 0x8000 | 31 | 1 << 5 | 16 << 10, Endian::little);
  auto d2 = TextureDictionary::open(raw);
  ASSERT_TRUE(d2.ok());
  auto img = d2->decode(0, 0);
  ASSERT_TRUE(img.ok());
  EXPECT_EQ(img->pixels[0], 255);
  EXPECT_EQ(img->pixels[1], 8);    // 1 * 255 / 31
  EXPECT_EQ(img->pixels[2], 131);  // 16 * 255 / 31
  EXPECT_EQ(img->pixels[3], 255);
}

TEST(RwPs2TrueColour, C888IsOpaque) {
  const std::vector<image::Rgba> lv = {make(4, 2, [](std::size_t k, int c) { return c == 3 ? 255 : std::uint8_t(k * 9 + c); })};
  expect_round_trip(w::texture_dictionary({true_colour(raster::k888, lv)}, 6, kStampGtaSa), lv);
}

TEST(RwPs2TrueColour, AlphaAbove128ClampsAndVerifyWarns) {
  const std::vector<image::Rgba> lv = {rgba8888(4, 2, 0)};
  ByteBuffer b = w::texture_dictionary({true_colour(raster::k8888, lv)}, 6, kStampGtaSa);
  auto dict = TextureDictionary::open(b);
  ASSERT_TRUE(dict.ok());
  const std::uint64_t image = dict->textures()[0].levels[0].offset;
  b[image + 3] = 200;  // texel (0, 0): alpha 200 > 128
  Diagnostics d;
  EXPECT_TRUE(verify_stream(b, 0, d.sink()));
  ASSERT_EQ(d.count(Severity::warning), 1u);
  EXPECT_NE(d.items()[0].where.message.find("above 128"), std::string::npos) << d.items()[0].where.str();
  auto d2 = TextureDictionary::open(b);
  auto img = d2->decode(0, 0);
  ASSERT_TRUE(img.ok());
  EXPECT_EQ(img->pixels[3], 255);  // min(200 * 255 / 128, 255)
  EXPECT_EQ(img->pixels[7], lv[0].pixels[7]);
}

TEST(RwPs2OldLayout, TrueColourAndPalettedWithoutPackets) {
  // version 0: 8888 16 x 8 and 8 x 4 at 64-byte steps; version 1: PAL8 swizzled; version 0 PAL4
  const std::vector<image::Rgba> lv = {rgba8888(16, 8, 4), rgba8888(8, 4, 5)};
  const ByteBuffer tc = w::texture_dictionary({true_colour(raster::k8888, lv, 0)}, 6, kStampGtaSa);
  expect_round_trip(tc, lv);
  auto dict = TextureDictionary::open(tc);
  ASSERT_TRUE(dict.ok());
  EXPECT_EQ(dict->textures()[0].ps2.layout_version, 0u);
  EXPECT_EQ(dict->textures()[0].ps2.pixel_size, 512u + 128);
  EXPECT_EQ(dict->textures()[0].levels[1].offset - dict->textures()[0].levels[0].offset, 512u);

  for (const auto& [pal4, version, wd] : {std::tuple{false, 1, 16u}, {false, 0, 8u}, {true, 0, 8u}, {true, 1, 16u}}) {
    SCOPED_TRACE(::testing::Message() << "pal4 " << pal4 << " version " << version);
    const image::Rgba src = make(wd, 4, [](std::size_t k, int c) { return c == 3 ? 255 : std::uint8_t(k % 13 * 17 + c); });
    auto t = w::ps2_texture_from_rgba("p", {src}, pal4);
    ASSERT_TRUE(t.ok());
    t->layout_version = static_cast<std::uint16_t>(version);
    auto n = w::ps2_texture_native(*t);
    ASSERT_TRUE(n.ok()) << n.error().str();
    const ByteBuffer b = w::texture_dictionary({*n}, 6);
    expect_round_trip(b, {src});
    auto d = TextureDictionary::open(b);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->textures()[0].ps2.palette_size, pal4 ? 64u : 1024u);  // plain entries, no packet
  }
}

TEST(RwPs2OldStamp, Pal4UnswizzledAtOrBelow31) {
  // spec #rw-5-6: PSMT4 is swizzled only above 3.1.0.0; an old-form 0x310 stream sends it plain
  const image::Rgba src = make(16, 16, [](std::size_t k, int c) { return c == 3 ? 255 : std::uint8_t(k % 11 * 20 + c); });
  auto t = w::ps2_texture_from_rgba("old4", {src}, true);
  ASSERT_TRUE(t.ok());
  t->stamp = 0x310;
  auto n = w::ps2_texture_native(*t);
  ASSERT_TRUE(n.ok()) << n.error().str();
  const ByteBuffer b = w::texture_dictionary({*n}, 6, 0x310);
  expect_round_trip(b, {src});
  auto d = TextureDictionary::open(b);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->textures()[0].levels[0].stored_width, 16u);  // TRXREG as sent, not doubled
  EXPECT_EQ(d->textures()[0].ps2.palette_size, 0x50u + 64);  // 8 x 2 entries up to 3.1.0.0
}

ByteBuffer three_textures(bool break_middle) {
  auto t8 = w::ps2_texture_from_rgba("first", {make(16, 16, [](std::size_t k, int c) { return c == 3 ? 255 : std::uint8_t(k + c); })}, false);
  ByteBuffer bad = true_colour(raster::k1555, {rgba1555(4, 4, 0)}, 2, "middle");
  if (break_middle) {
    // the level packet's GIF tag: NLOOP 3 -> 4 (R10)
    const std::uint64_t data = bad.size() - (12 + 16) - (80 + 32);  // extension, then the data struct body
    EXPECT_EQ(load<std::uint32_t>(bad.data() + data, Endian::little), 3u);
    store<std::uint32_t>(bad.data() + data, 4, Endian::little);
  }
  return w::texture_dictionary({*w::ps2_texture_native(*t8), bad, true_colour(raster::k8888, {rgba8888(4, 4, 1)}, 2, "last")},
                               6, kStampGtaSa);
}

TEST(RwBadTexture, OneBadTextureDoesNotStopTheFile) {
  const ByteBuffer b = three_textures(true);
  TextureOptions strict;
  strict.keep_going = false;  // what the Warriors chunks use: the first bad texture fails
  EXPECT_FALSE(TextureDictionary::open(b, 0, {}, strict).ok());
  Diagnostics d;
  auto dict = TextureDictionary::open(b, 0, d.sink());  // the default keeps going
  ASSERT_TRUE(dict.ok()) << dict.error().str();
  ASSERT_EQ(dict->textures().size(), 3u);
  EXPECT_TRUE(dict->textures()[0].error.empty());
  EXPECT_EQ(dict->textures()[1].name, "middle");
  EXPECT_NE(dict->textures()[1].error.find("R10"), std::string::npos) << dict->textures()[1].error;
  EXPECT_TRUE(dict->textures()[2].error.empty());
  EXPECT_EQ(d.count(Severity::error), 1u);
  EXPECT_FALSE(dict->decode(1).ok());
  EXPECT_TRUE(dict->decode(2).ok());
  Diagnostics v;
  EXPECT_FALSE(verify_stream(b, 0, v.sink()));
  EXPECT_EQ(v.count(Severity::error), 1u);

  TempDir tmp;
  ::assay::testing::write_file(tmp / "three.txd", b);
  const std::string f = shell_quote((tmp / "three.txd").string());
  auto ls = run_cli("list --json " + f);
  ASSERT_EQ(ls.exit_code, 0) << ls.err;
  const auto j = nlohmann::json::parse(ls.out);
  ASSERT_EQ(j["entries"].size(), 3u);
  EXPECT_TRUE(j["entries"][1].contains("error"));
  EXPECT_EQ(j["entries"][2]["format"], "8888");
  auto x = run_cli("extract " + f + " -o " + shell_quote((tmp / "o").string()));
  EXPECT_EQ(x.exit_code, 1) << x.err;
  EXPECT_NE(x.err.find("middle"), std::string::npos) << x.err;
  EXPECT_TRUE(std::filesystem::exists(tmp / "o" / "first.png"));
  EXPECT_TRUE(std::filesystem::exists(tmp / "o" / "last.png"));
  EXPECT_FALSE(std::filesystem::exists(tmp / "o" / "middle.png"));
  auto vr = run_cli("verify " + f);
  EXPECT_EQ(vr.exit_code, 1);
  auto good = three_textures(false);
  EXPECT_TRUE(TextureDictionary::open(good).ok());
}

// issue 15 item 2: a 4 x 4 texture holds at most 3 levels; 40 is an error before any shift
TEST(RwMipCount, BeyondTheSizeIsAnError) {
  EXPECT_EQ(max_mip_levels(4, 4), 3u);
  EXPECT_EQ(max_mip_levels(256, 8), 9u);
  EXPECT_EQ(max_mip_levels(1, 1), 1u);
  w::D3d9Texture t;
  t.name = "forty";
  t.width = 4, t.height = 4, t.d3d_format = d3d::kDxt1;
  t.levels.assign(40, ByteBuffer(8, 0x55));
  auto n = w::d3d9_texture_native(t);
  ASSERT_TRUE(n.ok());
  const ByteBuffer b = w::texture_dictionary({*n}, 2, kStampGtaSa);
  auto d = testing::open_strict(b);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().message.find("40 mip levels"), std::string::npos) << d.error().str();
  t.levels.resize(3);
  const ByteBuffer ok = w::texture_dictionary({*w::d3d9_texture_native(t)}, 2, kStampGtaSa);
  EXPECT_TRUE(TextureDictionary::open(ok).ok());
  // PS2: the spec fixture (16 x 16, at most 5 levels) with the mipmap flag and MXL 7
  ByteBuffer nat = testing::ps2_fixture_native();
  store<std::uint16_t>(nat.data() + 92 + 0x0C, 0xA504, Endian::little);
  store<std::uint32_t>(nat.data() + 92 + 0x1C, 7 << 2, Endian::little);
  const ByteBuffer pb = testing::dictionary(nat, 1);
  auto p = testing::open_strict(pb);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("8 mip levels"), std::string::npos) << p.error().str();
}

TEST(RwClumps, EveryTopLevelClumpIsListed) {
  const ByteBuffer b = w::clumps({{.frames = 2, .geometries = {{3, 1, "a"}}, .node_names = {"one", "one_l0"}},
                                  {.frames = 1, .geometries = {{4, 2, ""}, {5, 3, "b"}}, .node_names = {"two"}},
                                  {.frames = 3, .geometries = {{6, 4, "a"}}, .stamp = kStampDefault}});
  auto in = Input::from_buffer("many.dff", b);
  ASSERT_EQ(kRenderWareFamily.identify(in), 100);
  auto info = ::assay::testing::info_of(in, "renderware");
  ASSERT_TRUE(info.ok()) << info.error().str();
  EXPECT_EQ((*info)["clump_count"], 3);
  EXPECT_EQ((*info)["atomic_count"], 4);
  EXPECT_EQ((*info)["triangles"], 1 + 2 + 3 + 4);
  EXPECT_EQ((*info)["geometries"], 4);
  auto list = ::assay::testing::list_of(in, "renderware");
  ASSERT_TRUE(list.ok()) << list.error().str();
  const Json& e = (*list)["entries"];
  ASSERT_EQ(e.size(), 4u + 3u);  // the atomics, then one model per clump
  EXPECT_EQ(e[0]["clump"], 0);
  EXPECT_EQ(e[0]["name"], "one");
  EXPECT_EQ(e[1]["clump"], 1);
  EXPECT_EQ(e[2]["clump"], 1);
  EXPECT_EQ(e[2]["triangles"], 3);
  EXPECT_EQ(e[3]["clump"], 2);
  EXPECT_EQ(e[3]["index"], 3);
  // models: each named after its root frame (node name), else numbered
  EXPECT_EQ(e[4]["kind"], "model");
  EXPECT_EQ(e[4]["path"], "one.glb");
  EXPECT_EQ(e[5]["path"], "two.glb");
  EXPECT_EQ(e[6]["path"], "clump_002.glb");
  EXPECT_EQ(e[6]["clump"], 2);
  EXPECT_EQ(e[6]["triangles"], 4);
  Diagnostics d;
  EXPECT_TRUE(verify_stream(b, 0, d.sink()));
}

TEST(RwIdentify, ContentDecidesNeverTheName) {
  auto in = [](ByteBuffer b, std::string name) { return Input::from_buffer(std::move(name), std::move(b)); };
  const Family& f = kRenderWareFamily;
  const ByteBuffer txd = three_textures(false);
  EXPECT_EQ(f.identify(in(txd, "x.bin")), 80);
  EXPECT_EQ(f.identify(in(txd, "x.txd")), 100);
  // Manhunt 2's Z2HM header in a file named .TXD
  ByteBuffer z2hm = {'Z', '2', 'H', 'M', 0xB8, 0xA1, 0, 0, 0x78, 0xDA, 0xC4, 0xBC, 0x0D, 0x70, 0x5B, 0xE7};
  EXPECT_EQ(f.identify(in(z2hm, "DSFE.TXD")), 0);
  // a truncated dictionary is claimed from its content (first header 0x16, a known stamp, its
  // Struct), 90 with the name (issue 29 item 4; it used to be refused); a cut clump is not
  ByteBuffer cut(txd.begin(), txd.begin() + 40);
  EXPECT_EQ(f.identify(in(cut, "cut.txd")), 90);
  ByteBuffer cut_clump = w::clump({});
  cut_clump.resize(40);
  EXPECT_EQ(f.identify(in(cut_clump, "cut.dff")), 0);
  // stamps: 3.15 is not a version RenderWare 3 shipped; old form (version = stamp << 8) for
  // 3.0-3.7 only (issue 29 item 7: 0x311 = 3.1.1.0 is now accepted, 0x400 = 4.0 is not)
  for (std::uint32_t stamp : {encode_stamp(0x3F000, 0xFFFF), 0x400u, 0x380u, 0x2FFu}) {
    ByteBuffer b = w::clump({.stamp = stamp});
    EXPECT_EQ(f.identify(in(b, "x.dff")), 0) << std::hex << stamp;
  }
  for (std::uint32_t stamp : {0x310u, 0x311u, 0x350u, 0x0800FFFFu, 0x1005FFFFu, 0x1C02000Au, kStampGtaSa}) {
    ByteBuffer b = w::clump({.stamp = stamp});  // spec #rw-2-3 stamps, and old-form 3.1.1.0 and 3.5.0.0
    EXPECT_EQ(f.identify(in(b, "x.dff")), 100) << std::hex << stamp;
  }
}

// `rw tree` keeps memory flat (spec: #rw-real "Memory"): a 96 MiB stream with a section header
// on every page; the CLI child must peak far below the file size.
TEST(RwTreeMemory, FlatOnALargeStream) {
  TempDir tmp;
  const auto path = tmp / "big.rws";
  constexpr std::uint32_t kRaw = 4096 - 12, kCount = 96 * 256;
  {
    ByteWriter head;
    head.u32(id::kExtension), head.u32(kCount * 4096), head.u32(kStampGtaSa);
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fwrite(head.buffer().data(), 1, head.size(), f);
    ByteWriter one;
    one.u32(id::kUserData), one.u32(kRaw), one.u32(kStampGtaSa);
    one.zeros(kRaw);
    for (std::uint32_t i = 0; i < kCount; ++i) ASSERT_EQ(std::fwrite(one.buffer().data(), 1, one.size(), f), one.size());
    std::fclose(f);
  }
  EXPECT_EQ(std::filesystem::file_size(path), 12u + 96u * 1024 * 1024);
  // the baseline: the same verb on a tiny stream (sanitizer builds start large)
  ::assay::testing::write_file(tmp / "small.rws", writer::clump({}));
  ASSERT_EQ(run_cli("rw tree " + shell_quote((tmp / "small.rws").string()) + " > /dev/null").exit_code, 0);
  rusage before{}, u{};
  ASSERT_EQ(getrusage(RUSAGE_CHILDREN, &before), 0);
  auto r = run_cli("rw tree " + shell_quote(path.string()) + " > /dev/null");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(getrusage(RUSAGE_CHILDREN, &u), 0);
  // ru_maxrss is in KiB: the largest child so far; the big walk may add far less than the file
  EXPECT_LT(u.ru_maxrss, before.ru_maxrss + 40 * 1024)
      << "rw tree peaked at " << u.ru_maxrss << " KiB on a 96 MiB stream (baseline " << before.ru_maxrss << ")";
  // the streaming walk still sees every section
  std::uint64_t seen = 0;
  auto s = walk_file(path.string(), {}, {}, [&seen](const Section&) { ++seen; });
  ASSERT_TRUE(s.ok()) << s.error().str();
  EXPECT_EQ(seen, kCount + 1u);
  EXPECT_EQ(s->sections, kCount + 1u);
}

}  // namespace
}  // namespace assay::rw
