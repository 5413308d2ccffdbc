// PS2 texture natives from RGBA: mips by area downscale, palettes by libimagequant,
// then the project's writer lays out the swizzled GS packets, the CSM1 palette and 0-128 alpha.
// spec: renderware.md#rw-5-3 .. #rw-5-8.
#include <fmt/format.h>

#include <algorithm>

#include "assay/formats/renderware/writer.h"
#include "assay/image/ps2.h"
#include "texture_encode_internal.h"

namespace assay::rw::detail {

namespace {

// The PS2 alpha nearest to `a` that round-trips through 0-128 (spec: #rw-5-8): a itself when
// some a' expands to it, else the nearer of its two neighbours.
std::uint8_t ps2_alpha(std::uint8_t a) {
  if (image::ps2::compress_alpha(a) >= 0) return a;
  const std::uint32_t lo = std::uint32_t{a} * 128 / 255;
  const std::uint8_t x = image::ps2::expand_alpha(static_cast<std::uint8_t>(lo));
  const std::uint8_t y = image::ps2::expand_alpha(static_cast<std::uint8_t>(std::min<std::uint32_t>(lo + 1, 128)));
  return (a - x) <= (y - a) ? x : y;
}

// The largest level one GS packet carries (spec: #rw-5-6: 0x7FFF quadwords; not split here).
Result<void> check_packet(const NativeSpec& s, std::uint32_t w, std::uint32_t h, std::uint32_t depth) {
  const std::uint64_t bytes = std::uint64_t{w} * h * depth / 8;
  if (s.ps2_layout_version == 2 && bytes > 0x7FFFull * 16)
    return encode_error(s, fmt::format("a {} x {} level at {} bits needs {} bytes; one GS packet holds at most {} "
                                       "(the PS2 limit for this format)", w, h, depth, bytes, 0x7FFF * 16));
  return {};
}

// Where the 64-byte raster header of a PS2 native starts: the body of the first child of its
// fourth child, the raster container (spec: #rw-5-2).
std::uint64_t raster_header_at(ByteView native) {
  std::uint64_t at = SectionHeader::kSize;
  for (int child = 0; child < 3; ++child) {
    auto h = read_section_header(native, at);
    if (!h || !range_ok(at + SectionHeader::kSize, h->size, native.size())) return 0;
    at += SectionHeader::kSize + h->size;
  }
  at += 2 * SectionHeader::kSize;
  return range_ok(at, 64, native.size()) ? at : 0;
}

// The GS words of the original's header (TEX0, palette base, TEX1, MIPTBP1/2, GS size, K) copied
// over the new one when the GS layout is the same: same size, format, levels and data sizes
// (spec: #rw-5-3, #rw-5-5; our writer leaves MIPTBP zero, the game's files carry real ones).
bool keep_gs_words(ByteBuffer& made, ByteView original) {
  auto o = read_texture_native(original, 0, 0, {});
  auto m = read_texture_native(made, 0, 0, {});
  if (!o || !m) return false;
  const Ps2RasterHeader &a = o->ps2, &b = m->ps2;
  if (a.width != b.width || a.height != b.height || a.depth != b.depth || a.raster_format != b.raster_format ||
      a.layout_version != b.layout_version || a.pixel_size != b.pixel_size || a.palette_size != b.palette_size ||
      a.psm() != b.psm())
    return false;
  const std::uint64_t at_o = raster_header_at(original), at_m = raster_header_at(made);
  if (at_o == 0 || at_m == 0) return false;
  auto copy = [&](std::uint64_t from, std::uint64_t to) {
    std::copy(original.begin() + static_cast<std::ptrdiff_t>(at_o + from),
              original.begin() + static_cast<std::ptrdiff_t>(at_o + to), made.begin() + static_cast<std::ptrdiff_t>(at_m + from));
  };
  copy(0x10, 0x30);  // TEX0, palette base, TEX1 low, MIPTBP1, MIPTBP2
  copy(0x38, 0x40);  // GS memory size, K
  return true;
}

Result<ByteBuffer> palettised(const NativeSpec& s, const std::vector<image::Rgba>& levels, const EncodeOptions& o) {
  const bool pal4 = s.format == TexelFormat::pal4;
  std::vector<image::Rgba> snapped = levels;  // alpha on the PS2's 0-128 steps before quantising
  for (auto& l : snapped)
    for (std::size_t i = 3; i < l.pixels.size(); i += 4) l.pixels[i] = ps2_alpha(l.pixels[i]);
  ASSAY_TRY(image::PalettedImage q, image::quantize(snapped, {pal4 ? 16u : 256u, o.dither, o.speed}));
  writer::Ps2Texture t;
  t.name = s.name, t.mask = s.mask;
  t.width = levels[0].width, t.height = levels[0].height;
  t.pal4 = pal4;
  t.palette = std::move(q.palette);
  for (auto& c : t.palette) c = (c & 0x00FFFFFF) | std::uint32_t{ps2_alpha(static_cast<std::uint8_t>(c >> 24))} << 24;
  t.levels = std::move(q.levels);
  t.filter_addressing = s.filter_addressing;
  t.stamp = s.stamp;
  t.layout_version = s.ps2_layout_version;
  return writer::ps2_texture_native(t);
}

Result<ByteBuffer> true_colour(const NativeSpec& s, std::vector<image::Rgba> levels) {
  writer::Ps2TrueColourTexture t;
  t.name = s.name, t.mask = s.mask;
  t.pixel_format = s.format == TexelFormat::bgra8888 ? raster::k8888
                   : s.format == TexelFormat::bgrx8888 ? raster::k888 : raster::k1555;
  if (t.pixel_format == raster::k8888)
    for (auto& l : levels)
      for (std::size_t i = 3; i < l.pixels.size(); i += 4) l.pixels[i] = ps2_alpha(l.pixels[i]);
  t.levels = std::move(levels);
  t.filter_addressing = s.filter_addressing;
  t.stamp = s.stamp;
  t.layout_version = s.ps2_layout_version;
  return writer::ps2_true_colour_native(t);
}

}  // namespace

Result<ByteBuffer> encode_ps2_native(const NativeSpec& s, const image::Rgba& img, const EncodeOptions& o,
                                     ByteView original) {
  if (img.width > kPs2MaxSide || img.height > kPs2MaxSide)
    return encode_error(s, fmt::format("{} x {} is larger than the PS2 limit of {} x {}", img.width, img.height,
                                       kPs2MaxSide, kPs2MaxSide));
  const std::uint32_t depth = s.format == TexelFormat::pal4 ? 4 : s.format == TexelFormat::pal8 ? 8
                              : s.format == TexelFormat::a1r5g5b5 ? 16 : 32;
  ASSAY_CHECK(check_packet(s, img.width, img.height, depth));
  ASSAY_TRY(std::vector<image::Rgba> levels, image::mip_chain(img, level_count(s, img.width, img.height), o.threads));
  ASSAY_TRY(ByteBuffer made, s.format == TexelFormat::pal4 || s.format == TexelFormat::pal8 ? palettised(s, levels, o)
                                                                                             : true_colour(s, std::move(levels)));
  if (!original.empty()) keep_gs_words(made, original);
  return made;
}

}  // namespace assay::rw::detail
