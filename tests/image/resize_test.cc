// image::resize (issue 29 item 6: `replace --resize`) against hand-computed pixels, and
// image_file_kind against the formats' published magic numbers.
#include <gtest/gtest.h>

#include "assay/image/resize.h"

namespace assay::image {
namespace {

Rgba grey_row(std::initializer_list<std::uint8_t> v, std::uint32_t rows = 1) {
  Rgba img{static_cast<std::uint32_t>(v.size()), rows, {}};
  for (std::uint32_t y = 0; y < rows; ++y)
    for (std::uint8_t g : v) img.pixels.insert(img.pixels.end(), {g, g, g, 255});
  return img;
}

std::vector<int> reds(const Rgba& img) {
  std::vector<int> r;
  for (std::size_t i = 0; i < img.pixels.size(); i += 4) r.push_back(img.pixels[i]);
  return r;
}

TEST(ImageResize, SameSizeIsACopy) {
  const Rgba a = grey_row({1, 2, 3}, 2);
  auto b = resize(a, 3, 2);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->pixels, a.pixels);
}

// Bilinear between pixel centres: output x samples source (x + 0.5) * 2 / 4 - 0.5 = -0.25 (clamped
// to 0), 0.25, 0.75, 1.25 (clamped to 1): 0, 0.25 x 255 = 63.75 -> 64, 191.25 -> 191, 255.
TEST(ImageResize, UpscaleIsBilinearBetweenCentres) {
  auto b = resize(grey_row({0, 255}), 4, 1);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(reds(*b), (std::vector<int>{0, 64, 191, 255}));
  EXPECT_EQ(b->pixels[3], 255);
  auto one = resize(grey_row({77}), 3, 2);  // a single pixel everywhere
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(reds(*one), (std::vector<int>(6, 77)));
}

// Shrinking is the area mean: 4 -> 2 averages pairs ((10 + 20) / 2 = 15, (30 + 50) / 2 = 40).
TEST(ImageResize, DownscaleIsTheAreaMean) {
  auto b = resize(grey_row({10, 20, 30, 50}, 2), 2, 1);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(reds(*b), (std::vector<int>{15, 40}));
}

// One side grows, the other shrinks: 4 x 1 -> 2 x 2 is the pair means on both rows.
TEST(ImageResize, MixedSides) {
  auto b = resize(grey_row({10, 20, 30, 50}), 2, 2);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(reds(*b), (std::vector<int>{15, 40, 15, 40}));
}

// A transparent pixel does not darken its neighbour's colour (colour weighted by alpha).
TEST(ImageResize, TransparentTexelsDoNotDarken) {
  Rgba img{2, 1, ByteBuffer{200, 100, 50, 255, 0, 0, 0, 0}};
  auto b = resize(img, 4, 1);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->pixels[4 * 1 + 0], 200);  // x = 1 samples 0.25 of the way: colour stays the opaque one's
  EXPECT_EQ(b->pixels[4 * 1 + 3], 191);  // alpha 255 x 0.75 = 191.25
}

TEST(ImageResize, BadInputRefused) {
  EXPECT_FALSE(resize(Rgba{2, 2, ByteBuffer(15)}, 4, 4).ok());
  EXPECT_FALSE(resize(grey_row({1}), 0, 4).ok());
}

ByteBuffer b(std::string_view s) { return ByteBuffer(s.begin(), s.end()); }

// Magic numbers: PNG (RFC 2083 signature), JPEG SOI + marker (T.81), GIF87a/89a, RIFF....WEBP,
// TIFF II*\0 / MM\0*, DDS "DDS ", PSD "8BPS", BMP "BM" + reserved zero words.
TEST(ImageFileKind, MagicNumbers) {
  using namespace std::string_view_literals;
  EXPECT_EQ(image_file_kind(b("\x89PNG\r\n\x1a\n\0\0\0\rIHDR"sv)), "PNG");
  EXPECT_EQ(image_file_kind(b("\xFF\xD8\xFF\xE0\0\x10JFIF"sv)), "JPEG");
  EXPECT_EQ(image_file_kind(b("\xFF\xD8\xFF\xE1\0\x10" "Exif"sv)), "JPEG");
  EXPECT_EQ(image_file_kind(b("GIF89a\1\0\1\0"sv)), "GIF");
  EXPECT_EQ(image_file_kind(b("GIF87a"sv)), "GIF");
  EXPECT_EQ(image_file_kind(b("RIFF\0\0\0\0WEBPVP8 "sv)), "WebP");
  EXPECT_EQ(image_file_kind(b("RIFF\0\0\0\0WAVEfmt "sv)), "");  // a RIFF that is not WebP
  EXPECT_EQ(image_file_kind(b("II*\0\x08\0\0\0"sv)), "TIFF");
  EXPECT_EQ(image_file_kind(b("MM\0*\0\0\0\x08"sv)), "TIFF");
  EXPECT_EQ(image_file_kind(b("DDS \x7C\0\0\0"sv)), "DDS");
  EXPECT_EQ(image_file_kind(b("8BPS\0\1"sv)), "PSD");
  ByteBuffer bmp = b("BM");
  bmp.resize(54, 0);
  bmp[2] = 54;
  bmp[10] = 54;
  EXPECT_EQ(image_file_kind(bmp), "BMP");
  EXPECT_EQ(image_file_kind(b("BMX not a bitmap, just text that starts with BM"sv)), "");
  EXPECT_EQ(image_file_kind(b("\x89PN"sv)), "");  // a cut signature
  EXPECT_EQ(image_file_kind({}), "");
}

}  // namespace
}  // namespace assay::image
