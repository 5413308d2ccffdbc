// A fast zlib (RFC 1950) / deflate (RFC 1951) compressor for PNG rows: runs of bytes equal to the
// byte 1 or a pixel (4 bytes in RGBA rows, 3 in RGB) before (Up-filtered rows: a repeated row, a
// repeated pixel) as matches, the rest as
// literals, dynamic Huffman blocks (stored when smaller). On decoded textures it is faster than
// libdeflate's level 1 and its output smaller (docs/PERFORMANCE.md, "igz textures to PNG").
// Deterministic: the stream depends on the input bytes only.
#pragma once

#include <cstddef>
#include <cstdint>

#include "assay/core/bytes.h"

namespace assay::image::detail {

// Bytes `out` must have room for to compress `n` bytes (the stream is never longer than the input
// in stored blocks, plus headers and slack for the 8-byte bit writer).
std::size_t zlib_fast_bound(std::size_t n);

// The zlib stream of `in` into `out` (room for zlib_fast_bound(in.size()) bytes); its length.
// `pixel`: the bytes of a pixel of the rows, 4 (RGBA) or 3 (RGB; any other value reads as 4).
std::size_t zlib_fast_compress(ByteView in, std::uint8_t* out, unsigned pixel = 4);

// The same stream without SIMD compares (what a target without SSE2 runs; for tests).
std::size_t zlib_fast_compress_portable(ByteView in, std::uint8_t* out, unsigned pixel = 4);

}  // namespace assay::image::detail
