#include "assay/image/png.h"

#include <spng.h>

#include <memory>

namespace assay::image {

namespace {
struct CtxFree {
  void operator()(spng_ctx* c) const { spng_ctx_free(c); }
};
using Ctx = std::unique_ptr<spng_ctx, CtxFree>;

Error png_error(std::string_view what, int rc) {
  return make_error("png", what, kNoOffset, spng_strerror(rc));
}
}  // namespace

Result<ByteBuffer> encode_png(const Rgba& img) {
  std::uint64_t need = 0;
  if (img.width == 0 || img.height == 0 || !mul_ok(std::uint64_t{img.width} * img.height, 4, need) ||
      need != img.pixels.size())
    return make_error("png", "image", kNoOffset, "pixel buffer does not match width x height x 4");
  Ctx ctx(spng_ctx_new(SPNG_CTX_ENCODER));
  if (!ctx) return make_error("png", "encoder", kNoOffset, "out of memory");
  spng_set_option(ctx.get(), SPNG_ENCODE_TO_BUFFER, 1);
  spng_ihdr ihdr{};
  ihdr.width = img.width;
  ihdr.height = img.height;
  ihdr.bit_depth = 8;
  ihdr.color_type = SPNG_COLOR_TYPE_TRUECOLOR_ALPHA;
  if (int rc = spng_set_ihdr(ctx.get(), &ihdr)) return png_error("ihdr", rc);
  if (int rc = spng_encode_image(ctx.get(), img.pixels.data(), img.pixels.size(), SPNG_FMT_PNG,
                                 SPNG_ENCODE_FINALIZE))
    return png_error("encode", rc);
  std::size_t len = 0;
  int rc = 0;
  void* out = spng_get_png_buffer(ctx.get(), &len, &rc);
  if (out == nullptr) return png_error("buffer", rc);
  ByteBuffer buf(static_cast<std::uint8_t*>(out), static_cast<std::uint8_t*>(out) + len);
  std::free(out);
  return buf;
}

Result<Rgba> decode_png(ByteView png) {
  Ctx ctx(spng_ctx_new(0));
  if (!ctx) return make_error("png", "decoder", kNoOffset, "out of memory");
  spng_set_image_limits(ctx.get(), 1u << 14, 1u << 14);
  if (int rc = spng_set_png_buffer(ctx.get(), png.data(), png.size())) return png_error("buffer", rc);
  spng_ihdr ihdr{};
  if (int rc = spng_get_ihdr(ctx.get(), &ihdr)) return png_error("ihdr", rc);
  std::size_t size = 0;
  if (int rc = spng_decoded_image_size(ctx.get(), SPNG_FMT_RGBA8, &size)) return png_error("size", rc);
  Rgba img;
  img.width = ihdr.width;
  img.height = ihdr.height;
  img.pixels.resize(size);
  if (int rc = spng_decode_image(ctx.get(), img.pixels.data(), size, SPNG_FMT_RGBA8, 0))
    return png_error("decode", rc);
  return img;
}

}  // namespace assay::image
