// `assay replace` on Oni level files (issues 10 and 16): instances by name from .oni files, raw
// instance bytes, or PNGs for TXMPs (docs/cli.md, oni section).
#pragma once

#include "assay/options.h"
#include "assay/image/png.h"

namespace assay::oni {

// One TXMP level's pixel data in format `code` (spec: oni.md#oni-9-1: 0 BGRA4444, 1 BGR555 with
// bit 15 set as OniSplit writes it, 2 BGRA5551, 7 RGBA bytes, 8 BGRX, 9 DXT1 via libsquish).
Result<ByteBuffer> encode_txmp_level(const image::Rgba& img, std::uint32_t code);

}  // namespace assay::oni
