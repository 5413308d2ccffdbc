// RenderWare's on-disk records with their sizes (core/record.h): each decode reads exactly kSize
// bytes, little-endian. The section header itself is rw::SectionHeader (section.h, #rw-2-1).
// spec: renderware.md#rw-5-1 (dictionary struct), #rw-5-2 .. #rw-5-6 (PS2 native), #rw-6-1 (D3D
// header), #rw-7 (clump structs).
#pragma once

#include <array>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "assay/core/record.h"
#include "assay/formats/renderware/section.h"
#include "assay/formats/renderware/texture.h"

namespace assay::rw::records {

inline ByteReader le_reader(ByteView b, std::uint64_t base = 0) { return ByteReader(b, Endian::little, kFormat, base); }

// T at `at` of `b`, for an offset whose room the caller's rule has checked (a walk step, a struct
// of a proven size): core decode_in (outside: the program stops). Data-driven offsets go through
// read_record (an Error) or leading().
template <Record T>
[[nodiscard]] T decode_at(ByteView b, std::uint64_t at) noexcept {
  return decode_in<T>(b, at, Endian::little);
}

// The T a struct's body opens with; nullopt when the body is shorter than T.
template <Record T>
[[nodiscard]] std::optional<T> leading(ByteView body) noexcept {
  if (!fits<T>(body)) return std::nullopt;
  return decode_at<T>(body, 0);
}

// A little-endian u32 at `at` of `b`: a struct's word whose room was checked.
[[nodiscard]] inline std::uint32_t u32_at(ByteView b, std::uint64_t at) noexcept {
  return decode_at<Word32>(b, at).value;
}

// The first Struct of a Texture Dictionary: u16 textureCount, u16 deviceId (#rw-5-1).
struct DictionaryStruct {
  static constexpr std::size_t kSize = 4;
  std::uint16_t count = 0, device_id = 0;
  static constexpr void fields(auto& r, auto&& f) { f(r.count, r.device_id); }  // read and written
};

// The platform id that opens every texture native's first Struct (#rw-5-2, #rw-6-1).
struct NativePlatform {
  static constexpr std::size_t kSize = 4;
  std::uint32_t platform = 0;
  static constexpr NativePlatform decode(RecordCursor& c) { return {c.u32()}; }
};

// A PS2 native's first Struct: platform, filterAddressing (#rw-5-2, 8 bytes).
struct Ps2NativeStruct {
  static constexpr std::size_t kSize = 8;
  std::uint32_t platform = 0, filter_addressing = 0;
  static constexpr Ps2NativeStruct decode(RecordCursor& c) {
    Ps2NativeStruct s;
    s.platform = c.u32();
    s.filter_addressing = c.u32();
    return s;
  }
};

// The 64-byte PS2 raster header (#rw-5-3). header_stamp is not in these bytes (the caller sets it).
struct RasterHeader {
  static constexpr std::size_t kSize = 64;
  Ps2RasterHeader h;
  static constexpr RasterHeader decode(RecordCursor& c) {
    RasterHeader r;
    r.h.width = c.u32();
    r.h.height = c.u32();
    r.h.depth = c.u32();
    r.h.raster_format = c.u16();
    r.h.layout_version = c.u16();
    r.h.tex0 = c.u64();
    r.h.palette_base = c.u32();
    r.h.tex1_low = c.u32();
    r.h.miptbp1 = c.u64();
    r.h.miptbp2 = c.u64();
    r.h.pixel_size = c.u32();
    r.h.palette_size = c.u32();
    r.h.gs_memory = c.u32();
    r.h.kl = c.u32();
    return r;
  }
};

// The 0x50 bytes before a GS upload packet's image (#rw-5-6): GIF tag, TRXPOS, TRXREG, TRXDIR,
// image-mode GIF tag.
struct GsPacketHeader {
  static constexpr std::size_t kSize = 0x50;
  std::uint32_t gif_nloop = 0, gif_nreg = 0, gif_regs = 0;
  std::uint64_t trxpos_reg = 0, trxreg_reg = 0, trxdir_reg = 0;
  std::uint32_t trx_width = 0, trx_height = 0;
  std::uint32_t image_nloop = 0, image_mode = 0;
  static constexpr GsPacketHeader decode(RecordCursor& c) {
    GsPacketHeader k;
    k.gif_nloop = c.u32();
    k.gif_nreg = c.u32();
    k.gif_regs = c.u32();
    c.skip(4 + 8);  // +0x0C unused, +0x10 TRXPOS value
    k.trxpos_reg = c.u64();
    k.trx_width = c.u32();
    k.trx_height = c.u32();
    k.trxreg_reg = c.u64();
    c.skip(8);  // +0x30 TRXDIR value
    k.trxdir_reg = c.u64();
    k.image_nloop = c.u32();
    k.image_mode = c.u32();
    c.skip(8);
    return k;
  }
};

// The D3D8/D3D9/Xbox native header (#rw-6-1): 88 bytes; Xbox adds the u32 total size at +0x58.
struct D3dNativeHeader {
  static constexpr std::size_t kSize = 0x58;
  std::uint32_t platform = 0;
  std::uint8_t filter = 0, addressing = 0;
  std::uint16_t reserved = 0;  // +0x06, kept as read
  ByteView name, mask;         // char[32] each, NUL-padded
  std::uint32_t raster_format = 0;
  std::uint32_t format_word = 0;  // +0x4C: hasAlpha (D3D8), D3D format (D3D9), u16 hasAlpha + u16 (Xbox)
  std::uint16_t width = 0, height = 0;
  std::uint8_t depth = 0, levels = 0, raster_type = 0, flags = 0;
  static constexpr void fields(auto& h, auto&& f) {
    f(h.platform, h.filter, h.addressing, h.reserved, fixed_bytes<32>(h.name), fixed_bytes<32>(h.mask), h.raster_format,
      h.format_word, h.width, h.height, h.depth, h.levels, h.raster_type, h.flags);
  }
};
// The Xbox native header (#rw-6-1): the common 88 bytes, then the u32 total size of the levels.
struct XboxNativeHeader {
  static constexpr std::size_t kSize = D3dNativeHeader::kSize + 4;
  D3dNativeHeader common;
  std::uint32_t total_size = 0;
  static constexpr XboxNativeHeader decode(RecordCursor& c) {
    return {.common = decode_from<D3dNativeHeader>(c), .total_size = c.u32()};
  }
};
inline constexpr std::uint64_t kXboxHeaderSize = XboxNativeHeader::kSize;

// A D3D8/D3D9 level's size word (#rw-6-1 "D3D8 / D3D9 levels": u32 size, then size bytes).
struct LevelSize {
  static constexpr std::size_t kSize = 4;
  std::uint32_t bytes = 0;
  static constexpr LevelSize decode(RecordCursor& c) { return {c.u32()}; }
};

// A 32-bit palette entry, bytes R, G, B, A (#rw-5-8 "Colour bytes", #rw-6-1 "Palette").
struct PaletteEntry {
  static constexpr std::size_t kSize = 4;
  std::uint8_t r = 0, g = 0, b = 0, a = 0;
  static constexpr PaletteEntry decode(RecordCursor& c) { return {c.u8(), c.u8(), c.u8(), c.u8()}; }
};

// The Clump struct (#rw-7-1): u32 atomicCount, then u32 lightCount, u32 cameraCount in the
// 12-byte form of newer streams; old streams hold the atomic count alone (ClumpStructV1).
struct ClumpStruct {
  static constexpr std::size_t kSize = 12;
  std::uint32_t atomics = 0, lights = 0, cameras = 0;
  static constexpr ClumpStruct decode(RecordCursor& c) {
    return {.atomics = c.u32(), .lights = c.u32(), .cameras = c.u32()};
  }
};
struct ClumpStructV1 {
  static constexpr std::size_t kSize = 4;
  std::uint32_t atomics = 0;
  static constexpr ClumpStructV1 decode(RecordCursor& c) { return {c.u32()}; }
};

// The u32 count a list's struct opens with (#rw-7-1 frameCount, geometryCount; #rw-7-2 the
// Material List's count).
struct ListCount {
  static constexpr std::size_t kSize = 4;
  std::uint32_t count = 0;
  static constexpr ListCount decode(RecordCursor& c) { return {c.u32()}; }
};

// One Material List index (#rw-7-2): -1 = a new Material section follows, else an earlier one.
struct MaterialIndex {
  static constexpr std::size_t kSize = 4;
  std::int32_t index = 0;
  static constexpr MaterialIndex decode(RecordCursor& c) { return {c.i32()}; }
};

// A Texture section's struct (#rw-7-2): filterAddressing (bits as #rw-5-2).
struct TextureStruct {
  static constexpr std::size_t kSize = 4;
  std::uint32_t filter_addressing = 0;
  static constexpr TextureStruct decode(RecordCursor& c) { return {c.u32()}; }
};

// A Frame List frame (#rw-7-1, 56 bytes): rotation[9], position[3], parent, flags.
struct Frame {
  static constexpr std::size_t kSize = 56;
  std::array<float, 3> position{};
  std::int32_t parent = 0;
  std::uint32_t flags = 0;
  static constexpr Frame decode(RecordCursor& c) {
    Frame f;
    c.skip(36);  // the rotation matrix (not summarised)
    for (float& p : f.position) p = c.f32();
    f.parent = c.i32();
    f.flags = c.u32();
    return f;
  }
};

// The fixed part of a Geometry struct (#rw-7-2).
struct GeometryStruct {
  static constexpr std::size_t kSize = 16;
  std::uint32_t format_flags = 0, triangles = 0, vertices = 0, morph_targets = 0;
  static constexpr GeometryStruct decode(RecordCursor& c) {
    return {.format_flags = c.u32(), .triangles = c.u32(), .vertices = c.u32(), .morph_targets = c.u32()};
  }
};

// A morph target's head (#rw-7-2): sphere[4], hasVertices, hasNormals.
struct MorphTarget {
  static constexpr std::size_t kSize = 24;
  std::uint32_t has_vertices = 0, has_normals = 0;
  static constexpr MorphTarget decode(RecordCursor& c) {
    MorphTarget m;
    c.skip(16);
    m.has_vertices = c.u32();
    m.has_normals = c.u32();
    return m;
  }
};

// The first 16 bytes of a Material struct (#rw-7-2): flags, colour RGBA, unused, isTextured.
struct MaterialStruct {
  static constexpr std::size_t kSize = 16;
  std::array<std::uint8_t, 4> colour{};
  std::uint32_t textured = 0;
  static constexpr MaterialStruct decode(RecordCursor& c) {
    MaterialStruct m;
    c.skip(4);
    for (auto& v : m.colour) v = c.u8();
    c.skip(4);
    m.textured = c.u32();
    return m;
  }
};

// The first 12 bytes of an Atomic struct (#rw-7-3): frameIndex, geometryIndex, flags.
struct AtomicStruct {
  static constexpr std::size_t kSize = 12;
  std::uint32_t frame_index = 0, geometry_index = 0, flags = 0;
  static constexpr AtomicStruct decode(RecordCursor& c) {
    return {.frame_index = c.u32(), .geometry_index = c.u32(), .flags = c.u32()};
  }
};

// The head of a Bin Mesh extension (#rw-7-2): flags, mesh count, total index count.
struct BinMeshHeader {
  static constexpr std::size_t kSize = 12;
  std::uint32_t flags = 0, meshes = 0, indices = 0;
  static constexpr BinMeshHeader decode(RecordCursor& c) {
    return {.flags = c.u32(), .meshes = c.u32(), .indices = c.u32()};
  }
};

}  // namespace assay::rw::records
