// DXT1/3/5 block encoding through libsquish, spread over the core worker pool by bands of block
// rows. spec: renderware.md#rw-6-4 (the decoders' block layouts).
#include <fmt/format.h>
#include <squish.h>

#include <algorithm>

#include "assay/core/thread_pool.h"
#include "assay/image/encode.h"

namespace assay::image {

namespace {

int squish_flags(BlockFormat f, const DxtOptions& opt) {
  int flags = f == BlockFormat::bc1   ? squish::kDxt1
              : f == BlockFormat::bc2 ? squish::kDxt3
              : f == BlockFormat::bc4 ? squish::kBc4  // the red channel (decode_blocks gives grey)
              : f == BlockFormat::bc5 ? squish::kBc5  // red and green
                                      : squish::kDxt5;
  switch (opt.quality) {
    case DxtQuality::fast: flags |= squish::kColourRangeFit; break;
    case DxtQuality::normal: flags |= squish::kColourClusterFit; break;
    case DxtQuality::best: flags |= squish::kColourIterativeClusterFit; break;
  }
  if (opt.weight_by_alpha) flags |= squish::kWeightColourByAlpha;
  return flags;
}

constexpr std::uint32_t kBandRows = 8;  // block rows per parallel job (32 pixel rows)

}  // namespace

Result<ByteBuffer> encode_blocks(BlockFormat f, const Rgba& img, const DxtOptions& opt) {
  std::uint64_t need = 0, px = 0;
  if (img.width == 0 || img.height == 0 || !mul_ok(std::uint64_t{img.width} * img.height, 4, px) ||
      px != img.pixels.size() || img.width > (1u << 28) || !block_level_size(f, img.width, img.height, need))
    return make_error("dxt", "image", kNoOffset,
                      fmt::format("{} x {} image with {} bytes of pixels", img.width, img.height, img.pixels.size()));
  ByteBuffer out(need);
  const int flags = squish_flags(f, opt);
  const std::uint32_t block_rows = (img.height + 3) / 4;
  const std::uint64_t row_bytes = need / block_rows;  // bytes of one row of blocks
  const std::uint32_t bands = (block_rows + kBandRows - 1) / kBandRows;
  const unsigned threads = opt.threads == 0 ? default_threads() : opt.threads;
  parallel_for(bands, std::min<unsigned>(threads, bands), [&](std::size_t band) {
    const std::uint32_t y0 = static_cast<std::uint32_t>(band) * kBandRows * 4;
    const std::uint32_t rows = std::min(img.height - y0, kBandRows * 4);
    squish::CompressImage(img.pixels.data() + std::size_t{y0} * img.width * 4, static_cast<int>(img.width),
                          static_cast<int>(rows), static_cast<int>(img.width * 4),
                          out.data() + band * kBandRows * row_bytes, flags);
  });
  return out;
}

}  // namespace assay::image
