// RGBA images and PNG encoding (our chunk writer over libdeflate; decoding with libspng).
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "assay/core/bytes.h"

namespace assay::image {

// 8-bit RGBA, rows top to bottom, no padding.
struct Rgba {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  ByteBuffer pixels;  // width * height * 4
};

// An error in `family`'s terms unless `img` is non-empty and pixels holds width x height x 4 bytes.
Result<void> check_rgba_shape(const Rgba& img, std::string_view family);

// Palette indices, one byte a pixel (rows top to bottom, no padding), and the RGBA palette they
// index: pixel p is the colour palette[indices[p]] (PAL4/PAL8 textures).
struct Indexed {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  ByteBuffer palette;  // 1-256 entries of R, G, B, A (4 bytes each)
  ByteBuffer indices;  // width * height, each below the palette's entry count
};

// Encodes to a PNG (8-bit RGBA). Fails on an empty image or a pixel buffer of the wrong size.
Result<ByteBuffer> encode_png(const Rgba& img);
// Writes RGBA rows [y0, y1) of an image into `rows` (row y0 first, width x 4 bytes a row).
using RowSource = std::function<Result<void>(std::uint32_t y0, std::uint32_t y1, std::uint8_t* rows)>;
// The PNG encode_png gives for the width x height image `source` makes, asked for bands of
// `band_rows` rows (the last one shorter; y0 a multiple of band_rows, which is at least 1): the
// image is encoded a band at a time while the band is in cache, and never held whole (a source
// decoding block rows writes no full RGBA buffer). The same bytes as encode_png of the whole image;
// the source of an image with alpha is asked again from y0 = 0 after the band where the alpha shows
// (the bands before were filtered as RGB). Fails on an empty image or a failure of the source (its
// error).
Result<ByteBuffer> encode_png_rows(std::uint32_t width, std::uint32_t height, std::uint32_t band_rows,
                                   const RowSource& source);
// Encodes to an indexed PNG (colour type 3: PLTE, plus tRNS when an entry's alpha is not 255;
// bit depth 4 for up to 16 entries, else 8; no row filters) that decodes to exactly to_rgba(img).
// Fails on an empty image, a buffer of the wrong size, 0 or more than 256 entries, or an index
// past the palette.
Result<ByteBuffer> encode_png(const Indexed& img);
// The RGBA pixels of an indexed image (the palette lookup); an empty image when an index is past
// the palette or the sizes disagree.
Rgba to_rgba(const Indexed& img);
// Decodes a PNG to 8-bit RGBA (used by tests to check what we wrote).
Result<Rgba> decode_png(ByteView png);

}  // namespace assay::image
