// PAL4/PAL8 textures extract as indexed PNGs (issue 29 item 8) that decode to the same RGBA:
// librw's own RGBA hashes for every PS2 level (librw-ps2/ps2_v36003.librw-rgba.json), the
// samples README's counts (imgfactory_generic.txd: 115 textures, 110 PAL8 and 5 8888), and the
// PNG header bytes of ISO 15948 (IHDR at offset 16: width, height, bit depth at 24, colour type at
// 25; 3 = palette, 6 = RGBA, 2 = RGB: the writer's choice for a truecolour image whose every alpha
// is 255, checked here on the decoded pixels).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <set>

#include "assay/core/mapped_file.h"
#include "assay/formats/renderware/texture.h"
#include "assay/image/png.h"
#include "sha256.h"
#include "testing/testing.h"

namespace assay::rw {
namespace {

using ::assay::testing::run_cli;
using ::assay::testing::shell_quote;

struct Ihdr {
  int bit_depth = -1, colour_type = -1;
};
Ihdr ihdr(const ByteBuffer& png) {
  if (png.size() < 33 || std::string(png.begin() + 12, png.begin() + 16) != "IHDR") return {};
  return {png[24], png[25]};
}

// The file name extract gives texture i (texture_file_name: "texture<i>" when unnamed, ".<i>"
// added to a name used before).
std::string file_name(const TextureNative& t, std::size_t i, std::set<std::string>& used) {
  std::string base = t.name.empty() ? "texture" + std::to_string(i) : std::string(t.name);
  if (!used.insert(base).second) used.insert(base += "." + std::to_string(i));
  return base + ".png";
}

std::string extract(const std::filesystem::path& txd, const std::filesystem::path& out, const char* opts = "") {
  auto x = run_cli(std::string("extract ") + opts + " " + shell_quote(txd.string()) + " -o " + shell_quote(out.string()));
  EXPECT_EQ(x.exit_code, 0) << x.out << x.err;
  return x.err;
}

// Every level of every texture, as the PNG extract --mips writes, hashes like librw's RGBA; the
// 20 PAL4/PAL8 textures are written indexed (bit depth 4 / 8), the 1555/8888 ones as RGBA.
TEST(RwIndexedPng, Ps2LevelsDecodeToLibrwsRgba) {
  ASSAY_REQUIRE_SAMPLE(txd, "renderware/librw-ps2/ps2_v36003.txd");
  ASSAY_REQUIRE_SAMPLE(js, "renderware/librw-ps2/ps2_v36003.librw-rgba.json");
  std::ifstream f(js);
  const auto facts = nlohmann::json::parse(f);
  ::assay::testing::TempDir tmp;
  extract(txd, tmp / "o", "--mips");
  std::size_t levels = 0, indexed = 0;
  for (const auto& [name, t] : facts["textures"].items()) {
    SCOPED_TRACE(name);
    const int depth = t["depth"].get<int>();
    for (const auto& l : t["level_rgba_sha256"]) {
      const auto level = l["level"].get<int>();
      const auto file = tmp / "o" / (level == 0 ? name + ".png" : name + ".mip" + std::to_string(level) + ".png");
      const ByteBuffer png = ::assay::testing::read_file(file);
      const Ihdr h = ihdr(png);
      if (depth <= 8) {
        EXPECT_EQ(h.colour_type, 3);
        EXPECT_EQ(h.bit_depth, depth);
        ++indexed;
      } else {
        EXPECT_TRUE(h.colour_type == 6 || h.colour_type == 2) << h.colour_type;
      }
      auto img = image::decode_png(png);
      ASSERT_TRUE(img.ok()) << file << ": " << img.error().str();
      EXPECT_EQ(img->width, l["width"].get<std::uint32_t>());
      EXPECT_EQ(img->height, l["height"].get<std::uint32_t>());
      EXPECT_EQ(testing::sha256_hex(img->pixels), l["sha256"].get<std::string>()) << "level " << level;
      ++levels;
    }
  }
  EXPECT_EQ(levels, 88u);  // README: 40 textures, 88 levels
  EXPECT_GT(indexed, 0u);
}

// The library view: decode_indexed's palette lookup is decode()'s RGBA for every paletted level,
// and librw's hash; other formats are refused.
TEST(RwIndexedPng, IndexedLookupIsTheDecodedRgba) {
  ASSAY_REQUIRE_SAMPLE(txd, "renderware/librw-ps2/ps2_v36003.txd");
  ASSAY_REQUIRE_SAMPLE(js, "renderware/librw-ps2/ps2_v36003.librw-rgba.json");
  std::ifstream f(js);
  const auto facts = nlohmann::json::parse(f);
  auto m = MappedFile::open(txd);
  ASSERT_TRUE(m.ok());
  auto dict = TextureDictionary::open(m->bytes());
  ASSERT_TRUE(dict.ok()) << dict.error().str();
  std::size_t paletted = 0;
  for (std::size_t i = 0; i < dict->textures().size(); ++i) {
    const TextureNative& t = dict->textures()[i];
    SCOPED_TRACE(std::string(t.name));
    if (!is_paletted(t)) {
      EXPECT_FALSE(dict->decode_indexed(i).ok());
      continue;
    }
    ++paletted;
    const auto& want = facts["textures"][std::string(t.name)]["level_rgba_sha256"];
    for (std::uint32_t k = 0; k < t.levels.size(); ++k) {
      auto ix = dict->decode_indexed(i, k);
      auto rgba = dict->decode(i, k);
      ASSERT_TRUE(ix.ok() && rgba.ok());
      EXPECT_EQ(ix->palette.size(), std::size_t{t.palette_entries} * 4);
      const image::Rgba looked_up = image::to_rgba(*ix);
      EXPECT_EQ(looked_up.pixels, rgba->pixels) << "level " << k;
      EXPECT_EQ(testing::sha256_hex(looked_up.pixels), want[k]["sha256"].get<std::string>()) << "level " << k;
    }
  }
  EXPECT_EQ(paletted, 20u);  // README: PAL4, PAL8, 1555 and 8888 alike, 10 each
  EXPECT_FALSE(dict->decode_indexed(0, 99).ok());
  EXPECT_FALSE(dict->decode_indexed(40).ok());
}

// A GTA III-era D3D8 dictionary (README: 115 textures of 64 x 64, 110 PAL8, 5 8888): 110 indexed
// PNGs of bit depth 8 and 5 RGBA ones, each decoding to what decode() gives.
TEST(RwIndexedPng, D3d8DictionaryWritesIndexedPal8) {
  ASSAY_REQUIRE_SAMPLE(txd, "renderware/more/imgfactory_generic.txd");
  ::assay::testing::TempDir tmp;
  extract(txd, tmp / "o");
  auto m = MappedFile::open(txd);
  ASSERT_TRUE(m.ok());
  auto dict = TextureDictionary::open(m->bytes());
  ASSERT_TRUE(dict.ok()) << dict.error().str();
  ASSERT_EQ(dict->textures().size(), 115u);
  std::map<int, int> types;
  std::set<std::string> used;
  for (std::size_t i = 0; i < dict->textures().size(); ++i) {
    const std::string name = file_name(dict->textures()[i], i, used);
    const ByteBuffer png = ::assay::testing::read_file(tmp / "o" / name);
    const Ihdr h = ihdr(png);
    ++types[h.colour_type];
    if (h.colour_type == 3) {
      EXPECT_EQ(h.bit_depth, 8) << name;
    }
    auto img = image::decode_png(png);
    auto want = dict->decode(i);
    ASSERT_TRUE(img.ok() && want.ok()) << name;
    EXPECT_EQ(img->pixels, want->pixels) << name;
    if (h.colour_type == 2)
      for (std::size_t k = 3; k < img->pixels.size(); k += 4) ASSERT_EQ(img->pixels[k], 255) << name;
  }
  EXPECT_EQ(types[3], 110);
  EXPECT_EQ(types[6] + types[2], 5);  // the 8888 ones: RGBA, or RGB when opaque
}

// GTA SA PS2 HUD (more2/README: 70 textures, mostly PAL4): PAL4 levels as 4-bit indexed PNGs.
TEST(RwIndexedPng, Ps2Pal4HudWritesFourBitPngs) {
  ASSAY_REQUIRE_SAMPLE(txd, "renderware/more2/gtasa_ps2_HUD_70tex.txd");
  ::assay::testing::TempDir tmp;
  extract(txd, tmp / "o");
  auto m = MappedFile::open(txd);
  ASSERT_TRUE(m.ok());
  auto dict = TextureDictionary::open(m->bytes());
  ASSERT_TRUE(dict.ok()) << dict.error().str();
  ASSERT_EQ(dict->textures().size(), 70u);
  std::size_t pal4 = 0;
  std::set<std::string> used;
  for (std::size_t i = 0; i < dict->textures().size(); ++i) {
    const TextureNative& t = dict->textures()[i];
    const std::string name = file_name(t, i, used);
    const ByteBuffer png = ::assay::testing::read_file(tmp / "o" / name);
    auto img = image::decode_png(png);
    auto want = dict->decode(i);
    ASSERT_TRUE(img.ok() && want.ok()) << name;
    EXPECT_EQ(img->pixels, want->pixels) << name;
    if (t.format == TexelFormat::pal4) {
      ++pal4;
      EXPECT_EQ(ihdr(png).colour_type, 3) << name;
      EXPECT_EQ(ihdr(png).bit_depth, 4) << name;
    }
  }
  EXPECT_GT(pal4, 35u);  // "mostly PAL4"
}

}  // namespace
}  // namespace assay::rw
