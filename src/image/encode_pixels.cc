// RGBA to packed D3D / Oni texels (the inverse of decode_pixels). spec: renderware.md#rw-6-2.
#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "assay/image/encode.h"

namespace assay::image {

namespace {

// v (0-255) rounded to n bits: the nearest of the 2^n levels the decoders expand by bit
// replication (the round trip of a decoded value is exact for n = 4, 5, 6).
constexpr std::uint32_t bits(std::uint8_t v, std::uint32_t n) {
  return (std::uint32_t{v} * ((1u << n) - 1) + 127) / 255;
}

Result<std::uint64_t> pixel_count(const Rgba& img) {
  std::uint64_t n = 0, need = 0;
  if (img.width == 0 || img.height == 0 || !mul_ok(img.width, img.height, n) || !mul_ok(n, 4, need) ||
      need != img.pixels.size())
    return make_error("encode", "image", kNoOffset,
                      fmt::format("{} x {} image with {} bytes of pixels", img.width, img.height, img.pixels.size()));
  return n;
}

std::uint16_t pack16(PixelFormat f, const std::uint8_t* p) {
  const std::uint8_t r = p[0], g = p[1], b = p[2], a = p[3];
  switch (f) {
    case PixelFormat::r5g6b5: return static_cast<std::uint16_t>(bits(r, 5) << 11 | bits(g, 6) << 5 | bits(b, 5));
    case PixelFormat::x1r5g5b5:
      return static_cast<std::uint16_t>(0x8000 | bits(r, 5) << 10 | bits(g, 5) << 5 | bits(b, 5));
    case PixelFormat::a1r5g5b5:
      return static_cast<std::uint16_t>((a >= 128 ? 0x8000 : 0) | bits(r, 5) << 10 | bits(g, 5) << 5 | bits(b, 5));
    case PixelFormat::a4r4g4b4:
      return static_cast<std::uint16_t>(bits(a, 4) << 12 | bits(r, 4) << 8 | bits(g, 4) << 4 | bits(b, 4));
    default:  // a8l8: luminance (Rec. 601 weights, rounded) low, alpha high
      return static_cast<std::uint16_t>(a << 8 | (299u * r + 587u * g + 114u * b + 500) / 1000);
  }
}

}  // namespace

Result<ByteBuffer> encode_pixels(PixelFormat f, const Rgba& img) {
  ASSAY_TRY(const std::uint64_t n, pixel_count(img));
  const std::uint32_t bpp = bytes_per_pixel(f);
  ByteBuffer out(n * bpp);
  const std::uint8_t* p = img.pixels.data();
  std::uint8_t* o = out.data();
  for (std::uint64_t i = 0; i < n; ++i, p += 4, o += bpp) {
    switch (f) {
      case PixelFormat::bgra8888:
      case PixelFormat::bgrx8888:
        o[0] = p[2], o[1] = p[1], o[2] = p[0];
        o[3] = f == PixelFormat::bgra8888 ? p[3] : 0xFF;
        break;
      case PixelFormat::a8: o[0] = p[3]; break;
      case PixelFormat::l8: o[0] = static_cast<std::uint8_t>((299u * p[0] + 587u * p[1] + 114u * p[2] + 500) / 1000); break;
      default: store<std::uint16_t>(o, pack16(f, p), Endian::little);
    }
  }
  return out;
}

Result<ByteBuffer> encode_bgr888(const Rgba& img) {
  ASSAY_TRY(const std::uint64_t n, pixel_count(img));
  ByteBuffer out(n * 3);
  for (std::uint64_t i = 0; i < n; ++i) {
    out[3 * i] = img.pixels[4 * i + 2];
    out[3 * i + 1] = img.pixels[4 * i + 1];
    out[3 * i + 2] = img.pixels[4 * i];
  }
  return out;
}

Rgba reduce_pixels(PixelFormat f, const Rgba& img) {
  auto packed = encode_pixels(f, img);
  if (!packed) return {};
  auto back = decode_pixels(f, *packed, img.width, img.height);
  return back ? std::move(*back) : Rgba{};
}

double psnr(const Rgba& a, const Rgba& b) {
  if (a.width != b.width || a.height != b.height || a.pixels.size() != b.pixels.size() || a.pixels.empty())
    return -1.0;
  double sum = 0;
  for (std::size_t i = 0; i < a.pixels.size(); ++i) {
    const double d = static_cast<double>(a.pixels[i]) - static_cast<double>(b.pixels[i]);
    sum += d * d;
  }
  if (sum == 0) return std::numeric_limits<double>::infinity();
  const double mse = sum / static_cast<double>(a.pixels.size());
  return 10.0 * std::log10(255.0 * 255.0 / mse);
}

}  // namespace assay::image
