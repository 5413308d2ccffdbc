// BC1-BC3 and D3D texel decoding. spec: renderware.md#rw-6-4, #rw-6-2.
#include "assay/image/dxt.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "dxt_records.h"

namespace assay::image {

// spec: #rw-6-4: 8 bytes per BC1 block, 16 per BC2/BC3 block; #rw-6-2: 4-byte A8R8G8B8 texels.
static_assert(records::Bc1Block::kSize == 8 && kRecordSizeMatches<records::Bc1Block>);
static_assert(records::Bc2Block::kSize == 16 && kRecordSizeMatches<records::Bc2Block>);
static_assert(records::Bc3Block::kSize == 16 && kRecordSizeMatches<records::Bc3Block>);
static_assert(records::Bc4Block::kSize == 8 && kRecordSizeMatches<records::Bc4Block>);
static_assert(records::Bc5Block::kSize == 16 && kRecordSizeMatches<records::Bc5Block>);
static_assert(records::Bgra8Texel::kSize == 4 && kRecordSizeMatches<records::Bgra8Texel>);

namespace {

using Rgba8 = std::array<std::uint8_t, 4>;

constexpr std::uint8_t x5(std::uint32_t v) { return static_cast<std::uint8_t>((v << 3) | (v >> 2)); }
constexpr std::uint8_t x6(std::uint32_t v) { return static_cast<std::uint8_t>((v << 2) | (v >> 4)); }
constexpr std::uint8_t x4(std::uint32_t v) { return static_cast<std::uint8_t>(v * 17); }

Rgba8 rgb565(std::uint16_t c) { return {x5(c >> 11), x6((c >> 5) & 0x3F), x5(c & 0x1F), 255}; }

// The four colours of a colour block; `four` forces the four-colour mode (BC2, BC3).
std::array<Rgba8, 4> colour_table(std::uint16_t c0, std::uint16_t c1, bool four) {
  std::array<Rgba8, 4> t{rgb565(c0), rgb565(c1), {}, {}};
  if (four || c0 > c1) {
    for (int i = 0; i < 3; ++i) {
      t[2][i] = static_cast<std::uint8_t>((2 * t[0][i] + t[1][i]) / 3);
      t[3][i] = static_cast<std::uint8_t>((t[0][i] + 2 * t[1][i]) / 3);
    }
    t[2][3] = t[3][3] = 255;
  } else {
    for (int i = 0; i < 3; ++i) t[2][i] = static_cast<std::uint8_t>((t[0][i] + t[1][i]) / 2);
    t[2][3] = 255;
    t[3] = {0, 0, 0, 0};
  }
  return t;
}


// The eight values of an interpolated block (BC3 alpha, BC4, each half of BC5): six between
// e0 and e1 when e0 > e1, else four between them and 0, 255.
std::array<std::uint8_t, 8> interpolated_table(std::uint32_t e0, std::uint32_t e1) {
  std::array<std::uint8_t, 8> v{static_cast<std::uint8_t>(e0), static_cast<std::uint8_t>(e1)};
  if (e0 > e1) {
    for (std::uint32_t j = 2; j < 8; ++j) v[j] = static_cast<std::uint8_t>(((8 - j) * e0 + (j - 1) * e1) / 7);
  } else {
    for (std::uint32_t j = 2; j < 6; ++j) v[j] = static_cast<std::uint8_t>(((6 - j) * e0 + (j - 1) * e1) / 5);
    v[6] = 0;
    v[7] = 255;
  }
  return v;
}

void interpolated_values(std::uint8_t e0, std::uint8_t e1, std::uint64_t codes, std::uint8_t out[16]) {
  const auto v = interpolated_table(e0, e1);
  for (int k = 0; k < 16; ++k) out[k] = v[(codes >> (3 * k)) & 7];
}


void block_pixels(const records::Bc4Block& b, Rgba8 px[16]) {
  std::uint8_t v[16];
  interpolated_values(b.e0, b.e1, b.codes, v);
  for (int k = 0; k < 16; ++k) px[k] = {v[k], v[k], v[k], 255};
}

// z = sqrt(1 - x^2 - y^2) of the normal (x, y) in [-1, 1], back to 0..255 (0 past the unit circle).
std::uint8_t normal_z(std::uint8_t r, std::uint8_t g) {
  const float x = r / 127.5f - 1.0f, y = g / 127.5f - 1.0f;
  const float zz = 1.0f - x * x - y * y;
  return static_cast<std::uint8_t>(std::lround((zz > 0 ? std::sqrt(zz) : 0.0f) * 127.5f + 127.5f));
}

void block_pixels(const records::Bc5Block& b, Rgba8 px[16]) {
  std::uint8_t r[16], g[16];
  interpolated_values(b.red.e0, b.red.e1, b.red.codes, r);
  interpolated_values(b.green.e0, b.green.e1, b.green.codes, g);
  for (int k = 0; k < 16; ++k) px[k] = {r[k], g[k], normal_z(r[k], g[k]), 255};
}

// One pixel as one 32-bit store (byte-wise copies measured 25% slower in the texel loop).
void put_rgba(std::uint8_t* o, const Rgba8& c) noexcept {
  store<std::uint32_t>(o, c[0] | std::uint32_t{c[1]} << 8 | std::uint32_t{c[2]} << 16 | std::uint32_t{c[3]} << 24,
                       Endian::little);
}

// A block's 16 texels (texel k at (k & 3, k >> 2)) at (x0, y0), cropped at the image's edges.
void put_block(Rgba& img, std::uint32_t x0, std::uint32_t y0, const Rgba8 px[16]) noexcept {
  const std::uint32_t cols = std::min<std::uint32_t>(4, img.width - x0), rows = std::min<std::uint32_t>(4, img.height - y0);
  for (std::uint32_t r = 0; r < rows; ++r) {
    std::uint8_t* o = img.pixels.data() + (std::size_t{y0 + r} * img.width + x0) * 4;
    for (std::uint32_t c = 0; c < cols; ++c) put_rgba(o + 4 * c, px[r * 4 + c]);
  }
}

// Blocks and texels are little-endian (#rw-6-4, #rw-6-2) and their tables are opened so. Checked
// once before a decode loop, the byte order is a constant inside it: the per-record byte-order
// test folds away (GCC -O2 does not unswitch loops; measured 10-25% of a decode with the test).
template <class T>
void require_little(const RecordTable<T>& t) noexcept {
  if (t.reader().endian() != Endian::little) [[unlikely]] std::abort();
}

// The w x h image of a level's blocks (the table holds max(1, ceil(w/4)) x max(1, ceil(h/4))).
template <class Block>
Rgba decode_level(const RecordTable<Block>& blocks, std::uint32_t w, std::uint32_t h) {
  Rgba img{w, h, ByteBuffer(std::size_t{w} * h * 4)};
  const std::uint32_t bw = (w + 3) / 4, bh = (h + 3) / 4;
  Rgba8 px[16];
  require_little(blocks);
  for (std::uint32_t by = 0; by < bh; ++by)
    for (std::uint32_t bx = 0; bx < bw; ++bx) {
      block_pixels(blocks[std::uint64_t{by} * bw + bx], px);
      put_block(img, bx * 4, by * 4, px);
    }
  return img;
}

// BC1-BC3 with each texel a 32-bit RGBA word (R in the low byte): the colour table made as words,
// texels looked up by their 2-bit index, a block's rows stored 16 bytes at a time (the byte-wise
// Rgba8 path above, still used by BC4 and BC5, was 9.5% of extracting zap.pak's textures as PNG).
// Tested against a reference decoder written from the spec in Dxt.WordPathMatchesAReferenceDecoder.
static_assert(std::endian::native == std::endian::little, "the word path stores RGBA words little-endian");

std::uint32_t word(std::uint32_t r, std::uint32_t g, std::uint32_t b, std::uint32_t a) { return r | g << 8 | b << 16 | a << 24; }

// The colour table as words with alpha 255 (0 for BC1's transparent black); `four` as colour_table().
void colour_words(std::uint16_t c0, std::uint16_t c1, bool four, std::uint32_t t[4]) {
  const std::uint32_t r0 = x5(c0 >> 11), g0 = x6((c0 >> 5) & 0x3F), b0 = x5(c0 & 0x1F);
  const std::uint32_t r1 = x5(c1 >> 11), g1 = x6((c1 >> 5) & 0x3F), b1 = x5(c1 & 0x1F);
  t[0] = word(r0, g0, b0, 255);
  t[1] = word(r1, g1, b1, 255);
  if (four || c0 > c1) {
    t[2] = word((2 * r0 + r1) / 3, (2 * g0 + g1) / 3, (2 * b0 + b1) / 3, 255);
    t[3] = word((r0 + 2 * r1) / 3, (g0 + 2 * g1) / 3, (b0 + 2 * b1) / 3, 255);
  } else {
    t[2] = word((r0 + r1) / 2, (g0 + g1) / 2, (b0 + b1) / 2, 255);
    t[3] = 0;
  }
}

void block_words(const records::Bc1Block& b, std::uint32_t px[16]) {
  std::uint32_t t[4];
  colour_words(b.colour.c0, b.colour.c1, false, t);
  for (int k = 0; k < 16; ++k) px[k] = t[(b.colour.indices >> (2 * k)) & 3];
}

void block_words(const records::Bc2Block& b, std::uint32_t px[16]) {
  std::uint32_t t[4];
  colour_words(b.colour.c0, b.colour.c1, true, t);
  for (int k = 0; k < 16; ++k)
    px[k] = (t[(b.colour.indices >> (2 * k)) & 3] & 0xFFFFFFu) |
            static_cast<std::uint32_t>(x4(static_cast<std::uint32_t>((b.alphas >> (4 * k)) & 0xF))) << 24;
}

void block_words(const records::Bc3Block& b, std::uint32_t px[16]) {
  std::uint32_t t[4];
  colour_words(b.colour.c0, b.colour.c1, true, t);
  const auto a = interpolated_table(b.alpha.e0, b.alpha.e1);
  std::uint32_t alpha[8];
  for (int j = 0; j < 8; ++j) alpha[j] = std::uint32_t{a[j]} << 24;
  for (int k = 0; k < 16; ++k)
    px[k] = (t[(b.colour.indices >> (2 * k)) & 3] & 0xFFFFFFu) | alpha[(b.alpha.codes >> (3 * k)) & 7];
}

// Block rows [by0, by1) of a w x h level into `out` (block row by0's first pixel row first).
template <class Block>
void decode_words(const RecordTable<Block>& blocks, std::uint32_t w, std::uint32_t h, std::uint32_t by0, std::uint32_t by1,
                  std::uint8_t* out) {
  const std::uint32_t bw = (w + 3) / 4;
  const std::size_t stride = std::size_t{w} * 4;
  std::uint32_t px[16];
  require_little(blocks);
  for (std::uint32_t by = by0; by < by1; ++by) {
    const std::uint32_t rows = std::min<std::uint32_t>(4, h - by * 4);
    std::uint8_t* const band = out + std::size_t{by - by0} * 4 * stride;
    for (std::uint32_t bx = 0; bx < bw; ++bx) {
      block_words(blocks[std::uint64_t{by} * bw + bx], px);
      const std::uint32_t cols = std::min<std::uint32_t>(4, w - bx * 4);
      std::uint8_t* o = band + std::size_t{bx} * 16;
      if (cols == 4 && rows == 4) {
        for (std::uint32_t r = 0; r < 4; ++r) std::memcpy(o + r * stride, px + 4 * r, 16);
        continue;
      }
      for (std::uint32_t r = 0; r < rows; ++r) std::memcpy(o + r * stride, px + 4 * r, 4 * cols);
    }
  }
}

template <class Block>
Rgba decode_level_words(const RecordTable<Block>& blocks, std::uint32_t w, std::uint32_t h) {
  Rgba img{w, h, ByteBuffer(std::size_t{w} * h * 4)};
  decode_words(blocks, w, h, 0, (h + 3) / 4, img.pixels.data());
  return img;
}

template <class Block>
Result<void> decode_rows_table(ByteView src, std::uint32_t w, std::uint32_t h, std::uint32_t y0, std::uint32_t y1,
                               std::uint8_t* out, std::string_view structure) {
  const std::uint64_t blocks = std::uint64_t{(w + 3) / 4} * ((h + 3) / 4);
  ASSAY_TRY(auto table, RecordTable<Block>::open(ByteReader(src, Endian::little, "dxt"), 0, blocks, structure));
  decode_words(table, w, h, y0 / 4, (y1 + 3) / 4, out);
  return {};
}

Rgba decode_level(const RecordTable<records::Bc1Block>& b, std::uint32_t w, std::uint32_t h) { return decode_level_words(b, w, h); }
Rgba decode_level(const RecordTable<records::Bc2Block>& b, std::uint32_t w, std::uint32_t h) { return decode_level_words(b, w, h); }
Rgba decode_level(const RecordTable<records::Bc3Block>& b, std::uint32_t w, std::uint32_t h) { return decode_level_words(b, w, h); }

template <class Block>
Result<Rgba> decode_table(ByteView src, std::uint32_t w, std::uint32_t h, std::string_view structure) {
  const std::uint64_t blocks = std::uint64_t{(w + 3) / 4} * ((h + 3) / 4);
  ASSAY_TRY(auto table, RecordTable<Block>::open(ByteReader(src, Endian::little, "dxt"), 0, blocks, structure));
  return decode_level(table, w, h);
}

std::uint32_t block_bytes(BlockFormat f) { return f == BlockFormat::bc1 || f == BlockFormat::bc4 ? 8 : 16; }

}  // namespace

bool block_level_size(BlockFormat f, std::uint32_t w, std::uint32_t h, std::uint64_t& out) {
  const std::uint64_t bw = std::max<std::uint64_t>(1, (std::uint64_t{w} + 3) / 4);
  const std::uint64_t bh = std::max<std::uint64_t>(1, (std::uint64_t{h} + 3) / 4);
  std::uint64_t n = 0;
  return mul_ok(bw, bh, n) && mul_ok(n, block_bytes(f), out);
}

Result<Rgba> decode_blocks(BlockFormat f, ByteView src, std::uint32_t w, std::uint32_t h) {
  std::uint64_t need = 0;
  if (w == 0 || h == 0 || !block_level_size(f, w, h, need) || src.size() < need)
    return make_error("dxt", "level", kNoOffset,
                      fmt::format("{} x {} needs {} bytes of blocks, {} given", w, h, need, src.size()));
  switch (f) {
    case BlockFormat::bc1: return decode_table<records::Bc1Block>(src, w, h, "BC1 blocks");
    case BlockFormat::bc2: return decode_table<records::Bc2Block>(src, w, h, "BC2 blocks");
    case BlockFormat::bc4: return decode_table<records::Bc4Block>(src, w, h, "BC4 blocks");
    case BlockFormat::bc5: return decode_table<records::Bc5Block>(src, w, h, "BC5 blocks");
    case BlockFormat::bc3: break;
  }
  return decode_table<records::Bc3Block>(src, w, h, "BC3 blocks");
}

Result<void> decode_block_rows(BlockFormat f, ByteView src, std::uint32_t w, std::uint32_t h, std::uint32_t y0,
                               std::uint32_t y1, std::uint8_t* out) {
  std::uint64_t need = 0;
  if (w == 0 || h == 0 || !block_level_size(f, w, h, need) || src.size() < need)
    return make_error("dxt", "level", kNoOffset,
                      fmt::format("{} x {} needs {} bytes of blocks, {} given", w, h, need, src.size()));
  if (y0 % 4 != 0 || y0 >= y1 || y1 > h || (y1 % 4 != 0 && y1 != h))
    return make_error("dxt", "level", kNoOffset, fmt::format("rows {}-{} of {} are not whole block rows", y0, y1, h));
  switch (f) {
    case BlockFormat::bc1: return decode_rows_table<records::Bc1Block>(src, w, h, y0, y1, out, "BC1 blocks");
    case BlockFormat::bc2: return decode_rows_table<records::Bc2Block>(src, w, h, y0, y1, out, "BC2 blocks");
    case BlockFormat::bc3: return decode_rows_table<records::Bc3Block>(src, w, h, y0, y1, out, "BC3 blocks");
    case BlockFormat::bc4:
    case BlockFormat::bc5: break;
  }
  return make_error("dxt", "level", kNoOffset, "BC4 and BC5 are decoded whole (decode_blocks)");
}

std::uint32_t bytes_per_pixel(PixelFormat f) {
  switch (f) {
    case PixelFormat::bgra8888:
    case PixelFormat::bgrx8888: return 4;
    case PixelFormat::a8:
    case PixelFormat::l8: return 1;
    default: return 2;
  }
}

namespace {

// n texels of type Texel from src, each to RGBA by `rgba` (the caller checked n * kSize fits).
template <class Texel, class ToRgba>
Result<Rgba> decode_texels(ByteView src, std::uint32_t w, std::uint32_t h, std::string_view structure, ToRgba rgba) {
  const std::uint64_t n = std::uint64_t{w} * h;
  ASSAY_TRY(auto texels, RecordTable<Texel>::open(ByteReader(src, Endian::little, "d3d"), 0, n, structure));
  Rgba img{w, h, ByteBuffer(n * 4)};
  std::uint8_t* o = img.pixels.data();
  require_little(texels);
  for (std::uint64_t i = 0; i < texels.size(); ++i, o += 4) {
    put_rgba(o, rgba(texels[i]));
  }
  return img;
}

Rgba8 from_x1r5g5b5(std::uint16_t v, bool opaque) {
  return {x5((v >> 10) & 0x1F), x5((v >> 5) & 0x1F), x5(v & 0x1F),
          static_cast<std::uint8_t>(opaque || (v & 0x8000) ? 255 : 0)};
}

}  // namespace

Result<Rgba> decode_pixels(PixelFormat f, ByteView src, std::uint32_t w, std::uint32_t h) {
  std::uint64_t n = 0, need = 0;
  if (w == 0 || h == 0 || !mul_ok(w, h, n) || !mul_ok(n, bytes_per_pixel(f), need) || src.size() < need)
    return make_error("d3d", "level", kNoOffset,
                      fmt::format("{} x {} needs {} bytes of texels, {} given", w, h, need, src.size()));
  using records::Bgra8Texel;
  switch (f) {  // spec: #rw-6-2 byte orders
    case PixelFormat::r5g6b5:
      return decode_texels<Word16>(src, w, h, "R5G6B5 texels", [](Word16 t) { return rgb565(t.value); });
    case PixelFormat::x1r5g5b5:
      return decode_texels<Word16>(src, w, h, "X1R5G5B5 texels", [](Word16 t) { return from_x1r5g5b5(t.value, true); });
    case PixelFormat::a1r5g5b5:
      return decode_texels<Word16>(src, w, h, "A1R5G5B5 texels", [](Word16 t) { return from_x1r5g5b5(t.value, false); });
    case PixelFormat::a4r4g4b4:
      return decode_texels<Word16>(src, w, h, "A4R4G4B4 texels", [](Word16 t) {
        const std::uint32_t v = t.value;
        return Rgba8{x4((v >> 8) & 0xF), x4((v >> 4) & 0xF), x4(v & 0xF), x4(v >> 12)};
      });
    case PixelFormat::a8l8:  // low byte luminance, high byte alpha
      return decode_texels<Word16>(src, w, h, "A8L8 texels", [](Word16 t) {
        const auto l = static_cast<std::uint8_t>(t.value & 0xFF);
        return Rgba8{l, l, l, static_cast<std::uint8_t>(t.value >> 8)};
      });
    case PixelFormat::bgra8888:
      return decode_texels<Bgra8Texel>(src, w, h, "A8R8G8B8 texels", [](Bgra8Texel t) { return Rgba8{t.r, t.g, t.b, t.a}; });
    case PixelFormat::bgrx8888:
      return decode_texels<Bgra8Texel>(src, w, h, "X8R8G8B8 texels", [](Bgra8Texel t) { return Rgba8{t.r, t.g, t.b, 255}; });
    case PixelFormat::l8:
      return decode_texels<Word8>(src, w, h, "L8 texels", [](Word8 t) { return Rgba8{t.value, t.value, t.value, 255}; });
    case PixelFormat::a8:  // white with the alpha (assay decision)
      break;
  }
  return decode_texels<Word8>(src, w, h, "A8 texels", [](Word8 t) { return Rgba8{255, 255, 255, t.value}; });
}

ByteBuffer encode_bc1(const Rgba& img) {
  const std::uint32_t bw = std::max<std::uint32_t>(1, (img.width + 3) / 4);
  const std::uint32_t bh = std::max<std::uint32_t>(1, (img.height + 3) / 4);
  ByteWriter out;
  auto pixel = [&](std::uint32_t x, std::uint32_t y) {
    x = std::min(x, img.width - 1);
    y = std::min(y, img.height - 1);
    const std::uint8_t* p = img.pixels.data() + (std::size_t{y} * img.width + x) * 4;
    return Rgba8{p[0], p[1], p[2], p[3]};
  };
  auto to565 = [](const Rgba8& c) {
    return static_cast<std::uint16_t>(((c[0] >> 3) << 11) | ((c[1] >> 2) << 5) | (c[2] >> 3));
  };
  auto luma = [](const Rgba8& c) { return 2 * c[0] + 5 * c[1] + c[2]; };
  for (std::uint32_t by = 0; by < bh; ++by)
    for (std::uint32_t bx = 0; bx < bw; ++bx) {
      Rgba8 px[16];
      for (int k = 0; k < 16; ++k) px[k] = pixel(bx * 4 + (k & 3), by * 4 + (k >> 2));
      const auto [lo, hi] = std::minmax_element(px, px + 16, [&](const Rgba8& a, const Rgba8& b) { return luma(a) < luma(b); });
      std::uint16_t c0 = to565(*hi), c1 = to565(*lo);
      if (c0 < c1) std::swap(c0, c1);
      const auto t = colour_table(c0, c1, false);
      const int used = c0 > c1 ? 4 : 3;  // never the transparent colour
      std::uint32_t bits = 0;
      for (int k = 0; k < 16; ++k) {
        int best = 0, best_d = 1 << 30;
        for (int j = 0; j < used; ++j) {
          int d = 0;
          for (int i = 0; i < 3; ++i) d += (t[j][i] - px[k][i]) * (t[j][i] - px[k][i]);
          if (d < best_d) best = j, best_d = d;
        }
        bits |= static_cast<std::uint32_t>(best) << (2 * k);
      }
      out.u16(c0);
      out.u16(c1);
      out.u32(bits);
    }
  return out.take();
}

}  // namespace assay::image
