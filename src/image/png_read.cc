// A PNG reader for untrusted input (texture import): the declared size is checked
// against PngLimits on the IHDR alone, before any pixel memory is allocated.
#include <fmt/format.h>
#include <spng.h>

#include <memory>

#include "assay/image/encode.h"
#include "spng_context.h"

namespace assay::image {

namespace {
using detail::png_error;
constexpr std::size_t kChunkLimit = std::size_t{64} << 20;  // text/ancillary chunk bytes kept by libspng
}  // namespace

Result<Rgba> read_png(ByteView png, const PngLimits& limits) {
  detail::SpngContext ctx(spng_ctx_new(0));
  if (!ctx) return make_error("png", "decoder", kNoOffset, "out of memory");
  spng_set_chunk_limits(ctx.get(), kChunkLimit, kChunkLimit);
  spng_set_crc_action(ctx.get(), SPNG_CRC_ERROR, SPNG_CRC_ERROR);
  if (int rc = spng_set_png_buffer(ctx.get(), png.data(), png.size())) return png_error("buffer", rc);
  spng_ihdr ihdr{};
  if (int rc = spng_get_ihdr(ctx.get(), &ihdr)) return png_error("IHDR", rc);
  const std::uint64_t pixels = std::uint64_t{ihdr.width} * ihdr.height;
  if (ihdr.width > limits.max_width || ihdr.height > limits.max_height || pixels > limits.max_pixels)
    return make_error("png", "IHDR", 16,
                      fmt::format("declares {} x {} pixels; the limit is {} x {} ({} pixels): refused before "
                                  "decoding", ihdr.width, ihdr.height, limits.max_width, limits.max_height,
                                  limits.max_pixels));
  std::size_t size = 0;
  if (int rc = spng_decoded_image_size(ctx.get(), SPNG_FMT_RGBA8, &size)) return png_error("size", rc);
  if (size != pixels * 4) return make_error("png", "IHDR", 16, "decoded size disagrees with the header");
  Rgba img{ihdr.width, ihdr.height, ByteBuffer(size)};
  if (int rc = spng_decode_image(ctx.get(), img.pixels.data(), size, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS))
    return png_error("decode", rc);
  return img;
}

}  // namespace assay::image
