// The first bytes of an igArchive member without decoding the whole member: a stored file's
// first bytes, or a compressed file's first block (at most 0x8000 bytes). Enough to identify the
// inner file's format: identify from the first bytes, decode the whole only when the format
// needs it.
#pragma once

#include "assay/formats/igarchive/archive.h"

namespace assay::igarchive {

// Members up to this size are decoded whole to be identified; larger ones from their first block.
inline constexpr std::uint64_t kIdentifyWholeUpTo = std::uint64_t{16} << 20;

// At most `max_bytes` (and at most one block) from the start of `f`.
Result<ByteBuffer> read_file_prefix(const Archive& a, const FileEntry& f, std::uint64_t max_bytes = 0x8000);

}  // namespace assay::igarchive
