// Indexed PNGs (issue 29 item 8): the chunks, written out by hand from the PNG specification
// (ISO 15948: IHDR 11.2.2, PLTE 11.2.3, tRNS 11.3.2.1, scanlines with a filter-type byte and
// sub-byte packing, 7.2), the IDAT inflated with zlib, and the RGBA libspng's decoder gives.
#include <gtest/gtest.h>
#include <zlib.h>

#include <map>
#include <string>

#include "assay/image/png.h"

namespace assay::image {
namespace {

std::uint32_t be32(const std::uint8_t* p) {
  return std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 | std::uint32_t{p[2]} << 8 | p[3];
}

// Chunk type -> data (IDAT concatenated); every CRC checked with zlib's crc32 (ISO 15948 5.3).
std::map<std::string, ByteBuffer> chunks(const ByteBuffer& png) {
  std::map<std::string, ByteBuffer> out;
  std::size_t p = 8;
  while (p + 12 <= png.size()) {
    const std::uint32_t n = be32(&png[p]);
    const std::string type(reinterpret_cast<const char*>(&png[p + 4]), 4);
    EXPECT_LE(p + 12 + n, png.size());
    EXPECT_EQ(be32(&png[p + 8 + n]), ::crc32(0, &png[p + 4], n + 4)) << type;
    ByteBuffer& d = out[type];
    d.insert(d.end(), png.begin() + static_cast<std::ptrdiff_t>(p + 8), png.begin() + static_cast<std::ptrdiff_t>(p + 8 + n));
    p += 12 + n;
  }
  EXPECT_EQ(p, png.size());
  return out;
}

ByteBuffer inflate_all(const ByteBuffer& z, std::size_t size) {
  ByteBuffer out(size);
  uLongf n = size;
  EXPECT_EQ(uncompress(out.data(), &n, z.data(), z.size()), Z_OK);
  EXPECT_EQ(n, size);
  return out;
}

// 3 x 2, three entries: opaque red, half-transparent green, transparent blue.
Indexed three_colours() {
  return {3, 2, {255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0}, {0, 1, 2, 2, 1, 0}};
}

TEST(PngIndexed, ChunksWrittenOutByHand) {
  auto png = encode_png(three_colours());
  ASSERT_TRUE(png.ok()) << png.error().str();
  const std::uint8_t sig[] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  ASSERT_GE(png->size(), 8u);
  EXPECT_TRUE(std::equal(sig, sig + 8, png->begin()));
  auto c = chunks(*png);
  // width 3, height 2, bit depth 4 (16 entries or fewer), colour type 3, deflate, filter 0, no interlace
  EXPECT_EQ(c["IHDR"], (ByteBuffer{0, 0, 0, 3, 0, 0, 0, 2, 4, 3, 0, 0, 0}));
  EXPECT_EQ(c["PLTE"], (ByteBuffer{255, 0, 0, 0, 255, 0, 0, 0, 255}));
  EXPECT_EQ(c["tRNS"], (ByteBuffer{255, 128, 0}));
  // each row: filter type 0, then two indices a byte, the left one high: 0 1 | 2 (pad)
  EXPECT_EQ(inflate_all(c["IDAT"], 6), (ByteBuffer{0, 0x01, 0x20, 0, 0x21, 0x00}));
  EXPECT_EQ(c.count("IEND"), 1u);
}

TEST(PngIndexed, DecodesToThePaletteLookup) {
  auto png = encode_png(three_colours());
  ASSERT_TRUE(png.ok());
  auto back = decode_png(*png);
  ASSERT_TRUE(back.ok()) << back.error().str();
  EXPECT_EQ(back->width, 3u);
  EXPECT_EQ(back->height, 2u);
  const ByteBuffer want{255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0,
                        0,   0, 255, 0, 0, 255, 0, 128, 255, 0, 0, 255};
  EXPECT_EQ(back->pixels, want);
  EXPECT_EQ(to_rgba(three_colours()).pixels, want);
}

// 17 entries need bit depth 8; an opaque palette writes no tRNS (every entry then reads 255).
TEST(PngIndexed, EightBitAndNoTransparency) {
  Indexed img{2, 1, {}, {16, 3}};
  for (std::uint8_t i = 0; i < 17; ++i) img.palette.insert(img.palette.end(), {i, std::uint8_t(2 * i), std::uint8_t(3 * i), 255});
  auto png = encode_png(img);
  ASSERT_TRUE(png.ok()) << png.error().str();
  auto c = chunks(*png);
  EXPECT_EQ(c["IHDR"], (ByteBuffer{0, 0, 0, 2, 0, 0, 0, 1, 8, 3, 0, 0, 0}));
  EXPECT_EQ(c["PLTE"].size(), 17u * 3);
  EXPECT_EQ(c.count("tRNS"), 0u);
  EXPECT_EQ(inflate_all(c["IDAT"], 3), (ByteBuffer{0, 16, 3}));
  auto back = decode_png(*png);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->pixels, (ByteBuffer{16, 32, 48, 255, 3, 6, 9, 255}));
}

// tRNS stops at the last entry that is not opaque (ISO 15948 11.3.2.1: the rest read 255).
TEST(PngIndexed, TransparencyTableIsTrimmed) {
  Indexed img{4, 1, {1, 2, 3, 0, 4, 5, 6, 255, 7, 8, 9, 255, 10, 11, 12, 255}, {3, 2, 1, 0}};
  auto png = encode_png(img);
  ASSERT_TRUE(png.ok());
  auto c = chunks(*png);
  EXPECT_EQ(c["tRNS"], (ByteBuffer{0}));
  EXPECT_EQ(inflate_all(c["IDAT"], 3), (ByteBuffer{0, 0x32, 0x10}));
  auto back = decode_png(*png);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->pixels, (ByteBuffer{10, 11, 12, 255, 7, 8, 9, 255, 4, 5, 6, 255, 1, 2, 3, 0}));
}

TEST(PngIndexed, RefusesWhatNoDecoderWouldRead) {
  Indexed past = three_colours();
  past.indices[4] = 3;  // three entries: 3 names none
  EXPECT_FALSE(encode_png(past).ok());
  EXPECT_TRUE(to_rgba(past).pixels.empty());
  Indexed none{1, 1, {}, {0}};
  EXPECT_FALSE(encode_png(none).ok());
  Indexed too_many{1, 1, ByteBuffer(257 * 4), {0}};
  EXPECT_FALSE(encode_png(too_many).ok());
  Indexed short_rows{2, 2, {0, 0, 0, 255}, {0, 0, 0}};
  EXPECT_FALSE(encode_png(short_rows).ok());
  Indexed empty{0, 0, {0, 0, 0, 255}, {}};
  EXPECT_FALSE(encode_png(empty).ok());
}

}  // namespace
}  // namespace assay::image
