// `assay replace` on Oni level files (issues 10 and 16), on OniSplit's GameDataFolder read in place.
// Facts from outside the editor: the original files' bytes, OniSplit's counts (samples/oni/README.md:
// level 0: 31 instances, 0 placeholders, 22 links; level 1: 19, 4, 40 with level 0, 6 into level
// 0), the pixel rules of spec oni.md#oni-9-1 computed here by hand, and the bytes of images the
// test makes itself.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>

#include "assay/formats/oni/edit.h"
#include "assay/image/encode.h"
#include "assay/image/png.h"
#include "fixtures.h"
#include "testing/testing.h"
#include "../../../src/formats/oni/family_parts.h"

namespace assay::oni {
namespace {

namespace fs = std::filesystem;
using testing::shell_quote;

testing::CliResult replace(const fs::path& in, const fs::path& out, const std::string& items, const std::string& extra = "") {
  return testing::run_cli("replace " + shell_quote(in.string()) + " -o " + shell_quote(out.string()) + " " + items + " " + extra);
}

// The GameDataFolder copied into `dir` (level files edited there, originals untouched).
void copy_set(const fs::path& from, const fs::path& dir) {
  fs::create_directories(dir);
  for (const char* n : {"level0_Final.dat", "level0_Final.raw", "level1_Final.dat", "level1_Final.raw"}) fs::copy_file(from / n, dir / n);
}

void expect_onisplit_counts(const fs::path& dir) {
  auto rep = check_level_set({dir}, LayoutSource{}, 1);
  ASSERT_TRUE(rep.ok()) << rep.error().str();
  ASSERT_EQ(rep->levels.size(), 2u);
  EXPECT_EQ(rep->levels[0].instances, 31u);
  EXPECT_EQ(rep->levels[0].placeholders, 0u);
  EXPECT_EQ(rep->levels[0].links, 22u);
  EXPECT_EQ(rep->levels[1].instances, 19u);
  EXPECT_EQ(rep->levels[1].placeholders, 4u);
  EXPECT_EQ(rep->levels[1].links, 40u);
  EXPECT_EQ(rep->levels[1].into_level0, 6u);
  EXPECT_EQ(rep->levels[1].unresolved, 0u);
  EXPECT_TRUE(rep->ok());
  auto r = testing::run_cli("oni check " + shell_quote(dir.string()));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST(OniEdit, ReplaceWithOwnExportIsByteIdentical) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  testing::TempDir t;
  for (const char* level : {"level0_Final", "level1_Final"}) {
    const fs::path dat = dir / (std::string(level) + ".dat");
    auto x = testing::run_cli("extract " + shell_quote(dat.string()) + " -o " + shell_quote((t / level).string()));
    ASSERT_EQ(x.exit_code, 0) << x.err;
    int n = 0;
    for (const auto& e : fs::directory_iterator(t / level)) {
      const std::string name = e.path().stem().string();
      const fs::path out = t / "out" / name / (std::string(level) + ".dat");
      fs::create_directories(out.parent_path());
      auto r = replace(dat, out, shell_quote(name + "=" + e.path().string()));
      ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
      EXPECT_EQ(testing::read_file(out), testing::read_file(dat)) << level << " " << name;
      EXPECT_EQ(testing::read_file(fs::path(out).replace_extension(".raw")), testing::read_file(fs::path(dat).replace_extension(".raw"))) << name;
      ++n;
    }
    EXPECT_EQ(n, std::string(level) == "level0_Final" ? 20 : 8);  // named instances with data (the -list files)
  }
}

TEST(OniEdit, LargerInstanceShiftsTheRestAndKeepsEveryCount) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  testing::TempDir t;
  copy_set(dir, t / "set");
  const fs::path dat = t / "set" / "level0_Final.dat";
  auto before = load_file(dat, LayoutSource{});
  const auto i = before->file.find("TStrgreeting");
  ASSERT_TRUE(i.has_value());
  const ByteView old = *before->file.instance_bytes(*i);
  ByteBuffer bigger(old.begin(), old.end());
  bigger.insert(bigger.end(), 100, 0x41);  // TStr is a leaf string: extra bytes are spare room
  testing::write_file(t / "greeting.bin", bigger);
  const ByteBuffer m3gm_before(before->file.instance_bytes(*before->file.find("M3GMcube"))->begin(),
                               before->file.instance_bytes(*before->file.find("M3GMcube"))->end());
  auto r = testing::run_cli("replace " + shell_quote(dat.string()) + " --in-place --json TStrgreeting=" + shell_quote((t / "greeting.bin").string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["changes"][0]["new_size"], old.size() + 100);
  auto after = load_file(dat, LayoutSource{});
  ASSERT_TRUE(after->opened);
  EXPECT_EQ(after->file.instance_bytes(*i)->size(), old.size() + 100);
  EXPECT_TRUE(std::equal(bigger.begin(), bigger.end(), after->file.instance_bytes(*i)->begin()));
  const ByteView m3gm = *after->file.instance_bytes(*after->file.find("M3GMcube"));  // before it: unchanged
  EXPECT_TRUE(std::equal(m3gm.begin(), m3gm.end(), m3gm_before.begin(), m3gm_before.end()));
  EXPECT_EQ(after->file.header().data_size, before->file.header().data_size + 100);
  EXPECT_EQ(after->file.header().name_offset % 32, 0u);
  expect_onisplit_counts(t / "set");
}

// spec: oni.md#oni-9-1 by hand: an n-bit channel is round(v * (2^n - 1) / 255), widened back by
// bit replication (5 bits: v << 3 | v >> 2; 4 bits: v * 17).
std::uint8_t via_bits(std::uint8_t v, int bits) {
  const unsigned m = (1u << bits) - 1, q = (v * m + 127) / 255;
  return static_cast<std::uint8_t>(bits == 5 ? (q << 3 | q >> 2) : bits == 4 ? q * 17 : q ? 255 : 0);
}

image::Rgba test_image(std::uint32_t w, std::uint32_t h) {
  image::Rgba img{w, h, ByteBuffer(std::size_t(w) * h * 4)};
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) {
      std::uint8_t* p = img.pixels.data() + (std::size_t(y) * w + x) * 4;
      p[0] = static_cast<std::uint8_t>(x * 255 / (w - 1));  // smooth ramps (a fair DXT1 subject)
      p[1] = static_cast<std::uint8_t>(y * 255 / (h - 1));
      p[2] = static_cast<std::uint8_t>((x + y) * 255 / (w + h - 2));
      p[3] = static_cast<std::uint8_t>(x < w / 2 ? 255 : 0);
    }
  return img;
}

TEST(OniEdit, TxmpFromPngInEveryOniSplitFormat) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  testing::TempDir t;
  const image::Rgba src = test_image(32, 16);
  testing::write_file(t / "in.png", *image::encode_png(src));
  image::Rgba opaque = src;  // DXT1 keeps no colour where alpha is 0: its PSNR is measured opaque
  for (std::size_t k = 3; k < opaque.pixels.size(); k += 4) opaque.pixels[k] = 255;
  testing::write_file(t / "opaque.png", *image::encode_png(opaque));
  struct Case {
    const char* format;
    std::uint32_t code;
  };
  for (const Case c : {Case{"bgra32", 7}, Case{"bgr32", 8}, Case{"bgr555", 1}, Case{"bgra5551", 2}, Case{"bgra4444", 0}, Case{"dxt1", 9}}) {
    SCOPED_TRACE(c.format);
    const fs::path out = t / c.format / "level0_Final.dat";
    fs::create_directories(out.parent_path());
    // TXMPgrad_bgr32 is 64x64 format 8 with mips (onisplit_view): the PNG sets size and format.
    const fs::path png = t / (c.code == 9 ? "opaque.png" : "in.png");
    auto r = replace(dir / "level0_Final.dat", out, "TXMPgrad_bgr32=" + shell_quote(png.string()),
                     std::string("--png-size --format ") + c.format);  // 32 x 16 for 64 x 64: the PNG's size asked for
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto f = load_file(out, LayoutSource{});
    const ByteView inst = *f->file.instance_bytes(*f->file.find("TXMPgrad_bgr32"));
    EXPECT_EQ(load<std::uint16_t>(inst.data() + 0x8C, Endian::little), 32);
    EXPECT_EQ(load<std::uint16_t>(inst.data() + 0x8E, Endian::little), 16);
    EXPECT_EQ(load<std::uint32_t>(inst.data() + 0x90, Endian::little), c.code);
    auto x = testing::run_cli("extract --textures --mips " + shell_quote(out.string()) + " -o " + shell_quote((t / c.format / "png").string()) +
                              " TXMPgrad_bgr32");
    ASSERT_EQ(x.exit_code, 0) << x.err;
    auto got = image::decode_png(testing::read_file(t / c.format / "png" / "TXMPgrad_bgr32.png"));
    ASSERT_TRUE(got.ok());
    ASSERT_EQ(got->width, 32u);
    ASSERT_EQ(got->height, 16u);
    // Mips kept (the original has flag 1): 32x16 down to 1x1 is 6 levels.
    EXPECT_TRUE(fs::exists(t / c.format / "png" / "TXMPgrad_bgr32.mip5.png"));
    EXPECT_FALSE(fs::exists(t / c.format / "png" / "TXMPgrad_bgr32.mip6.png"));
    if (c.code == 9) {
      EXPECT_GE(image::psnr(opaque, *got), 30.0);  // DXT1 bar on smooth ramps (32.6 dB measured, docs/cli.md)
      continue;
    }
    for (std::size_t k = 0; k < src.pixels.size(); ++k) {
      const std::uint8_t v = src.pixels[k];
      const bool alpha = k % 4 == 3;
      std::uint8_t want = v;
      if (c.code == 8 && alpha) want = 255;
      if (c.code == 1) want = alpha ? 255 : via_bits(v, 5);
      if (c.code == 2) want = alpha ? via_bits(v, 1) : via_bits(v, 5);
      if (c.code == 0) want = via_bits(v, 4);
      ASSERT_EQ(got->pixels[k], want) << "byte " << k;
    }
  }
}

TEST(OniEdit, SamePngRoundTripChangesNothing) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  testing::TempDir t;
  copy_set(dir, t / "set");
  const fs::path dat = t / "set" / "level0_Final.dat";
  // Lossless formats: 7 (check_bgra32), 8 with mips (grad_bgr32).
  auto x = testing::run_cli("extract --textures --mips " + shell_quote(dat.string()) + " -o " + shell_quote((t / "a").string()) +
                            " TXMPcheck_bgra32 TXMPgrad_bgr32");
  ASSERT_EQ(x.exit_code, 0) << x.err;
  auto r = testing::run_cli("replace " + shell_quote(dat.string()) + " --in-place TXMPcheck_bgra32=" + shell_quote((t / "a" / "TXMPcheck_bgra32.png").string()) +
                            " TXMPgrad_bgr32=" + shell_quote((t / "a" / "TXMPgrad_bgr32.png").string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Format 7 stores exactly the PNG's bytes: the level is unchanged, byte for byte.
  auto y = testing::run_cli("extract --textures --mips " + shell_quote(dat.string()) + " -o " + shell_quote((t / "b").string()) +
                            " TXMPcheck_bgra32 TXMPgrad_bgr32");
  ASSERT_EQ(y.exit_code, 0) << y.err;
  for (const char* p : {"TXMPcheck_bgra32.png", "TXMPgrad_bgr32.png"}) {
    auto a = image::decode_png(testing::read_file(t / "a" / p)), b = image::decode_png(testing::read_file(t / "b" / p));
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(a->pixels, b->pixels) << p;
  }
  expect_onisplit_counts(t / "set");
}

TEST(OniEdit, RefusalsLeaveTheInputUntouched) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  testing::TempDir t;
  copy_set(dir, t / "set");
  const fs::path dat = t / "set" / "level0_Final.dat";
  const ByteBuffer before = testing::read_file(dat), raw_before = testing::read_file(t / "set" / "level0_Final.raw");
  testing::write_file(t / "x.png", *image::encode_png(test_image(4, 4)));
  testing::write_file(t / "short.bin", ByteBuffer{1, 2, 3});
  const std::string in = shell_quote(dat.string()) + " --in-place ";
  for (const std::string& args : {"replace " + in + "TXMPnope=" + shell_quote((t / "x.png").string()),
                                  "replace " + in + "M3GMcube=" + shell_quote((t / "x.png").string()),
                                  "replace " + in + "TStrgreeting=" + shell_quote((t / "short.bin").string()),
                                  "replace " + in + "TXMPcheck_bgra32=" + shell_quote((t / "x.png").string()) + " --format pal8",
                                  "add " + in + "TXMPnew=" + shell_quote((t / "x.png").string()), "remove " + in + "TXMPcheck_bgra32"}) {
    auto r = testing::run_cli(args);
    EXPECT_NE(r.exit_code, 0) << args;
    EXPECT_FALSE(r.err.empty()) << args;
  }
  // A .oni whose unnamed instances differ from the level's: level 0's M3GMcube export (6 unnamed) for TXMPcheck_bgra32.
  auto x = testing::run_cli("extract " + shell_quote(dat.string()) + " -o " + shell_quote((t / "x").string()) + " M3GMcube");
  ASSERT_EQ(x.exit_code, 0);
  auto r = testing::run_cli("replace " + in + "TXMPcheck_bgra32=" + shell_quote((t / "x" / "M3GMcube.oni").string()));
  EXPECT_EQ(r.exit_code, 2) << r.err;  // the .oni given is the user's FILE: named, a usage error
  EXPECT_NE(r.err.find((t / "x" / "M3GMcube.oni").string()), std::string::npos) << r.err;
  EXPECT_EQ(testing::read_file(dat), before);
  EXPECT_EQ(testing::read_file(t / "set" / "level0_Final.raw"), raw_before);
  for (const auto& e : fs::directory_iterator(t / "set"))  // no temporaries left
    EXPECT_EQ(e.path().filename().string().find("assay"), std::string::npos) << e.path();
}


TEST(OniEdit, V11TxmpPixelsGoToTheSep) {
  // A v1.1 level (TXMP 0xB0 bytes, pixels in the .sep at 0xA0; spec oni.md#oni-9-3), as in
  // OniBuiltin.V11SetReadsTexturesFromTheSep: the new pixels are appended to the .sep, the .raw is
  // left as it was.
  testing::TempDir dir;
  CompanionWriter sep;
  const std::uint32_t at = sep.add(ByteBuffer{0x10, 0x20, 0x30, 0x00, 0x40, 0x50, 0x60, 0x00});
  LevelFileSpec spec;
  spec.checksum = kChecksumV11;
  spec.template_checksums[make_tag("TXMP")] = 0x8911EEB5Full;
  test::Bytes t(0xB0);
  t.u16(0x8C, 2).u16(0x8E, 1).u32(0x90, 8).u32(0xA0, at);
  spec.instances.push_back({make_tag("TXMP"), "TXMPmac", 0, t.b});
  auto b = write_level_file(spec);
  ASSERT_TRUE(b.ok());
  testing::write_file(dir / "level0_Final.dat", *b);
  testing::write_file(dir / "level0_Final.sep", sep.bytes());
  testing::write_file(dir / "level0_Final.raw", ByteBuffer(32, 0));
  image::Rgba img{4, 2, ByteBuffer(32)};
  for (std::size_t k = 0; k < img.pixels.size(); ++k) img.pixels[k] = static_cast<std::uint8_t>(k % 4 == 3 ? 255 : k * 7);
  testing::write_file(dir / "new.png", *image::encode_png(img));
  auto r = testing::run_cli("replace " + shell_quote((dir / "level0_Final.dat").string()) + " --in-place --png-size TXMPmac=" + shell_quote((dir / "new.png").string()));  // 4 x 2 for 2 x 1
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const ByteBuffer sep_after = testing::read_file(dir / "level0_Final.sep");
  ASSERT_EQ(sep_after.size(), 64u + 32u);  // 32 junk + the old 8 bytes padded to 32, then 4x2x4 new bytes
  EXPECT_EQ(testing::read_file(dir / "level0_Final.raw"), ByteBuffer(32, 0));
  auto f = load_file(dir / "level0_Final.dat", LayoutSource{});
  const ByteView inst = *f->file.instance_bytes(0);
  EXPECT_EQ(load<std::uint32_t>(inst.data() + 0xA0, Endian::little), 64u);
  for (std::uint32_t p = 0; p < 8; ++p)  // format 8 bytes B, G, R, x
    for (int ch = 0; ch < 3; ++ch) EXPECT_EQ(sep_after[64 + p * 4 + ch], img.pixels[p * 4 + 2 - ch]) << p;
  auto c = testing::run_cli("oni check " + shell_quote(dir.path().string()));
  EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
}

// Mutation sweep over the .oni the editor parses (every byte of an exported TXMP and of M3GMcube's
// 7-instance .oni flipped, then truncations): never a crash, either a clean result or an error.
TEST(OniEdit, MutatedOniFilesNeverCrash) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  testing::TempDir t;
  copy_set(dir, t / "set");
  auto x = testing::run_cli("extract " + shell_quote((t / "set" / "level0_Final.dat").string()) + " -o " + shell_quote((t / "x").string()) +
                            " TXMPenv_user M3GMcube");
  ASSERT_EQ(x.exit_code, 0) << x.err;
  auto in = Input::open(t / "set" / "level0_Final.dat");
  ASSERT_TRUE(in.ok());
  int ok = 0, refused = 0;
  for (const char* name : {"TXMPenv_user", "M3GMcube"}) {
    const ByteBuffer good = testing::read_file(t / "x" / (std::string(name) + ".oni"));
    auto run = [&](ByteBuffer data) {
      EditRequest req;
      req.output = t / "out.dat";
      req.force = true;
      req.changes.push_back({EditOp::replace, name, std::move(data)});
      auto r = edit_format(*in, req);
      (r ? ok : refused) += 1;
    };
    for (std::size_t k = 0; k < good.size(); ++k) {
      ByteBuffer b = good;
      b[k] ^= static_cast<std::uint8_t>(k % 7 == 0 ? 0x80 : 0xFF);
      run(std::move(b));
    }
    for (std::size_t n = 0; n < good.size(); n += 7) run(ByteBuffer(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n)));
  }
  EXPECT_GT(ok, 0);       // flips in unused bytes still replace
  EXPECT_GT(refused, 0);  // broken headers, links and offsets are refused
}

}  // namespace
}  // namespace assay::oni
