// PS2 texture natives: layout, raster header, GS upload packets, decode.
// spec: renderware.md#rw-5-2 .. #rw-5-9, rules R8-R14 of #rw-9.
#include <bit>
#include <cstring>

#include "assay/image/ps2.h"
#include "texture_internal.h"

namespace assay::rw::detail {

namespace {

constexpr std::uint32_t kPsmT8 = 0x13, kPsmT4 = 0x14, kPsmCt32 = 0x00;
constexpr std::uint64_t kPacketHeader = 0x50;

Ps2RasterHeader parse_header(const std::uint8_t* p) {  // spec: #rw-5-3 (64 bytes)
  auto u32 = [p](int o) { return load<std::uint32_t>(p + o, Endian::little); };
  auto u64 = [p](int o) { return load<std::uint64_t>(p + o, Endian::little); };
  Ps2RasterHeader h;
  h.width = u32(0x00);
  h.height = u32(0x04);
  h.depth = u32(0x08);
  h.raster_format = load<std::uint16_t>(p + 0x0C, Endian::little);
  h.layout_version = load<std::uint16_t>(p + 0x0E, Endian::little);
  h.tex0 = u64(0x10);
  h.palette_base = u32(0x18);
  h.tex1_low = u32(0x1C);
  h.miptbp1 = u64(0x20);
  h.miptbp2 = u64(0x28);
  h.pixel_size = u32(0x30);
  h.palette_size = u32(0x34);
  h.gs_memory = u32(0x38);
  h.kl = u32(0x3C);
  return h;
}

struct Packet {
  std::uint32_t trx_w = 0, trx_h = 0;
  ByteView image;
  std::uint64_t image_offset = 0;  // in the data struct
  std::uint64_t next = 0;          // offset of the next packet
};

// One GS upload packet at `p` of the data struct, which must end by `limit` (spec: #rw-5-6; R10).
Result<Packet> read_packet(const TextureNative& t, ByteView data, std::uint64_t data_abs, std::uint64_t p,
                           std::uint64_t limit, std::string_view what) {
  auto fail = [&](std::string m) {
    return texture_error(t, data_abs + p, fmt::format("{} packet: {} (R10)", what, m));
  };
  if (!range_ok(p, kPacketHeader, limit)) return fail("the packet header runs past its region");
  const std::uint8_t* q = data.data() + p;
  auto u32 = [q](int o) { return load<std::uint32_t>(q + o, Endian::little); };
  auto u64 = [q](int o) { return load<std::uint64_t>(q + o, Endian::little); };
  if (u32(0x00) != 3 || u32(0x04) != 0x10000000 || u32(0x08) != 0x0E)
    return fail(fmt::format("GIF tag is {{0x{:X}, 0x{:X}, 0x{:X}}}, expected {{3, 0x10000000, 0x0E}}", u32(0),
                            u32(4), u32(8)));
  if (u64(0x18) != 0x51 || u64(0x28) != 0x52 || u64(0x38) != 0x53)
    return fail("registers are not TRXPOS, TRXREG, TRXDIR (0x51-0x53)");
  if (u32(0x44) != 0x08000000) return fail(fmt::format("image tag word 0x{:08X} is not IMAGE mode", u32(0x44)));
  const std::uint64_t nloop = u32(0x40) & 0x7FFF;
  Packet k;
  k.trx_w = u32(0x20);
  k.trx_h = u32(0x24);
  k.image_offset = p + kPacketHeader;
  if (!range_ok(k.image_offset, nloop * 16, limit))
    return fail(fmt::format("image of {} quadwords runs past its region (ends at 0x{:x})", nloop, data_abs + limit));
  k.image = data.subspan(k.image_offset, nloop * 16);
  k.next = k.image_offset + nloop * 16;
  return k;
}

std::uint32_t level_dim(std::uint32_t v, std::uint32_t i) { return std::max<std::uint32_t>(1, v >> i); }

}  // namespace

Result<void> read_ps2_native(ByteView bytes, std::uint64_t base, const std::vector<Child>& kids,
                             TextureNative& tex, const DiagSink& diag, const TextureOptions& opt) {
  // spec: #rw-5-2: Struct(8), String, String, raster container, Extension
  if (kids[0].h.size < 8) return texture_error(tex, base + kids[0].offset, "platform struct is shorter than 8 bytes");
  tex.filter_addressing = load<std::uint32_t>(kids[0].body.data() + 4, Endian::little);
  if (kids.size() < 4 || kids[1].h.type != id::kString || kids[2].h.type != id::kString ||
      kids[3].h.type != id::kStruct)
    return texture_error(tex, tex.offset, "a PS2 native needs Struct, String, String, Struct children");
  tex.name = string_body(kids[1], base, diag);
  tex.mask = string_body(kids[2], base, diag);
  for (std::size_t i = 4; i < kids.size(); ++i)
    if (kids[i].h.type != id::kExtension)
      report(diag, Severity::warning, describe(kids[i].h.type), base + kids[i].offset,
             "unexpected child of a PS2 texture native");
  if (opt.warriors) {  // R14
    const Version v = decode_stamp_raw(tex.stamp);
    if (v.version < 0x35000 || v.version > 0x37002)
      return texture_error(tex, tex.offset,
                           fmt::format("version {} is outside the Warriors reader's 3.5.0.0-3.7.0.2 (R14)", v.str()));
  }
  // the raster container: exactly two Structs, the first 64 bytes (R8)
  ASSAY_TRY(auto raster, read_children(bytes, kids[3].offset, base));
  if (raster.size() != 2 || raster[0].h.type != id::kStruct || raster[1].h.type != id::kStruct)
    return texture_error(tex, base + kids[3].offset,
                         fmt::format("the raster struct holds {} sections, not two Structs (R8)", raster.size()));
  if (raster[0].h.size != 64)
    return texture_error(tex, base + raster[0].offset,
                         fmt::format("the raster header struct is {} bytes, not 64 (R8)", raster[0].h.size));
  const Ps2RasterHeader h = parse_header(raster[0].body.data());
  tex.ps2 = h;
  tex.width = h.width;
  tex.height = h.height;
  tex.depth = h.depth;
  tex.raster_format = h.raster_format;
  const Child& data = raster[1];
  const std::uint64_t data_abs = base + data.body_offset();
  const std::uint64_t need = std::uint64_t{h.pixel_size} + h.palette_size;
  if (data.h.size < need)  // R9
    return texture_error(tex, base + data.offset,
                         fmt::format("data struct is {} bytes, smaller than pixelSize {} + paletteSize {} (R9)",
                                     data.h.size, h.pixel_size, h.palette_size));
  if (data.h.size > need)
    report(diag, Severity::warning, texture_label(tex), base + data.offset,
           fmt::format("data struct is {} bytes, larger than pixelSize {} + paletteSize {} (R9)", data.h.size,
                       h.pixel_size, h.palette_size));

  // format (spec: #rw-5-4)
  const std::uint32_t rf = h.raster_format;
  const bool pal8 = (rf & raster::kPal8) != 0, pal4 = (rf & raster::kPal4) != 0;
  tex.mip_count = (rf & raster::kMipmaps) ? ((h.tex1_low >> 2) & 7) + 1 : 1;
  if (pal8) tex.format = TexelFormat::pal8, tex.palette_entries = 256;
  else if (pal4) tex.format = TexelFormat::pal4, tex.palette_entries = 16;
  else {
    switch (rf & raster::kPixelMask) {
      case raster::k8888: tex.format = TexelFormat::bgra8888; break;
      case raster::k888: tex.format = TexelFormat::bgrx8888; break;
      case raster::k1555: tex.format = TexelFormat::a1r5g5b5; break;
      case raster::k565: tex.format = TexelFormat::r5g6b5; break;
      case raster::k4444: tex.format = TexelFormat::a4r4g4b4; break;
      case raster::kLum8: tex.format = TexelFormat::l8; break;
      case raster::k555: tex.format = TexelFormat::x1r5g5b5; break;
      default: break;
    }
  }
  tex.has_alpha = h.tcc();
  const bool known = rf == 0x2504 || rf == 0x4504 || rf == 0xC504 || rf == 0xA504;
  if (opt.warriors && !known)  // R13
    report(diag, Severity::warning, texture_label(tex), tex.offset,
           fmt::format("raster format 0x{:04X} is not one of the four on the Warriors disc (R13)", rf));
  auto unsupported = [&](std::string why) {
    if (tex.unsupported.empty()) tex.unsupported = std::move(why);
  };
  if ((pal8 && pal4) || (!pal8 && !pal4) || (rf & raster::kPixelMask) != raster::k8888 || h.cpsm() != kPsmCt32)
    unsupported(fmt::format("raster format 0x{:04X} (CPSM 0x{:X}): only PAL4/PAL8 with 32-bit palettes are decoded",
                            rf, h.cpsm()));
  if ((pal8 && h.depth != 8) || (pal4 && h.depth != 4))
    return texture_error(tex, base + raster[0].offset,
                         fmt::format("depth {} disagrees with raster format 0x{:04X}", h.depth, rf));
  if ((pal8 && h.psm() != kPsmT8) || (pal4 && h.psm() != kPsmT4))
    report(diag, Severity::warning, texture_label(tex), base + raster[0].offset,
           fmt::format("TEX0 PSM 0x{:X} does not match depth {}", h.psm(), h.depth));
  if (h.width == 0 || h.height == 0 || !std::has_single_bit(h.width) || !std::has_single_bit(h.height)) {  // R12
    report(diag, Severity::warning, texture_label(tex), base + raster[0].offset,
           fmt::format("{} x {} is not a power of two: not decoded (R12)", h.width, h.height));
    unsupported("width or height not a power of two (R12)");
  }
  if (h.layout_version != 2) {
    unsupported(fmt::format("raster layout version {} (only GS upload packets, version 2, are decoded)",
                            h.layout_version));
    return {};
  }
  if (h.width > 4096 || h.height > 4096) return texture_error(tex, base + raster[0].offset, "width or height above 4096");

  // texel packets, one per level (spec: #rw-5-6, #rw-5-9 step 4)
  const bool swizzled = pal8 || decode_stamp_raw(tex.stamp).version > 0x31000;
  const std::uint32_t min_w = pal8 ? 16 : 32, min_h = 4;
  std::uint64_t p = 0;
  for (std::uint32_t i = 0; i < tex.mip_count; ++i) {
    ASSAY_TRY(Packet k, read_packet(tex, data.body, data_abs, p, h.pixel_size, fmt::format("level {}", i)));
    MipLevel lv;
    lv.width = level_dim(h.width, i);
    lv.height = level_dim(h.height, i);
    lv.data = k.image;
    lv.offset = data_abs + k.image_offset;
    lv.stored_width = swizzled ? 2 * k.trx_w : k.trx_w;
    lv.stored_height = swizzled ? 2 * k.trx_h : k.trx_h;
    // the level itself must fit the image (the texture's size disagrees with its data otherwise)
    std::uint64_t texels = 0, bytes_needed = 0;
    if (!mul_ok(lv.width, lv.height, texels) || !mul_ok(texels, h.depth, bytes_needed) ||
        (bytes_needed + 7) / 8 > k.image.size())
      return texture_error(tex, data_abs + p,
                           fmt::format("level {}: {} x {} x {} bits needs more than the {} bytes of its image (R10)",
                                       i, lv.width, lv.height, h.depth, k.image.size()));
    // so must the transfer (spec: #rw-5-9 step 4.3)
    if (!mul_ok(lv.stored_width, lv.stored_height, texels) || !mul_ok(texels, h.depth, bytes_needed) ||
        bytes_needed / 8 > k.image.size())
      return texture_error(tex, data_abs + p,
                           fmt::format("level {}: the {} x {} transfer of {} bits needs more than the {} bytes of its "
                                       "image (R10)",
                                       i, lv.stored_width, lv.stored_height, h.depth, k.image.size()));
    if (swizzled) {
      const std::uint32_t ew = std::max(lv.width, min_w), eh = std::max(lv.height, min_h);
      if (lv.stored_width != ew || lv.stored_height != eh) {  // R11
        report(diag, Severity::warning, texture_label(tex), data_abs + p,
               fmt::format("level {}: TRXREG x 2 is {} x {}, expected the padded {} x {} (R11)", i, lv.stored_width,
                           lv.stored_height, ew, eh));
        // a transfer smaller than the level: unswizzle at the padded size when the image holds it
        if ((lv.stored_width < lv.width || lv.stored_height < lv.height) &&
            std::uint64_t{ew} * eh * h.depth / 8 <= k.image.size())
          lv.stored_width = ew, lv.stored_height = eh;
      }
      if (!std::has_single_bit(lv.stored_width) || lv.stored_width < 16 || lv.stored_height % 4 != 0)
        unsupported(fmt::format("level {}: a {} x {} transfer cannot be unswizzled", i, lv.stored_width,
                                lv.stored_height));
    }
    if (lv.stored_width < lv.width || lv.stored_height < lv.height)
      unsupported(fmt::format("level {}: the {} x {} transfer is smaller than the {} x {} level", i, lv.stored_width,
                              lv.stored_height, lv.width, lv.height));
    tex.levels.push_back(lv);
    p = k.next;
  }
  if (p != h.pixel_size)
    report(diag, Severity::warning, texture_label(tex), data_abs + p,
           fmt::format("texel packets end at {} of pixelSize {}", p, h.pixel_size));
  // palette packet (spec: #rw-5-9 step 5)
  if (pal8 || pal4) {
    ASSAY_TRY(Packet k, read_packet(tex, data.body, data_abs, h.pixel_size, need, "palette"));
    const std::uint64_t entries_sent = k.image.size() / 4;
    if (entries_sent < tex.palette_entries)
      return texture_error(tex, data_abs + h.pixel_size,
                           fmt::format("palette packet holds {} entries, {} needed", entries_sent, tex.palette_entries));
    tex.palette = k.image.first(std::size_t{tex.palette_entries} * 4);
  }
  return {};
}

Result<image::Rgba> decode_ps2(const TextureNative& tex, std::uint32_t level) {
  const MipLevel& lv = tex.levels[level];
  const bool pal8 = tex.format == TexelFormat::pal8;
  // palette LUT with CSM1 order and alpha expansion (spec: #rw-5-8), as RGBA bytes in memory order
  std::uint32_t lut[256] = {};
  for (std::uint32_t i = 0; i < tex.palette_entries; ++i) {
    const std::uint32_t e = pal8 ? image::ps2::csm1_entry(i) : i;
    const std::uint8_t* c = tex.palette.data() + std::size_t{e} * 4;
    const std::uint8_t rgba[4] = {c[0], c[1], c[2], image::ps2::expand_alpha(c[3])};
    std::memcpy(&lut[i], rgba, 4);
  }
  image::Rgba img{lv.width, lv.height, ByteBuffer(std::size_t{lv.width} * lv.height * 4)};
  std::uint8_t* o = img.pixels.data();
  bool ok = false;
  const bool swizzled = pal8 || decode_stamp_raw(tex.stamp).version > 0x31000;
  if (!swizzled) {  // 4-bit linear transfer (old streams): nibbles row by row of stored_width
    ok = true;
    for (std::uint32_t y = 0; y < lv.height; ++y)
      for (std::uint32_t x = 0; x < lv.width; ++x) {
        const std::size_t k = std::size_t{y} * lv.stored_width + x;
        std::memcpy(o + (std::size_t{y} * lv.width + x) * 4, &lut[(lv.data[k >> 1] >> ((k & 1) * 4)) & 0xF], 4);
      }
  } else if (pal8) {
    ok = image::ps2::unswizzle8_lut(lv.data, lv.stored_width, lv.stored_height, lut, o, lv.width, lv.height);
  } else {
    ok = image::ps2::unswizzle4_lut(lv.data, lv.stored_width, lv.stored_height, lut, o, lv.width, lv.height);
  }
  if (!ok) return texture_error(tex, lv.offset, fmt::format("level {} cannot be unswizzled", level));
  return img;
}

}  // namespace assay::rw::detail
