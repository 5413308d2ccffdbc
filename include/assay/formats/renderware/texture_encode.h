// Texture import: an RGBA image encoded into a RenderWare texture native (0x15) for
// the PS2 (PAL4/PAL8 swizzled with GS packets, 8888/888/1555 true colour) or PC/Xbox D3D
// (8888, 888, 565, 555, 1555, 4444, L8, A8, A8L8, PAL8, PAL4, DXT1/3/5). spec: renderware.md#rw-5,
// #rw-6. A replacement keeps the original native's name, mask, filter/addressing flags, stamp,
// format, level count and Extension (and on the PS2 its GS words when the layout is unchanged).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "assay/formats/renderware/texture.h"
#include "assay/image/encode.h"

namespace assay::rw {

struct EncodeOptions {
  float dither = 1.0f;  // palette dithering 0 (off) .. 1 (full Floyd-Steinberg)
  int speed = 4;        // libimagequant speed 1 (best) .. 10
  image::DxtQuality dxt = image::DxtQuality::normal;
  unsigned threads = 0;  // for the mips and blocks of this one texture (0 = all cores)
};

// What a texture native is to become.
struct NativeSpec {
  std::uint32_t platform = kPlatformD3D9;  // kPlatformPS2, kPlatformD3D8, kPlatformD3D9, kPlatformXbox
  TexelFormat format = TexelFormat::dxt1;
  std::string name, mask;
  std::uint32_t filter_addressing = 0x1102;  // PS2: the u32; D3D: filter | addressing << 8
  std::uint32_t mip_levels = 1;              // 0 = the full chain (within the platform's limits)
  std::uint32_t stamp = kStampGtaSa;
  std::uint16_t ps2_layout_version = 2;  // 0, 1 or 2 (GS packets)
  bool dxt1_alpha = true;                // DXT1: keep 1-bit alpha (GTA raster 0x100) or force opaque
};

// Size limits (the error message names them): PS2 sides up to 1024 (GS TEX0 TW/TH) and one GS
// packet per level (0x7FFF quadwords); D3D sides up to 4096.
inline constexpr std::uint32_t kPs2MaxSide = 1024, kD3dMaxSide = 4096;

// The spec a replacement of `t` keeps. Fails for a texture we cannot write (e.g. Xbox swizzled
// uncompressed, PS2 16-bit palettes).
Result<NativeSpec> spec_like(const TextureNative& t);
// "PAL8", "PAL4", "8888", "888", "565", "555", "1555", "4444", "L8", "A8", "A8L8", "DXT1",
// "DXT3", "DXT5" (case-insensitive); unknown otherwise.
TexelFormat parse_texel_format(std::string_view s);
// Whether `platform` can store `f` (and how: PS2 true colour is 8888, 888, 1555 only).
bool platform_supports(std::uint32_t platform, TexelFormat f);

// The size rule: a side that is not a power of two is rounded DOWN to one (area filter, never
// upscaled); a side above the platform's limit is refused. `note` receives what was done ("" when
// nothing).
Result<image::Rgba> fit_texture_size(const NativeSpec& s, image::Rgba img, std::string& note);

// Encodes `img` (already fitted) into a whole 0x15 section. `original`: the bytes of the native
// being replaced (its Extension, D3D header padding and PS2 GS words are kept), empty for a new one.
Result<ByteBuffer> encode_texture_native(const NativeSpec& s, const image::Rgba& img, const EncodeOptions& o,
                                         ByteView original = {});

}  // namespace assay::rw
