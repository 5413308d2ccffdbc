// PS2 GS texel helpers. spec: renderware.md#rw-5-7 (swizzle), #rw-5-8 (palette, alpha).
#include "assay/image/ps2.h"

#include <bit>
#include <cstring>
#include <vector>

namespace assay::image::ps2 {

namespace {

bool sizes_ok(std::uint32_t w, std::uint32_t h, std::uint32_t out_w, std::uint32_t out_h) {
  return w >= 16 && std::has_single_bit(w) && h >= 4 && h % 4 == 0 && out_w <= w && out_h <= h &&
         w <= (1u << 20) && h <= (1u << 20);
}

// s(x) for the eight row classes y & 7 (the address inside a band of four rows depends only on
// x and the low three bits of y): a(x, y) = (y & ~3) * W + table[(y & 7) * out_w + x].
std::vector<std::uint32_t> row_tables(std::uint32_t w, std::uint32_t out_w) {
  const auto l = static_cast<std::uint32_t>(std::countr_zero(w));
  std::vector<std::uint32_t> t(std::size_t{8} * out_w);
  for (std::uint32_t r = 0; r < 8; ++r)
    for (std::uint32_t x = 0; x < out_w; ++x) t[std::size_t{r} * out_w + x] = swizzle_address(x, r, l) - (r & ~3u) * w;
  return t;
}

}  // namespace

bool unswizzle8(ByteView src, std::uint32_t w, std::uint32_t h, std::uint8_t* out,
                std::uint32_t out_w, std::uint32_t out_h) {
  if (!sizes_ok(w, h, out_w, out_h) || src.size() < std::uint64_t{w} * h) return false;
  if (out_w == 0 || out_h == 0) return true;
  const auto t = row_tables(w, out_w);
  for (std::uint32_t y = 0; y < out_h; ++y) {
    const std::uint8_t* band = src.data() + std::size_t{y & ~3u} * w;
    const std::uint32_t* row = t.data() + std::size_t{y & 7} * out_w;
    std::uint8_t* o = out + std::size_t{y} * out_w;
    for (std::uint32_t x = 0; x < out_w; ++x) o[x] = band[row[x]];
  }
  return true;
}

bool unswizzle4(ByteView src, std::uint32_t w, std::uint32_t h, std::uint8_t* out,
                std::uint32_t out_w, std::uint32_t out_h) {
  if (!sizes_ok(w, h, out_w, out_h) || src.size() < std::uint64_t{w} * h / 2) return false;
  if (out_w == 0 || out_h == 0) return true;
  const auto t = row_tables(w, out_w);
  for (std::uint32_t y = 0; y < out_h; ++y) {
    const std::size_t band = std::size_t{y & ~3u} * w;  // nibble address of the band
    const std::uint32_t* row = t.data() + std::size_t{y & 7} * out_w;
    std::uint8_t* o = out + std::size_t{y} * out_w;
    for (std::uint32_t x = 0; x < out_w; ++x) {
      const std::size_t k = band + row[x];
      o[x] = static_cast<std::uint8_t>((src[k >> 1] >> ((k & 1) * 4)) & 0xF);
    }
  }
  return true;
}

bool unswizzle8_lut(ByteView src, std::uint32_t w, std::uint32_t h, const std::uint32_t lut[256],
                    std::uint8_t* out, std::uint32_t out_w, std::uint32_t out_h) {
  if (!sizes_ok(w, h, out_w, out_h) || src.size() < std::uint64_t{w} * h) return false;
  if (out_w == 0 || out_h == 0) return true;
  const auto t = row_tables(w, out_w);
  std::vector<std::uint32_t> row_px(out_w);
  for (std::uint32_t y = 0; y < out_h; ++y) {
    const std::uint8_t* band = src.data() + std::size_t{y & ~3u} * w;
    const std::uint32_t* row = t.data() + std::size_t{y & 7} * out_w;
    for (std::uint32_t x = 0; x < out_w; ++x) row_px[x] = lut[band[row[x]]];
    std::memcpy(out + std::size_t{y} * out_w * 4, row_px.data(), std::size_t{out_w} * 4);
  }
  return true;
}

bool unswizzle4_lut(ByteView src, std::uint32_t w, std::uint32_t h, const std::uint32_t lut[16],
                    std::uint8_t* out, std::uint32_t out_w, std::uint32_t out_h) {
  if (!sizes_ok(w, h, out_w, out_h) || src.size() < std::uint64_t{w} * h / 2) return false;
  if (out_w == 0 || out_h == 0) return true;
  const auto t = row_tables(w, out_w);
  std::vector<std::uint32_t> row_px(out_w);
  for (std::uint32_t y = 0; y < out_h; ++y) {
    const std::size_t band = std::size_t{y & ~3u} * w;
    const std::uint32_t* row = t.data() + std::size_t{y & 7} * out_w;
    for (std::uint32_t x = 0; x < out_w; ++x) {
      const std::size_t k = band + row[x];
      row_px[x] = lut[(src[k >> 1] >> ((k & 1) * 4)) & 0xF];
    }
    std::memcpy(out + std::size_t{y} * out_w * 4, row_px.data(), std::size_t{out_w} * 4);
  }
  return true;
}

void swizzle8(const std::uint8_t* indices, std::uint32_t w, std::uint32_t h, std::uint8_t* dst) {
  const auto l = static_cast<std::uint32_t>(std::countr_zero(w));
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) dst[swizzle_address(x, y, l)] = indices[std::size_t{y} * w + x];
}

void swizzle4(const std::uint8_t* indices, std::uint32_t w, std::uint32_t h, std::uint8_t* dst) {
  const auto l = static_cast<std::uint32_t>(std::countr_zero(w));
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) {
      const std::uint32_t k = swizzle_address(x, y, l);
      const std::uint8_t v = indices[std::size_t{y} * w + x] & 0xF;
      std::uint8_t& b = dst[k >> 1];
      b = (k & 1) ? static_cast<std::uint8_t>((b & 0x0F) | (v << 4)) : static_cast<std::uint8_t>((b & 0xF0) | v);
    }
}

int compress_alpha(std::uint8_t a) noexcept {
  for (int p = 0; p <= 255; ++p)
    if (expand_alpha(static_cast<std::uint8_t>(p)) == a) return p;
  return -1;
}

}  // namespace assay::image::ps2
