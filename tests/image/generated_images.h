// Procedural test images for the encoder tests and the benchmark (no image files committed):
// a "photographic-like" one (smooth gradients, soft shapes, mild sensor-like noise) and small
// exact ones.
#pragma once

#include <cmath>
#include <cstdint>

#include "assay/image/png.h"

namespace assay::image::testimg {

// xorshift32: deterministic noise.
inline std::uint32_t next(std::uint32_t& s) {
  s ^= s << 13;
  s ^= s >> 17;
  s ^= s << 5;
  return s;
}

inline std::uint8_t clamp8(double v) { return static_cast<std::uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v + 0.5); }

// Gradients in each channel, two soft discs and a sine band, +-`noise` per channel; alpha a
// horizontal ramp when `alpha`, else 255.
inline Rgba photo(std::uint32_t w, std::uint32_t h, bool alpha = false, int noise = 3, std::uint32_t seed = 7) {
  Rgba img{w, h, ByteBuffer(std::size_t{w} * h * 4)};
  std::uint32_t s = seed | 1;
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) {
      const double u = (x + 0.5) / w, v = (y + 0.5) / h;
      const double d1 = std::hypot(u - 0.3, v - 0.35), d2 = std::hypot(u - 0.7, v - 0.65);
      double r = 40 + 150 * u + 60 * std::exp(-d1 * d1 * 30);
      double g = 60 + 120 * v + 50 * std::sin(6.0 * u + 2.0 * v);
      double b = 200 - 120 * u * v + 50 * std::exp(-d2 * d2 * 20);
      auto jitter = [&] { return noise == 0 ? 0.0 : static_cast<double>(static_cast<int>(next(s) % (2 * noise + 1)) - noise); };
      std::uint8_t* p = img.pixels.data() + (std::size_t{y} * w + x) * 4;
      p[0] = clamp8(r + jitter());
      p[1] = clamp8(g + jitter());
      p[2] = clamp8(b + jitter());
      p[3] = alpha ? clamp8(255.0 * u) : 255;
    }
  return img;
}

// Every pixel a colour from a fixed list of `n` colours (an image a palette holds exactly).
inline Rgba few_colours(std::uint32_t w, std::uint32_t h, std::uint32_t n, std::uint32_t seed = 3) {
  Rgba img{w, h, ByteBuffer(std::size_t{w} * h * 4)};
  std::uint32_t s = seed | 1;
  for (std::size_t i = 0; i < std::size_t{w} * h; ++i) {
    const std::uint32_t k = next(s) % n;
    img.pixels[4 * i] = static_cast<std::uint8_t>(k * 37);
    img.pixels[4 * i + 1] = static_cast<std::uint8_t>(255 - k * 11);
    img.pixels[4 * i + 2] = static_cast<std::uint8_t>(k * 5);
    img.pixels[4 * i + 3] = 255;
  }
  return img;
}

}  // namespace assay::image::testimg
