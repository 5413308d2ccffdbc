// Container::texture on Oni TXMP entries (issue 12 / the viewer and Python module): the pixels are
// what `extract --textures --mips` writes, and for the 32-bit textures exactly OniSplit's PNGs
// (onisplit_view/png_level0/, independent of assay).
#include <gtest/gtest.h>

#include "assay/container.h"
#include "assay/image/png.h"
#include "testing/testing.h"
#include "formats/serialise.h"

namespace assay::oni {
namespace {

ByteBuffer png_pixels(const std::filesystem::path& p, std::uint32_t* w, std::uint32_t* h) {
  auto img = image::decode_png(testing::read_file(p));
  EXPECT_TRUE(img.ok()) << p;
  if (!img) return {};
  *w = img->width, *h = img->height;
  return img->pixels;
}

TEST(OniContainer, TxmpEntriesDecodeAsExtractAndOniSplit) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  ASSAY_REQUIRE_SAMPLE(pngs, "oni/onisplit_view/png_level0");
  testing::TempDir out;
  auto x = testing::run_cli("extract --textures --mips " + testing::shell_quote((dir / "level0_Final.dat").string()) + " -o " +
                            testing::shell_quote((out / "t").string()));
  ASSERT_EQ(x.exit_code, 0) << x.err;
  auto c = open_path((dir / "level0_Final.dat").string());
  ASSERT_TRUE(c.ok()) << c.error().message;
  int textures = 0, mips = 0, onisplit = 0;
  for (const Entry& e : (*c)->entries()) {
    const Json details = details_json(**c, e);
    const bool txmp = details.value("tag", "") == "TXMP";
    if (!txmp || !e.size) {
      EXPECT_NE(e.kind, assay::EntryKind::texture);
      EXPECT_FALSE((*c)->texture(e).ok());  // unsupported for other entries
      continue;
    }
    ASSERT_EQ(e.kind, assay::EntryKind::texture) << e.index;
    ++textures;
    if (!e.name) {  // an unnamed TXMP (a texture animation's frame): decodes, no PNG of its own to compare
      EXPECT_TRUE((*c)->texture(e).ok()) << e.index;
      continue;
    }
    const unsigned levels = details.value("mips", 1u);
    for (unsigned m = 0; m < levels; ++m) {
      const auto file = out / "t" / (*e.name + (m == 0 ? std::string(".png") : ".mip" + std::to_string(m) + ".png"));
      std::uint32_t w = 0, h = 0;
      const ByteBuffer want = png_pixels(file, &w, &h);
      auto img = (*c)->texture(e, m);
      ASSERT_TRUE(img.ok()) << *e.name << " mip " << m << ": " << img.error().message;
      EXPECT_EQ(img->width, w);
      EXPECT_EQ(img->height, h);
      EXPECT_EQ(img->pixels, want) << *e.name << " mip " << m;
      mips += m > 0;
    }
    EXPECT_FALSE((*c)->texture(e, levels).ok()) << "past the last mip";
    const auto theirs = pngs / (*e.name + ".png");
    const int fmt = details.value("pixel_format", -1);
    if ((fmt == 7 || fmt == 8) && std::filesystem::exists(theirs)) {  // 32-bit: exactly OniSplit's pixels
      std::uint32_t w = 0, h = 0;
      EXPECT_EQ((*c)->texture(e)->pixels, png_pixels(theirs, &w, &h)) << *e.name;
      ++onisplit;
    }
  }
  EXPECT_EQ(textures, 16);  // samples/oni/README.md: level 0 has TXMP 16 (14 named: onisplit_view/png_level0)
  EXPECT_GT(mips, 0);
  EXPECT_GE(onisplit, 5);
}

}  // namespace
}  // namespace assay::oni
