// `assay replace X.igz -o OUT IMAGE=PNG` on a real PS3 texture (skylanders_zap.pak's
// colormap_zap_e_11.igz, read in place from the shared samples): the PNG comes back above 40 dB,
// only the bytes of the image's _data change (512 x 512 DXT1 with 5 levels: 131072 + 32768 + 8192
// + 2048 + 512 = 174592 bytes, computed by hand), the file still verifies, and a PNG of another
// size is refused unless --resize.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "assay/container.h"
#include "assay/image/encode.h"
#include "assay/image/png.h"
#include "testing/testing.h"

namespace assay {
namespace igz_image_edit_test {
namespace {

namespace fs = std::filesystem;
using testing::quote_path;
using testing::run_cli;

// A smooth test image (DXT keeps gradients well; the PSNR bar is about that, not about noise).
image::Rgba smooth(std::uint32_t w, std::uint32_t h) {
  image::Rgba img{w, h, ByteBuffer(std::size_t{w} * h * 4)};
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) {
      std::uint8_t* p = img.pixels.data() + (std::size_t{y} * w + x) * 4;
      p[0] = static_cast<std::uint8_t>(127 + 120 * std::sin(x / 40.0));
      p[1] = static_cast<std::uint8_t>(127 + 120 * std::cos(y / 50.0));
      p[2] = static_cast<std::uint8_t>((x + y) / 4 % 256);
      p[3] = 255;
    }
  return img;
}

// PSNR over RGBA computed here, not by the library.
double psnr_db(const image::Rgba& a, const image::Rgba& b) {
  double se = 0;
  for (std::size_t i = 0; i < a.pixels.size(); ++i) se += std::pow(double(a.pixels[i]) - double(b.pixels[i]), 2);
  return 10 * std::log10(255.0 * 255.0 / (se / a.pixels.size()));
}

struct ZapTexture {
  testing::TempDir t;
  fs::path igz;
};

// colormap_zap_e_11.igz as stored in zap.pak, written to a temporary folder.
bool extract_zap_e(const fs::path& pak, ZapTexture& z) {
  auto r = run_cli("extract -q --stored " + quote_path(pak) + " 'textures\\colormap_zap_e_11.igz' -o " + quote_path(z.t / "raw"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  z.igz = z.t / "raw" / "textures" / "colormap_zap_e_11.igz";
  return fs::exists(z.igz);
}

TEST(IgzImageEdit, ReplaceRoundTripsAbove40dBAndKeepsEveryOtherByte) {
  ASSAY_REQUIRE_SAMPLE(pak, "alchemy/skylanders_zap.pak");
  ZapTexture z;
  ASSERT_TRUE(extract_zap_e(pak, z));
  const image::Rgba want = smooth(512, 512);
  testing::write_file(z.t / "in.png", *image::encode_png(want));
  const fs::path out = z.t / "out.igz";
  auto r = run_cli("replace " + quote_path(z.igz) + " -o " + quote_path(out) + " _Zap_E=" + quote_path(z.t / "in.png"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(run_cli("verify " + quote_path(out)).exit_code, 0);
  // the changed bytes all lie in one run no longer than the 174592 bytes of pixels
  const ByteBuffer before = testing::read_file(z.igz), after = testing::read_file(out);
  ASSERT_EQ(before.size(), after.size());
  std::size_t first = after.size(), last = 0;
  for (std::size_t i = 0; i < after.size(); ++i)
    if (before[i] != after[i]) first = std::min(first, i), last = i;
  ASSERT_LT(first, last);
  EXPECT_LT(last - first, 174592u);
  const auto list = nlohmann::json::parse(run_cli("list --json " + quote_path(out)).out);
  const auto& data = list["entries"][2]["data"];
  EXPECT_EQ(data["size"], 174592);
  EXPECT_GE(first, data["offset"].get<std::size_t>());
  EXPECT_LT(last, data["offset"].get<std::size_t>() + 174592u);
  // and the image read back is the PNG put in, to DXT1's precision
  r = run_cli("extract -q " + quote_path(out) + " -o " + quote_path(z.t / "x"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto got = image::read_png(testing::read_file(z.t / "x" / "0002__Zap_E.png"));
  ASSERT_TRUE(got.ok());
  ASSERT_EQ(got->width, 512u);
  EXPECT_GT(psnr_db(want, *got), 40.0);
}

TEST(IgzImageEdit, AnotherSizeIsRefusedUnlessResized) {
  ASSAY_REQUIRE_SAMPLE(pak, "alchemy/skylanders_zap.pak");
  ZapTexture z;
  ASSERT_TRUE(extract_zap_e(pak, z));
  testing::write_file(z.t / "small.png", *image::encode_png(smooth(64, 32)));
  const std::string args = " " + quote_path(z.igz) + " _Zap_E=" + quote_path(z.t / "small.png");
  auto r = run_cli("replace -o " + quote_path(z.t / "a.igz") + args);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("64 x 32"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--resize"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(z.t / "a.igz"));
  r = run_cli("replace --resize -o " + quote_path(z.t / "b.igz") + args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run_cli("replace -o " + quote_path(z.t / "c.igz") + " " + quote_path(z.igz) + " nosuchimage=" + quote_path(z.t / "small.png"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no image named 'nosuchimage'"), std::string::npos) << r.err;
}

// Through the archive: `replace zap.pak -o OUT 'textures\x.igz::IMAGE=PNG'` edits the image inside
// the igz member; the archive verifies, the image reads back above 40 dB, every other member's bytes
// are the original's.
TEST(IgzImageEdit, ImageInsideAnArchiveMember) {
  ASSAY_REQUIRE_SAMPLE(pak, "alchemy/skylanders_zap.pak");
  testing::TempDir t;
  const image::Rgba want = smooth(512, 512);
  testing::write_file(t / "in.png", *image::encode_png(want));
  const fs::path out = t / "z2.pak";
  auto r = run_cli("replace " + quote_path(pak) + " -o " + quote_path(out) + " " +
                   testing::shell_quote("textures\\colormap_zap_e_11.igz::_Zap_E=" + (t / "in.png").string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(run_cli("verify " + quote_path(out)).exit_code, 0);
  r = run_cli("extract -q --textures " + quote_path(out) + " 'textures\\colormap_zap_e_11.igz' -o " + quote_path(t / "x"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto got = image::read_png(testing::read_file(t / "x" / "textures" / "colormap_zap_e_11.png"));
  ASSERT_TRUE(got.ok());
  EXPECT_GT(psnr_db(want, *got), 40.0);
  ASSERT_EQ(run_cli("extract -q --stored " + quote_path(pak) + " -o " + quote_path(t / "a")).exit_code, 0);
  ASSERT_EQ(run_cli("extract -q --stored " + quote_path(out) + " -o " + quote_path(t / "b")).exit_code, 0);
  int same = 0;
  for (const auto& e : fs::recursive_directory_iterator(t / "a")) {
    if (!e.is_regular_file()) continue;
    const fs::path rel = fs::relative(e.path(), t / "a");
    const bool edited = rel == fs::path("textures") / "colormap_zap_e_11.igz";
    EXPECT_EQ(testing::read_file(e.path()) == testing::read_file(t / "b" / rel), !edited) << rel;
    same += !edited;
  }
  EXPECT_EQ(same, 87);  // the archive's 88 files but the one edited
}

}  // namespace
}  // namespace igz_image_edit_test
}  // namespace assay
