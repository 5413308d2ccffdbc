#include <gtest/gtest.h>

#include <zlib.h>

#include <cstring>

#include "assay/image/png.h"

namespace assay::image {
namespace {

TEST(Png, RoundTripAndSignature) {
  Rgba img{3, 2, {}};
  for (int i = 0; i < 6; ++i) img.pixels.insert(img.pixels.end(), {std::uint8_t(i * 40), 0x10, 0x20, std::uint8_t(255 - i)});
  auto png = encode_png(img);
  ASSERT_TRUE(png.ok()) << png.error().str();
  // The PNG signature (RFC 2083): 89 50 4E 47 0D 0A 1A 0A.
  const std::uint8_t sig[] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  ASSERT_GE(png->size(), 8u);
  EXPECT_TRUE(std::equal(sig, sig + 8, png->begin()));
  auto back = decode_png(*png);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->width, 3u);
  EXPECT_EQ(back->height, 2u);
  EXPECT_EQ(back->pixels, img.pixels);
}

// The chunks of a 2 x 2 RGBA image, by hand (ISO 15948): the signature, IHDR (CRC 0x72B60D24 from
// Python's zlib.crc32 over "IHDR" and its 13 bytes), one IDAT whose zlib stream (inflated here by
// zlib, not by the writer's libdeflate) holds each row after filter type 2 (Up: the first row
// against zeros, the second as differences mod 256), and IEND with its fixed CRC 0xAE426082.
TEST(Png, ChunksAndUpFilteredRowsByHand) {
  const Rgba img{2, 2, {10, 20, 30, 255, 40, 50, 60, 128, 5, 25, 35, 0, 200, 50, 61, 129}};
  auto png = encode_png(img);
  ASSERT_TRUE(png.ok()) << png.error().str();
  const std::vector<std::uint8_t> head = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A,  // signature
                                          0, 0, 0, 13, 'I', 'H', 'D', 'R', 0, 0, 0, 2, 0, 0, 0, 2, 8, 6, 0, 0, 0,
                                          0x72, 0xB6, 0x0D, 0x24};
  ASSERT_GT(png->size(), head.size() + 12 + 12);
  EXPECT_EQ(std::vector<std::uint8_t>(png->begin(), png->begin() + static_cast<std::ptrdiff_t>(head.size())), head);
  const std::uint8_t* idat = png->data() + head.size();
  const std::uint32_t n = std::uint32_t{idat[0]} << 24 | std::uint32_t{idat[1]} << 16 | std::uint32_t{idat[2]} << 8 | idat[3];
  ASSERT_EQ(std::string(reinterpret_cast<const char*>(idat + 4), 4), "IDAT");
  ASSERT_EQ(head.size() + 12 + n + 12, png->size());
  const std::vector<std::uint8_t> want = {2, 10, 20, 30, 255, 40, 50, 60, 128,
                                          2, 251, 5, 5, 1, 160, 0, 1, 1};
  std::vector<std::uint8_t> rows(want.size() + 8);
  uLongf len = rows.size();
  ASSERT_EQ(uncompress(rows.data(), &len, idat + 8, n), Z_OK);
  rows.resize(len);
  EXPECT_EQ(rows, want);
  EXPECT_EQ(static_cast<std::uint32_t>(::crc32(0, idat + 4, n + 4)),
            std::uint32_t{idat[8 + n]} << 24 | std::uint32_t{idat[9 + n]} << 16 | std::uint32_t{idat[10 + n]} << 8 | idat[11 + n]);
  const std::vector<std::uint8_t> iend = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82};
  EXPECT_EQ(std::vector<std::uint8_t>(png->end() - 12, png->end()), iend);
}

// A large image whose rows repeat compresses (the stream is deflate, not stored) and decodes
// with libspng to the same pixels.
TEST(Png, LargeImageCompressesAndDecodes) {
  Rgba img{512, 300, ByteBuffer(512 * 300 * 4)};
  for (std::size_t i = 0; i < img.pixels.size(); ++i) img.pixels[i] = static_cast<std::uint8_t>((i % 2048) / 8);
  auto png = encode_png(img);
  ASSERT_TRUE(png.ok());
  EXPECT_LT(png->size(), img.pixels.size() / 20);
  auto back = decode_png(*png);
  ASSERT_TRUE(back.ok()) << back.error().str();
  EXPECT_EQ(back->pixels, img.pixels);
}

// An opaque image (every alpha 255) is written as 8-bit RGB, colour type 2 (ISO 15948 11.2.2: IHDR
// bytes by hand, its CRC from zlib's crc32), its rows Up-filtered over 3 bytes a pixel (inflated by
// zlib), and libspng reads it back to the same RGBA pixels (alpha 255).
TEST(Png, OpaqueImageAsRgbByHand) {
  const Rgba img{3, 2, {10, 20, 30, 255, 40, 50, 60, 255, 7, 8, 9, 255, 5, 25, 35, 255, 200, 50, 61, 255, 7, 8, 9, 255}};
  auto png = encode_png(img);
  ASSERT_TRUE(png.ok()) << png.error().str();
  const std::vector<std::uint8_t> ihdr = {'I', 'H', 'D', 'R', 0, 0, 0, 3, 0, 0, 0, 2, 8, 2, 0, 0, 0};
  const std::uint32_t crc = static_cast<std::uint32_t>(::crc32(0, ihdr.data(), static_cast<uInt>(ihdr.size())));
  ASSERT_GT(png->size(), 33u + 12 + 12);
  EXPECT_EQ(std::vector<std::uint8_t>(png->begin() + 12, png->begin() + 29), ihdr);
  EXPECT_EQ(std::uint32_t{(*png)[29]} << 24 | std::uint32_t{(*png)[30]} << 16 | std::uint32_t{(*png)[31]} << 8 | (*png)[32], crc);
  const std::uint8_t* idat = png->data() + 33;
  const std::uint32_t n = std::uint32_t{idat[0]} << 24 | std::uint32_t{idat[1]} << 16 | std::uint32_t{idat[2]} << 8 | idat[3];
  ASSERT_EQ(std::string(reinterpret_cast<const char*>(idat + 4), 4), "IDAT");
  const std::vector<std::uint8_t> want = {2, 10, 20, 30, 40, 50, 60, 7, 8, 9,
                                          2, 251, 5, 5, 160, 0, 1, 0, 0, 0};
  std::vector<std::uint8_t> rows(want.size() + 8);
  uLongf len = rows.size();
  ASSERT_EQ(uncompress(rows.data(), &len, idat + 8, n), Z_OK);
  rows.resize(len);
  EXPECT_EQ(rows, want);
  auto back = decode_png(*png);
  ASSERT_TRUE(back.ok()) << back.error().str();
  EXPECT_EQ(back->pixels, img.pixels);
}

// Large images through the run deflate: an opaque one as RGB (colour type 2), the same with one
// alpha below 255 in its last row (found after every other row was filtered as RGB) as RGBA; both
// decode with libspng to their pixels. Widths of 4k + 1 and 4k + 2 pixels take the filter's tail paths
// (a pixel alone, a pair) after its 4 pixels a step.
TEST(Png, LargeOpaqueImageAsRgbAndOneAlphaMakesItRgba) {
  for (const std::uint32_t w : {512u, 333u, 334u}) {
    Rgba img{w, 300, ByteBuffer(std::size_t{w} * 300 * 4)};
    for (std::size_t i = 0; i < img.pixels.size(); ++i)
      img.pixels[i] = i % 4 == 3 ? 255 : static_cast<std::uint8_t>((i % 2048) / 8 + i / 40000);
    auto png = encode_png(img);
    ASSERT_TRUE(png.ok());
    EXPECT_EQ((*png)[25], 2) << w;
    auto back = decode_png(*png);
    ASSERT_TRUE(back.ok()) << back.error().str();
    EXPECT_EQ(back->pixels, img.pixels) << w;
    img.pixels[img.pixels.size() - 5] = 254;  // the last row's next-to-last pixel
    png = encode_png(img);
    ASSERT_TRUE(png.ok());
    EXPECT_EQ((*png)[25], 6) << w;
    back = decode_png(*png);
    ASSERT_TRUE(back.ok()) << back.error().str();
    EXPECT_EQ(back->pixels, img.pixels) << w;
  }
}

// encode_png_rows gives the bytes encode_png gives for the whole image, whatever the band (1 row,
// 4, 7, 64, more than the height), for an opaque image (RGB) and one whose alpha shows in its last
// rows (RGB bands until then, then RGBA from row 0 again); a small one through libdeflate too; a
// source's error is the result.
TEST(Png, RowsGiveTheBytesOfTheWholeImage) {
  for (const auto& [w, h] : {std::pair{301u, 150u}, std::pair{512u, 300u}, std::pair{7u, 5u}}) {
    Rgba img{w, h, ByteBuffer(std::size_t{w} * h * 4)};
    for (std::size_t i = 0; i < img.pixels.size(); ++i)
      img.pixels[i] = i % 4 == 3 ? 255 : static_cast<std::uint8_t>((i % 1200) / 9 + i / 30000);
    for (const bool alpha : {false, true}) {
      if (alpha) img.pixels[img.pixels.size() - 4 * w - 1] = 7;  // the next-to-last row's last pixel
      auto whole = encode_png(img);
      ASSERT_TRUE(whole.ok());
      EXPECT_EQ((*whole)[25], alpha ? 6 : 2);
      for (const std::uint32_t band : {1u, 4u, 7u, 64u, 1000u}) {
        std::uint32_t calls = 0;
        auto rows = encode_png_rows(w, h, band, [&](std::uint32_t y0, std::uint32_t y1, std::uint8_t* out) -> Result<void> {
          EXPECT_EQ(y0 % band, 0u);
          EXPECT_EQ(y1, std::min(h, y0 + band));
          std::memcpy(out, img.pixels.data() + std::size_t{y0} * w * 4, std::size_t{y1 - y0} * w * 4);
          ++calls;
          return {};
        });
        ASSERT_TRUE(rows.ok()) << rows.error().str();
        EXPECT_EQ(*rows, *whole) << w << " band " << band << " alpha " << alpha;
        const std::uint32_t bands = (h + band - 1) / band;
        EXPECT_EQ(calls, alpha ? (h - 2) / band + 1 + bands : bands);  // RGB up to the band with the alpha, then RGBA
      }
      auto back = decode_png(*whole);
      ASSERT_TRUE(back.ok());
      EXPECT_EQ(back->pixels, img.pixels);
    }
  }
  auto failed = encode_png_rows(4, 4, 2, [](std::uint32_t y0, std::uint32_t, std::uint8_t*) -> Result<void> {
    if (y0 == 2) return make_error("test", "source", kNoOffset, "band two");
    return {};
  });
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.error().str().find("band two"), std::string::npos);
  EXPECT_FALSE(encode_png_rows(0, 4, 2, [](std::uint32_t, std::uint32_t, std::uint8_t*) -> Result<void> { return {}; }).ok());
}

TEST(Png, RejectsMismatchedBuffer) {
  Rgba img{4, 4, ByteBuffer(10)};
  EXPECT_FALSE(encode_png(img).ok());
  EXPECT_FALSE(decode_png(ByteView()).ok());
}

}  // namespace
}  // namespace assay::image
