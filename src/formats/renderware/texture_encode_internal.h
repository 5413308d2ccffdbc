// Internals of texture import shared by texture_encode*.cc and edit.cc.
#pragma once

#include "assay/formats/renderware/texture_encode.h"

namespace assay::rw::detail {

Result<ByteBuffer> encode_ps2_native(const NativeSpec& s, const image::Rgba& img, const EncodeOptions& o,
                                     ByteView original);
Result<ByteBuffer> encode_d3d_native(const NativeSpec& s, const image::Rgba& img, const EncodeOptions& o,
                                     ByteView original);
// The levels a texture of this spec gets: spec.mip_levels (0 = full) clamped to the size and
// the platform's limit (PS2: 7, GS TEX1 MXL <= 6).
std::uint32_t level_count(const NativeSpec& s, std::uint32_t w, std::uint32_t h);
// Replaces the Extension (the last child) of the native `made` with the one of `original`
// (kept byte for byte: Sky Mipmap Val, plugins); `made` unchanged when either has none.
Result<ByteBuffer> keep_extension(ByteBuffer made, ByteView original);
Error encode_error(const NativeSpec& s, std::string msg);

}  // namespace assay::rw::detail
