// RenderWare texture dictionaries (0x16) and texture natives (0x15): PS2 and PC/Xbox D3D.
// spec: renderware.md#rw-5 (dictionary, PS2 natives), renderware.md#rw-6 (D3D8/D3D9/Xbox).
// A TextureDictionary is a non-owning view: names and texel data are views into the buffer
// passed to open(), which must outlive it. Works on a sub-view of a Warriors chunk.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "assay/core/diag.h"
#include "assay/formats/renderware/profile.h"
#include "assay/formats/renderware/section.h"
#include "assay/image/png.h"

namespace assay::rw {

// Platform ids at the start of a texture native's first Struct (spec: #rw-5-2, #rw-6-1).
inline constexpr std::uint32_t kPlatformXbox = 5;
inline constexpr std::uint32_t kPlatformD3D8 = 8;
inline constexpr std::uint32_t kPlatformD3D9 = 9;
inline constexpr std::uint32_t kPlatformPS2 = 0x00325350;  // "PS2\0"
// GameCube (librw's Platform enum leaves 6 to it; Magic-RW's reader): the native's Struct is
// big-endian, so the word reads 0x06000000 little-endian. Listed by name, not decoded.
inline constexpr std::uint32_t kPlatformGameCube = 6;
inline constexpr std::uint32_t kPlatformGameCubeBE = 0x06000000;
std::string_view platform_name(std::uint32_t platform);  // "ps2", "d3d8", "d3d9", "xbox", "gamecube", ""

// Raster format bits (spec: #rw-5-4).
namespace raster {
inline constexpr std::uint32_t kPixelMask = 0x0F00;
inline constexpr std::uint32_t k1555 = 0x100, k565 = 0x200, k4444 = 0x300, kLum8 = 0x400,
                               k8888 = 0x500, k888 = 0x600, k555 = 0xA00;
inline constexpr std::uint32_t kAutoMipmap = 0x1000, kPal8 = 0x2000, kPal4 = 0x4000,
                               kMipmaps = 0x8000;
}  // namespace raster

// D3D formats (spec: #rw-6-2).
namespace d3d {
inline constexpr std::uint32_t kDxt1 = 0x31545844, kDxt2 = 0x32545844, kDxt3 = 0x33545844,
                               kDxt4 = 0x34545844, kDxt5 = 0x35545844;
inline constexpr std::uint32_t kA8R8G8B8 = 21, kX8R8G8B8 = 22, kR5G6B5 = 23, kX1R5G5B5 = 24,
                               kA1R5G5B5 = 25, kA4R4G4B4 = 26, kA8 = 28, kP8 = 41, kL8 = 50,
                               kA8L8 = 51;
}  // namespace d3d

// How the texels are stored, resolved from the platform's fields.
enum class TexelFormat : std::uint8_t {
  unknown, pal4, pal8, bgra8888, bgrx8888, r5g6b5, x1r5g5b5, a1r5g5b5, a4r4g4b4, a8, l8, a8l8,
  dxt1, dxt3, dxt5,
};
std::string_view to_string(TexelFormat f);  // "PAL8", "DXT1", "8888", "565", ...

// One mip level's stored bytes.
struct MipLevel {
  std::uint32_t width = 0, height = 0;  // the texture's size at this level (width >> i, min 1)
  ByteView data;                        // PS2: the image of the level's upload packet
  std::uint64_t offset = 0;             // absolute offset of `data`
  // PS2 swizzled transfers: the padded level size 2 x TRXREG (spec: #rw-5-6, #rw-5-7).
  std::uint32_t stored_width = 0, stored_height = 0;
};

struct Ps2RasterHeader {  // spec: #rw-5-3
  std::uint32_t width = 0, height = 0, depth = 0;
  std::uint16_t raster_format = 0, layout_version = 0;
  std::uint64_t tex0 = 0;
  std::uint32_t palette_base = 0, tex1_low = 0;
  std::uint64_t miptbp1 = 0, miptbp2 = 0;
  std::uint32_t pixel_size = 0, palette_size = 0, gs_memory = 0, kl = 0;
  // The stamp of the 64-byte header's own Struct: librw decides the PAL4 swizzle from it (LRW).
  std::uint32_t header_stamp = 0;
  [[nodiscard]] std::uint32_t psm() const { return static_cast<std::uint32_t>((tex0 >> 20) & 0x3F); }
  [[nodiscard]] std::uint32_t cpsm() const { return static_cast<std::uint32_t>((tex0 >> 51) & 0xF); }
  [[nodiscard]] std::uint32_t csm() const { return static_cast<std::uint32_t>((tex0 >> 55) & 1); }
  [[nodiscard]] bool tcc() const { return ((tex0 >> 34) & 1) != 0; }
};

struct TextureNative {
  std::uint64_t offset = 0;  // absolute offset of the 0x15 section header
  std::uint32_t stamp = 0;
  std::uint32_t platform = 0;
  std::uint32_t filter_addressing = 0;  // PS2: the u32; D3D: filter | addressing << 8
  std::string_view name, mask;
  std::uint32_t width = 0, height = 0, depth = 0;
  std::uint32_t raster_format = 0;
  std::uint32_t mip_count = 0;       // levels stored
  std::uint32_t palette_entries = 0;  // 0, 16 or 256 colours used
  TexelFormat format = TexelFormat::unknown;
  // D3D/Xbox: +0x4C (hasAlpha or the D3D format) and +0x57 (compression or flags).
  std::uint32_t d3d_format = 0;
  std::uint8_t d3d_flags = 0;
  bool has_alpha = false;
  Ps2RasterHeader ps2;               // PS2 natives only
  ByteView palette;                  // palette bytes (PS2: the palette packet's image)
  std::vector<MipLevel> levels;      // levels located by open(); empty when undecodable
  std::string unsupported;           // why decode() will refuse (empty = decodable)
  // TextureOptions::keep_going: why this texture could not be read (empty = read). Such a
  // texture is listed with what could be read; `unsupported` holds the same text.
  std::string error;
  [[nodiscard]] std::string format_name() const { return std::string(to_string(format)); }
};

struct TextureOptions {
  // The game's reader profile: R14 versions, R13 raster formats; null = plain RenderWare 3.
  const Profile* profile = nullptr;
  // A texture native that cannot be read does not fail the dictionary (spec: renderware.md#rw-real;
  // the default): its error goes to the sink (Severity::error), the texture is kept with
  // TextureNative::error set, and open() goes on with the next one. Structural errors of the
  // dictionary itself (R1, R2, R7) always fail open(). false: the first bad texture fails open().
  bool keep_going = true;
  // A dictionary whose header claims more bytes than the view holds (a truncated file):
  // read the texture natives that lie whole before the end and skip R7; open() fails
  // as before when even the dictionary's first Struct is cut. The caller says where the file is
  // cut (truncation.h). false: such a dictionary fails open() (R1).
  bool allow_cut = false;
};

// The number of mip levels a width x height texture can hold (1 + log2 of the larger side;
// 0 for an empty size). A stored level count above it is an error (checked before any shift).
std::uint32_t max_mip_levels(std::uint32_t width, std::uint32_t height) noexcept;

class TextureDictionary {
 public:
  // `bytes` must start with a Texture Dictionary section (0x16); bytes after that section are
  // ignored (the walker judges them). Structural errors (R1, R2, R7, R8, R9 smaller, R10, R15)
  // fail open(); warnings go to `diag`. A texture whose data size disagrees with
  // width x height x depth fails open() with an error naming that texture.
  static Result<TextureDictionary> open(ByteView bytes, std::uint64_t base = 0,
                                        const DiagSink& diag = {},
                                        const TextureOptions& options = {});
  // The dictionary views its buffer: a temporary buffer would dangle.
  static Result<TextureDictionary> open(const ByteBuffer&& bytes, std::uint64_t base = 0,
                                        const DiagSink& diag = {}, const TextureOptions& options = {}) = delete;

  [[nodiscard]] std::uint64_t offset() const { return offset_; }
  [[nodiscard]] std::uint32_t stamp() const { return stamp_; }
  [[nodiscard]] std::uint16_t device_id() const { return device_id_; }
  [[nodiscard]] std::uint16_t texture_count() const { return count_; }
  [[nodiscard]] const std::vector<TextureNative>& textures() const { return textures_; }

  // Decodes level `level` (0 = top) of texture `index` to 8-bit RGBA.
  [[nodiscard]] Result<image::Rgba> decode(std::size_t index, std::uint32_t level = 0) const;
  // A PAL4/PAL8 texture's level as indices and palette (decode_texture_indexed).
  [[nodiscard]] Result<image::Indexed> decode_indexed(std::size_t index, std::uint32_t level = 0) const;

 private:
  std::uint64_t offset_ = 0;
  std::uint32_t stamp_ = 0;
  std::uint16_t device_id_ = 0, count_ = 0;
  std::vector<TextureNative> textures_;
};

// Reads one texture native section (0x15) starting at `offset` of `bytes`.
Result<TextureNative> read_texture_native(ByteView bytes, std::uint64_t offset, std::uint64_t base,
                                          const DiagSink& diag, const TextureOptions& options = {});
// Decodes one level of a texture native read above.
Result<image::Rgba> decode_texture(const TextureNative& tex, std::uint32_t level = 0);
// True for PAL4 and PAL8 textures: decode_texture_indexed() applies.
[[nodiscard]] bool is_paletted(const TextureNative& tex) noexcept;
// One level of a PAL4/PAL8 texture as palette indices and the palette in index order (PS2: CSM1
// resolved, alpha 0-128 expanded; D3D: an index past the palette reads entry 0, so every index
// names an entry): image::to_rgba() of it is decode_texture()'s RGBA, byte for byte. Extract
// writes it as an indexed PNG. An error for other formats.
Result<image::Indexed> decode_texture_indexed(const TextureNative& tex, std::uint32_t level = 0);

// device id names (spec: #rw-5-1): "d3d9", "ps2", ...
std::string_view device_name(std::uint16_t device_id);

}  // namespace assay::rw
