// Texture encoders: RGBA to packed D3D/Oni texels, DXT1/3/5 blocks (libsquish),
// palettes (libimagequant), mip chains (area downscale) and a size-limited PNG reader.
// The inverse of dxt.h's decoders: decode_pixels(f, encode_pixels(f, img)) is img reduced to
// the bits of f (exact for bgra8888). Pure functions; `threads` (0 = all cores) spreads the
// work of one image over the core worker pool (assay/core/thread_pool.h).
#pragma once

#include <cstdint>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/image/dxt.h"
#include "assay/image/png.h"

namespace assay::image {

// ---- PNG input ----------------------------------------------------------------------------

// Limits checked on the PNG header BEFORE any pixel buffer is allocated (a "PNG bomb" that
// declares a huge size in a few bytes is refused).
struct PngLimits {
  std::uint32_t max_width = 8192, max_height = 8192;
  std::uint64_t max_pixels = std::uint64_t{8192} * 8192;
};
// Decodes any PNG (palette, grey, 16-bit...) to 8-bit RGBA within `limits`. The error names the
// declared size and the limit.
Result<Rgba> read_png(ByteView png, const PngLimits& limits = {});

// ---- Packed texels ------------------------------------------------------------------------

// RGBA to texels in the D3D byte order of PixelFormat (renderware.md#rw-6-2; the same layouts
// as Oni TXMP's bgra32 = bgra8888, bgr32 = bgrx8888, bgr555 = x1r5g5b5, bgra5551 = a1r5g5b5,
// bgra4444 = a4r4g4b4). Channels are reduced by rounding (v * (2^n - 1) + 127) / 255; the
// 1-bit alpha is a >= 128. Fails on an empty or mis-sized image.
Result<ByteBuffer> encode_pixels(PixelFormat f, const Rgba& img);
// 24-bit B, G, R (D3D R8G8B8 order, 3 bytes a texel): RenderWare's 888 raster on platforms
// that store it packed. Alpha is dropped.
Result<ByteBuffer> encode_bgr888(const Rgba& img);
// The channels of `img` reduced exactly as encode_pixels(f) then decode_pixels(f) would: the
// reference the lossless tests compare against.
Rgba reduce_pixels(PixelFormat f, const Rgba& img);

// ---- Block compression (libsquish) --------------------------------------------------------

enum class DxtQuality : std::uint8_t { fast, normal, best };  // range / cluster / iterative fit
struct DxtOptions {
  DxtQuality quality = DxtQuality::normal;
  bool weight_by_alpha = true;  // colour error weighted by alpha (kWeightColourByAlpha)
  unsigned threads = 0;         // 0 = all cores; 1 = inline
};
// DXT1 (bc1, with 1-bit alpha when a pixel has a < 128), DXT3 (bc2) or DXT5 (bc3) blocks of a
// w x h image (partial edge blocks padded as libsquish does); block_level_size() bytes.
Result<ByteBuffer> encode_blocks(BlockFormat f, const Rgba& img, const DxtOptions& opt = {});

// ---- Mip levels ---------------------------------------------------------------------------

// Area (box) resampling to w x h: each output pixel is the coverage-weighted mean of the
// source pixels under it, colour weighted by alpha so transparent texels do not darken edges.
// Halving a power-of-two image is the exact 2 x 2 mean (rounded).
Result<Rgba> downscale(const Rgba& src, std::uint32_t w, std::uint32_t h);
// The number of levels down to 1 x 1: 1 + floor(log2(max(w, h))).
std::uint32_t full_mip_count(std::uint32_t w, std::uint32_t h) noexcept;
// `count` levels: level 0 is `top` (copied), level i is max(1, w >> i) x max(1, h >> i), the
// area mean of the top level (levels built in parallel on `threads`, 0 = all cores). `count`
// is clamped to [1, full_mip_count()].
Result<std::vector<Rgba>> mip_chain(const Rgba& top, std::uint32_t count, unsigned threads = 0);

// ---- Palettes (libimagequant) -------------------------------------------------------------

struct PaletteOptions {
  std::uint32_t max_colours = 256;  // 16 (PAL4) or 256 (PAL8); 2..256
  float dither = 1.0f;              // Floyd-Steinberg level 0 (off) .. 1 (full)
  int speed = 4;                    // libimagequant speed 1 (best) .. 10 (fast)
};
struct PalettedImage {
  std::vector<std::uint32_t> palette;  // RGBA packed r | g << 8 | b << 16 | a << 24
  std::vector<ByteBuffer> levels;      // per input level: one index per pixel
  bool exact = false;                  // level 0 had <= max_colours colours: no loss there
};
// One palette shared by every level (mips). When level 0 uses at most max_colours distinct
// colours the palette is exactly those colours (sorted by packed value), no quantiser runs and
// the other levels' colours map to the nearest entry (squared RGBA distance); otherwise
// libimagequant builds it from all levels' histogram and remaps each level with the chosen
// dithering.
Result<PalettedImage> quantize(const std::vector<Rgba>& levels, const PaletteOptions& opt = {});

// ---- Quality ------------------------------------------------------------------------------

// PSNR in dB over the four channels of two same-sized images (infinity when identical; a
// negative value when the sizes differ).
double psnr(const Rgba& a, const Rgba& b);

}  // namespace assay::image
