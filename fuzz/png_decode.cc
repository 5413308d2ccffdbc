// libFuzzer target: the size-limited PNG reader of texture import (image/encode.h read_png) and,
// on a small decoded image, the encoders behind it (packed texels, DXT, palette, mips). A PNG
// declaring more than the limits must be refused before anything is allocated for its pixels.
#include <cstddef>
#include <cstdint>

#include "assay/image/encode.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  const image::PngLimits limits{1024, 1024, 1u << 20};
  auto img = image::read_png(ByteView(data, size), limits);
  if (!img) return 0;
  if (img->width == 0 || img->height == 0 || img->width > 1024 || img->height > 1024 ||
      img->pixels.size() != std::uint64_t{img->width} * img->height * 4)
    __builtin_trap();
  if (std::uint64_t{img->width} * img->height > 64 * 64) return 0;  // keep the encoders quick
  auto packed = image::encode_pixels(image::PixelFormat::a4r4g4b4, *img);
  if (!packed || packed->size() != img->pixels.size() / 2) __builtin_trap();
  auto blocks = image::encode_blocks(image::BlockFormat::bc3, *img, {image::DxtQuality::fast, true, 1});
  if (!blocks) __builtin_trap();
  auto chain = image::mip_chain(*img, 0 + 32, 1);
  if (!chain || chain->size() != image::full_mip_count(img->width, img->height)) __builtin_trap();
  auto pal = image::quantize(*chain, {16, 1.0f, 10});
  if (!pal || pal->palette.size() > 16 || pal->levels.size() != chain->size()) __builtin_trap();
  return 0;
}
