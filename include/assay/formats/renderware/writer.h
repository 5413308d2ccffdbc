// Writers for RenderWare streams: sections, PS2 and D3D9 texture natives, texture dictionaries
// and small clumps. Used by tests, fuzz corpora, `make-samples` and other formats' tests (the
// Warriors chunks embed these streams). Output follows renderware.md exactly so our readers and
// third-party readers accept it.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/formats/renderware/section.h"
#include "assay/image/png.h"

namespace assay::rw::writer {

// One section: header {type, body.size(), stamp} then body.
ByteBuffer section(std::uint32_t type, ByteView body, std::uint32_t stamp = kStampDefault);
// A container: header then the concatenated children.
ByteBuffer container(std::uint32_t type, const std::vector<ByteBuffer>& children,
                     std::uint32_t stamp = kStampDefault);
// A String section: text, NUL, NUL padding to a multiple of 4.
ByteBuffer string_section(std::string_view text, std::uint32_t stamp = kStampDefault);

// A PS2 paletted texture (spec: renderware.md#rw-5). Colours are 8-bit RGBA; the writer stores
// alpha in the PS2 0-128 range (the smallest a' with min(a' * 255 / 128, 255) == a: exact round
// trip; an alpha with no such a' is an error).
struct Ps2Texture {
  std::string name, mask;
  std::uint32_t width = 0, height = 0;  // powers of two
  bool pal4 = false;                    // PAL4 (16 colours) or PAL8 (256)
  std::vector<std::uint32_t> palette;   // RGBA packed as r | g << 8 | b << 16 | a << 24
  std::vector<ByteBuffer> levels;       // per level: (width >> i) x (height >> i) indices
  std::uint32_t filter_addressing = 0x1102;  // linear, wrap/wrap
  std::uint32_t stamp = kStampDefault;
  // 2: GS upload packets (PAL8 always swizzled; PAL4 swizzled above 3.1.0.0, else sent plain
  // with an 8 x 2 palette); 1 or 0: the old plain layout (1 = PAL8 swizzled), levels at
  // 64-byte steps, then the palette's entries (spec: renderware.md#rw-real, #rw-5-7).
  std::uint16_t layout_version = 2;
};
// Builds a palette and indices from RGBA levels (every level's colours must fit the palette:
// at most 16 distinct for PAL4, 256 for PAL8).
Result<Ps2Texture> ps2_texture_from_rgba(std::string name, const std::vector<image::Rgba>& levels,
                                         bool pal4);
// The 0x15 section (version 2 layout, swizzled transfers, CSM1 palette order).
Result<ByteBuffer> ps2_texture_native(const Ps2Texture& t);

// A PS2 true-colour texture (spec: renderware.md#rw-real "PS2 true-colour rasters"): 8888
// (PSMCT32; alpha stored 0-128 like palettes), 888 (PSMCT24 in 32 bits) or 1555 (PSMCT16S;
// channels rounded to 5 bits, alpha bit = a >= 128). Never swizzled: each level is sent as a
// plain image of its own size padded to the transfer minimum (2 x 1 for 32-bit, 4 x 1 for 16).
struct Ps2TrueColourTexture {
  std::string name, mask;
  std::uint32_t pixel_format = 0x500;  // raster::k8888, k888 or k1555
  std::vector<image::Rgba> levels;     // level i is (width >> i) x (height >> i)
  std::uint32_t filter_addressing = 0x1102;
  std::uint32_t stamp = kStampGtaSa;
  std::uint16_t layout_version = 2;    // 2: GS packets; 0: the old plain layout
};
Result<ByteBuffer> ps2_true_colour_native(const Ps2TrueColourTexture& t);

// A D3D9 (platform 9) native; `levels` hold each level's stored bytes (DXT blocks, or texels in
// the D3D byte order). d3d_format from assay/formats/renderware/texture.h (d3d::kDxt1 ...).
struct D3d9Texture {
  std::string name, mask;
  std::uint32_t width = 0, height = 0, depth = 16;
  std::uint32_t raster_format = 0x200;  // GTA convention: 0x200 = DXT1 without alpha
  std::uint32_t d3d_format = 0;
  std::uint8_t flags = 0x08;            // +0x57: bit 3 compressed
  std::uint8_t filter = 1, addressing = 0x11;
  std::vector<std::uint32_t> palette;   // PAL8/PAL4 only
  std::vector<ByteBuffer> levels;
  std::uint32_t stamp = kStampGtaSa;
};
Result<ByteBuffer> d3d9_texture_native(const D3d9Texture& t);

// A Texture Dictionary (0x16): struct {count, device}, natives, empty extension.
ByteBuffer texture_dictionary(const std::vector<ByteBuffer>& natives, std::uint16_t device_id,
                              std::uint32_t stamp = kStampDefault);

// A small clump (spec: renderware.md#rw-7): `frames` frames (a chain, frame 0 the root), one
// non-native triangle-list geometry per entry of `geometries`, one atomic per geometry (frame =
// geometry index % frames), an optional texture per geometry.
struct ClumpGeometry {
  std::uint32_t vertices = 3, triangles = 1;
  std::string texture;  // empty = untextured material
  std::vector<std::pair<std::uint32_t, ByteBuffer>> plugins;  // more extension sections: id, body
};
struct ClumpDesc {
  std::uint32_t frames = 1;
  std::vector<ClumpGeometry> geometries{ClumpGeometry{}};
  std::vector<std::string> node_names;  // Rockstar node names per frame (optional)
  std::uint32_t stamp = kStampDefault;
};
ByteBuffer clump(const ClumpDesc& d);
// Several clumps back to back as top-level sections (Manhunt's model files; spec:
// renderware.md#rw-real).
ByteBuffer clumps(const std::vector<ClumpDesc>& ds);

}  // namespace assay::rw::writer
