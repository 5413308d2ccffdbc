// PS2 texture natives: layout, raster header, GS upload packets (layout 2) or the old plain
// layout (0 and 1), decode of PAL4/PAL8 and of the true-colour rasters 1555/555/8888/888.
// spec: renderware.md#rw-real ("PS2 true-colour rasters"), #rw-5-2 .. #rw-5-9, R8-R14 of #rw-9.
// Facts from librw's PS2 raster reader (LRW src/ps2/ps2raster.cpp; no code copied): only PSMT8
// and PSMT4 are swizzled (PSMT4 only when the raster header's stamp is above 3.1.0.0); 1555 is
// PSMCT16S and 8888 PSMCT32, uploaded as plain images of the level's own (padded) size; the
// transfer minimums are 2 x 1 (32-bit), 4 x 1 (16-bit), 8 x 1 (8/4/24-bit), 16 x 4 / 32 x 4
// for swizzled PSMT8 / PSMT4; layouts 0 and 1 carry no packets (1 = 8-bit swizzled).
#include <algorithm>
#include <bit>
#include <cstring>

#include "assay/image/ps2.h"
#include "records.h"
#include "texture_internal.h"

namespace assay::rw::detail {

namespace {

constexpr std::uint32_t kPsmCt32 = 0x00, kPsmCt24 = 0x01, kPsmT8 = 0x13, kPsmT4 = 0x14;
constexpr std::uint64_t kPacketHeader = records::GsPacketHeader::kSize;  // spec: #rw-5-6

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
  const auto region = records::le_reader(data, data_abs).sub(0, limit, what);  // R9 made it fit
  if (!region) return fail("its region runs past the data struct");
  const auto head = read_record<records::GsPacketHeader>(*region, p, what);
  if (!head) return fail("the packet header runs past its region");
  const records::GsPacketHeader& q = *head;
  if (q.gif_nloop != 3 || q.gif_nreg != 0x10000000 || q.gif_regs != 0x0E)
    return fail(fmt::format("GIF tag is {{0x{:X}, 0x{:X}, 0x{:X}}}, expected {{3, 0x10000000, 0x0E}}", q.gif_nloop,
                            q.gif_nreg, q.gif_regs));
  if (q.trxpos_reg != 0x51 || q.trxreg_reg != 0x52 || q.trxdir_reg != 0x53)
    return fail("registers are not TRXPOS, TRXREG, TRXDIR (0x51-0x53)");
  if (q.image_mode != 0x08000000) return fail(fmt::format("image tag word 0x{:08X} is not IMAGE mode", q.image_mode));
  const std::uint64_t nloop = q.image_nloop & 0x7FFF;
  Packet k;
  k.trx_w = q.trx_width;
  k.trx_h = q.trx_height;
  k.image_offset = p + kPacketHeader;
  const auto image = region->bytes(k.image_offset, nloop * 16, what);
  if (!image)
    return fail(fmt::format("image of {} quadwords runs past its region (ends at 0x{:x})", nloop, data_abs + limit));
  k.image = *image;
  k.next = k.image_offset + nloop * 16;
  return k;
}

std::uint32_t level_dim(std::uint32_t v, std::uint32_t i) { return std::max<std::uint32_t>(1, v >> i); }
std::uint64_t align(std::uint64_t v, std::uint64_t a) { return (v + a - 1) & ~(a - 1); }

bool paletted(TexelFormat f) { return f == TexelFormat::pal8 || f == TexelFormat::pal4; }

// The stored depth each format needs (888 may be 24 or 32 bits; LRW stores it in 32).
bool depth_fits(TexelFormat f, std::uint32_t depth) {
  switch (f) {
    case TexelFormat::pal8: return depth == 8;
    case TexelFormat::pal4: return depth == 4;
    case TexelFormat::a1r5g5b5:
    case TexelFormat::x1r5g5b5: return depth == 16;
    case TexelFormat::bgra8888: return depth == 32;
    case TexelFormat::bgrx8888: return depth == 32 || depth == 24;
    default: return true;
  }
}

// Which texels are swizzled (spec: #rw-real, #rw-5-6, #rw-5-7): layout 2 swizzles PSMT8 always
// and PSMT4 above 3.1.0.0 (the raster header's stamp); layout 1 swizzles 8-bit only; layout 0
// nothing. True-colour rasters are never swizzled.
bool is_swizzled(const TextureNative& t) {
  if (t.format == TexelFormat::pal8) return t.ps2.layout_version >= 1;
  if (t.format == TexelFormat::pal4)
    return t.ps2.layout_version >= 2 && decode_stamp_raw(t.ps2.header_stamp).version > 0x31000;
  return false;
}

// The smallest transfer the GS takes for this raster (spec: #rw-5-6 "Padding of small levels").
void transfer_min(const TextureNative& t, bool swizzled, std::uint32_t& mw, std::uint32_t& mh) {
  mh = 1;
  switch (t.format) {
    case TexelFormat::pal8: mw = swizzled ? 16 : 8, mh = swizzled ? 4 : 1; break;
    case TexelFormat::pal4: mw = swizzled ? 32 : 8, mh = swizzled ? 4 : 1; break;
    case TexelFormat::a1r5g5b5:
    case TexelFormat::x1r5g5b5: mw = 4; break;
    case TexelFormat::bgrx8888: mw = t.depth == 24 ? 8 : 2; break;
    default: mw = 2; break;
  }
}

// Bytes of a w x h block of `depth`-bit texels, rounded up; false on overflow.
bool texel_bytes(std::uint32_t w, std::uint32_t h, std::uint32_t depth, std::uint64_t& out) {
  std::uint64_t n = 0, bits = 0;
  if (!mul_ok(w, h, n) || !mul_ok(n, depth, bits)) return false;
  out = (bits + 7) / 8;
  return true;
}

TexelFormat ps2_format(std::uint32_t rf) {  // spec: #rw-5-4
  if (rf & raster::kPal8) return TexelFormat::pal8;
  if (rf & raster::kPal4) return TexelFormat::pal4;
  switch (rf & raster::kPixelMask) {
    case raster::k8888: return TexelFormat::bgra8888;
    case raster::k888: return TexelFormat::bgrx8888;
    case raster::k1555: return TexelFormat::a1r5g5b5;
    case raster::k555: return TexelFormat::x1r5g5b5;
    case raster::k565: return TexelFormat::r5g6b5;
    case raster::k4444: return TexelFormat::a4r4g4b4;
    case raster::kLum8: return TexelFormat::l8;
    default: return TexelFormat::unknown;
  }
}

class Ps2Reader {
 public:
  Ps2Reader(TextureNative& t, const Child& data, std::uint64_t base, const DiagSink& diag)
      : t_(t), h_(t.ps2), data_(data), abs_(base + data.body_offset()), diag_(diag) {}

  // spec: #rw-5-6, #rw-5-9 step 4: one packet per level, then the palette packet
  Result<void> packets() {
    std::uint64_t p = 0;
    for (std::uint32_t i = 0; i < t_.mip_count; ++i) {
      ASSAY_TRY(Packet k, read_packet(t_, data_.body, abs_, p, h_.pixel_size, fmt::format("level {}", i)));
      MipLevel lv = level(i);
      lv.data = k.image;
      lv.offset = abs_ + k.image_offset;
      lv.stored_width = swizzled_ ? 2 * k.trx_w : k.trx_w;  // swizzled transfers send half sizes
      lv.stored_height = swizzled_ ? 2 * k.trx_h : k.trx_h;
      ASSAY_CHECK(check_transfer(i, lv, abs_ + p));
      t_.levels.push_back(lv);
      p = k.next;
    }
    if (p != h_.pixel_size)
      warn(abs_ + p, fmt::format("texel packets end at {} of pixelSize {}", p, h_.pixel_size));
    if (!paletted(t_.format)) return {};
    const std::uint64_t need = std::uint64_t{h_.pixel_size} + h_.palette_size;
    ASSAY_TRY(Packet k, read_packet(t_, data_.body, abs_, h_.pixel_size, need, "palette"));
    return set_palette(k.image, abs_ + h_.pixel_size);
  }

  // Layouts 0 and 1 (spec: #rw-5-7 last note; LRW): no packets; level i at the sum of the
  // earlier levels' sizes, each rounded to 64 bytes (RenderWare's pixelSize rule), the palette's
  // plain entries at pixelSize.
  Result<void> plain() {
    std::uint64_t p = 0;
    for (std::uint32_t i = 0; i < t_.mip_count; ++i) {
      MipLevel lv = level(i);
      lv.stored_width = std::max(lv.width, min_w_);
      lv.stored_height = std::max(lv.height, min_h_);
      std::uint64_t bytes = 0, own = 0;
      if (!texel_bytes(lv.stored_width, lv.stored_height, h_.depth, bytes) ||
          !texel_bytes(lv.width, lv.height, h_.depth, own))
        return texture_error(t_, abs_ + p, fmt::format("level {} size overflows", i));
      if (!range_ok(p, bytes, h_.pixel_size))  // R10: inside pixelSize (R9: pixelSize inside the struct)
        return texture_error(t_, abs_ + p,
                             fmt::format("level {}: {} x {} x {} bits runs past pixelSize {} (R10)", i,
                                         lv.stored_width, lv.stored_height, h_.depth, h_.pixel_size));
      ASSAY_TRY(lv.data, data().bytes(p, bytes, fmt::format("level {} texels", i)));
      lv.offset = abs_ + p;
      t_.levels.push_back(lv);
      p += align(own, 64);
    }
    if (!paletted(t_.format)) return {};
    const std::uint64_t bytes = std::uint64_t{t_.palette_entries} * 4;
    if (h_.palette_size < bytes)
      return texture_error(t_, abs_ + h_.pixel_size,
                           fmt::format("paletteSize {} holds fewer than the {} entries needed", h_.palette_size,
                                       t_.palette_entries));
    ASSAY_TRY(const ByteView entries, data().bytes(h_.pixel_size, bytes, "palette"));
    return set_palette(entries, abs_ + h_.pixel_size);
  }

  void prepare() {
    swizzled_ = is_swizzled(t_);
    transfer_min(t_, swizzled_, min_w_, min_h_);
  }
  [[nodiscard]] bool swizzled() const { return swizzled_; }

 private:
  // The data struct as a reader (absolute offsets in its errors).
  ByteReader data() const { return records::le_reader(data_.body, abs_); }

  MipLevel level(std::uint32_t i) const {
    MipLevel lv;
    lv.width = level_dim(h_.width, i);
    lv.height = level_dim(h_.height, i);
    return lv;
  }

  void warn(std::uint64_t at, std::string m) const { report(diag_, Severity::warning, texture_label(t_), at, std::move(m)); }
  void unsupported(std::string why) const {
    if (t_.unsupported.empty()) t_.unsupported = std::move(why);
  }

  // spec: #rw-5-9 step 4.3 (R10, R11)
  Result<void> check_transfer(std::uint32_t i, MipLevel& lv, std::uint64_t at) const {
    std::uint64_t bytes = 0;
    // the level itself must fit its image (the texture's size disagrees with its data otherwise)
    if (!texel_bytes(lv.width, lv.height, h_.depth, bytes) || bytes > lv.data.size())
      return texture_error(t_, at,
                           fmt::format("level {}: {} x {} x {} bits needs more than the {} bytes of its image (R10)",
                                       i, lv.width, lv.height, h_.depth, lv.data.size()));
    if (!texel_bytes(lv.stored_width, lv.stored_height, h_.depth, bytes) || bytes > lv.data.size())
      return texture_error(t_, at,
                           fmt::format("level {}: the {} x {} transfer of {} bits needs more than the {} bytes of its "
                                       "image (R10)",
                                       i, lv.stored_width, lv.stored_height, h_.depth, lv.data.size()));
    const std::uint32_t ew = std::max(lv.width, min_w_), eh = std::max(lv.height, min_h_);
    if (lv.stored_width != ew || lv.stored_height != eh) {  // R11
      warn(at, fmt::format("level {}: the transfer is {} x {}, expected the padded {} x {} (R11)", i,
                           lv.stored_width, lv.stored_height, ew, eh));
      // a transfer smaller than the level: read the padded size when the image holds it
      std::uint64_t padded = 0;
      if ((lv.stored_width < lv.width || lv.stored_height < lv.height) && texel_bytes(ew, eh, h_.depth, padded) &&
          padded <= lv.data.size())
        lv.stored_width = ew, lv.stored_height = eh;
    }
    if (swizzled_ && (!std::has_single_bit(lv.stored_width) || lv.stored_width < 16 || lv.stored_height % 4 != 0))
      unsupported(fmt::format("level {}: a {} x {} transfer cannot be unswizzled", i, lv.stored_width,
                              lv.stored_height));
    if (lv.stored_width < lv.width || lv.stored_height < lv.height)
      unsupported(fmt::format("level {}: the {} x {} transfer is smaller than the {} x {} level", i, lv.stored_width,
                              lv.stored_height, lv.width, lv.height));
    return {};
  }

  Result<void> set_palette(ByteView image, std::uint64_t at) const {
    const std::uint64_t entries_sent = image.size() / 4;
    if (entries_sent < t_.palette_entries)
      return texture_error(t_, at, fmt::format("palette holds {} entries, {} needed", entries_sent, t_.palette_entries));
    t_.palette = image.first(std::size_t{t_.palette_entries} * 4);
    return {};
  }

  TextureNative& t_;
  const Ps2RasterHeader& h_;
  const Child& data_;
  std::uint64_t abs_;
  const DiagSink& diag_;
  bool swizzled_ = false;
  std::uint32_t min_w_ = 1, min_h_ = 1;
};

// spec: #rw-5-8 "Alpha runs 0-128": a value above 128 is clamped to 255; verify warns once.
void check_alpha(const TextureNative& t, std::uint64_t at, const DiagSink& diag) {
  if (!diag) return;
  std::uint64_t over = 0;
  auto scan = [&over](ByteView b) {
    for (std::size_t k = 3; k < b.size(); k += 4) over += b[k] > 128;
  };
  if (paletted(t.format)) scan(t.palette);
  else if (t.format == TexelFormat::bgra8888)
    for (const MipLevel& lv : t.levels) scan(lv.data);
  if (over)
    report(diag, Severity::warning, texture_label(t), at,
           fmt::format("{} alpha values above 128 (PS2 alpha runs 0-128; clamped to 255)", over));
}

}  // namespace

Result<void> read_ps2_native(ByteView bytes, std::uint64_t base, const std::vector<Child>& kids,
                             TextureNative& tex, const DiagSink& diag, const TextureOptions& opt) {
  // spec: #rw-5-2: Struct(8), String, String, raster container, Extension
  const auto head = records::leading<records::Ps2NativeStruct>(kids[0].body);
  if (!head) return texture_error(tex, base + kids[0].offset, "platform struct is shorter than 8 bytes");
  tex.filter_addressing = head->filter_addressing;
  if (kids.size() < 4 || kids[1].h.type != id::kString || kids[2].h.type != id::kString ||
      kids[3].h.type != id::kStruct)
    return texture_error(tex, tex.offset, "a PS2 native needs Struct, String, String, Struct children");
  tex.name = string_body(kids[1], base, diag);
  tex.mask = string_body(kids[2], base, diag);
  for (std::size_t i = 4; i < kids.size(); ++i)
    if (kids[i].h.type != id::kExtension)
      report(diag, Severity::warning, describe(kids[i].h.type), base + kids[i].offset,
             "unexpected child of a PS2 texture native");
  const Profile& profile = profile_or_generic(opt.profile);
  if (const Version v = decode_stamp_raw(tex.stamp); !profile.accepts_texture_version(v.version))  // R14
    return texture_error(tex, tex.offset,
                         fmt::format("version {} is outside what the {} reader accepts (0x{:X}-0x{:X}) (R14)",
                                     v.str(), profile.name, profile.min_texture_version, profile.max_texture_version));
  // the raster container: exactly two Structs, the first 64 bytes (R8)
  ASSAY_TRY(auto raster, read_children(bytes, kids[3].offset, base));
  if (raster.size() != 2 || raster[0].h.type != id::kStruct || raster[1].h.type != id::kStruct)
    return texture_error(tex, base + kids[3].offset,
                         fmt::format("the raster struct holds {} sections, not two Structs (R8)", raster.size()));
  if (raster[0].h.size != 64)
    return texture_error(tex, base + raster[0].offset,
                         fmt::format("the raster header struct is {} bytes, not 64 (R8)", raster[0].h.size));
  Ps2RasterHeader& h = tex.ps2;
  ASSAY_TRY(const records::RasterHeader rh,
            read_record<records::RasterHeader>(records::le_reader(raster[0].body, base + raster[0].body_offset()), 0,
                                               "raster header"));
  h = rh.h;
  h.header_stamp = raster[0].h.stamp;
  tex.width = h.width;
  tex.height = h.height;
  tex.depth = h.depth;
  tex.raster_format = h.raster_format;
  const Child& data = raster[1];
  const std::uint64_t hdr_abs = base + raster[0].offset;
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
  tex.format = ps2_format(rf);
  tex.palette_entries = pal8 ? 256 : pal4 ? 16 : 0;
  tex.has_alpha = h.tcc();
  const auto& known = profile.ps2_raster_formats;
  if (!known.empty() && std::find(known.begin(), known.end(), rf) == known.end())  // R13
    report(diag, profile.raster_severity, texture_label(tex), tex.offset,
           fmt::format("raster format 0x{:04X} is not one the {} reader's files hold (R13)", rf, profile.name));
  auto unsupported = [&](std::string why) {
    if (tex.unsupported.empty()) tex.unsupported = std::move(why);
  };
  // level count: MXL + 1 with the mipmap flag; never more than the size allows (checked before
  // any level size is computed)
  tex.mip_count = (rf & raster::kMipmaps) ? ((h.tex1_low >> 2) & 7) + 1 : 1;
  if (h.width == 0 || h.height == 0) return texture_error(tex, hdr_abs, "width or height is 0");
  if (h.width > 4096 || h.height > 4096) return texture_error(tex, hdr_abs, "width or height above 4096");
  if (tex.mip_count > max_mip_levels(h.width, h.height))
    return texture_error(tex, hdr_abs + 0x1C,
                         fmt::format("{} mip levels, but a {} x {} texture has at most {}", tex.mip_count, h.width,
                                     h.height, max_mip_levels(h.width, h.height)));
  if (pal8 && pal4) unsupported(fmt::format("raster format 0x{:04X} sets both PAL4 and PAL8", rf));
  if ((pal8 || pal4) && ((rf & raster::kPixelMask) != raster::k8888 || h.cpsm() != kPsmCt32))
    unsupported(fmt::format("raster format 0x{:04X} (CPSM 0x{:X}): only 32-bit palettes are decoded", rf, h.cpsm()));
  if (!pal8 && !pal4 && tex.format != TexelFormat::bgra8888 && tex.format != TexelFormat::bgrx8888 &&
      tex.format != TexelFormat::a1r5g5b5 && tex.format != TexelFormat::x1r5g5b5)
    unsupported(fmt::format("raster format 0x{:04X}: PS2 {} texels are not decoded", rf, to_string(tex.format)));
  if (!depth_fits(tex.format, h.depth))
    return texture_error(tex, hdr_abs + 0x08, fmt::format("depth {} disagrees with raster format 0x{:04X}", h.depth, rf));
  if ((pal8 && h.psm() != kPsmT8) || (pal4 && h.psm() != kPsmT4))
    report(diag, Severity::warning, texture_label(tex), hdr_abs,
           fmt::format("TEX0 PSM 0x{:X} does not match depth {}", h.psm(), h.depth));
  if (!std::has_single_bit(h.width) || !std::has_single_bit(h.height)) {  // R12
    report(diag, Severity::warning, texture_label(tex), hdr_abs,
           fmt::format("{} x {} is not a power of two: not decoded (R12)", h.width, h.height));
    unsupported("width or height not a power of two (R12)");
  }
  if (h.layout_version > 2) {
    unsupported(fmt::format("raster layout version {} (0, 1 and 2 are known)", h.layout_version));
    return {};
  }
  Ps2Reader r(tex, data, base, diag);
  r.prepare();
  if (h.layout_version == 2) ASSAY_CHECK(r.packets());
  else ASSAY_CHECK(r.plain());
  check_alpha(tex, hdr_abs, diag);
  return {};
}

namespace {

// One row of true-colour texels (`row` holds width x bpp bytes) to RGBA at `o`.
void texel_row(TexelFormat f, ByteView row, std::uint32_t bpp, std::uint8_t* o) {
  for (std::size_t i = 0; i + bpp <= row.size(); i += bpp, o += 4) {
    switch (f) {
      case TexelFormat::bgra8888: o[0] = row[i], o[1] = row[i + 1], o[2] = row[i + 2], o[3] = image::ps2::expand_alpha(row[i + 3]); break;
      case TexelFormat::bgrx8888: o[0] = row[i], o[1] = row[i + 1], o[2] = row[i + 2], o[3] = 255; break;
      default: {
        const std::uint32_t v = row[i] | std::uint32_t{row[i + 1]} << 8;
        o[0] = static_cast<std::uint8_t>((v & 31) * 255 / 31);
        o[1] = static_cast<std::uint8_t>(((v >> 5) & 31) * 255 / 31);
        o[2] = static_cast<std::uint8_t>(((v >> 10) & 31) * 255 / 31);
        o[3] = f == TexelFormat::x1r5g5b5 || (v & 0x8000) ? 255 : 0;
      }
    }
  }
}

// True-colour texels in GS order (spec: #rw-real; LRW rasterToImage): PSMCT32 = R, G, B, A
// (alpha 0-128); 888 = R, G, B (+ one unused byte at depth 32); PSMCT16(S) = R bits 0-4,
// G 5-9, B 10-14, A 15, channels widened as v * 255 / 31 (librw's conversion).
// Each row is a checked read of the level's bytes (check_transfer and plain() sized them).
Result<void> decode_true_colour(const TextureNative& tex, const MipLevel& lv, std::uint8_t* o) {
  const std::uint32_t bpp = tex.depth / 8;
  if (bpp == 0) return {};
  const std::size_t stride = std::size_t{lv.stored_width} * bpp, row_bytes = std::size_t{lv.width} * bpp;
  const ByteReader texels = records::le_reader(lv.data, lv.offset);
  const std::string what = texture_label(tex) + " texels";
  for (std::uint32_t y = 0; y < lv.height; ++y, o += std::size_t{lv.width} * 4) {
    ASSAY_TRY(const ByteView row, texels.bytes(std::uint64_t{y} * stride, row_bytes, what));
    texel_row(tex.format, row, bpp, o);
  }
  return {};
}

// The palette as a LUT in CSM1 order with the alpha expanded (spec: #rw-5-8), each entry RGBA
// bytes in memory order.
Result<void> palette_lut(const TextureNative& tex, std::uint32_t lut[256]) {
  ASSAY_TRY(const auto palette, palette_table(tex));
  const bool pal8 = tex.format == TexelFormat::pal8;
  for (std::uint32_t i = 0; i < palette.size(); ++i) {
    records::PaletteEntry e = palette[pal8 ? image::ps2::csm1_entry(i) : i];
    e.a = image::ps2::expand_alpha(e.a);
    put_entry(reinterpret_cast<std::uint8_t*>(&lut[i]), e);
  }
  return {};
}

// A linear (unswizzled) transfer: rows of stored_width indices, bytes (PAL8) or nibbles (PAL4,
// low first); put(i, index) for each of the level's width x height texels in row order.
template <class Put>
Result<void> each_linear_index(const TextureNative& tex, const MipLevel& lv, Put put) {
  const bool pal8 = tex.format == TexelFormat::pal8;
  const std::uint64_t n = (std::uint64_t{lv.height} - 1) * lv.stored_width + lv.width;  // indices read
  ASSAY_TRY(const auto indices, index_table(tex, lv, pal8 ? n : (n + 1) / 2));
  std::size_t i = 0;
  for (std::uint32_t y = 0; y < lv.height; ++y)
    for (std::uint32_t x = 0; x < lv.width; ++x, ++i) {
      const std::uint64_t k = std::uint64_t{y} * lv.stored_width + x;
      put(i, pal8 ? indices[k].value : (indices[k >> 1].value >> ((k & 1) * 4)) & 0xF);
    }
  return {};
}

// The linear transfer to RGBA through the LUT.
Result<void> decode_linear(const TextureNative& tex, const MipLevel& lv, const std::uint32_t lut[256], std::uint8_t* o) {
  return each_linear_index(tex, lv, [&](std::size_t i, std::uint32_t v) { std::memcpy(o + i * 4, &lut[v], 4); });
}

// decode_linear's indices without the palette lookup (indices into the LUT's order).
Result<void> linear_indices(const TextureNative& tex, const MipLevel& lv, std::uint8_t* o) {
  return each_linear_index(tex, lv, [&](std::size_t i, std::uint32_t v) { o[i] = static_cast<std::uint8_t>(v); });
}

}  // namespace

// The same texels as decode_ps2 before the lookup; the palette is palette_lut's, so that
// palette[index] is decode_ps2's pixel.
Result<image::Indexed> decode_ps2_indexed(const TextureNative& tex, std::uint32_t level) {
  const MipLevel& lv = tex.levels[level];
  const bool pal8 = tex.format == TexelFormat::pal8;
  std::uint32_t lut[256] = {};
  ASSAY_CHECK(palette_lut(tex, lut));
  image::Indexed img{lv.width, lv.height, ByteBuffer(std::size_t{tex.palette_entries} * 4),
                     ByteBuffer(std::size_t{lv.width} * lv.height)};
  std::memcpy(img.palette.data(), lut, img.palette.size());
  std::uint8_t* o = img.indices.data();
  bool ok = true;
  if (!is_swizzled(tex)) ASSAY_CHECK(linear_indices(tex, lv, o));
  else if (pal8) ok = image::ps2::unswizzle8(lv.data, lv.stored_width, lv.stored_height, o, lv.width, lv.height);
  else ok = image::ps2::unswizzle4(lv.data, lv.stored_width, lv.stored_height, o, lv.width, lv.height);
  if (!ok) return texture_error(tex, lv.offset, fmt::format("level {} cannot be unswizzled", level));
  return img;
}

Result<image::Rgba> decode_ps2(const TextureNative& tex, std::uint32_t level) {
  const MipLevel& lv = tex.levels[level];
  image::Rgba img{lv.width, lv.height, ByteBuffer(std::size_t{lv.width} * lv.height * 4)};
  std::uint8_t* o = img.pixels.data();
  if (!paletted(tex.format)) {
    ASSAY_CHECK(decode_true_colour(tex, lv, o));
    return img;
  }
  const bool pal8 = tex.format == TexelFormat::pal8;
  std::uint32_t lut[256] = {};
  ASSAY_CHECK(palette_lut(tex, lut));
  bool ok = false;
  if (!is_swizzled(tex)) {
    ASSAY_CHECK(decode_linear(tex, lv, lut, o));
    ok = true;
  } else if (pal8) {
    ok = image::ps2::unswizzle8_lut(lv.data, lv.stored_width, lv.stored_height, lut, o, lv.width, lv.height);
  } else {
    ok = image::ps2::unswizzle4_lut(lv.data, lv.stored_width, lv.stored_height, lut, o, lv.width, lv.height);
  }
  if (!ok) return texture_error(tex, lv.offset, fmt::format("level {} cannot be unswizzled", level));
  return img;
}

}  // namespace assay::rw::detail
