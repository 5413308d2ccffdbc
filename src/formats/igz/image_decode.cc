// igImage2 pixels: the metaimage's name, level sizes and decoding to RGBA.
//
// Metaimage names: the canonical formats of igRewrite8 igLibrary/Gfx/igGfx.cs
// (canonicalMetaImages), made platform formats as "<canonical>[_tile][_big]_<platform>"
// (igMetaImage.cs MakePlatformFormat; the suffix order as the samples' EXID hashes show:
// "dxt1_tile_big_ps3", "dxt5_big_ps3", "dxt1_tile_cafe").
//
// Layouts decoded, from the bytes of skylanders_zap.pak's 22 PS3 textures:
// - dxt1/dxt3/dxt5 "_big_ps3" and "_tile_big_ps3" are plain little-endian DXT blocks in row
//   order, levels largest first with no padding (512 x 512 x 5 levels of DXT1 = 174592 bytes =
//   the TMHN size exactly). "_big" names the platform's byte order, not the texels': read as
//   little-endian, colormap_zap_e_11's blocks give a smooth image; with the 16-bit words swapped
//   the mean neighbour difference is 6.6 times larger. "_tile" has no tile size on PS3 (igGfx.cs
//   tileInfo lists Wii formats only) and the blocks are not in Morton order. The file wins over
//   the name here.
// Also decoded, with no sample to show them (image_texels.cc gives the rules): the plain pixel
// formats (linear; "_big" words big-endian; PS3 "_tile" swizzled), the Wii GX formats, and the
// "_tile" layouts of the Xbox 360, the Switch ("nx"), the Wii U ("cafe") and the PS4 through
// image/tiling.h, every level placed by the console's mip rules (tiled_mip_chain: the Xbox 360's
// packed mip tail after Xenia, the Wii U's per-level tile modes and offsets after decaf-emu and
// addrlib); texel_assumption() says what each assumes. Also the 16-bit and float formats
// (image_pixels.cc) and ETC1/ETC2 (image_etc.cc). Everything else (Xbox One tiling, palettes: no
// source says where the palette is; PVRTC, ATITC) is an unsupported error naming the format and
// platform.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "assay/core/hash.h"
#include "assay/formats/igz/image.h"
#include "assay/image/dxt.h"
#include "assay/image/encode.h"
#include "diag_util.h"
#include "image_texels.h"

namespace assay::igz {

namespace {

// igGfx.cs canonicalMetaImages.
constexpr std::string_view kCanonical[] = {
    "a8", "atitc", "atitc_alpha", "b5g5r5a1", "b5g6r5", "b8g8r8", "b8g8r8a8", "b8g8r8x8", "d15s1", "d16",
    "d24", "d24fs8", "d24s4x4", "d24s8", "d24x8", "d32", "d32f", "d32fs8", "d8", "dxn", "dxt1",
    "dxt1_srgb", "dxt3", "dxt3_srgb", "dxt5", "dxt5_srgb", "etc1", "etc2", "etc2_alpha", "g8b8", "gas",
    "l16", "l4", "l4a4", "l8", "l8a8", "p4_r4g4b4a3x1", "p4_r8g8b8a8", "p8_r4g4b4a3x1", "p8_r8g8b8a8",
    "pvrtc2", "pvrtc2_alpha", "pvrtc2_alpha_srgb", "pvrtc2_srgb", "pvrtc4", "pvrtc4_alpha",
    "pvrtc4_alpha_srgb", "pvrtc4_srgb", "r16_float", "r16g16", "r16g16_float", "r16g16_signed",
    "r16g16b16", "r16g16b16a16", "r16g16b16a16_expand_float", "r16g16b16a16_float", "r16g16b16x16",
    "r32_float", "r32g32_float", "r32g32b32a32_float", "r4g4b4a3x1", "r4g4b4a4", "r5g5b5a1", "r5g6b5",
    "r6g6b6a6", "r8g8", "r8g8b8", "r8g8b8_framebuffer", "r8g8b8_srgb", "r8g8b8a8", "r8g8b8a8_srgb",
    "r8g8b8x8", "r8g8b8x8_srgb", "shadow"};
// Platform suffixes (igRewrite8 IG_GFX_PLATFORM names, lower case).
// "nx" (Switch) and "wgl" from igArchiveExtractor's IGZ_TextureFormat names ("dxt1_tile_nx").
constexpr std::string_view kPlatforms[] = {
    "ps3", "cafe", "wii", "xenon", "aspen", "aspen64", "android", "osx", "durango", "ps4",
    "dx", "dx11", "win32", "win64", "raspi", "linux", "lgtv", "wp8", "metal", "nx", "wgl"};
constexpr std::string_view kLayouts[] = {"", "_tile", "_big", "_tile_big"};
// Platform formats that are no canonical name with a suffix (igGfx.cs tileInfo: the Wii's).
constexpr std::string_view kPlatformOnly[] = {"a4l4_tile_big_wii", "b4g4r4a3x1_tile_big_wii", "b6g6r6a6_tile_big_wii",
                                              "p4_b4g4r4a3x1_tile_big_wii", "p8_b4g4r4a3x1_tile_big_wii"};

using detail::err;

// Palette metaimages: their palette's bytes (igGfx.cs palletteInfo: 0x20, 0x40, 0x200, 0x400).
std::optional<unsigned> palette_format(std::string_view c) {
  if (c == "p4_r4g4b4a3x1") return 0x20;
  if (c == "p4_r8g8b8a8") return 0x40;
  if (c == "p8_r4g4b4a3x1") return 0x200;
  if (c == "p8_r8g8b8a8") return 0x400;
  return std::nullopt;
}

// Why a palette format is not decoded: where its palette would have to come from.
std::string palette_note(std::string_view c) {
  return fmt::format(
      "a palette format: its {}-byte palette (igGfx.cs palletteInfo) is in no igImage2 field (igRewrite8's metadata "
      "lists none) and no source says where in _data it sits (before or after the indices, per level or once); "
      "igRewrite8 places levels from _data's first byte with no palette bytes",
      *palette_format(c));
}

Error unsupported(const Image2& img, std::string why) {
  Error e = err("igImage2", kNoOffset,
                fmt::format("not decoded: format {}, platform {}: {}", img.format,
                            img.platform.empty() ? "unknown" : img.platform, why));
  e.kind = ErrorKind::unsupported;
  e.code = "igz.image-format";
  return e;
}

using detail::TexelLayout;
using detail::WiiFormat;

// The Wii GX format of a "_tile_big_wii" metaimage (igGfx.cs tileInfo names).
std::optional<WiiFormat> wii_format(std::string_view canonical) {
  static constexpr std::pair<std::string_view, WiiFormat> kWii[] = {
      {"dxt1", WiiFormat::cmpr},     {"b8g8r8a8", WiiFormat::rgba8}, {"b5g6r5", WiiFormat::rgb565},
      {"b4g4r4a3x1", WiiFormat::rgb5a3}, {"l8", WiiFormat::i8},      {"l4", WiiFormat::i4},
      {"l8a8", WiiFormat::ia8},      {"a4l4", WiiFormat::ia4}};
  for (const auto& [name, f] : kWii)
    if (name == canonical) return f;
  return std::nullopt;
}

// The GPU tiling of a platform's "_tile" metaimages (image/tiling.h); none where it is not decoded
// (or, PS3 and Wii, decoded by their own rules).
TexelLayout::Tiling platform_tiling(std::string_view platform) {
  if (platform == "xenon") return TexelLayout::Tiling::xenon;
  if (platform == "nx") return TexelLayout::Tiling::tegra;
  // The igImage2 holds no GX2 tile mode, swizzle or mip offsets: GX2's default for a 2D texture
  // with swizzle 0 and GX2's own level placement are assumed (image/tiling.h tiled_mip_chain;
  // texel_assumption says so).
  if (platform == "cafe") return TexelLayout::Tiling::gx2;
  // PS4: the 8 x 8 Morton tiles public tools untile (texel_assumption says so). Xbox One
  // ("durango"): no public source gives its tiling (DirectXTex leaves it to Microsoft's XG library).
  if (platform == "ps4") return TexelLayout::Tiling::ps4;
  return TexelLayout::Tiling::none;
}

std::optional<image::BlockFormat> block_format(std::string_view c) {
  if (c == "dxt1" || c == "dxt1_srgb") return image::BlockFormat::bc1;
  if (c == "dxt3" || c == "dxt3_srgb") return image::BlockFormat::bc2;
  if (c == "dxt5" || c == "dxt5_srgb") return image::BlockFormat::bc3;
  if (c == "dxn") return image::BlockFormat::bc5;  // two BC4 halves, red then green (3Dc = BC5)
  return std::nullopt;
}

// How the image's levels are stored (see the file comment and image_texels.cc), or why the format
// is not decoded. A layout of another platform's tiling still gives the levels' sizes.
Result<TexelLayout> texel_layout(const Image2& img) {
  if (!img.format_known) return unsupported(img, "the metaimage is not a known name");
  const MetaImageName n = parse_metaimage_name(img.format);
  TexelLayout t;
  if (n.platform == "wii") {
    const auto f = wii_format(n.canonical);
    if (n.canonical.starts_with("p4_") || n.canonical.starts_with("p8_"))
      return unsupported(img, "GX C4/C8 with an RGB5A3 palette: the palette (TLUT) is in no igImage2 field and no source "
                              "says where in _data it sits");
    if (!f || !n.tile || !n.big)
      return unsupported(img, "only the GX formats I4, I8, IA4, IA8, RGB565, RGB5A3, RGBA8 and CMPR are decoded");
    t.kind = TexelLayout::Kind::wii, t.wii = *f;
    return t;
  }
  if (n.tile) t.tiling = platform_tiling(n.platform);
  t.height0 = img.height;
  if (const auto bf = block_format(n.canonical)) {
    t.kind = TexelLayout::Kind::blocks, t.block = *bf;
    t.swap16 = n.big && n.platform == "xenon";
    return t;
  }
  if (const auto ef = detail::etc_format(n.canonical)) {
    if (n.tile || n.big) return unsupported(img, "ETC blocks are decoded untiled and in their own byte order only");
    t.kind = TexelLayout::Kind::etc, t.etc = *ef;
    return t;
  }
  const detail::PixelFormat* pf = detail::pixel_format(n.canonical);
  if (pf == nullptr && palette_format(n.canonical)) return unsupported(img, palette_note(n.canonical));
  if (pf == nullptr)
    return unsupported(img, "only DXT1/3/5, DXN (BC5), ETC1/ETC2, the 8-32 bit RGBA, RGB, luminance and alpha formats, "
                            "the 16-bit and float formats and d8/d16/d24s8/d32/d32f are decoded");
  t.kind = TexelLayout::Kind::pixels, t.pixel = pf, t.big_endian = n.big, t.morton = n.tile && n.platform == "ps3";
  if (t.tiling != TexelLayout::Tiling::none && !image::tiling_unit_ok(pf->bits / 8u))
    return unsupported(img, fmt::format("{}-bit texels are not tiled", pf->bits));
  return t;
}

// The layouts decoded: PS3's, the Wii's, any untiled one (big-endian words for pixel formats), and
// the Xbox 360, Switch, Wii U and PS4 tilings (image/tiling.h; Xbox 360 blocks byte-swapped).
Result<void> layout_decoded(const Image2& img, const TexelLayout& t) {
  const MetaImageName n = parse_metaimage_name(img.format);
  if (n.tile && n.platform == "durango")
    return unsupported(img, "the Xbox One tiling is not decoded: no public source describes it (Microsoft's XG library computes it)");
  if (n.tile && n.platform != "ps3" && n.platform != "wii" && t.tiling == TexelLayout::Tiling::none)
    return unsupported(img, "the platform's tiling is not decoded");
  if (t.kind == TexelLayout::Kind::blocks && n.big && n.platform != "ps3" && !t.swap16)
    return unsupported(img, "big-endian blocks are not decoded");
  return {};
}

std::uint32_t side(std::uint32_t s, unsigned level) { return std::max<std::uint32_t>(1, s >> level); }

// The levels of a tiled layout in the image's _data (image/tiling.h tiled_mip_chain) and their
// total bytes.
struct TiledChain {
  std::vector<image::TiledLevel> levels;
  std::uint64_t total = 0;
};

Result<TiledChain> tiled_chain(const Image2& img, const TexelLayout& t) {
  image::TiledSurface unit;
  if (!detail::tiled_surface(t, img.width, img.height, unit)) return unsupported(img, "its texels are not tiled");
  image::Tiling family = image::Tiling::xenon;
  switch (t.tiling) {
    case TexelLayout::Tiling::xenon: family = image::Tiling::xenon; break;
    case TexelLayout::Tiling::tegra: family = image::Tiling::tegra; break;
    case TexelLayout::Tiling::gx2: family = image::Tiling::gx2_2d; break;
    case TexelLayout::Tiling::ps4: family = image::Tiling::ps4; break;
    case TexelLayout::Tiling::none: return unsupported(img, "not tiled");
  }
  TiledChain c;
  if (!image::tiled_mip_chain(family, img.width, img.height, t.kind == TexelLayout::Kind::blocks ? 4 : 1, unit.unit_bytes,
                              img.levels, c.levels, c.total))
    return err("igImage2", kNoOffset, fmt::format("{} levels of {} x {} have no tiled layout", img.levels, img.width, img.height));
  return c;
}

// Where level `level` sits in the _data and its bytes; its tiled surface when tiled.
struct LevelPlace {
  std::uint64_t offset = 0, size = 0;
  std::optional<image::TiledSurface> tiled;
};

Result<LevelPlace> level_place(const Image2& img, const TexelLayout& t, unsigned level) {
  LevelPlace at;
  if (t.tiling != TexelLayout::Tiling::none) {
    ASSAY_TRY(TiledChain c, tiled_chain(img, t));
    if (level >= c.levels.size()) return err("igImage2", kNoOffset, fmt::format("level {} of {}", level, img.levels));
    at.offset = c.levels[level].offset, at.tiled = c.levels[level].surface;
    if (!image::tiled_size(*at.tiled, at.size)) return err("igImage2", kNoOffset, "level size overflows");
    return at;
  }
  for (unsigned l = 0; l <= level; ++l) {
    ASSAY_TRY(std::uint64_t s, level_size(img, l));
    (l < level ? at.offset : at.size) += s;
  }
  return at;
}

}  // namespace

MetaImageName parse_metaimage_name(std::string_view name) {
  MetaImageName n;
  for (std::string_view p : kPlatforms)
    if (name.size() > p.size() + 1 && name.ends_with(p) && name[name.size() - p.size() - 1] == '_') {
      n.platform = std::string(p);
      name.remove_suffix(p.size() + 1);
      break;
    }
  if (name.ends_with("_big")) n.big = true, name.remove_suffix(4);
  if (name.ends_with("_tile")) n.tile = true, name.remove_suffix(5);
  n.canonical = std::string(name);
  return n;
}

std::optional<std::string> metaimage_for_hash(std::uint32_t hash) {
  for (std::string_view s : kPlatformOnly)
    if (fnv1a32(s, true) == hash) return std::string(s);
  // FNV-1a runs on from a prefix's state: the 6,000-odd names are hashed, not formatted.
  for (std::string_view c : kCanonical) {
    const std::uint32_t hc = fnv1a32(c, true);
    if (hc == hash) return std::string(c);
    for (std::string_view l : kLayouts) {
      const std::uint32_t hl = fnv1a32("_", true, fnv1a32(l, true, hc));
      for (std::string_view p : kPlatforms)
        if (fnv1a32(p, true, hl) == hash) return fmt::format("{}{}_{}", c, l, p);
    }
  }
  return std::nullopt;
}

std::string_view texel_assumption(const Image2& img) {
  auto t = texel_layout(img);
  if (t && t->tiling == TexelLayout::Tiling::xenon)
    return "Xbox 360 2D tiling (XGAddress2DTiledOffset as Xenia describes it: 32 x 32 units, pitch and height padded to 32), "
           "\"_big\" DXT blocks byte-swapped in 16-bit words, pixel formats' channels as untiled ones; the levels after the "
           "first from the end of the first aligned to 4 KB, padded from power-of-two sides, packed mips (Xenia "
           "GetPackedMipOffset) when there is more than one level; no sample has shown this format";
  if (t && t->tiling == TexelLayout::Tiling::tegra)
    return "Switch block-linear (64-byte x 8-row GOBs, the block height the SDK picks from each level's height, as Ryujinx "
           "and tegra_swizzle describe it), levels one after another with no padding between them, pixel formats' channels "
           "as untiled ones; no sample has shown this format";
  if (t && t->tiling == TexelLayout::Tiling::ps4)
    return "PS4 tiling as public tools untile it (GFD-Studio, ReverseBox: 8 x 8-unit tiles in Morton order, the width and "
           "height padded to 8 units), levels one after another with no padding between them, pixel formats' channels as "
           "untiled ones; no sample has shown this format";
  if (t && t->tiling == TexelLayout::Tiling::gx2)
    return "Wii U GX2 default tile mode for a 2D texture (mode 4, 2D_TILED_THIN1, or mode 2 when the width and height are "
           "both under a macro tile's alignment) with swizzle 0, each smaller level in mode 2 once under a macro tile, "
           "addrlib's Wii U configuration (2 pipes, 4 banks), the levels after the first at GX2's mip offsets (decaf-emu "
           "GX2CalcSurfaceSizeAndAlignment) counted from the start of the first: the igImage2 holds no tile mode, swizzle "
           "or offsets; no sample has shown this layout";
  if (t && t->swap16) return "Xbox 360 DXT blocks byte-swapped in 16-bit words; no sample has shown this format";
  if (t && t->kind == TexelLayout::Kind::blocks && t->block == image::BlockFormat::bc5)
    return "dxn as BC5 (red block first, as DirectX's 3Dc/ATI2); blue is the normal's z rebuilt from red and green; no sample has shown this format";
  if (!t || t->kind == TexelLayout::Kind::blocks) return {};
  if (t->kind == TexelLayout::Kind::wii) return "GX tiles as the Wii's hardware stores them; no sample has shown this format";
  if (t->kind == TexelLayout::Kind::etc)
    return "ETC1/ETC2 blocks as the Khronos Data Format Specification describes them, 4 x 4 blocks in row order, levels "
           "largest first; no sample has shown this format";
  if (!t->pixel->assumed.empty()) return t->pixel->assumed;
  return "channels named from the texel word's lowest bits (bytes R, G, B, A for r8g8b8a8), \"_big\" words big-endian, "
         "PS3 \"_tile\" swizzled; no sample has shown this format";
}

Result<std::uint64_t> level_size(const Image2& img, unsigned level) {
  ASSAY_TRY(TexelLayout t, texel_layout(img));
  if (t.tiling != TexelLayout::Tiling::none) {
    ASSAY_TRY(LevelPlace at, level_place(img, t, level));
    return at.size;
  }
  std::uint64_t s = 0;
  if (!detail::texel_level_size(t, side(img.width, level), side(img.height, level), s))
    return err("igImage2", kNoOffset, "level size overflows");
  return s;
}

Result<std::uint64_t> data_size(const Image2& img) {
  ASSAY_TRY(TexelLayout t, texel_layout(img));
  std::uint64_t levels = 0;
  if (t.tiling != TexelLayout::Tiling::none) {
    ASSAY_TRY(TiledChain c, tiled_chain(img, t));
    levels = c.total;
  } else if (img.levels > 0) {
    ASSAY_TRY(LevelPlace last, level_place(img, t, img.levels - 1u));
    levels = last.offset + last.size;
  }
  const std::uint64_t copies = std::uint64_t{std::max<std::uint16_t>(img.images, 1)} * std::max<std::uint16_t>(img.depth, 1);
  return levels * copies;  // levels < 2^36, copies < 2^32: no overflow
}

Result<std::uint64_t> decoded_data_size(const Image2& img) {
  // Every level of every layout decoded is placed (tiled ones by tiled_mip_chain).
  return data_size(img);
}

Result<void> check_data_size(const Image2& img) {
  if (img.data.where != ImageData::Where::pool) return {};
  auto need = decoded_data_size(img);
  if (!need || img.data.size >= *need) return {};
  Error e = err("igImage2", img.data.offset,
                fmt::format("_data holds {} bytes; {} {} x {} with {} levels, {} images, depth {} needs {}", img.data.size,
                            img.format, img.width, img.height, img.levels, img.images, img.depth, *need));
  e.code = "igz.image-data";
  return e;
}

namespace {
struct DecodeLevel {
  TexelLayout layout;
  LevelPlace at;
  ByteView bytes;  // the level's bytes in the file (tiled or not)
  unsigned level = 0;
};
Result<DecodeLevel> decode_level_place(const IgzFile& f, const Image2& img, unsigned level);
Result<image::Rgba> decode_placed(const Image2& img, DecodeLevel d);
}  // namespace

Result<image::Rgba> decode_image2(const IgzFile& f, const Image2& img, unsigned level) {
  ASSAY_TRY(DecodeLevel d, decode_level_place(f, img, level));
  return decode_placed(img, d);
}

Result<ByteBuffer> encode_image2_png(const IgzFile& f, const Image2& img, unsigned level) {
  ASSAY_TRY(DecodeLevel d, decode_level_place(f, img, level));
  const TexelLayout& t = d.layout;
  if (d.at.tiled || t.kind != TexelLayout::Kind::blocks || t.swap16 || t.block == image::BlockFormat::bc4 ||
      t.block == image::BlockFormat::bc5) {
    ASSAY_TRY(image::Rgba rgba, decode_placed(img, d));
    return image::encode_png(rgba);
  }
  // BC1-BC3 rows: decoded and encoded 64 rows at a time (no whole RGBA buffer; docs/PERFORMANCE.md,
  // "igz textures to PNG")
  const std::uint32_t w = side(img.width, level), h = side(img.height, level);
  const ByteView bytes = d.bytes;
  return image::encode_png_rows(w, h, 64, [&](std::uint32_t y0, std::uint32_t y1, std::uint8_t* rows) {
    return image::decode_block_rows(t.block, bytes, w, h, y0, y1, rows);
  });
}

namespace {

// What decode_image2 checks, and where the level is.
Result<DecodeLevel> decode_level_place(const IgzFile& f, const Image2& img, unsigned level) {
  if (level >= img.levels) return err("igImage2", kNoOffset, fmt::format("level {} of {}", level, img.levels));
  if (img.data.where == ImageData::Where::external)
    return err("igImage2", kNoOffset, fmt::format("the pixels are in another file: {}", img.data.reference));
  if (img.data.where == ImageData::Where::none) return err("igImage2", kNoOffset, "the image has no pixel data");
  ASSAY_TRY(TexelLayout t, texel_layout(img));
  ASSAY_CHECK(check_data_size(img));
  ASSAY_CHECK(layout_decoded(img, t));
  if (img.images > 1 || img.depth > 1)
    return unsupported(img, fmt::format("{} images of depth {} (the order of their levels is not known)", img.images, img.depth));
  ASSAY_TRY(LevelPlace at, level_place(img, t, level));
  const ByteView level_bytes = f.bytes().subspan(img.data.offset + at.offset, at.size);  // inside data: checked above
  return DecodeLevel{t, std::move(at), level_bytes, level};
}

// The level decode_level_place found, as RGBA.
Result<image::Rgba> decode_placed(const Image2& img, DecodeLevel d) {
  TexelLayout& t = d.layout;
  const LevelPlace& at = d.at;
  const ByteView level_bytes = d.bytes;
  const unsigned level = d.level;
  ByteBuffer rows;  // a tiled level untiled to rows of units first
  if (at.tiled) {
    ASSAY_TRY(rows, image::untile(*at.tiled, level_bytes));
    t.tiling = TexelLayout::Tiling::none;
  }
  auto rgba = detail::decode_texels(t, at.tiled ? ByteView(rows) : level_bytes, side(img.width, level), side(img.height, level));
  if (!rgba && rgba.error().kind == ErrorKind::unsupported) return unsupported(img, rgba.error().message);
  return rgba;
}

}  // namespace

Result<ByteBuffer> encode_image2(const Image2& img, const std::vector<image::Rgba>& levels) {
  ASSAY_TRY(TexelLayout t, texel_layout(img));
  ASSAY_CHECK(layout_decoded(img, t));
  if (img.images > 1 || img.depth > 1)
    return unsupported(img, fmt::format("{} images of depth {} (the order of their levels is not known)", img.images, img.depth));
  if (levels.size() != img.levels)
    return err("igImage2", kNoOffset, fmt::format("{} levels given, the image has {}", levels.size(), img.levels));
  ByteBuffer out;
  if (t.tiling != TexelLayout::Tiling::none) {  // the whole chain, padding zero; each level tiled into its place
    ASSAY_CHECK(check_data_size(img));            // no buffer larger than the file's _data
    ASSAY_TRY(std::uint64_t total, data_size(img));
    out.assign(total, 0);
  }
  TexelLayout plain = t;
  plain.tiling = TexelLayout::Tiling::none;
  for (unsigned l = 0; l < img.levels; ++l) {
    const image::Rgba& level = levels[l];
    if (level.width != side(img.width, l) || level.height != side(img.height, l))
      return err("igImage2", kNoOffset, fmt::format("level {} is {} x {}, the image's is {} x {}", l, level.width,
                                                    level.height, side(img.width, l), side(img.height, l)));
    auto texels = detail::encode_texels(plain, level);
    if (!texels) return texels.error().kind == ErrorKind::unsupported ? unsupported(img, texels.error().message) : texels.error();
    if (t.tiling == TexelLayout::Tiling::none) {
      out.insert(out.end(), texels->begin(), texels->end());
      continue;
    }
    ASSAY_TRY(LevelPlace at, level_place(img, t, l));
    ASSAY_CHECK(image::tile_into(*at.tiled, *texels, std::span(out).subspan(at.offset)));
  }
  return out;
}

}  // namespace assay::igz
