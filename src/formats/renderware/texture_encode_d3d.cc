// PC (D3D8, D3D9) and Xbox (DXT only) texture natives from RGBA. The header of the
// native being replaced is kept (name, mask, filter, addressing, padding) and only the fields the
// new texels decide are rewritten. spec: renderware.md#rw-6-1 .. #rw-6-3.
#include <fmt/format.h>

#include <algorithm>

#include "assay/formats/renderware/writer.h"
#include "records.h"
#include "texture_encode_internal.h"
#include "texture_internal.h"

namespace assay::rw::detail {

namespace {

constexpr std::size_t kHeader = records::D3dNativeHeader::kSize;  // Xbox adds the u32 total size (spec: #rw-6-1)

bool is_pal(TexelFormat f) { return f == TexelFormat::pal8 || f == TexelFormat::pal4; }

// Raster format pixel bits (spec: #rw-5-4; GTA's DXT convention of #rw-6-2).
std::uint32_t pixel_bits(TexelFormat f, bool alpha) {
  switch (f) {
    case TexelFormat::dxt1: return alpha ? raster::k1555 : raster::k565;
    case TexelFormat::dxt3:
    case TexelFormat::dxt5: return raster::k4444;
    case TexelFormat::bgra8888: return raster::k8888;
    case TexelFormat::bgrx8888: return raster::k888;
    case TexelFormat::r5g6b5: return raster::k565;
    case TexelFormat::x1r5g5b5: return raster::k555;
    case TexelFormat::a1r5g5b5: return raster::k1555;
    case TexelFormat::a4r4g4b4: return raster::k4444;
    case TexelFormat::l8: return raster::kLum8;
    case TexelFormat::pal8: return raster::kPal8 | raster::k8888;
    case TexelFormat::pal4: return raster::kPal4 | raster::k8888;
    default: return 0;
  }
}

std::uint32_t d3d9_code(TexelFormat f) {  // spec: #rw-6-2
  switch (f) {
    case TexelFormat::dxt1: return d3d::kDxt1;
    case TexelFormat::dxt3: return d3d::kDxt3;
    case TexelFormat::dxt5: return d3d::kDxt5;
    case TexelFormat::bgra8888: return d3d::kA8R8G8B8;
    case TexelFormat::bgrx8888: return d3d::kX8R8G8B8;
    case TexelFormat::r5g6b5: return d3d::kR5G6B5;
    case TexelFormat::x1r5g5b5: return d3d::kX1R5G5B5;
    case TexelFormat::a1r5g5b5: return d3d::kA1R5G5B5;
    case TexelFormat::a4r4g4b4: return d3d::kA4R4G4B4;
    case TexelFormat::a8: return d3d::kA8;
    case TexelFormat::l8: return d3d::kL8;
    case TexelFormat::a8l8: return d3d::kA8L8;
    default: return d3d::kP8;
  }
}

std::uint32_t depth_of(TexelFormat f) {
  switch (f) {
    case TexelFormat::pal4: return 4;
    case TexelFormat::pal8:
    case TexelFormat::l8:
    case TexelFormat::a8: return 8;
    case TexelFormat::dxt1:
    case TexelFormat::dxt3:
    case TexelFormat::dxt5: return 16;  // GTA's convention for DXT rasters
    case TexelFormat::bgra8888:
    case TexelFormat::bgrx8888: return 32;
    default: return 16;
  }
}

bool has_alpha(const image::Rgba& img) {
  for (std::size_t i = 3; i < img.pixels.size(); i += 4)
    if (img.pixels[i] != 255) return true;
  return false;
}

// A fresh header (a new texture) or the original's bytes (a replacement on the same platform).
// The original's header when it is of the same platform (its names, filter and kept bits), else a
// new one from the spec. Its name and mask view `s` or `original`.
records::D3dNativeHeader base_header(const NativeSpec& s, ByteView original) {
  if (original.size() >= 2 * SectionHeader::kSize + kHeader + 4) {  // the native's and its Struct's headers
    const auto h = records::decode_at<records::D3dNativeHeader>(original, 2 * SectionHeader::kSize);
    if (h.platform == s.platform) return h;
  }
  records::D3dNativeHeader h;
  h.platform = s.platform;
  h.filter = static_cast<std::uint8_t>(s.filter_addressing & 0xFF);
  h.addressing = static_cast<std::uint8_t>(s.filter_addressing >> 8);
  h.name = ByteView(reinterpret_cast<const std::uint8_t*>(s.name.data()), s.name.size());
  h.mask = ByteView(reinterpret_cast<const std::uint8_t*>(s.mask.data()), s.mask.size());
  return h;
}

// The compression/flags byte +0x57 and the +0x4C word, from the old header's when the format stays.
void set_format_fields(const NativeSpec& s, records::D3dNativeHeader& h, bool alpha, bool same_platform,
                       TexelFormat old_format) {
  const std::uint32_t old_4c = same_platform ? h.format_word : 0;
  const std::uint8_t old_57 = same_platform ? h.flags : 0;
  const bool dxt = is_dxt(s.format);
  std::uint8_t b57 = 0;
  std::uint32_t w4c = alpha ? 1 : 0;
  if (s.platform == kPlatformD3D9) {
    w4c = old_format == s.format && dxt ? old_4c : d3d9_code(s.format);  // keep DXT2/DXT4 spellings
    b57 = static_cast<std::uint8_t>((old_57 & 0x04) | (alpha ? 0x01 : 0) | (dxt ? 0x08 : 0));
  } else if (s.platform == kPlatformD3D8) {
    b57 = dxt ? (old_format == s.format && old_57 != 0 ? old_57 : s.format == TexelFormat::dxt1 ? 1 : s.format == TexelFormat::dxt3 ? 3 : 5) : 0;
  } else {  // Xbox: u16 hasAlpha, u16 kept; compression codes of #rw-6-3
    w4c = (old_4c & 0xFFFF0000u) | (alpha ? 1u : 0u);
    b57 = old_format == s.format && old_57 != 0 ? old_57 : s.format == TexelFormat::dxt1 ? 0x0C : s.format == TexelFormat::dxt3 ? 0x0E : 0x0F;
  }
  h.format_word = w4c;
  h.flags = b57;
}

Result<ByteBuffer> level_bytes(const NativeSpec& s, const image::Rgba& l, const image::PalettedImage* q, std::size_t i,
                               const EncodeOptions& o) {
  if (is_dxt(s.format)) return image::encode_blocks(block_format(s.format), l, {o.dxt, true, o.threads});
  if (!is_pal(s.format)) return image::encode_pixels(pixel_format(s.format), l);
  if (s.format == TexelFormat::pal8) return q->levels[i];
  ByteBuffer packed((q->levels[i].size() + 1) / 2, 0);  // PAL4 depth 4: low nibble first
  for (std::size_t k = 0; k < q->levels[i].size(); ++k)
    packed[k >> 1] |= static_cast<std::uint8_t>((q->levels[i][k] & 0xF) << ((k & 1) * 4));
  return packed;
}

}  // namespace

Result<ByteBuffer> encode_d3d_native(const NativeSpec& s, const image::Rgba& img, const EncodeOptions& o,
                                     ByteView original) {
  if (img.width > kD3dMaxSide || img.height > kD3dMaxSide)
    return encode_error(s, fmt::format("{} x {} is larger than the D3D limit of {} x {}", img.width, img.height,
                                       kD3dMaxSide, kD3dMaxSide));
  TextureNative old;
  if (!original.empty()) {
    auto r = read_texture_native(original, 0, 0, {});
    if (r) old = std::move(*r);
  }
  image::Rgba top = img;
  if (s.format == TexelFormat::dxt1 && !s.dxt1_alpha)
    for (std::size_t i = 3; i < top.pixels.size(); i += 4) top.pixels[i] = 255;
  const bool alpha = has_alpha(top) && s.format != TexelFormat::bgrx8888 && s.format != TexelFormat::r5g6b5 &&
                     s.format != TexelFormat::x1r5g5b5 && s.format != TexelFormat::l8;
  ASSAY_TRY(std::vector<image::Rgba> levels, image::mip_chain(top, level_count(s, top.width, top.height), o.threads));
  image::PalettedImage q;
  if (is_pal(s.format)) {
    ASSAY_TRY(q, image::quantize(levels, {s.format == TexelFormat::pal4 ? 16u : 256u, o.dither, o.speed}));
  }
  const bool same_platform = old.platform == s.platform;
  records::D3dNativeHeader h = base_header(s, same_platform ? original : ByteView{});
  const std::uint32_t keep_rf = same_platform ? old.raster_format & (0xFF | raster::kAutoMipmap) : 0;
  const auto n = static_cast<std::uint32_t>(levels.size());
  std::uint32_t rf = keep_rf | pixel_bits(s.format, alpha) | (n > 1 ? raster::kMipmaps : 0);
  if (n == 1 && (keep_rf & raster::kAutoMipmap) && (old.raster_format & raster::kMipmaps)) rf |= raster::kMipmaps;
  h.raster_format = rf;
  set_format_fields(s, h, alpha, same_platform, old.format);
  h.width = static_cast<std::uint16_t>(top.width);
  h.height = static_cast<std::uint16_t>(top.height);
  h.depth = static_cast<std::uint8_t>(is_dxt(s.format) && old.format == s.format && old.depth ? old.depth : depth_of(s.format));
  h.levels = static_cast<std::uint8_t>(n);
  h.raster_type = 4;  // texture
  ByteWriter body;
  put_record(body, h);
  std::vector<ByteBuffer> data(n);
  std::uint64_t total = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    ASSAY_TRY(data[i], level_bytes(s, levels[i], &q, i, o));
    total += data[i].size();
  }
  if (s.platform == kPlatformXbox) body.u32(static_cast<std::uint32_t>(total));
  if (is_pal(s.format))
    for (std::size_t i = 0; i < (s.format == TexelFormat::pal8 ? 256u : 32u); ++i)
      body.u32(i < q.palette.size() ? q.palette[i] : 0);  // R, G, B, A bytes
  for (const ByteBuffer& d : data) {
    if (s.platform != kPlatformXbox) body.u32(static_cast<std::uint32_t>(d.size()));
    body.bytes(d);
  }
  if (body.size() > 0xFFFFFFF0u) return encode_error(s, "texture native larger than 4 GiB");
  return writer::container(id::kTextureNative,
                           {writer::section(id::kStruct, body.buffer(), s.stamp), writer::container(id::kExtension, {}, s.stamp)},
                           s.stamp);
}

}  // namespace assay::rw::detail
