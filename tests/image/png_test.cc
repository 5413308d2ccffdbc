#include <gtest/gtest.h>

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

TEST(Png, RejectsMismatchedBuffer) {
  Rgba img{4, 4, ByteBuffer(10)};
  EXPECT_FALSE(encode_png(img).ok());
  EXPECT_FALSE(decode_png(ByteView()).ok());
}

}  // namespace
}  // namespace assay::image
