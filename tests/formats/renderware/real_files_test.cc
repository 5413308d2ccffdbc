// Real files made by games and by a peer reader's own writer (../shared/samples/renderware, read
// in place): the facts of the samples README and of renderware.md#rw-real, and librw's decoded
// RGBA hashes (librw-ps2/ps2_v36003.librw-rgba.json). Texel values are computed here by hand
// from the raw bytes (swizzle formula, CSM1 order, palette), not taken from the decoder.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <set>

#include "assay/core/mapped_file.h"
#include "assay/options.h"
#include "assay/formats/renderware/clump.h"
#include "assay/formats/renderware/texture.h"
#include "assay/formats/renderware/verify.h"
#include "assay/formats/renderware/walker.h"
#include "assay/image/ps2.h"
#include "sha256.h"
#include "testing/testing.h"
#include "testing/families.h"
#include "formats/serialise.h"

namespace assay::rw {
namespace {

using ::assay::testing::run_cli;
using ::assay::testing::shell_quote;

std::uint32_t u32(ByteView b, std::uint64_t o) { return load<std::uint32_t>(b.data() + o, Endian::little); }

// The offset of the n-th child header of the container whose header is at `off` (hops only).
std::uint64_t nth_child(ByteView b, std::uint64_t off, int n) {
  std::uint64_t p = off + 12;
  for (int i = 0; i < n; ++i) p += 12 + u32(b, p + 4);
  return p;
}

std::array<int, 4> px(const image::Rgba& img, std::uint32_t x, std::uint32_t y) {
  const std::uint8_t* p = img.pixels.data() + (std::size_t{y} * img.width + x) * 4;
  return {p[0], p[1], p[2], p[3]};
}

TEST(RwRealTest, Sha256HelperMatchesFips) {
  const std::string abc = "abc";
  EXPECT_EQ(testing::sha256_hex(ByteView(reinterpret_cast<const std::uint8_t*>(abc.data()), abc.size())),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

// Every level of all 40 textures decodes to the RGBA librw's own reader gives (README).
TEST(RwRealLibrwPs2, EveryLevelHashesLikeLibrw) {
  ASSAY_REQUIRE_SAMPLE(txd, "renderware/librw-ps2/ps2_v36003.txd");
  ASSAY_REQUIRE_SAMPLE(js, "renderware/librw-ps2/ps2_v36003.librw-rgba.json");
  std::ifstream f(js);
  const auto facts = nlohmann::json::parse(f);
  auto m = MappedFile::open(txd);
  ASSERT_TRUE(m.ok());
  Diagnostics d;
  auto dict = TextureDictionary::open(m->bytes(), 0, d.sink());
  ASSERT_TRUE(dict.ok()) << dict.error().str();
  EXPECT_EQ(d.items().size(), 0u) << (d.items().empty() ? "" : d.items()[0].where.str());
  EXPECT_EQ(dict->stamp(), 0x1803FFFFu);
  ASSERT_EQ(dict->textures().size(), 40u);
  ASSERT_EQ(facts["textures"].size(), 40u);
  std::map<std::string, std::size_t> by_name;
  for (std::size_t i = 0; i < dict->textures().size(); ++i) by_name[std::string(dict->textures()[i].name)] = i;
  std::size_t levels_checked = 0;
  for (const auto& [name, t] : facts["textures"].items()) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(by_name.count(name));
    const std::size_t i = by_name[name];
    const TextureNative& tex = dict->textures()[i];
    EXPECT_EQ(tex.width, t["width"].get<std::uint32_t>());
    EXPECT_EQ(tex.height, t["height"].get<std::uint32_t>());
    EXPECT_EQ(tex.depth, t["depth"].get<std::uint32_t>());
    EXPECT_EQ(tex.raster_format & 0xFF00, std::stoul(t["raster_format"].get<std::string>(), nullptr, 16));
    ASSERT_EQ(tex.levels.size(), t["levels"].get<std::size_t>());
    for (const auto& l : t["level_rgba_sha256"]) {
      const auto level = l["level"].get<std::uint32_t>();
      auto img = dict->decode(i, level);
      ASSERT_TRUE(img.ok()) << img.error().str();
      EXPECT_EQ(img->width, l["width"].get<std::uint32_t>());
      EXPECT_EQ(img->height, l["height"].get<std::uint32_t>());
      EXPECT_EQ(testing::sha256_hex(img->pixels), l["sha256"].get<std::string>()) << "level " << level;
      ++levels_checked;
    }
  }
  EXPECT_EQ(levels_checked, 88u);
}

// Texels computed by hand from the raw bytes: PAL8 through the spec's swizzle and CSM1, 1555
// and 8888 straight from the plain GS images (spec: #rw-real, #rw-5-7, #rw-5-8).
TEST(RwRealLibrwPs2, TexelsComputedFromTheBytes) {
  ASSAY_REQUIRE_SAMPLE(txd, "renderware/librw-ps2/ps2_v36003.txd");
  auto m = MappedFile::open(txd);
  ASSERT_TRUE(m.ok());
  const ByteView b = m->bytes();
  auto dict = TextureDictionary::open(b);
  ASSERT_TRUE(dict.ok()) << dict.error().str();
  for (std::size_t i = 0; i < dict->textures().size(); ++i) {
    const TextureNative& t = dict->textures()[i];
    const std::string name(t.name);
    if (name != "pal8_64x64" && name != "c1555_16x32" && name != "c8888_64x64_mip") continue;
    SCOPED_TRACE(name);
    // native -> raster container (child 3) -> data struct (its child 1) -> first packet image
    const std::uint64_t raster = nth_child(b, t.offset, 3);
    const std::uint64_t data = nth_child(b, raster, 1) + 12;
    const std::uint64_t header = nth_child(b, raster, 0) + 12;
    const std::uint32_t pixel_size = u32(b, header + 0x30);
    ASSERT_EQ(u32(b, data), 3u);  // GIF tag NLOOP 3
    const std::uint64_t image = data + 0x50;
    auto img = dict->decode(i, 0);
    ASSERT_TRUE(img.ok()) << img.error().str();
    for (auto [x, y] : {std::pair{0u, 0u}, {5u, 3u}, {13u, 7u}, {t.width - 1, t.height - 1}, {t.width / 2, 9u}}) {
      std::array<int, 4> want{};
      if (name == "pal8_64x64") {
        EXPECT_EQ(u32(b, data + 0x20), 32u);  // TRXREG: half of the 64 x 64 level
        const std::uint8_t index = b[image + image::ps2::swizzle_address(x, y, 6)];
        const std::uint32_t entry = ((index & 0x18) == 0x08 || (index & 0x18) == 0x10) ? index ^ 0x18 : index;
        const std::uint64_t pal = data + pixel_size + 0x50 + 4 * entry;
        want = {b[pal], b[pal + 1], b[pal + 2], std::min(b[pal + 3] * 255 / 128, 255)};
      } else if (name == "c1555_16x32") {
        EXPECT_EQ(u32(b, data + 0x20), 16u);  // TRXREG: the level's own size, not doubled
        EXPECT_EQ(u32(b, data + 0x24), 32u);
        const std::uint32_t v = load<std::uint16_t>(b.data() + image + 2 * (y * 16 + x), Endian::little);
        want = {int((v & 31) * 255 / 31), int(((v >> 5) & 31) * 255 / 31), int(((v >> 10) & 31) * 255 / 31),
                (v & 0x8000) ? 255 : 0};
      } else {
        EXPECT_EQ(u32(b, data + 0x20), 64u);
        const std::uint64_t p = image + 4 * (std::uint64_t{y} * 64 + x);
        want = {b[p], b[p + 1], b[p + 2], std::min(b[p + 3] * 255 / 128, 255)};
      }
      EXPECT_EQ(px(*img, x, y), want) << x << "," << y;
    }
  }
}

// verify and list: no error for the 1555/8888 textures (the old R10 misreading), 40 entries.
TEST(RwRealLibrwPs2, CliVerifyListExtract) {
  ASSAY_REQUIRE_SAMPLE(txd, "renderware/librw-ps2/ps2_v36003.txd");
  auto v = run_cli("verify " + shell_quote(txd.string()));
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  auto l = run_cli("list --json " + shell_quote(txd.string()));
  ASSERT_EQ(l.exit_code, 0) << l.err;
  const auto j = nlohmann::json::parse(l.out);
  ASSERT_EQ(j["entries"].size(), 40u);
  std::size_t c1555 = 0, c8888 = 0;
  for (const auto& e : j["entries"]) {
    c1555 += e["format"] == "1555";
    c8888 += e["format"] == "8888";
    EXPECT_EQ(e["decodable"], true) << e["name"];
  }
  EXPECT_EQ(c1555, 10u);
  EXPECT_EQ(c8888, 10u);
  ::assay::testing::TempDir tmp;
  auto x = run_cli("extract --mips " + shell_quote(txd.string()) + " -o " + shell_quote((tmp / "o").string()));
  EXPECT_EQ(x.exit_code, 0) << x.err;
  EXPECT_TRUE(std::filesystem::exists(tmp / "o" / "c8888_256x256_mip.mip5.png"));
  EXPECT_TRUE(std::filesystem::exists(tmp / "o" / "c1555_128x64_mip.mip3.png"));
}

// Manhunt PS2 models: 79 clumps back to back, 84 atomics, 29,675 triangles (README; librw agrees).
TEST(RwRealManhunt, EveryTopLevelClump) {
  ASSAY_REQUIRE_SAMPLE(p, "renderware/more/mh1_ps2_MODELS.DFF");
  auto in = Input::open(p);
  ASSERT_TRUE(in.ok());
  EXPECT_EQ(in->bytes.size(), 2187398u);
  EXPECT_EQ(u32(in->bytes, 8), 0x1005FFFFu);  // RW 3.4.0.5
  EXPECT_GE(kRenderWareFamily.identify(*in), 50);
  auto info = ::assay::testing::info_of(*in, "renderware");
  ASSERT_TRUE(info.ok()) << info.error().str();
  EXPECT_EQ((*info)["clump_count"], 79);
  EXPECT_EQ((*info)["atomic_count"], 84);
  EXPECT_EQ((*info)["triangles"], 29675);
  EXPECT_EQ((*info)["top_sections"], 79);
  auto list = ::assay::testing::list_of(*in, "renderware");
  ASSERT_TRUE(list.ok()) << list.error().str();
  Json entries = Json::array();
  std::size_t models = 0;
  for (const auto& e : (*list)["entries"]) {
    if (e["kind"] == "atomic") entries.push_back(e);
    models += e["kind"] == "model";
  }
  ASSERT_EQ(entries.size(), 84u);
  EXPECT_EQ(models, 79u);  // one glTF model per clump
  std::set<int> clumps;
  int last = -1;
  for (const auto& e : entries) {
    const int c = e["clump"].get<int>();
    EXPECT_GE(c, last);  // in file order
    last = c;
    clumps.insert(c);
  }
  EXPECT_EQ(clumps.size(), 79u);
  EXPECT_EQ(*clumps.rbegin(), 78);
  Diagnostics d;
  EXPECT_TRUE(verify_stream(in->bytes, 0, d.sink()));
  auto r = run_cli("info --json " + shell_quote(p.string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["clump_count"], 79);
}

// Manhunt 2's Z2HM file named .TXD is not RenderWare: content decides, never the name.
TEST(RwRealManhunt2, DsfeTxdIsNotRenderWare) {
  ASSAY_REQUIRE_SAMPLE(p, "renderware/more/mh2_ps2_DSFE.TXD");
  auto in = Input::open(p);
  ASSERT_TRUE(in.ok());
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(in->bytes.data()), 4), "Z2HM");
  EXPECT_EQ(kRenderWareFamily.identify(*in), 0);
  auto r = run_cli("identify --json " + shell_quote(p.string()));
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["files"].size(), 1u);
  EXPECT_NE(j["files"][0]["format"], "renderware") << r.out;
}

// A GTA III-era D3D8 dictionary in the old packed stamp: 115 textures of 64 x 64, 110 PAL8 and
// 5 8888 (README); a PAL8 texel is palette[index] (spec: #rw-real "Old stamps", #rw-6-1).
TEST(RwRealImgFactory, D3d8Pal8TexelsFromThePalette) {
  ASSAY_REQUIRE_SAMPLE(p, "renderware/more/imgfactory_generic.txd");
  auto m = MappedFile::open(p);
  ASSERT_TRUE(m.ok());
  const ByteView b = m->bytes();
  EXPECT_EQ(u32(b, 8), 0x0800FFFFu);
  Diagnostics d;
  auto dict = TextureDictionary::open(b, 0, d.sink());
  ASSERT_TRUE(dict.ok()) << dict.error().str();
  ASSERT_EQ(dict->textures().size(), 115u);
  std::size_t pal8 = 0, c8888 = 0;
  for (const auto& t : dict->textures()) {
    EXPECT_EQ(t.platform, kPlatformD3D8);
    EXPECT_EQ(t.width, 64u);
    EXPECT_EQ(t.height, 64u);
    pal8 += t.format == TexelFormat::pal8;
    c8888 += t.format == TexelFormat::bgra8888;
  }
  EXPECT_EQ(pal8, 110u);
  EXPECT_EQ(c8888, 5u);
  std::size_t checked = 0;
  for (std::size_t i = 0; i < dict->textures().size() && checked < 3; ++i) {
    const TextureNative& t = dict->textures()[i];
    if (t.format != TexelFormat::pal8) continue;
    // struct body: 88-byte header, 256 x 4 palette, u32 size, the indices
    const std::uint64_t s = nth_child(b, t.offset, 0) + 12;
    ASSERT_EQ(u32(b, s), 8u);
    ASSERT_EQ(u32(b, s + 0x58 + 1024), 4096u);
    const std::uint64_t idx = s + 0x58 + 1024 + 4;
    auto img = dict->decode(i, 0);
    ASSERT_TRUE(img.ok()) << img.error().str();
    for (auto [x, y] : {std::pair{0u, 0u}, {17u, 9u}, {63u, 63u}, {40u, 22u}}) {
      const std::uint64_t e = s + 0x58 + 4 * std::uint64_t{b[idx + y * 64 + x]};
      EXPECT_EQ(px(*img, x, y), (std::array<int, 4>{b[e], b[e + 1], b[e + 2], b[e + 3]})) << t.name;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 3u);
}

}  // namespace
}  // namespace assay::rw
