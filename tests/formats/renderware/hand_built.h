// Hand-built RenderWare streams for the issue 29 tests (truncation, old-form stamps, GameCube,
// ADC): every byte written here from the spec's tables, not by assay's writer, so the readers are
// checked against the layouts themselves.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "assay/core/bytes.h"

namespace assay::rw::testing {

inline void put_header(ByteWriter& w, std::uint32_t type, std::uint32_t size, std::uint32_t stamp) {
  w.u32(type), w.u32(size), w.u32(stamp);
}

inline void put_fixed(ByteWriter& w, std::string_view s, std::size_t n) {  // char[n], NUL-padded
  w.str(s.substr(0, n));
  for (std::size_t i = s.size(); i < n; ++i) w.u8(0);
}

// Bytes of one hand-built Xbox native: 12 (0x15) + 12 (Struct) + 100 (92-byte header + one
// 8-byte DXT1 block) + 12 (empty Extension) = 136.
inline constexpr std::uint32_t kXboxNativeSize = 136;

// An Xbox (platform 5) 4 x 4 DXT1 texture native (renderware.md#rw-6-1, #rw-6-3: compression
// 0x0C = DXT1), every header stamped `stamp`. The one block is c0 = 0xF800 (pure red in R5G6B5),
// c1 = 0x001F (blue), all indices 0: every texel decodes to (255, 0, 0, 255) (#rw-6-4).
inline ByteBuffer xbox_dxt1_native(std::string_view name, std::uint32_t stamp) {
  ByteWriter w;
  put_header(w, 0x15, 12 + 100 + 12, stamp);
  put_header(w, 0x01, 100, stamp);
  w.u32(5);                        // +0x00 platform: Xbox
  w.u8(1), w.u8(0x11), w.u16(0);   // +0x04 filter, addressing
  put_fixed(w, name, 32);          // +0x08 name
  put_fixed(w, "", 32);            // +0x28 mask
  w.u32(0x200);                    // +0x48 raster format (565: DXT1 without alpha, GTA's convention)
  w.u16(0), w.u16(0);              // +0x4C hasAlpha, unknown
  w.u16(4), w.u16(4);              // +0x50 width, height
  w.u8(16), w.u8(1), w.u8(4), w.u8(0x0C);  // +0x54 depth, levels, raster type, compression DXT1
  w.u32(8);                        // +0x58 total data size
  w.u16(0xF800), w.u16(0x001F), w.u32(0);  // the DXT1 block
  put_header(w, 0x03, 0, stamp);
  return w.take();
}

// A Texture Dictionary (#rw-5-1): Struct {u16 count, u16 device}, the natives, an empty
// Extension; every header stamped `stamp`. Natives start at 28.
inline ByteBuffer hand_dictionary(const std::vector<ByteBuffer>& natives, std::uint16_t device, std::uint32_t stamp) {
  std::uint32_t body = 12 + 4 + 12;
  for (const auto& n : natives) body += static_cast<std::uint32_t>(n.size());
  ByteWriter w;
  put_header(w, 0x16, body, stamp);
  put_header(w, 0x01, 4, stamp);
  w.u16(static_cast<std::uint16_t>(natives.size())), w.u16(device);
  for (const auto& n : natives) w.bytes(n);
  put_header(w, 0x03, 0, stamp);
  return w.take();
}

// A GameCube texture native (platform 6). Layout after Magic-RW's GameCube reader for versions
// newer than 3.3.0.2: a big-endian Struct {u32 platform 6, u32 filterAddressing, 4 x u32, char
// name[32] (+0x18), char mask[32] (+0x38), u32 rasterFormat (+0x58), u16 width, u16 height
// (+0x5C), u8 depth, u8 mipmapCount, u8 internalFormat, u8 palettePixelFormat, u32 hasAlpha}
// (0x68 bytes), then `texels` stored bytes; then an empty Extension. Headers are little-endian.
inline ByteBuffer gamecube_native(std::string_view name, std::uint16_t width, std::uint16_t height,
                                  std::uint32_t stamp, std::size_t texels = 16) {
  ByteWriter be(Endian::big);
  be.u32(6), be.u32(0x1102);
  be.u32(0), be.u32(1), be.u32(1), be.u32(0);
  put_fixed(be, name, 32);
  put_fixed(be, "", 32);
  be.u32(0x0500);
  be.u16(width), be.u16(height);
  be.u8(32), be.u8(1), be.u8(6), be.u8(0);
  be.u32(1);
  for (std::size_t i = 0; i < texels; ++i) be.u8(static_cast<std::uint8_t>(i));
  const ByteBuffer st = be.take();
  ByteWriter w;
  put_header(w, 0x15, static_cast<std::uint32_t>(12 + st.size() + 12), stamp);
  put_header(w, 0x01, static_cast<std::uint32_t>(st.size()), stamp);
  w.bytes(st);
  put_header(w, 0x03, 0, stamp);
  return w.take();
}

}  // namespace assay::rw::testing
