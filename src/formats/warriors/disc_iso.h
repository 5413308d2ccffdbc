// Finding WARRIORS.DIR and WARRIORS.WAD in an ISO 9660 image with libiso9660 (libcdio).
// spec: warriors.md#wr-1-2 (root only; case-insensitive; ";1" and a trailing "." ignored).
#pragma once

#include <cstdint>

#include "assay/core/input.h"

namespace assay::warriors {

struct IsoExtent {
  std::uint64_t offset = 0;  // extent x 2,048 (64-bit: dual-layer images exceed 4 GiB)
  std::uint64_t size = 0;
};
struct IsoFiles {
  IsoExtent dir, wad;
};

// "CD001" in the first volume descriptor (sector 16).
bool iso_has_signature(ByteView image);
// Reads the root directory through libiso9660; the extents are checked against the image.
Result<IsoFiles> find_iso_files(const Input& image);
// "ISO image truncated: ..." when the primary descriptor's volume space size (+80) reaches past
// the file's end; empty otherwise.
std::string iso_truncation(ByteView image);

}  // namespace assay::warriors
