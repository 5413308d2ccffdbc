// Texture import (issue 16): PNGs encoded into PS2 and D3D natives, checked by decoding the
// result with our decoders, against the spec's worked sizes (renderware.md#rw-5-9 table) and the
// samples' README facts (sizes, formats).
#include <gtest/gtest.h>

#include <cmath>

#include "assay/core/hash.h"
#include "assay/formats/renderware/edit.h"
#include "assay/formats/renderware/verify.h"
#include "assay/formats/renderware/writer.h"
#include "image/generated_images.h"
#include "testing/testing.h"
#include "../../../src/formats/renderware/json.h"
#include "formats/serialise.h"

namespace assay::rw {
namespace {

using image::Rgba;
namespace testimg = image::testimg;

ByteBuffer png(const Rgba& img) {
  auto p = image::encode_png(img);
  EXPECT_TRUE(p.ok());
  return p ? *p : ByteBuffer{};
}

EditChange change(EditOp op, std::string name, const Rgba* img = nullptr) {
  return EditChange{op, std::move(name), img ? png(*img) : ByteBuffer{}};
}

// A D3D9 dictionary (device 2) whose one texture "tex" has the given format, built by the writer
// with zero texels (spec: #rw-6-1), filter 6, addressing 0x23, mask "tex_a".
ByteBuffer d3d9_dict(std::uint32_t d3d_format, std::uint32_t raster_format, std::uint32_t depth, std::uint32_t bytes,
                     std::uint8_t flags, std::vector<std::uint32_t> palette = {}) {
  writer::D3d9Texture t;
  t.name = "tex", t.mask = "tex_a";
  t.width = 32, t.height = 32, t.depth = depth;
  t.raster_format = raster_format, t.d3d_format = d3d_format, t.flags = flags;
  t.filter = 6, t.addressing = 0x23;
  t.palette = std::move(palette);
  t.levels = {ByteBuffer(bytes, 0)};
  auto n = writer::d3d9_texture_native(t);
  EXPECT_TRUE(n.ok());
  writer::D3d9Texture other = t;
  other.name = "other", other.levels = {ByteBuffer(bytes, 0x5A)};
  auto m = writer::d3d9_texture_native(other);
  return writer::texture_dictionary({*n, *m}, 2, kStampGtaSa);
}

struct Edited {
  ByteBuffer bytes;
  rw::DictionaryEditReport report;
};

Edited edit(ByteView txd, std::vector<EditChange> changes, DictionaryEditOptions opt = {}) {
  Edited e;
  auto r = edit_dictionary(txd, changes, opt, e.report);
  EXPECT_TRUE(r.ok()) << (r ? "" : r.error().str());
  if (r) e.bytes = std::move(*r);
  return e;
}

TextureDictionary open_ok(const ByteBuffer& b) {
  TextureOptions to;
  to.keep_going = false;
  auto d = TextureDictionary::open(b, 0, {}, to);
  EXPECT_TRUE(d.ok()) << (d ? "" : d.error().str());
  Diagnostics diags;
  EXPECT_TRUE(verify_stream(b, 0, diags.sink()));
  return d ? std::move(*d) : TextureDictionary{};
}

TextureDictionary open_ok(ByteBuffer&&) = delete;  // the dictionary views its buffer

Rgba decoded(const TextureDictionary& d, std::size_t i, std::uint32_t level = 0) {
  auto img = d.decode(i, level);
  EXPECT_TRUE(img.ok()) << (img ? "" : img.error().str());
  return img ? std::move(*img) : Rgba{};
}

ByteView native_of(ByteView txd, const TextureNative& t) {
  const auto size = load<std::uint32_t>(txd.data() + t.offset + 4, Endian::little);
  return txd.subspan(t.offset, 12 + std::uint64_t{size});
}

// ---- D3D: lossless formats decode to the source reduced to the format's bits ----

TEST(TextureImport, D3d9LosslessFormatsAndKeptFields) {
  const Rgba src = testimg::photo(32, 32, true);
  struct Case { std::uint32_t code, rf, depth, bpp; image::PixelFormat pf; };
  const Case cases[] = {{d3d::kA8R8G8B8, raster::k8888, 32, 4, image::PixelFormat::bgra8888},
                        {d3d::kX8R8G8B8, raster::k888, 32, 4, image::PixelFormat::bgrx8888},
                        {d3d::kR5G6B5, raster::k565, 16, 2, image::PixelFormat::r5g6b5},
                        {d3d::kX1R5G5B5, raster::k555, 16, 2, image::PixelFormat::x1r5g5b5},
                        {d3d::kA1R5G5B5, raster::k1555, 16, 2, image::PixelFormat::a1r5g5b5},
                        {d3d::kA4R4G4B4, raster::k4444, 16, 2, image::PixelFormat::a4r4g4b4}};
  for (const Case& c : cases) {
    const ByteBuffer txd = d3d9_dict(c.code, c.rf, c.depth, 32 * 32 * c.bpp, 0);
    const Edited e = edit(txd, {change(EditOp::replace, "tex", &src)});
    const TextureDictionary d = open_ok(e.bytes);
    ASSERT_EQ(d.textures().size(), 2u);
    const TextureNative& t = d.textures()[0];
    EXPECT_EQ(t.name, "tex");
    EXPECT_EQ(t.mask, "tex_a");
    EXPECT_EQ(t.filter_addressing, 0x2306u);  // filter 6, addressing 0x23 kept
    EXPECT_EQ(t.d3d_format, c.code);
    EXPECT_EQ(t.stamp, kStampGtaSa);
    EXPECT_EQ(d.device_id(), 2);
    const Rgba got = decoded(d, 0);
    const Rgba want = image::reduce_pixels(c.pf, src);
    EXPECT_EQ(got.pixels, want.pixels) << c.code;
    if (c.pf == image::PixelFormat::bgra8888) {
      EXPECT_EQ(got.pixels, src.pixels);  // 8888 exact
    }
    // the untouched texture is the same bytes
    const TextureDictionary before = open_ok(txd);
    const ByteView a = native_of(txd, before.textures()[1]), b = native_of(e.bytes, d.textures()[1]);
    EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end()));
    EXPECT_TRUE(rw::dictionary_edit_json(e.report)["changes"][0]["exact"].get<bool>() == (c.pf == image::PixelFormat::bgra8888));
  }
}

// PSNR bars (figures in docs/textures.md): DXT1 >= 33 dB, DXT3/5 >= 33 dB, PAL8 >= 35 dB on the
// generated photographic-like image.
TEST(TextureImport, D3d9LossyFormatsPsnr) {
  const Rgba photo = testimg::photo(128, 128, false), alpha = testimg::photo(128, 128, true);
  struct Case { std::uint32_t code, rf, depth, bytes; const Rgba* img; double bar; };
  const Case cases[] = {{d3d::kDxt1, raster::k565, 16, 512, &photo, 33.0},
                        {d3d::kDxt3, raster::k4444, 16, 1024, &alpha, 33.0},
                        {d3d::kDxt5, raster::k4444, 16, 1024, &alpha, 34.0},
                        {d3d::kP8, raster::kPal8 | raster::k8888, 8, 1024, &photo, 35.0}};
  for (const Case& c : cases) {
    const ByteBuffer txd = d3d9_dict(c.code, c.rf, c.depth, c.bytes, c.code == d3d::kP8 ? 0 : 8,
                                     std::vector<std::uint32_t>(c.code == d3d::kP8 ? 256 : 0, 0));
    const Edited e = edit(txd, {change(EditOp::replace, "tex", c.img)});
    const TextureDictionary d = open_ok(e.bytes);
    const Rgba got = decoded(d, 0);
    ASSERT_EQ(got.width, 128u);
    EXPECT_GE(image::psnr(*c.img, got), c.bar) << c.code;
    EXPECT_NEAR(rw::dictionary_edit_json(e.report)["changes"][0]["psnr_db"].get<double>(), image::psnr(*c.img, got), 0.01);
  }
}

TEST(TextureImport, Dxt1WithoutAlphaStaysOpaque) {
  const ByteBuffer txd = d3d9_dict(d3d::kDxt1, raster::k565, 16, 512, 8);
  const Rgba alpha = testimg::photo(32, 32, true);
  const Edited e = edit(txd, {change(EditOp::replace, "tex", &alpha)});
  const TextureDictionary d = open_ok(e.bytes);
  const Rgba got = decoded(d, 0);
  for (std::size_t i = 3; i < got.pixels.size(); i += 4) ASSERT_EQ(got.pixels[i], 255) << i << " " << rw::dictionary_edit_json(e.report).dump();
  EXPECT_EQ(d.textures()[0].raster_format & raster::kPixelMask, raster::k565);  // GTA: DXT1 without alpha
}

// ---- PS2 ----

ByteBuffer ps2_dict(bool pal4, std::uint32_t size, std::uint32_t levels) {
  std::vector<Rgba> lv;
  for (std::uint32_t i = 0; i < levels; ++i) lv.push_back(testimg::few_colours(size >> i, size >> i, 8, i + 1));
  auto t = writer::ps2_texture_from_rgba("tex", lv, pal4);
  EXPECT_TRUE(t.ok());
  t->mask = "m";
  t->filter_addressing = 0x3306;
  auto n = writer::ps2_texture_native(*t);
  auto t2 = writer::ps2_texture_from_rgba("other", {testimg::few_colours(16, 16, 4)}, pal4);
  auto n2 = writer::ps2_texture_native(*t2);
  return writer::texture_dictionary({*n, *n2}, 6, kStampDefault);
}

// spec #rw-5-9 worked sizes: PAL8 64 x 64 with 3 levels -> pixelSize 5,616, paletteSize 1,104.
TEST(TextureImport, Ps2Pal8PhotographicWithMips) {
  const ByteBuffer txd = ps2_dict(false, 64, 3);
  const Rgba src = testimg::photo(64, 64);
  const Edited e = edit(txd, {change(EditOp::replace, "tex", &src)});
  const TextureDictionary d = open_ok(e.bytes);
  const TextureNative& t = d.textures()[0];
  EXPECT_EQ(t.format, TexelFormat::pal8);
  EXPECT_EQ(t.levels.size(), 3u);
  EXPECT_EQ(t.ps2.pixel_size, 5616u);
  EXPECT_EQ(t.ps2.palette_size, 1104u);
  EXPECT_EQ(t.ps2.csm(), 0u);  // CSM1
  EXPECT_EQ(t.filter_addressing, 0x3306u);
  EXPECT_EQ(t.mask, "m");
  EXPECT_EQ(t.stamp, kStampDefault);
  EXPECT_EQ(d.device_id(), 6);
  EXPECT_GE(image::psnr(src, decoded(d, 0)), 35.0);
  for (std::uint32_t i = 1; i < 3; ++i) {  // each mip is the area mean of the source
    auto want = image::downscale(src, 64 >> i, 64 >> i);
    ASSERT_TRUE(want.ok());
    EXPECT_GE(image::psnr(*want, decoded(d, 0 + 0, i)), 33.0) << i;
  }
}

// spec #rw-5-9: PAL4 64 x 64, 1 level -> pixelSize 2,128, paletteSize 176; 16 colours are exact.
TEST(TextureImport, Ps2Pal4ExactWithAlpha) {
  const ByteBuffer txd = ps2_dict(true, 64, 1);
  Rgba src = testimg::few_colours(64, 64, 16, 9);
  for (std::size_t i = 0; i < src.pixels.size(); i += 4) src.pixels[i + 3] = src.pixels[i] < 80 ? 0 : 255;  // still 16 colours
  const Edited e1 = edit(txd, {change(EditOp::replace, "tex", &src)});
  const TextureDictionary d = open_ok(e1.bytes);
  EXPECT_EQ(d.textures()[0].format, TexelFormat::pal4);
  EXPECT_EQ(d.textures()[0].ps2.pixel_size, 2128u);
  EXPECT_EQ(d.textures()[0].ps2.palette_size, 176u);
  EXPECT_EQ(decoded(d, 0).pixels, src.pixels);
}

// GS words of the original (MIPTBP1 here) survive a same-layout replacement (spec: #rw-5-3).
TEST(TextureImport, Ps2KeepsGsWordsOfSameLayout) {
  ByteBuffer txd = ps2_dict(false, 64, 3);
  const TextureDictionary before = open_ok(txd);
  // raster header: 0x15 hdr, platform struct (20), name "tex" (16), mask "m" (16), container + struct headers
  const std::uint64_t hdr = before.textures()[0].offset + 12 + 20 + 16 + 16 + 24;
  ASSERT_EQ(load<std::uint32_t>(txd.data() + hdr, Endian::little), 64u);  // width: the header is there
  store<std::uint64_t>(txd.data() + hdr + 0x20, 0x0123456789ull, Endian::little);
  const Rgba src = testimg::photo(64, 64);
  const Edited e2 = edit(txd, {change(EditOp::replace, "tex", &src)});
  const TextureDictionary d = open_ok(e2.bytes);
  EXPECT_EQ(d.textures()[0].ps2.miptbp1, 0x0123456789ull);
  const Rgba small = testimg::photo(32, 32);  // another size: the writer's own words
  const Edited e3 = edit(txd, {change(EditOp::replace, "tex", &small)});
  const TextureDictionary d2 = open_ok(e3.bytes);
  EXPECT_EQ(d2.textures()[0].ps2.miptbp1, 0u);
  EXPECT_EQ(d2.textures()[0].width, 32u);
}

// ---- Sizes and safety ----

TEST(TextureImport, NonPowerOfTwoRoundedDown) {
  const ByteBuffer txd = ps2_dict(false, 64, 1);
  const Rgba src = testimg::photo(100, 60);
  const Edited e = edit(txd, {change(EditOp::replace, "tex", &src)});
  const TextureDictionary d = open_ok(e.bytes);
  EXPECT_EQ(d.textures()[0].width, 64u);
  EXPECT_EQ(d.textures()[0].height, 32u);
  EXPECT_NE(rw::dictionary_edit_json(e.report)["changes"][0]["note"].get<std::string>().find("100 x 60 to 64 x 32"), std::string::npos);
}

std::string edit_error(ByteView txd, std::vector<EditChange> changes) {
  rw::DictionaryEditReport report;
  auto r = edit_dictionary(txd, changes, {}, report);
  EXPECT_FALSE(r.ok());
  return r ? std::string() : r.error().str();
}

TEST(TextureImport, TooLargeRefusedWithTheLimit) {
  const ByteBuffer ps2 = ps2_dict(false, 64, 1);
  const Rgba wide{2048, 4, ByteBuffer(2048 * 4 * 4, 255)};
  EXPECT_NE(edit_error(ps2, {change(EditOp::replace, "tex", &wide)}).find("1024 x 1024"), std::string::npos);
  // 1024 x 1024 PAL8 = 1,048,576 bytes; one GS packet holds 0x7FFF x 16 = 524,272 (spec #rw-5-6)
  const Rgba big{1024, 1024, ByteBuffer(std::size_t{1024} * 1024 * 4, 200)};
  EXPECT_NE(edit_error(ps2, {change(EditOp::replace, "tex", &big)}).find("524272"), std::string::npos);
  const ByteBuffer pc = d3d9_dict(d3d::kDxt1, raster::k565, 16, 512, 8);
  const Rgba huge{8192, 1, ByteBuffer(8192 * 4, 255)};
  EXPECT_NE(edit_error(pc, {change(EditOp::replace, "tex", &huge)}).find("4096 x 4096"), std::string::npos);
}

TEST(TextureImport, PngBombRefused) {
  const ByteBuffer pc = d3d9_dict(d3d::kDxt1, raster::k565, 16, 512, 8);
  // signature + IHDR declaring 60000 x 60000 (3.6e9 pixels) with a valid CRC: never decoded
  ByteBuffer bomb = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 'I', 'H', 'D', 'R',
                     0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60, 8, 6, 0, 0, 0};
  const std::uint32_t crc = crc32(ByteView(bomb.data() + 12, 17));
  for (int s = 24; s >= 0; s -= 8) bomb.push_back(static_cast<std::uint8_t>(crc >> s));
  const std::string msg = edit_error(pc, {EditChange{EditOp::replace, "tex", bomb}});
  EXPECT_NE(msg.find("60000 x 60000"), std::string::npos) << msg;
  EXPECT_NE(msg.find("limit"), std::string::npos) << msg;
}

TEST(TextureImport, NamesChecked) {
  const ByteBuffer pc = d3d9_dict(d3d::kDxt1, raster::k565, 16, 512, 8);
  const Rgba img = testimg::photo(8, 8);
  EXPECT_NE(edit_error(pc, {change(EditOp::replace, "nope", &img)}).find("no texture"), std::string::npos);
  EXPECT_NE(edit_error(pc, {change(EditOp::add, "TEX", &img)}).find("already"), std::string::npos);  // case-insensitive
  EXPECT_NE(edit_error(pc, {change(EditOp::replace, "tex", &img), change(EditOp::replace, "tex", &img)}).find("twice"),
            std::string::npos);
  // A new name that would escape the folder extract writes to (a user added "../evil").
  for (const char* bad : {"../evil", "a/b", "a\\b", "..", "x\x01y"})
    EXPECT_NE(edit_error(pc, {change(EditOp::add, bad, &img)}).find("texture name"), std::string::npos) << bad;
}

// ---- add / remove ----

TEST(TextureImport, AddAndRemove) {
  const ByteBuffer pc = d3d9_dict(d3d::kDxt1, raster::k565, 16, 512, 8);
  const Rgba img = testimg::photo(64, 32, true);
  DictionaryEditOptions opt;
  opt.new_format = TexelFormat::dxt5;
  const Edited e = edit(pc, {change(EditOp::add, "newtex", &img)}, opt);
  const TextureDictionary d = open_ok(e.bytes);
  ASSERT_EQ(d.texture_count(), 3);
  EXPECT_EQ(d.textures()[2].name, "newtex");
  EXPECT_EQ(d.textures()[2].format, TexelFormat::dxt5);
  EXPECT_EQ(d.textures()[2].d3d_format, d3d::kDxt5);
  EXPECT_GE(image::psnr(img, decoded(d, 2)), 33.0);
  const Edited r = edit(e.bytes, {change(EditOp::remove, "tex")});
  const TextureDictionary d2 = open_ok(r.bytes);
  ASSERT_EQ(d2.texture_count(), 2);
  EXPECT_EQ(d2.textures()[0].name, "other");
}

TEST(TextureImport, ThreadCountDoesNotChangeOutput) {
  const ByteBuffer ps2 = ps2_dict(false, 64, 3);
  const Rgba a = testimg::photo(64, 64, false, 3, 1), b = testimg::photo(16, 16, false, 3, 2);
  DictionaryEditOptions one, many;
  one.threads = 1, many.threads = 4;
  const auto changes = std::vector<EditChange>{change(EditOp::replace, "tex", &a), change(EditOp::replace, "other", &b)};
  EXPECT_EQ(edit(ps2, changes, one).bytes, edit(ps2, changes, many).bytes);
}

// ---- real samples (read in place) ----

ByteBuffer sample_bytes(const std::filesystem::path& p) { return ::assay::testing::read_file(p); }

// Replace each named texture with its own decoded image: level 0 decodes the same, every other
// native keeps its bytes, the stream verifies.
void same_image_round_trip(const ByteBuffer& txd, const std::vector<std::string>& names, std::size_t expected_textures) {
  const TextureDictionary before = open_ok(txd);
  ASSERT_EQ(before.textures().size(), expected_textures);
  std::vector<EditChange> changes;
  std::vector<std::size_t> idx;
  for (const auto& n : names)
    for (std::size_t i = 0; i < before.textures().size(); ++i)
      if (before.textures()[i].name == n) {
        const Rgba img = decoded(before, i);
        changes.push_back(change(EditOp::replace, n, &img)), idx.push_back(i);
      }
  ASSERT_EQ(changes.size(), names.size());
  const Edited e = edit(txd, changes);
  const TextureDictionary after = open_ok(e.bytes);
  ASSERT_EQ(after.textures().size(), expected_textures);
  for (std::size_t i = 0; i < expected_textures; ++i) {
    if (std::find(idx.begin(), idx.end(), i) != idx.end()) {
      EXPECT_EQ(decoded(after, i).pixels, decoded(before, i).pixels) << before.textures()[i].name;
      EXPECT_EQ(after.textures()[i].levels.size(), before.textures()[i].levels.size());
      continue;
    }
    const ByteView a = native_of(txd, before.textures()[i]), b = native_of(e.bytes, after.textures()[i]);
    EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end())) << before.textures()[i].name;
  }
}

// librw-written PS2 dictionary: 40 textures (samples README).
TEST(TextureImportSamples, LibrwPs2SameImageRoundTrip) {
  ASSAY_REQUIRE_SAMPLE(p, "renderware/librw-ps2/ps2_v36003.txd");
  same_image_round_trip(sample_bytes(p), {"pal8_64x64_mip", "pal4_256x256_mip", "pal8_128x64", "c8888_128x64_mip",
                                          "c1555_64x64"}, 40);
}

// GTA III-era D3D8 dictionary: 115 textures, 64 x 64, PAL8 and 8888 (samples README).
TEST(TextureImportSamples, ImgFactoryD3d8SameImageRoundTrip) {
  ASSAY_REQUIRE_SAMPLE(p, "renderware/more/imgfactory_generic.txd");
  const ByteBuffer txd = sample_bytes(p);
  same_image_round_trip(txd, {"door0006", "subridge_side1"}, 115);
  rw::DictionaryEditReport report;
  auto door = TextureDictionary::open(txd, 0, {}, {});
  ASSERT_TRUE(door.ok());
  const Rgba img = decoded(*door, 0);
  auto out = edit_dictionary(txd, {change(EditOp::replace, "door0006", &img)}, {}, report);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->size(), 659880u);  // the README's size: a same-format replacement keeps every size
}

// GTA SA D3D9 dictionary: DXT1/DXT3, zero padding to a multiple of 2,048 (10,240 bytes; README).
TEST(TextureImportSamples, InfernusD3d9Dxt) {
  ASSAY_REQUIRE_SAMPLE(p, "renderware/rw-parser/infernus.txd");
  const ByteBuffer txd = sample_bytes(p);
  const TextureDictionary before = open_ok(txd);
  const Rgba img = decoded(before, 1);  // infernus92interior128, DXT1
  const Edited e = edit(txd, {change(EditOp::replace, "infernus92interior128", &img)});
  EXPECT_EQ(e.bytes.size(), 10240u);
  const TextureDictionary after = open_ok(e.bytes);
  EXPECT_EQ(after.textures()[1].format, TexelFormat::dxt1);
  EXPECT_GE(image::psnr(img, decoded(after, 1)), 40.0);  // DXT1 of an image that already is DXT1
}

// ---- CLI ----

TEST(TextureImportCli, ReplaceAddAndOptions) {
  using ::assay::testing::run_cli;
  using ::assay::testing::shell_quote;
  ::assay::testing::TempDir dir;
  const ByteBuffer txd = ps2_dict(false, 64, 3);
  ::assay::testing::write_file(dir / "in.txd", txd);
  ::assay::testing::write_file(dir / "a.png", png(testimg::photo(64, 64)));
  const std::string in = shell_quote((dir / "in.txd").string()), a = shell_quote((dir / "a.png").string());
  auto r = run_cli("replace " + in + " -o " + shell_quote((dir / "out.txd").string()) + " tex=" + a + " --dither 0.5 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json j = Json::parse(r.out);
  EXPECT_EQ(j["changes"][0]["pixel_format"], "PAL8");
  EXPECT_FALSE(j["changes"][0].contains("format"));  // the family is the report's own "format"
  EXPECT_EQ(j["format"], "renderware");
  EXPECT_EQ(j["changes"][0]["mips"], 3);
  EXPECT_EQ(run_cli("verify " + shell_quote((dir / "out.txd").string())).exit_code, 0);
  auto add = run_cli("add " + in + " -o " + shell_quote((dir / "add.txd").string()) + " new=" + a + " --format PAL4");
  ASSERT_EQ(add.exit_code, 0) << add.err;
  EXPECT_EQ(run_cli("replace " + in + " -o " + shell_quote((dir / "x.txd").string()) + " tex=" + a + " --format DXT1").exit_code,
            2);  // PS2 cannot hold DXT1
  EXPECT_EQ(run_cli("replace " + in + " -o " + shell_quote((dir / "y.txd").string()) + " tex=" + a + " --dither 2").exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(dir / "x.txd"));
  // an existing output is not overwritten without --force; --in-place rewrites the input
  EXPECT_EQ(run_cli("replace " + in + " -o " + shell_quote((dir / "out.txd").string()) + " tex=" + a).exit_code, 2);
  auto inplace = run_cli("replace " + in + " --in-place --dither 0.5 tex=" + a);
  ASSERT_EQ(inplace.exit_code, 0) << inplace.err;
  EXPECT_EQ(::assay::testing::read_file(dir / "in.txd"), ::assay::testing::read_file(dir / "out.txd"));  // same encode, same bytes
  EXPECT_EQ(run_cli("verify " + in).exit_code, 0);
  // A PNG cut short is the user's FILE: exit 2, naming it (not a problem of the dictionary).
  ByteBuffer cut = png(testimg::photo(64, 64));
  cut.resize(cut.size() / 2);
  ::assay::testing::write_file(dir / "cut.png", cut);
  auto bad = run_cli("replace " + in + " -o " + shell_quote((dir / "z.txd").string()) + " tex=" + shell_quote((dir / "cut.png").string()));
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("cut.png"), std::string::npos) << bad.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "z.txd"));
}

}  // namespace
}  // namespace assay::rw

namespace assay::rw {
namespace {

// Truncation and byte-mutation sweep over writer-built dictionaries: edit_dictionary gives a
// result that reads back or a clear error, never a crash (kept short for ASan).
TEST(TextureImport, TruncationAndMutationSweep) {
  const Rgba img = testimg::photo(16, 16, true);
  const ByteBuffer png_bytes = png(img);
  const ByteBuffer dicts[] = {ps2_dict(false, 32, 2), ps2_dict(true, 32, 1),
                              d3d9_dict(d3d::kDxt1, raster::k565, 16, 512, 8)};
  DictionaryEditOptions opt;
  opt.threads = 1;
  opt.encode.threads = 1;
  opt.encode.speed = 10;
  std::size_t ok = 0, refused = 0;
  for (const ByteBuffer& full : dicts) {
    const std::vector<EditChange> changes{{EditOp::replace, "tex", png_bytes}};
    for (std::size_t cut = 0; cut < full.size(); cut += 37) {
      rw::DictionaryEditReport report;
      auto r = edit_dictionary(ByteView(full.data(), cut), changes, opt, report);
      r ? ++ok : ++refused;
      if (!r) {
        EXPECT_FALSE(r.error().str().empty());
      }
    }
    for (std::size_t at = 0; at < full.size(); at += 29) {
      ByteBuffer bad = full;
      bad[at] ^= 0xA5;
      rw::DictionaryEditReport report;
      auto r = edit_dictionary(bad, changes, opt, report);
      r ? ++ok : ++refused;
    }
  }
  EXPECT_GT(refused, 0u);  // truncated dictionaries are refused
}

}  // namespace
}  // namespace assay::rw
