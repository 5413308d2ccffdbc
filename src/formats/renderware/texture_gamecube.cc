// GameCube texture natives (platform 6): listed by name, mask and size, never decoded.
// renderware.md has no GameCube layout; the facts come from Magic-RW's GameCube reader
// (txdread.gc, facts only, no code): the first Struct is big-endian,
//   +0x00 u32 platform (6), +0x04 u32 filterAddressing, then
//   newer than 3.3.0.0: four u32 (GX registers), char name[32] (+0x18), char mask[32] (+0x38),
//     u32 rasterFormat (+0x58); newer than 3.3.0.2: u16 width, u16 height (+0x5C), u8 depth,
//     u8 mipmapCount (+0x60); 3.3.0.1-3.3.0.2: u32 hasAlpha, then width, height (+0x60), depth,
//     mipmapCount (+0x64);
//   3.3.0.0 and older: char name[32] (+0x08), char mask[32] (+0x28), u32 rasterFormat (+0x48),
//     u32 hasAlpha, u16 width, u16 height (+0x50), u8 depth, u8 mipmapCount (+0x54).
// The version is the Struct's own stamp. librw's Platform enum leaves 6 to GameCube unnamed.
#include <fmt/format.h>

#include "texture_internal.h"

namespace assay::rw::detail {

namespace {

struct GcLayout {
  std::uint64_t name, mask, raster, size, end;  // offsets in the Struct body; end = bytes needed
};

GcLayout layout_for(std::uint32_t version) {
  if (version > 0x33002) return {0x18, 0x38, 0x58, 0x5C, 0x68};
  if (version > 0x33000) return {0x18, 0x38, 0x58, 0x60, 0x68};
  return {0x08, 0x28, 0x48, 0x50, 0x58};
}

std::string_view fixed_name(ByteView b) {  // char[32], NUL-padded
  const auto* c = reinterpret_cast<const char*>(b.data());
  std::size_t len = 0;
  while (len < b.size() && c[len] != 0) ++len;
  return {c, len};
}

}  // namespace

Result<void> read_gamecube_native(std::uint64_t base, const std::vector<Child>& children, TextureNative& tex,
                                  const DiagSink& diag) {
  const Child& st = children.front();  // the caller checked: a Struct holding the platform word
  const Endian e = tex.platform == kPlatformGameCubeBE ? Endian::big : Endian::little;
  tex.platform = kPlatformGameCube;
  tex.unsupported = "GameCube texture natives are not decoded";
  const GcLayout l = layout_for(decode_stamp_raw(st.h.stamp).version);
  const ByteReader r(st.body, e, kFormat, base + st.body_offset());
  if (st.body.size() < l.end)
    return rw_error("GameCube texture native", tex.offset,
                    fmt::format("the first Struct holds {} bytes, its header needs 0x{:x}", st.body.size(), l.end),
                    "renderware.gamecube-header");
  ASSAY_TRY(tex.filter_addressing, r.u32(4, "filterAddressing"));
  ASSAY_TRY(ByteView name, r.bytes(l.name, 32, "texture name"));
  ASSAY_TRY(ByteView mask, r.bytes(l.mask, 32, "mask name"));
  tex.name = fixed_name(name);
  tex.mask = fixed_name(mask);
  ASSAY_TRY(tex.raster_format, r.u32(l.raster, "rasterFormat"));
  ASSAY_TRY(std::uint16_t w, r.u16(l.size, "width"));
  ASSAY_TRY(std::uint16_t h, r.u16(l.size + 2, "height"));
  ASSAY_TRY(std::uint8_t depth, r.u8(l.size + 4, "depth"));
  ASSAY_TRY(std::uint8_t mips, r.u8(l.size + 5, "mipmapCount"));
  tex.width = w, tex.height = h, tex.depth = depth, tex.mip_count = mips;
  report(diag, Severity::warning, texture_label(tex), tex.offset,
         "GameCube texture native: listed, not decoded (extract writes its stored section)");
  return {};
}

}  // namespace assay::rw::detail
