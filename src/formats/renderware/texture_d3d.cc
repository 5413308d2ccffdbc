// PC (D3D8, D3D9) and Xbox texture natives. spec: renderware.md#rw-6, rules R15, R16.
#include <cstring>

#include "assay/image/dxt.h"
#include "records.h"
#include "texture_internal.h"

namespace assay::rw::detail {

bool is_dxt(TexelFormat f) { return f == TexelFormat::dxt1 || f == TexelFormat::dxt3 || f == TexelFormat::dxt5; }

image::BlockFormat block_format(TexelFormat f) {
  return f == TexelFormat::dxt1 ? image::BlockFormat::bc1
         : f == TexelFormat::dxt3 ? image::BlockFormat::bc2
                                  : image::BlockFormat::bc3;
}

image::PixelFormat pixel_format(TexelFormat f) {
  switch (f) {
    case TexelFormat::bgra8888: return image::PixelFormat::bgra8888;
    case TexelFormat::bgrx8888: return image::PixelFormat::bgrx8888;
    case TexelFormat::r5g6b5: return image::PixelFormat::r5g6b5;
    case TexelFormat::x1r5g5b5: return image::PixelFormat::x1r5g5b5;
    case TexelFormat::a1r5g5b5: return image::PixelFormat::a1r5g5b5;
    case TexelFormat::a4r4g4b4: return image::PixelFormat::a4r4g4b4;
    case TexelFormat::a8: return image::PixelFormat::a8;
    case TexelFormat::a8l8: return image::PixelFormat::a8l8;
    default: return image::PixelFormat::l8;
  }
}

namespace {

std::string_view fixed_string(ByteView b) {  // char[n], NUL-padded
  const auto* c = reinterpret_cast<const char*>(b.data());
  std::size_t len = 0;
  while (len < b.size() && c[len] != 0) ++len;
  return {c, len};
}

TexelFormat from_raster_bits(std::uint32_t rf) {
  switch (rf & raster::kPixelMask) {
    case raster::k8888: return TexelFormat::bgra8888;
    case raster::k888: return TexelFormat::bgrx8888;
    case raster::k1555: return TexelFormat::a1r5g5b5;
    case raster::k565: return TexelFormat::r5g6b5;
    case raster::k4444: return TexelFormat::a4r4g4b4;
    case raster::k555: return TexelFormat::x1r5g5b5;
    case raster::kLum8: return TexelFormat::l8;
    default: return TexelFormat::unknown;
  }
}

TexelFormat from_d3d9(std::uint32_t f) {  // spec: #rw-6-2
  switch (f) {
    case d3d::kDxt1: return TexelFormat::dxt1;
    case d3d::kDxt2:
    case d3d::kDxt3: return TexelFormat::dxt3;
    case d3d::kDxt4:
    case d3d::kDxt5: return TexelFormat::dxt5;
    case d3d::kA8R8G8B8: return TexelFormat::bgra8888;
    case d3d::kX8R8G8B8: return TexelFormat::bgrx8888;
    case d3d::kR5G6B5: return TexelFormat::r5g6b5;
    case d3d::kX1R5G5B5: return TexelFormat::x1r5g5b5;
    case d3d::kA1R5G5B5: return TexelFormat::a1r5g5b5;
    case d3d::kA4R4G4B4: return TexelFormat::a4r4g4b4;
    case d3d::kA8: return TexelFormat::a8;
    case d3d::kP8: return TexelFormat::pal8;
    case d3d::kL8: return TexelFormat::l8;
    case d3d::kA8L8: return TexelFormat::a8l8;
    default: return TexelFormat::unknown;
  }
}


// Bytes of one level (spec: #rw-6-2 "Level size"); false on overflow or unknown format.
bool level_bytes(TexelFormat f, std::uint32_t w, std::uint32_t h, std::uint32_t depth, std::uint64_t& out) {
  if (is_dxt(f)) return image::block_level_size(block_format(f), w, h, out);
  std::uint64_t bits = 0, n = 0;
  std::uint32_t bpp = depth;
  if (f == TexelFormat::pal8) bpp = 8;
  else if (f == TexelFormat::pal4) bpp = depth == 4 ? 4 : 8;
  else if (f != TexelFormat::unknown) bpp = image::bytes_per_pixel(pixel_format(f)) * 8;
  if (bpp == 0 || !mul_ok(w, h, n) || !mul_ok(n, bpp, bits)) return false;
  out = (bits + 7) / 8;
  return true;
}

// The native's header (#rw-6-1): 88 bytes, or 92 with the Xbox total size (0 for D3D8/D3D9).
Result<records::XboxNativeHeader> read_header(const ByteReader& body, bool xbox) {
  if (xbox) return read_record<records::XboxNativeHeader>(body, 0, "Xbox native header");
  ASSAY_TRY(const auto common, read_record<records::D3dNativeHeader>(body, 0, "D3D native header"));
  return records::XboxNativeHeader{.common = common};
}

}  // namespace

Result<void> read_d3d_native(ByteView, std::uint64_t base, const std::vector<Child>& kids,
                             TextureNative& tex, const DiagSink& diag, const TextureOptions&) {
  const Child& s = kids[0];
  const bool xbox = tex.platform == kPlatformXbox;
  const std::uint64_t header = xbox ? records::kXboxHeaderSize : records::D3dNativeHeader::kSize;  // spec: #rw-6-1
  const std::uint64_t s_abs = base + s.body_offset();
  const ByteReader body = records::le_reader(s.body, s_abs);
  const auto xh = read_header(body, xbox);
  if (!xh)
    return texture_error(tex, base + s.offset, fmt::format("struct is {} bytes, shorter than the {}-byte header",
                                                           s.h.size, header));
  for (std::size_t i = 1; i < kids.size(); ++i)
    if (kids[i].h.type != id::kExtension)
      report(diag, Severity::warning, describe(kids[i].h.type), base + kids[i].offset,
             "unexpected child of a texture native");
  const records::D3dNativeHeader& hd = xh->common;
  tex.filter_addressing = std::uint32_t{hd.filter} | std::uint32_t{hd.addressing} << 8;
  tex.name = fixed_string(hd.name);
  tex.mask = fixed_string(hd.mask);
  tex.raster_format = hd.raster_format;
  tex.d3d_format = hd.format_word;
  tex.width = hd.width;
  tex.height = hd.height;
  tex.depth = hd.depth;
  tex.mip_count = hd.levels;
  tex.d3d_flags = hd.flags;
  const std::uint32_t rf = tex.raster_format;
  auto unsupported = [&](std::string why) {
    if (tex.unsupported.empty()) tex.unsupported = std::move(why);
  };

  // texel format (spec: #rw-6-2, #rw-6-3)
  if (rf & raster::kPal8) tex.format = TexelFormat::pal8, tex.palette_entries = 256;
  else if (rf & raster::kPal4) tex.format = TexelFormat::pal4, tex.palette_entries = 16;
  else if (tex.platform == kPlatformD3D9) tex.format = from_d3d9(tex.d3d_format);
  else if (tex.platform == kPlatformD3D8) {
    const std::uint8_t c = tex.d3d_flags;
    tex.format = c == 1 ? TexelFormat::dxt1 : (c == 2 || c == 3) ? TexelFormat::dxt3
                 : (c == 4 || c == 5)                            ? TexelFormat::dxt5
                                                                 : from_raster_bits(rf);
  } else {  // xbox
    const std::uint8_t c = tex.d3d_flags;
    if (c == 0x0D)
      report(diag, Severity::warning, texture_label(tex), s_abs + 0x57, "Xbox compression 0x0D read as DXT3");
    tex.format = c == 0x0C ? TexelFormat::dxt1 : (c == 0x0D || c == 0x0E) ? TexelFormat::dxt3
                 : c == 0x0F                                               ? TexelFormat::dxt5
                                                                           : from_raster_bits(rf);
    if (c == 0) unsupported("swizzled uncompressed Xbox texels are not decoded");
    else if (c != 0x0C && c != 0x0D && c != 0x0E && c != 0x0F)
      unsupported(fmt::format("Xbox compression 0x{:02X}", c));
  }
  tex.has_alpha = tex.platform == kPlatformD3D9 ? (tex.d3d_flags & 1) != 0
                                                : (xbox ? hd.format_word & 0xFFFF : tex.d3d_format) != 0;
  if (tex.format == TexelFormat::unknown) {
    const std::string why = tex.platform == kPlatformD3D9
                                ? fmt::format("unknown D3D format 0x{:X} (R16)", tex.d3d_format)
                                : fmt::format("unknown raster format 0x{:X}", rf);
    report(diag, Severity::warning, texture_label(tex), s_abs + 0x48, why + ": listed, not decoded");
    unsupported(why);
  }
  if (tex.platform == kPlatformD3D9 && (tex.d3d_flags & 2)) unsupported("cube textures are not decoded");
  if (tex.width == 0 || tex.height == 0) return texture_error(tex, s_abs + 0x50, "width or height is 0");
  if (tex.mip_count == 0) return texture_error(tex, s_abs + 0x55, "the level count is 0");
  // checked before any level size is computed: width >> i is undefined past 31
  if (tex.mip_count > max_mip_levels(tex.width, tex.height))
    return texture_error(tex, s_abs + 0x55,
                         fmt::format("{} mip levels, but a {} x {} texture has at most {}", tex.mip_count, tex.width,
                                     tex.height, max_mip_levels(tex.width, tex.height)));

  std::uint64_t pos = header;
  if (tex.palette_entries) {  // spec: #rw-6-1 "Palette": PAL4 stores 32 entries
    const std::uint64_t pal = tex.format == TexelFormat::pal8 ? 1024 : 128;
    const auto stored = body.bytes(pos, pal, "palette");
    if (!stored) return texture_error(tex, s_abs + pos, fmt::format("palette of {} bytes runs past the struct (R15)", pal));
    tex.palette = stored->first(std::size_t{tex.palette_entries} * 4);
    pos += pal;
  }
  const std::uint32_t faces = (tex.platform == kPlatformD3D9 && (tex.d3d_flags & 2)) ? 6 : 1;
  std::uint64_t xbox_end = 0;
  if (xbox) {
    const std::uint64_t total = xh->total_size;
    if (!range_ok(pos, total, s.h.size))
      return texture_error(tex, s_abs + 0x58, fmt::format("data of {} bytes runs past the struct (R15)", total));
    xbox_end = pos + total;
  }
  for (std::uint32_t f = 0; f < faces; ++f)
    for (std::uint32_t i = 0; i < tex.mip_count; ++i) {
      MipLevel lv;
      lv.width = lv.stored_width = std::max<std::uint32_t>(1, tex.width >> i);
      lv.height = lv.stored_height = std::max<std::uint32_t>(1, tex.height >> i);
      std::uint64_t expect = 0;
      const bool sized = level_bytes(tex.format, lv.width, lv.height, tex.depth, expect);
      std::uint64_t size = expect;
      if (!xbox) {
        const auto word = read_record<records::LevelSize>(body, pos, "level size");
        if (!word) return texture_error(tex, s_abs + pos, fmt::format("level {} size runs past the struct (R15)", i));
        size = word->bytes;
        pos += records::LevelSize::kSize;
      } else if (!sized) {
        break;  // cannot place levels without a size
      }
      if (!range_ok(pos, size, xbox ? xbox_end : s.h.size))
        return texture_error(tex, s_abs + pos,
                             fmt::format("level {} of {} bytes runs past the struct (R15)", i, size));
      if (sized && size != expect && tex.format != TexelFormat::unknown)
        return texture_error(tex, s_abs + pos,
                             fmt::format("level {}: {} x {} {} needs {} bytes but {} are stored", i, lv.width,
                                         lv.height, to_string(tex.format), expect, size));
      ASSAY_TRY(lv.data, body.bytes(pos, size, "texture level"));  // R15 rule above; the read is checked here
      lv.offset = s_abs + pos;
      if (f == 0) tex.levels.push_back(lv);
      pos += size;
    }
  if (xbox) pos = xbox_end;
  if (pos != s.h.size)  // R15
    return texture_error(tex, base + s.offset,
                         fmt::format("struct is {} bytes but header, palette and levels take {} (R15)", s.h.size, pos));
  return {};
}

namespace {

// PAL8 / PAL4 levels (#rw-6-1 "Palette"): one index per byte, or per nibble (low first) at depth
// 4; an index past the palette reads entry 0.
Result<image::Rgba> decode_paletted(const TextureNative& tex, const MipLevel& lv) {
  const bool nibbles = tex.format == TexelFormat::pal4 && tex.depth == 4;
  const std::uint64_t n = std::uint64_t{lv.width} * lv.height;
  ASSAY_TRY(const auto palette, palette_table(tex));
  ASSAY_TRY(const auto indices, index_table(tex, lv, nibbles ? (n + 1) / 2 : n));
  image::Rgba img{lv.width, lv.height, ByteBuffer(n * 4)};
  for (std::uint64_t k = 0; k < n; ++k) {
    std::uint32_t v = nibbles ? (indices[k >> 1].value >> ((k & 1) * 4)) & 0xF : indices[k].value;
    if (v >= palette.size()) v = 0;
    put_entry(img.pixels.data() + k * 4, palette[v]);
  }
  return img;
}

}  // namespace

// decode_paletted before the lookup: the palette's entries in R, G, B, A order
// and one index per pixel, an index past the palette read as 0 as there.
Result<image::Indexed> decode_d3d_indexed(const TextureNative& tex, std::uint32_t level) {
  const MipLevel& lv = tex.levels[level];
  const bool nibbles = tex.format == TexelFormat::pal4 && tex.depth == 4;
  const std::uint64_t n = std::uint64_t{lv.width} * lv.height;
  ASSAY_TRY(const auto palette, palette_table(tex));
  ASSAY_TRY(const auto indices, index_table(tex, lv, nibbles ? (n + 1) / 2 : n));
  image::Indexed img{lv.width, lv.height, ByteBuffer(palette.size() * 4), ByteBuffer(n)};
  for (std::size_t i = 0; i < palette.size(); ++i) put_entry(img.palette.data() + i * 4, palette[i]);
  for (std::uint64_t k = 0; k < n; ++k) {
    std::uint32_t v = nibbles ? (indices[k >> 1].value >> ((k & 1) * 4)) & 0xF : indices[k].value;
    img.indices[k] = static_cast<std::uint8_t>(v >= palette.size() ? 0 : v);
  }
  return img;
}

Result<image::Rgba> decode_d3d(const TextureNative& tex, std::uint32_t level) {
  const MipLevel& lv = tex.levels[level];
  if (is_dxt(tex.format)) {
    auto r = image::decode_blocks(block_format(tex.format), lv.data, lv.width, lv.height);
    if (!r) return texture_error(tex, lv.offset, r.error().message);
    return r;
  }
  if (tex.format == TexelFormat::pal8 || tex.format == TexelFormat::pal4) return decode_paletted(tex, lv);
  auto r = image::decode_pixels(pixel_format(tex.format), lv.data, lv.width, lv.height);
  if (!r) return texture_error(tex, lv.offset, r.error().message);
  return r;
}

}  // namespace assay::rw::detail
