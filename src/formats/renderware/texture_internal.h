// Internal: the per-platform texture native readers and decoders.
#pragma once

#include "codes.h"

#include "assay/formats/renderware/texture.h"
#include "assay/image/dxt.h"
#include "children.h"
#include "records.h"

namespace assay::rw::detail {

// `children` are the texture native's children; `tex` has offset/stamp/platform filled.
Result<void> read_ps2_native(ByteView bytes, std::uint64_t base, const std::vector<Child>& children,
                             TextureNative& tex, const DiagSink& diag, const TextureOptions& opt);
Result<void> read_d3d_native(ByteView bytes, std::uint64_t base, const std::vector<Child>& children,
                             TextureNative& tex, const DiagSink& diag, const TextureOptions& opt);
// GameCube natives (texture_gamecube.cc): name, mask and size read, never decoded.
Result<void> read_gamecube_native(std::uint64_t base, const std::vector<Child>& children, TextureNative& tex,
                                  const DiagSink& diag);
Result<image::Rgba> decode_ps2(const TextureNative& tex, std::uint32_t level);
Result<image::Rgba> decode_d3d(const TextureNative& tex, std::uint32_t level);
Result<image::Indexed> decode_ps2_indexed(const TextureNative& tex, std::uint32_t level);  // PAL4/PAL8 only
Result<image::Indexed> decode_d3d_indexed(const TextureNative& tex, std::uint32_t level);  // PAL4/PAL8 only

// D3D texel formats in the image layer's terms (texture_d3d.cc; the encoder uses them too).
bool is_dxt(TexelFormat f);
image::BlockFormat block_format(TexelFormat f);  // dxt1/3/5 -> bc1/2/3
image::PixelFormat pixel_format(TexelFormat f);  // the packed formats; l8 otherwise

inline std::string texture_label(const TextureNative& t) {
  return t.name.empty() ? std::string("texture native") : fmt::format("texture native '{}'", t.name);
}
inline Error texture_error(const TextureNative& t, std::uint64_t abs_offset, std::string message) {
  return rw_error(texture_label(t), abs_offset, std::move(message), "renderware.texture");
}

// The texture's palette as a table of R, G, B, A entries (#rw-5-8, #rw-6-1), its size checked
// against the palette bytes once here; an Error naming the palette when they are short.
inline Result<RecordTable<records::PaletteEntry>> palette_table(const TextureNative& t) {
  return RecordTable<records::PaletteEntry>::open(records::le_reader(t.palette), 0, t.palette_entries,
                                                  texture_label(t) + " palette");
}

// The first `bytes` bytes of a level's texels (indices or nibble pairs) as a checked table; an
// Error naming the texture and the level's offset when the level holds fewer.
inline Result<RecordTable<Word8>> index_table(const TextureNative& t, const MipLevel& lv, std::uint64_t bytes) {
  return RecordTable<Word8>::open(records::le_reader(lv.data, lv.offset), 0, bytes, texture_label(t) + " texels");
}

// A palette entry's four bytes at `o` in RGBA order.
inline void put_entry(std::uint8_t* o, const records::PaletteEntry& e) noexcept {
  o[0] = e.r, o[1] = e.g, o[2] = e.b, o[3] = e.a;
}

}  // namespace assay::rw::detail
