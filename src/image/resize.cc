// Resampling to any size and image-file magic bytes.
#include "assay/image/resize.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "assay/image/encode.h"

namespace assay::image {

namespace {

std::uint8_t round8(double v) { return static_cast<std::uint8_t>(std::clamp(std::floor(v + 0.5), 0.0, 255.0)); }

// Where output cell i of n samples a source of length s: the two source cells and the weight of
// the second (pixel centres aligned: x_src = (i + 0.5) * s / n - 0.5, clamped to the edges).
struct Tap {
  std::uint32_t a = 0, b = 0;
  double t = 0;
};
Tap tap(std::uint32_t i, std::uint32_t n, std::uint32_t s) {
  const double x = std::clamp((i + 0.5) * s / n - 0.5, 0.0, static_cast<double>(s - 1));
  Tap p;
  p.a = static_cast<std::uint32_t>(x);
  p.b = std::min(p.a + 1, s - 1);
  p.t = x - p.a;
  return p;
}

// Bilinear to w x h (each side at least the source's), colour weighted by alpha.
Rgba upscale(const Rgba& src, std::uint32_t w, std::uint32_t h) {
  Rgba out{w, h, ByteBuffer(std::size_t{w} * h * 4)};
  for (std::uint32_t y = 0; y < h; ++y) {
    const Tap ty = tap(y, h, src.height);
    for (std::uint32_t x = 0; x < w; ++x) {
      const Tap tx = tap(x, w, src.width);
      const std::uint32_t xs[2] = {tx.a, tx.b}, ys[2] = {ty.a, ty.b};
      const double wx[2] = {1 - tx.t, tx.t}, wy[2] = {1 - ty.t, ty.t};
      double alpha = 0, pre[3] = {0, 0, 0}, plain[3] = {0, 0, 0};
      for (int j = 0; j < 2; ++j)
        for (int k = 0; k < 2; ++k) {
          const double c = wy[j] * wx[k];
          const std::uint8_t* p = src.pixels.data() + (std::size_t{ys[j]} * src.width + xs[k]) * 4;
          alpha += c * p[3];
          for (int i = 0; i < 3; ++i) pre[i] += c * p[3] * p[i], plain[i] += c * p[i];
        }
      std::uint8_t* o = out.pixels.data() + (std::size_t{y} * w + x) * 4;
      for (int i = 0; i < 3; ++i) o[i] = round8(alpha > 0 ? pre[i] / alpha : plain[i]);
      o[3] = round8(alpha);
    }
  }
  return out;
}

bool starts(ByteView b, std::string_view magic, std::size_t at = 0) {
  return b.size() >= at + magic.size() && std::memcmp(b.data() + at, magic.data(), magic.size()) == 0;
}

}  // namespace

Result<Rgba> resize(const Rgba& src, std::uint32_t w, std::uint32_t h) {
  ASSAY_CHECK(check_rgba_shape(src, "image"));
  if (w == 0 || h == 0) return make_error("image", "size", kNoOffset, fmt::format("cannot resize to {} x {}", w, h));
  if (w == src.width && h == src.height) return src;
  if (w <= src.width && h <= src.height) return downscale(src, w, h);
  const Rgba grown = upscale(src, std::max(w, src.width), std::max(h, src.height));
  if (grown.width == w && grown.height == h) return grown;
  return downscale(grown, w, h);
}

std::string_view image_file_kind(ByteView b) noexcept {
  using namespace std::string_view_literals;
  if (starts(b, "\x89PNG\r\n\x1a\n"sv)) return "PNG";
  if (starts(b, "\xFF\xD8\xFF"sv)) return "JPEG";
  if (starts(b, "GIF87a"sv) || starts(b, "GIF89a"sv)) return "GIF";
  if (starts(b, "RIFF"sv) && starts(b, "WEBP"sv, 8)) return "WebP";
  if (starts(b, "II*\0"sv) || starts(b, "MM\0*"sv)) return "TIFF";
  if (starts(b, "DDS "sv)) return "DDS";
  if (starts(b, "8BPS"sv)) return "PSD";
  if (starts(b, "\0\0\1\0"sv) && b.size() >= 6 && b[4] + b[5] != 0) return "ICO";
  // BMP: "BM", then the file size, two reserved u16 (zero) and the pixel offset.
  if (starts(b, "BM"sv) && b.size() >= 26 && b[6] == 0 && b[7] == 0 && b[8] == 0 && b[9] == 0) return "BMP";
  return "";
}

}  // namespace assay::image
