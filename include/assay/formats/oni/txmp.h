// TXMP textures to RGBA (spec: oni.md#oni-9-1).
#pragma once

#include <cstdint>
#include "assay/core/bytes.h"
#include "assay/core/error.h"
#include "assay/formats/oni/level_set.h"

namespace assay::oni {

// TXMP pixels to RGBA (spec: oni.md#oni-9-1); "unsupported TXMP format N" for other codes.
struct Rgba8 {
  std::uint32_t width = 0, height = 0;
  ByteBuffer pixels;
};
Result<Rgba8> decode_txmp(ByteView pixels, std::uint32_t width, std::uint32_t height, std::uint32_t format);
// Mip `mip` (0 = full size) of TXMP instance i of a walked file (extract --textures, the
// Container's texture() and the viewer). Errors name the file, instance and offset.
Result<Rgba8> decode_txmp_instance(const LoadedFile& f, std::uint32_t i, unsigned mip);

}  // namespace assay::oni
