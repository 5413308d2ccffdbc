// libFuzzer target: PNG encoding and decoding (image/png.h, libspng). Byte 0 picks the path:
// even = encode: u16 width, u16 height, then pixels (a buffer of the wrong size must be refused,
// a right one must round-trip exactly through decode_png); odd = the rest decoded as a PNG
// (hostile files, as `tests` feed it).
#include <cstddef>
#include <cstdint>

#include "assay/image/png.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  if (size < 1) return 0;
  if (data[0] & 1) {
    // decode_png is used by tests only and allows 16384 x 16384 (1 GiB): keep to 1 Mpixel here
    if (size < 25) return 0;
    auto be32 = [&](std::size_t at) {
      return std::uint64_t{data[at]} << 24 | std::uint64_t{data[at + 1]} << 16 | std::uint64_t{data[at + 2]} << 8 | data[at + 3];
    };
    if (be32(1 + 16) * be32(1 + 20) > (1u << 20)) return 0;
    auto img = image::decode_png(ByteView(data + 1, size - 1));
    if (img && img->pixels.size() != std::uint64_t{img->width} * img->height * 4) __builtin_trap();
    return 0;
  }
  if (size < 5) return 0;
  image::Rgba img;
  img.width = data[1] | (data[2] << 8);
  img.height = data[3] | (data[4] << 8);
  if ((data[0] & 2) && size >= 9) {  // sometimes the full 32-bit range (overflow of w*h*4)
    img.width |= std::uint32_t(data[5]) << 16 | std::uint32_t(data[6]) << 24;
    img.height |= std::uint32_t(data[7]) << 16 | std::uint32_t(data[8]) << 24;
  }
  img.pixels.assign(data + 5, data + size);
  auto png = image::encode_png(img);
  const bool right_size = img.width != 0 && img.height != 0 &&
                          img.pixels.size() == std::uint64_t{img.width} * img.height * 4;
  if (!png) return 0;
  if (!right_size) __builtin_trap();  // encoded from a buffer of the wrong size
  auto back = image::decode_png(*png);
  if (!back || back->width != img.width || back->height != img.height || back->pixels != img.pixels)
    __builtin_trap();
  return 0;
}
