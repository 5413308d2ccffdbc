// RGBA images and PNG encoding (libspng).
#pragma once

#include <cstdint>

#include "assay/core/bytes.h"

namespace assay::image {

// 8-bit RGBA, rows top to bottom, no padding.
struct Rgba {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  ByteBuffer pixels;  // width * height * 4
};

// Encodes to a PNG (8-bit RGBA). Fails on an empty image or a pixel buffer of the wrong size.
Result<ByteBuffer> encode_png(const Rgba& img);
// Decodes a PNG to 8-bit RGBA (used by tests to check what we wrote).
Result<Rgba> decode_png(ByteView png);

}  // namespace assay::image
