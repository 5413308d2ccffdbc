// Area (box) resampling and mip chains for texture import.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "assay/core/thread_pool.h"
#include "assay/image/encode.h"

namespace assay::image {

namespace {

// The source span [lo, hi) under output cell i of n over a source of length s, in source units.
struct Span {
  std::uint32_t first = 0, last = 0;  // source cells touched, inclusive
  double lo = 0, hi = 0;
};
Span span(std::uint32_t i, std::uint32_t n, std::uint32_t s) {
  Span sp;
  sp.lo = static_cast<double>(i) * s / n;
  sp.hi = static_cast<double>(i + 1) * s / n;
  sp.first = static_cast<std::uint32_t>(sp.lo);
  sp.last = std::min(s - 1, static_cast<std::uint32_t>(std::ceil(sp.hi)) - 1);
  return sp;
}
// How much of source cell k lies inside the span.
double cover(const Span& sp, std::uint32_t k) {
  return std::min<double>(k + 1, sp.hi) - std::max<double>(k, sp.lo);
}

std::uint8_t round8(double v) {
  return static_cast<std::uint8_t>(std::clamp(std::floor(v + 0.5), 0.0, 255.0));
}

// One output row: colour weighted by coverage x alpha, alpha by coverage; a fully transparent
// cell keeps the plain mean colour.
void resample_row(const Rgba& src, std::uint32_t y, std::uint32_t w, std::uint32_t h, std::uint8_t* out) {
  const Span sy = span(y, h, src.height);
  for (std::uint32_t x = 0; x < w; ++x, out += 4) {
    const Span sx = span(x, w, src.width);
    double area = 0, alpha = 0, pre[3] = {0, 0, 0}, plain[3] = {0, 0, 0};
    for (std::uint32_t j = sy.first; j <= sy.last; ++j) {
      const double cy = cover(sy, j);
      const std::uint8_t* p = src.pixels.data() + (std::size_t{j} * src.width + sx.first) * 4;
      for (std::uint32_t k = sx.first; k <= sx.last; ++k, p += 4) {
        const double c = cy * cover(sx, k);
        area += c;
        alpha += c * p[3];
        for (int i = 0; i < 3; ++i) {
          pre[i] += c * p[3] * p[i];
          plain[i] += c * p[i];
        }
      }
    }
    for (int i = 0; i < 3; ++i) out[i] = round8(alpha > 0 ? pre[i] / alpha : plain[i] / area);
    out[3] = round8(alpha / area);
  }
}

}  // namespace

Result<Rgba> downscale(const Rgba& src, std::uint32_t w, std::uint32_t h) {
  ASSAY_CHECK(check_rgba_shape(src, "mip"));
  if (w == 0 || h == 0 || w > src.width || h > src.height)
    return make_error("mip", "size", kNoOffset,
                      fmt::format("cannot area-resample {} x {} to {} x {}", src.width, src.height, w, h));
  Rgba out{w, h, ByteBuffer(std::size_t{w} * h * 4)};
  for (std::uint32_t y = 0; y < h; ++y) resample_row(src, y, w, h, out.pixels.data() + std::size_t{y} * w * 4);
  return out;
}

std::uint32_t full_mip_count(std::uint32_t w, std::uint32_t h) noexcept {
  std::uint32_t m = std::max(w, h), n = 0;
  while (m != 0) ++n, m >>= 1;
  return n;
}

Result<std::vector<Rgba>> mip_chain(const Rgba& top, std::uint32_t count, unsigned threads) {
  count = std::clamp<std::uint32_t>(count, 1, std::max<std::uint32_t>(1, full_mip_count(top.width, top.height)));
  std::vector<Result<Rgba>> made(count, Result<Rgba>(Rgba{}));
  made[0] = top;
  // Each level is an area mean of the top level (independent, so the levels run in parallel).
  parallel_for(count - 1, threads == 0 ? default_threads() : threads, [&](std::size_t i) {
    const auto s = static_cast<std::uint32_t>(i + 1);
    made[i + 1] = downscale(top, std::max(1u, top.width >> s), std::max(1u, top.height >> s));
  });
  std::vector<Rgba> levels;
  for (auto& m : made) {
    if (!m) return m.error();
    levels.push_back(std::move(*m));
  }
  return levels;
}

}  // namespace assay::image
