// Helpers for the renderware tests: the spec's byte-by-byte PS2 fixture (renderware.md#rw-10-3),
// built here by hand (not by our writer) so the decoder is checked against the spec itself.
#pragma once

#include <cstdint>

#include "assay/core/bytes.h"
#include "assay/formats/renderware/section.h"
#include "assay/formats/renderware/texture.h"
#include "assay/image/ps2.h"

namespace assay::rw::testing {

// The strict open (TextureOptions::keep_going = false): the first bad texture fails open(), as in
// the Warriors chunks. The tests of per-texture errors read the error from the result this way.
inline Result<TextureDictionary> open_strict(ByteView b, const DiagSink& d = {}) {
  TextureOptions o;
  o.keep_going = false;
  return TextureDictionary::open(b, 0, d, o);
}

inline void hdr(ByteWriter& w, std::uint32_t type, std::uint32_t size, std::uint32_t stamp = kStampDefault) {
  w.u32(type), w.u32(size), w.u32(stamp);
}

struct Ps2Fixture {
  std::uint32_t nloop_texels = 16;   // mutation: 15 -> R10
  std::uint32_t pixel_size = 336;    // mutation: 320 -> R9/R10
  std::uint32_t trx_w = 8, trx_h = 8;  // mutation: {8, 4} -> R11
  std::uint32_t width = 16;          // mutation: 12 -> R12
};

inline void packet_tags(ByteWriter& w, std::uint32_t trx_w, std::uint32_t trx_h, std::uint32_t nloop) {
  w.u32(3), w.u32(0x10000000), w.u32(0x0E), w.u32(0);
  w.u64(0), w.u64(0x51);
  w.u32(trx_w), w.u32(trx_h), w.u64(0x52);
  w.u64(0), w.u64(0x53);
  w.u32(nloop), w.u32(0x08000000), w.u32(0), w.u32(0);
}

// The 8-bit 16 x 16 texture of renderware.md#rw-10-3 as a Texture Native section (name "fixture").
inline ByteBuffer ps2_fixture_native(const Ps2Fixture& f = {}) {
  ByteWriter data;
  packet_tags(data, f.trx_w, f.trx_h, f.nloop_texels);
  ByteBuffer image(256);
  for (std::uint32_t y = 0; y < 16; ++y)
    for (std::uint32_t x = 0; x < 16; ++x) image[image::ps2::swizzle_address(x, y, 4)] = static_cast<std::uint8_t>(x + 16 * y);
  data.bytes(image);
  packet_tags(data, 16, 16, 64);
  for (std::uint32_t e = 0; e < 256; ++e) data.u8(static_cast<std::uint8_t>(e)), data.u8(static_cast<std::uint8_t>(255 - e)), data.u8(0), data.u8(128);
  // data struct 1,440 bytes; raster container 12 + 64 + 12 + 1,440 = 1,528
  ByteWriter w;
  const std::uint32_t native = 12 + 8 + 12 + 8 + 12 + 4 + 12 + 1528 + 12 + 16;
  hdr(w, 0x15, native);
  hdr(w, 0x01, 8), w.u32(0x00325350), w.u32(0x1102);
  hdr(w, 0x02, 8), w.str("fixture"), w.u8(0);
  hdr(w, 0x02, 4), w.u32(0);
  hdr(w, 0x01, 1528);
  hdr(w, 0x01, 64);
  w.u32(f.width), w.u32(16), w.u32(8), w.u16(0x2504), w.u16(2);
  w.u64(0x0000000511308000ull);  // TEX0: TBW 2, PSM 0x13, TW 4, TH 4, TCC 1
  w.u32(0), w.u32(0), w.u64(0), w.u64(0);
  w.u32(f.pixel_size), w.u32(1104), w.u32(0), w.u32(0xFC0);
  hdr(w, 0x01, 1440);
  w.bytes(data.buffer());
  hdr(w, 0x03, 16);
  hdr(w, 0x110, 4), w.u32(0xFC0);
  return w.take();
}

// A dictionary {count, device 6} around the given natives and an empty extension.
inline ByteBuffer dictionary(const ByteBuffer& natives, std::uint16_t count) {
  ByteWriter w;
  hdr(w, 0x16, static_cast<std::uint32_t>(12 + 4 + natives.size() + 12));
  hdr(w, 0x01, 4), w.u16(count), w.u16(6);
  w.bytes(natives);
  hdr(w, 0x03, 0);
  return w.take();
}

}  // namespace assay::rw::testing
