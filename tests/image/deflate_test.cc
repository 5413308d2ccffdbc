// The PNG writer's deflate (src/image/deflate.h): every stream is inflated by zlib (not by our code)
// back to its input, stays within the bound, and depends on its input only.
#include <gtest/gtest.h>

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "../../src/image/deflate.h"

namespace assay::image::detail {
namespace {

std::vector<std::uint8_t> compress(const std::vector<std::uint8_t>& in) {
  std::vector<std::uint8_t> out(zlib_fast_bound(in.size()));
  out.resize(zlib_fast_compress(ByteView(in.data(), in.size()), out.data()));
  return out;
}

// The stream inflated by zlib equals `in` (and zlib checks the Adler-32 and the end of the stream).
void expect_round_trip(const std::vector<std::uint8_t>& in) {
  const std::vector<std::uint8_t> z = compress(in);
  ASSERT_LE(z.size() + 8, zlib_fast_bound(in.size()));  // the bit writer's 8-byte stores fit too
  std::vector<std::uint8_t> back(in.size() + 1);
  uLongf n = back.size();
  ASSERT_EQ(uncompress(back.data(), &n, z.data(), z.size()), Z_OK);
  back.resize(n);
  EXPECT_EQ(back, in);
}

// RFC 1950/1951 by hand: header 78 01 (CMF 0x78, FLG 0x01: 0x7801 is a multiple of 31), one final
// stored block of length 0 (bits 1, 00, then LEN 0000 NLEN FFFF), the Adler-32 of nothing (1).
TEST(Deflate, EmptyInputByHand) {
  const std::vector<std::uint8_t> want = {0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01};
  EXPECT_EQ(compress({}), want);
  expect_round_trip({});
}

TEST(Deflate, ShortInputs) {
  for (std::size_t n = 1; n < 40; ++n) {
    std::vector<std::uint8_t> in(n);
    for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<std::uint8_t>(i % 3 == 0 ? 7 : i);
    expect_round_trip(in);
  }
}

// Random bytes do not compress: stored blocks (5 bytes of header each), not Huffman codes.
TEST(Deflate, IncompressibleInputIsStored) {
  std::mt19937 rng(5);
  std::vector<std::uint8_t> in(200000);
  for (auto& b : in) b = static_cast<std::uint8_t>(rng());
  expect_round_trip(in);
  EXPECT_LE(compress(in).size(), in.size() + in.size() / 1000 + 64);  // 5 bytes a stored block
}

// Runs of every length from 1 to 300 (matches of distance 1 up to 258 bytes, then another), across
// the matcher's 16-byte steps and up to the input's end; repeated pixels (distance 4); and bytes
// that repeat nothing.
TEST(Deflate, RunsPixelsAndLiterals) {
  std::vector<std::uint8_t> in;
  for (unsigned len = 1; len <= 300; ++len) {
    in.insert(in.end(), len, static_cast<std::uint8_t>(len));
    in.push_back(0xFF);
  }
  for (int k = 0; k < 5000; ++k) in.insert(in.end(), {10, 20, 30, 255});  // one RGBA pixel again and again
  std::mt19937 rng(7);
  for (int k = 0; k < 3000; ++k) in.push_back(static_cast<std::uint8_t>(rng()));
  in.insert(in.end(), 20, 0);  // a run to the end
  expect_round_trip(in);
  EXPECT_LT(compress(in).size(), in.size() / 4);
  for (std::size_t n = 0; n < 64; ++n) expect_round_trip(std::vector<std::uint8_t>(n, 0));
}

// 20000 repeats of one pixel: distance 4 from the second on, 258 bytes a match (about 78 matches
// and a few bits each).
TEST(Deflate, RepeatedPixelIsTiny) {
  std::vector<std::uint8_t> in;
  for (int k = 0; k < 20000; ++k) in.insert(in.end(), {1, 2, 3, 4});
  expect_round_trip(in);
  EXPECT_LT(compress(in).size(), 200u);
}

// Filtered rows like the PNG writer's: a few MB in many blocks, compressed far below their size.
TEST(Deflate, LargeRowsCompress) {
  std::vector<std::uint8_t> in(3u << 20);
  std::mt19937 rng(11);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = (i % 1025 == 0) ? 2 : static_cast<std::uint8_t>((rng() % 8 == 0) ? rng() : 0);
  expect_round_trip(in);
  EXPECT_LT(compress(in).size(), in.size() / 3);
}

// The same bytes give the same stream, whatever this thread compressed before.
TEST(Deflate, OutputDependsOnInputOnly) {
  std::vector<std::uint8_t> a(100000), b(100000);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::uint8_t>(i * 7 / 5), b[i] = static_cast<std::uint8_t>(i % 13);
  const auto first = compress(a);
  (void)compress(b);
  EXPECT_EQ(compress(a), first);
}

// Bytes from a skewed distribution (value v about twice as often as v + 1) where no byte repeats the
// one before or the one 4 before: no matches at all, so literal runs longer than a token holds
// (65535), each still Huffman coded (the distribution compresses).
std::vector<std::uint8_t> skewed_literals(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> in;
  while (in.size() < n) {
    unsigned v = 0;
    while (v < 200 && rng() % 2 == 0) ++v;
    const std::size_t k = in.size();
    if ((k >= 1 && in[k - 1] == v) || (k >= 4 && in[k - 4] == v)) continue;
    in.push_back(static_cast<std::uint8_t>(v));
  }
  return in;
}

TEST(Deflate, LongLiteralRunsAcrossTokens) {
  const std::vector<std::uint8_t> in = skewed_literals(300000, 13);
  expect_round_trip(in);
  EXPECT_LT(compress(in).size(), in.size() * 6 / 10);  // Huffman coded, not stored
}

// Symbol frequencies of a Fibonacci-like sequence (40, 65, 105, ... for 18 byte values) and four
// rarer values, 8 times each, in groups of four at many offsets: an unlimited Huffman code would give the rare ones
// over 20 bits; the writer limits literal codes to 14 bits (four literals to a put of at most 56
// bits: with 15-bit codes the groups would overflow the 64-bit bit buffer) and the stream inflates.
// Shuffled, so runs of a byte are matches too.
TEST(Deflate, LengthLimitedCodes) {
  std::vector<std::uint8_t> in;
  std::uint32_t a = 40, b = 65;
  for (unsigned v = 0; v < 18; ++v) {
    in.insert(in.end(), a, static_cast<std::uint8_t>(v * 7 + 1));
    const std::uint32_t c = a + b;
    a = b;
    b = c;
  }
  std::mt19937 rng(17);
  std::shuffle(in.begin(), in.end(), rng);
  for (std::size_t at = 1000; at < 1000 + 8 * 4099; at += 4099) {  // groups at every bit offset
    const std::uint8_t rare[4] = {200, 201, 202, 203};
    in.insert(in.begin() + static_cast<std::ptrdiff_t>(at), rare, rare + 4);
  }
  expect_round_trip(in);
  EXPECT_LT(compress(in).size(), in.size() / 3);
}

// Pixel-like rows (short runs of zeros and repeated pixels between literals) across many blocks,
// each block with its own codes; the SIMD and the portable compares give the same stream, and
// both inflate to the input.
std::vector<std::uint8_t> pixel_rows(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> in;
  while (in.size() < n) {
    switch (rng() % 4) {
      case 0: in.insert(in.end(), 3 + rng() % 40, 0); break;  // a row repeats the one above
      case 1: {  // a pixel repeated
        const std::uint8_t p[4] = {static_cast<std::uint8_t>(rng()), static_cast<std::uint8_t>(rng()), 9, 255};
        for (unsigned r = 1 + rng() % 12; r > 0; --r) in.insert(in.end(), p, p + 4);
        break;
      }
      default:
        for (unsigned r = 1 + rng() % 9; r > 0; --r) in.push_back(static_cast<std::uint8_t>(rng() % 16));
    }
  }
  in.resize(n);
  return in;
}

TEST(Deflate, PortablePathGivesTheSameStream) {
  for (const std::size_t n : {std::size_t{0}, std::size_t{5}, std::size_t{33}, std::size_t{70000}, std::size_t{2500000}}) {
    const std::vector<std::uint8_t> in = pixel_rows(n, static_cast<std::uint32_t>(n));
    std::vector<std::uint8_t> portable(zlib_fast_bound(in.size()));
    portable.resize(zlib_fast_compress_portable(ByteView(in.data(), in.size()), portable.data()));
    EXPECT_EQ(portable, compress(in)) << n;
    expect_round_trip(in);
  }
  const std::vector<std::uint8_t> literals = skewed_literals(100000, 3);
  std::vector<std::uint8_t> portable(zlib_fast_bound(literals.size()));
  portable.resize(zlib_fast_compress_portable(ByteView(literals.data(), literals.size()), portable.data()));
  EXPECT_EQ(portable, compress(literals));
}

// RGB rows (pixel distance 3: distance symbol 2): RGB pixel runs, the SSE2 and portable paths give
// the same bytes, zlib inflates them back, and a run of one repeated RGB pixel is coded as matches
// (a stream far shorter than its 3-byte period would allow as literals), while the same rows read as
// RGBA (distance 4) find no pixel runs there.
TEST(Deflate, RgbRowsMatchAtThePixelBefore) {
  std::mt19937 rng(28);
  std::vector<std::uint8_t> in;
  while (in.size() < 300000) {
    const std::uint8_t p[3] = {static_cast<std::uint8_t>(rng()), static_cast<std::uint8_t>(rng()), static_cast<std::uint8_t>(rng())};
    for (unsigned r = 1 + rng() % 40; r > 0; --r) in.insert(in.end(), p, p + 3);
  }
  std::vector<std::uint8_t> rgb(zlib_fast_bound(in.size())), portable(rgb.size()), rgba(rgb.size());
  rgb.resize(zlib_fast_compress(ByteView(in.data(), in.size()), rgb.data(), 3));
  portable.resize(zlib_fast_compress_portable(ByteView(in.data(), in.size()), portable.data(), 3));
  rgba.resize(zlib_fast_compress(ByteView(in.data(), in.size()), rgba.data(), 4));
  EXPECT_EQ(portable, rgb);
  std::vector<std::uint8_t> back(in.size() + 1);
  uLongf n = back.size();
  ASSERT_EQ(uncompress(back.data(), &n, rgb.data(), rgb.size()), Z_OK);
  back.resize(n);
  EXPECT_EQ(back, in);
  // runs average 20 pixels: 3 random bytes and one match of ~57 bytes each, against ~all literal
  EXPECT_LT(rgb.size() * 3, rgba.size());
  for (const std::size_t size : {std::size_t{0}, std::size_t{7}, std::size_t{70000}, std::size_t{1500000}}) {
    const std::vector<std::uint8_t> rows = pixel_rows(size, static_cast<std::uint32_t>(size) + 1);
    std::vector<std::uint8_t> a(zlib_fast_bound(rows.size())), b(a.size());
    a.resize(zlib_fast_compress(ByteView(rows.data(), rows.size()), a.data(), 3));
    b.resize(zlib_fast_compress_portable(ByteView(rows.data(), rows.size()), b.data(), 3));
    EXPECT_EQ(a, b) << size;
    std::vector<std::uint8_t> out(rows.size() + 1);
    uLongf m = out.size();
    ASSERT_EQ(uncompress(out.data(), &m, a.data(), a.size()), Z_OK) << size;
    out.resize(m);
    EXPECT_EQ(out, rows) << size;
  }
}

}  // namespace
}  // namespace assay::image::detail
