// BC1-BC3 and D3D texel decoding. spec: renderware.md#rw-6-4, #rw-6-2.
#include "assay/image/dxt.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace assay::image {

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

void colour_block(const std::uint8_t* b, bool four, Rgba8 out[16]) {
  const auto c0 = load<std::uint16_t>(b, Endian::little), c1 = load<std::uint16_t>(b + 2, Endian::little);
  const auto bits = load<std::uint32_t>(b + 4, Endian::little);
  const auto t = colour_table(c0, c1, four);
  for (int k = 0; k < 16; ++k) out[k] = t[(bits >> (2 * k)) & 3];
}

void bc2_alpha(const std::uint8_t* b, Rgba8 px[16]) {
  const auto bits = load<std::uint64_t>(b, Endian::little);
  for (int k = 0; k < 16; ++k) px[k][3] = x4(static_cast<std::uint32_t>((bits >> (4 * k)) & 0xF));
}

void bc3_alpha(const std::uint8_t* b, Rgba8 px[16]) {
  const std::uint32_t a0 = b[0], a1 = b[1];
  std::uint8_t a[8] = {static_cast<std::uint8_t>(a0), static_cast<std::uint8_t>(a1)};
  if (a0 > a1) {
    for (std::uint32_t j = 2; j < 8; ++j) a[j] = static_cast<std::uint8_t>(((8 - j) * a0 + (j - 1) * a1) / 7);
  } else {
    for (std::uint32_t j = 2; j < 6; ++j) a[j] = static_cast<std::uint8_t>(((6 - j) * a0 + (j - 1) * a1) / 5);
    a[6] = 0;
    a[7] = 255;
  }
  std::uint64_t bits = 0;
  for (int i = 0; i < 6; ++i) bits |= std::uint64_t{b[2 + i]} << (8 * i);
  for (int k = 0; k < 16; ++k) px[k][3] = a[(bits >> (3 * k)) & 7];
}

std::uint32_t block_bytes(BlockFormat f) { return f == BlockFormat::bc1 ? 8 : 16; }

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
  Rgba img{w, h, ByteBuffer(std::size_t{w} * h * 4)};
  const std::uint32_t bw = (w + 3) / 4, bh = (h + 3) / 4, bb = block_bytes(f);
  Rgba8 px[16];
  for (std::uint32_t by = 0; by < bh; ++by)
    for (std::uint32_t bx = 0; bx < bw; ++bx) {
      const std::uint8_t* b = src.data() + (std::size_t{by} * bw + bx) * bb;
      if (f == BlockFormat::bc1) {
        colour_block(b, false, px);
      } else {
        colour_block(b + 8, true, px);
        f == BlockFormat::bc2 ? bc2_alpha(b, px) : bc3_alpha(b, px);
      }
      for (int k = 0; k < 16; ++k) {
        const std::uint32_t x = bx * 4 + (k & 3), y = by * 4 + (k >> 2);
        if (x < w && y < h) std::copy(px[k].begin(), px[k].end(), img.pixels.data() + (std::size_t{y} * w + x) * 4);
      }
    }
  return img;
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

Result<Rgba> decode_pixels(PixelFormat f, ByteView src, std::uint32_t w, std::uint32_t h) {
  std::uint64_t n = 0, need = 0;
  if (w == 0 || h == 0 || !mul_ok(w, h, n) || !mul_ok(n, bytes_per_pixel(f), need) || src.size() < need)
    return make_error("d3d", "level", kNoOffset,
                      fmt::format("{} x {} needs {} bytes of texels, {} given", w, h, need, src.size()));
  Rgba img{w, h, ByteBuffer(n * 4)};
  const std::uint8_t* s = src.data();
  std::uint8_t* o = img.pixels.data();
  for (std::uint64_t i = 0; i < n; ++i, o += 4) {
    Rgba8 c{};
    if (bytes_per_pixel(f) == 2) {
      const auto v = load<std::uint16_t>(s + 2 * i, Endian::little);
      switch (f) {
        case PixelFormat::r5g6b5: c = rgb565(v); break;
        case PixelFormat::x1r5g5b5:
        case PixelFormat::a1r5g5b5:
          c = {x5((v >> 10) & 0x1F), x5((v >> 5) & 0x1F), x5(v & 0x1F),
               static_cast<std::uint8_t>(f == PixelFormat::x1r5g5b5 || (v & 0x8000) ? 255 : 0)};
          break;
        case PixelFormat::a4r4g4b4: c = {x4((v >> 8) & 0xF), x4((v >> 4) & 0xF), x4(v & 0xF), x4(v >> 12)}; break;
        default: {  // a8l8: low byte luminance, high byte alpha
          const auto l = static_cast<std::uint8_t>(v & 0xFF);
          c = {l, l, l, static_cast<std::uint8_t>(v >> 8)};
        }
      }
    } else if (f == PixelFormat::bgra8888 || f == PixelFormat::bgrx8888) {
      const std::uint8_t* p = s + 4 * i;
      c = {p[2], p[1], p[0], f == PixelFormat::bgra8888 ? p[3] : std::uint8_t{255}};
    } else if (f == PixelFormat::l8) {
      c = {s[i], s[i], s[i], 255};
    } else {  // a8: white with the alpha (assay decision)
      c = {255, 255, 255, s[i]};
    }
    std::copy(c.begin(), c.end(), o);
  }
  return img;
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
