// Texture import: the spec of a native, the size rule, dispatch to the PS2 / D3D encoders.
// spec: renderware.md#rw-5, #rw-6.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>

#include "assay/formats/renderware/section.h"
#include "assay/formats/renderware/writer.h"
#include "codes.h"
#include "texture_encode_internal.h"

namespace assay::rw {

namespace detail {

Error encode_error(const NativeSpec& s, std::string msg) {
  return detail::rw_error(fmt::format("texture native '{}'", s.name), kNoOffset, std::move(msg), "renderware.encode");
}

std::uint32_t level_count(const NativeSpec& s, std::uint32_t w, std::uint32_t h) {
  std::uint32_t n = image::full_mip_count(w, h);
  if (s.platform == kPlatformPS2) n = std::min<std::uint32_t>(n, 7);  // spec: #rw-5-5 TEX1 MXL (3 bits, GS max 6)
  return s.mip_levels == 0 ? n : std::clamp<std::uint32_t>(s.mip_levels, 1, n);
}

Result<ByteBuffer> keep_extension(ByteBuffer made, ByteView original) {
  // The last child of each 0x15 container (spec: #rw-5-2, #rw-6: ... then an Extension).
  auto last_child = [](ByteView b) -> Result<std::pair<std::uint64_t, std::uint64_t>> {
    ASSAY_TRY(const SectionHeader top, read_section_header(b, 0));
    const std::uint64_t end = std::min<std::uint64_t>(b.size(), SectionHeader::kSize + std::uint64_t{top.size});
    std::uint64_t at = SectionHeader::kSize, last = 0, last_end = 0;
    while (at + SectionHeader::kSize <= end) {
      ASSAY_TRY(const SectionHeader h, read_section_header(b, at));
      if (!range_ok(at + SectionHeader::kSize, h.size, end)) break;
      last = at, last_end = at + SectionHeader::kSize + h.size;
      at = last_end;
    }
    if (last_end == 0) return detail::rw_error("texture native", 0, "no children", "renderware.encode");
    ASSAY_TRY(const SectionHeader lh, read_section_header(b, last));
    if (lh.type != id::kExtension) return std::pair<std::uint64_t, std::uint64_t>{0, 0};
    return std::pair{last, last_end};
  };
  if (original.empty()) return made;
  ASSAY_TRY(auto o, last_child(original));
  ASSAY_TRY(auto m, last_child(made));
  if (o.second == 0 || m.second == 0 || m.second != made.size()) return made;
  ASSAY_TRY(const SectionHeader top, read_section_header(made, 0));
  ByteBuffer body(made.begin() + SectionHeader::kSize, made.begin() + static_cast<std::ptrdiff_t>(m.first));
  body.insert(body.end(), original.begin() + static_cast<std::ptrdiff_t>(o.first),
              original.begin() + static_cast<std::ptrdiff_t>(o.second));
  return writer::section(top.type, body, top.stamp);  // the header again, with the body's new size
}

}  // namespace detail

TexelFormat parse_texel_format(std::string_view s) {
  std::string u(s);
  std::transform(u.begin(), u.end(), u.begin(), [](unsigned char c) { return std::toupper(c); });
  static const std::pair<std::string_view, TexelFormat> kNames[] = {
      {"PAL8", TexelFormat::pal8},     {"PAL4", TexelFormat::pal4},     {"8888", TexelFormat::bgra8888},
      {"888", TexelFormat::bgrx8888},  {"565", TexelFormat::r5g6b5},    {"555", TexelFormat::x1r5g5b5},
      {"1555", TexelFormat::a1r5g5b5}, {"4444", TexelFormat::a4r4g4b4}, {"L8", TexelFormat::l8},
      {"A8", TexelFormat::a8},         {"A8L8", TexelFormat::a8l8},     {"DXT1", TexelFormat::dxt1},
      {"DXT3", TexelFormat::dxt3},     {"DXT5", TexelFormat::dxt5}};
  for (const auto& [n, f] : kNames)
    if (u == n) return f;
  return TexelFormat::unknown;
}

bool platform_supports(std::uint32_t platform, TexelFormat f) {
  switch (platform) {
    case kPlatformPS2:  // spec: #rw-5-4, #rw-real "PS2 true-colour rasters"
      return f == TexelFormat::pal8 || f == TexelFormat::pal4 || f == TexelFormat::bgra8888 ||
             f == TexelFormat::bgrx8888 || f == TexelFormat::a1r5g5b5;
    case kPlatformD3D8:  // texels follow the raster bits (spec: #rw-6-2): no A8 / A8L8
      return f != TexelFormat::unknown && f != TexelFormat::a8 && f != TexelFormat::a8l8;
    case kPlatformD3D9: return f != TexelFormat::unknown;
    case kPlatformXbox:  // uncompressed Xbox texels are swizzled: not written
      return f == TexelFormat::dxt1 || f == TexelFormat::dxt3 || f == TexelFormat::dxt5;
    default: return false;
  }
}

Result<NativeSpec> spec_like(const TextureNative& t) {
  NativeSpec s;
  s.platform = t.platform;
  s.format = t.format;
  s.name = std::string(t.name);
  s.mask = std::string(t.mask);
  s.filter_addressing = t.filter_addressing;
  s.mip_levels = std::max<std::uint32_t>(1, t.levels.empty() ? t.mip_count : static_cast<std::uint32_t>(t.levels.size()));
  s.stamp = t.stamp;
  s.ps2_layout_version = t.ps2.layout_version;
  s.dxt1_alpha = t.has_alpha || (t.raster_format & raster::kPixelMask) == raster::k1555;
  if (!t.unsupported.empty())  // e.g. a D3D9 cube texture: never flattened into a 2D one
    return detail::encode_error(s, "cannot be re-encoded: " + t.unsupported);
  if (!platform_supports(s.platform, s.format))
    return detail::encode_error(s, fmt::format("cannot write a {} texture for platform {}", to_string(t.format),
                                               platform_name(t.platform).empty() ? fmt::format("0x{:X}", t.platform)
                                                                                 : std::string(platform_name(t.platform))));
  if (t.platform == kPlatformPS2 && t.format != TexelFormat::pal4 && t.format != TexelFormat::pal8 &&
      s.ps2_layout_version == 1)
    return detail::encode_error(s, "PS2 true colour in layout version 1 is not written");
  return s;
}

Result<image::Rgba> fit_texture_size(const NativeSpec& s, image::Rgba img, std::string& note) {
  note.clear();
  const std::uint32_t limit = s.platform == kPlatformPS2 ? kPs2MaxSide : kD3dMaxSide;
  const std::uint32_t w = std::bit_floor(img.width), h = std::bit_floor(img.height);
  if (img.width == 0 || img.height == 0) return detail::encode_error(s, "empty image");
  if (w > limit || h > limit)
    return detail::encode_error(s, fmt::format("{} x {} is larger than the {} limit of {} x {}", img.width, img.height,
                                               s.platform == kPlatformPS2 ? "PS2 (GS TEX0)" : "D3D", limit, limit));
  if (w == img.width && h == img.height) return img;
  note = fmt::format("resized {} x {} to {} x {} (sides rounded down to powers of two)", img.width, img.height, w, h);
  return image::downscale(img, w, h);
}

Result<ByteBuffer> encode_texture_native(const NativeSpec& s, const image::Rgba& img, const EncodeOptions& o,
                                         ByteView original) {
  if (!platform_supports(s.platform, s.format))
    return detail::encode_error(s, fmt::format("platform {} cannot hold {}", s.platform, to_string(s.format)));
  if (s.name.size() > 31 || s.mask.size() > 31) return detail::encode_error(s, "names are at most 31 bytes");
  if (!std::has_single_bit(img.width) || !std::has_single_bit(img.height))
    return detail::encode_error(s, fmt::format("{} x {} is not a power-of-two size (use fit_texture_size)", img.width, img.height));
  ASSAY_TRY(ByteBuffer made, s.platform == kPlatformPS2 ? detail::encode_ps2_native(s, img, o, original)
                                                         : detail::encode_d3d_native(s, img, o, original));
  return detail::keep_extension(std::move(made), original);
}

}  // namespace assay::rw
