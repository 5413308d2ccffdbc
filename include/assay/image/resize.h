// Resampling an image to a given size (`replace --resize` fits a PNG to the
// texture it replaces) and telling image files apart by their magic bytes.
#pragma once

#include <cstdint>
#include <string_view>

#include "assay/core/bytes.h"
#include "assay/image/png.h"

namespace assay::image {

// `src` resampled to w x h. A side that shrinks is an area (box) mean, as encode.h's downscale;
// a side that grows is bilinear between source pixel centres (edges clamped). Colour is weighted
// by alpha both ways, so transparent texels do not darken edges. The same size is an exact copy.
Result<Rgba> resize(const Rgba& src, std::uint32_t w, std::uint32_t h);

// The kind of image file `b` starts with, from its magic bytes: "PNG", "JPEG", "GIF", "BMP",
// "TIFF", "WebP", "DDS", "PSD", "ICO" or "" when it is none of them.
std::string_view image_file_kind(ByteView b) noexcept;

}  // namespace assay::image
