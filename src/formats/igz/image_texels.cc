// igImage2 texels other than PS3/PC DXT: plain pixel formats (linear, big-endian words, PS3
// swizzle) and the Wii GX tiled formats. A level in a console GPU tiling (Xbox 360, Switch, Wii U,
// PS4) reaches these functions as rows: image_decode.cc untiles it first (image/tiling.h) and
// tiles the encoded rows back; tiled_surface() gives the tiling's unit.
//
// Plain pixel formats: their channels and element encodings are image_pixels.cc's; here the texel
// layouts (rows, PS3 swizzle, tilings, Wii tiles).
//
// Wii (GX texture formats; tile sizes as igRewrite8 igGfx.cs tileInfo lists them, except l4:
// GX's I4 tile is 8 x 8, igGfx.cs says 4 x 4): tiles row by row, texels row by row inside a tile;
// I4 two texels a byte (high nibble first), I8, IA4 (alpha in the high nibble), IA8 (alpha byte
// first), RGB565 and RGB5A3 big-endian words, RGBA8 as 32 bytes of AR pairs then 32 of GB pairs
// per 4 x 4 tile, CMPR as four DXT1 sub-blocks (top-left, top-right, bottom-left, bottom-right)
// with big-endian colours and the leftmost texel in the index byte's top bits. Luminance ("l")
// formats give alpha 255.
#include "image_texels.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "assay/image/encode.h"
#include "diag_util.h"

namespace assay::igz::detail {

namespace {

void put(image::Rgba& img, std::uint32_t x, std::uint32_t y, std::array<std::uint8_t, 4> c) {
  if (x >= img.width || y >= img.height) return;  // tile padding
  std::uint8_t* p = img.pixels.data() + (std::uint64_t{y} * img.width + x) * 4;
  p[0] = c[0], p[1] = c[1], p[2] = c[2], p[3] = c[3];
}

Error unsupported(std::string why) {
  Error e = err("igImage2", kNoOffset, std::move(why));
  e.kind = ErrorKind::unsupported;
  e.code = "igz.image-format";
  return e;
}

bool pow2(std::uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

std::uint32_t block_bytes(image::BlockFormat f) { return f == image::BlockFormat::bc1 || f == image::BlockFormat::bc4 ? 8 : 16; }

// Xbox 360 "_big" blocks: each 16-bit word's two bytes swapped (its 8-in-16 endian mode).
void swap_words16(ByteBuffer& b) {
  for (std::size_t i = 0; i + 1 < b.size(); i += 2) std::swap(b[i], b[i + 1]);
}

// ---- Wii ----
struct WiiTile {
  std::uint8_t w, h, bits;
};
WiiTile wii_tile(WiiFormat f) {
  switch (f) {
    case WiiFormat::i4:
    case WiiFormat::cmpr: return {8, 8, 4};
    case WiiFormat::i8:
    case WiiFormat::ia4: return {8, 4, 8};
    case WiiFormat::ia8:
    case WiiFormat::rgb565:
    case WiiFormat::rgb5a3: return {4, 4, 16};
    case WiiFormat::rgba8: return {4, 4, 32};
  }
  return {4, 4, 32};
}

std::array<std::uint8_t, 4> rgb5a3(std::uint16_t v) {
  if (v & 0x8000) return {widen(v >> 10 & 31, 5), widen(v >> 5 & 31, 5), widen(v & 31, 5), 255};
  return {widen(v >> 8 & 15, 4), widen(v >> 4 & 15, 4), widen(v & 15, 4), widen(v >> 12 & 7, 3)};
}

// One tile's texel k (row by row) of a non-CMPR format.
std::array<std::uint8_t, 4> wii_texel(WiiFormat f, const std::uint8_t* t, unsigned k) {
  switch (f) {
    case WiiFormat::i4: {
      const std::uint8_t n = (k & 1) ? t[k / 2] & 15 : t[k / 2] >> 4;
      const std::uint8_t i = widen(n, 4);
      return {i, i, i, 255};
    }
    case WiiFormat::i8: return {t[k], t[k], t[k], 255};
    case WiiFormat::ia4: {
      const std::uint8_t i = widen(t[k] & 15, 4);
      return {i, i, i, widen(t[k] >> 4, 4)};
    }
    case WiiFormat::ia8: return {t[2 * k + 1], t[2 * k + 1], t[2 * k + 1], t[2 * k]};
    case WiiFormat::rgb565: {
      const std::uint16_t v = static_cast<std::uint16_t>(t[2 * k] << 8 | t[2 * k + 1]);
      return {widen(v >> 11, 5), widen(v >> 5 & 63, 6), widen(v & 31, 5), 255};
    }
    case WiiFormat::rgb5a3: return rgb5a3(static_cast<std::uint16_t>(t[2 * k] << 8 | t[2 * k + 1]));
    case WiiFormat::rgba8: return {t[2 * k + 1], t[32 + 2 * k], t[32 + 2 * k + 1], t[2 * k]};
    case WiiFormat::cmpr: break;
  }
  return {0, 0, 0, 0};
}

// CMPR: each 8-byte sub-block rewritten as a little-endian DXT1 block in a row-ordered block
// array, then decoded as BC1.
Result<image::Rgba> decode_cmpr(ByteView src, std::uint32_t w, std::uint32_t h) {
  const std::uint32_t tiles_x = (w + 7) / 8, tiles_y = (h + 7) / 8, bw = tiles_x * 2;
  ByteBuffer dxt(std::uint64_t{tiles_x} * tiles_y * 4 * 8);
  for (std::uint64_t t = 0; t < std::uint64_t{tiles_x} * tiles_y; ++t)
    for (unsigned s = 0; s < 4; ++s) {
      const std::uint8_t* in = src.data() + (t * 4 + s) * 8;
      const std::uint64_t bx = (t % tiles_x) * 2 + (s & 1), by = (t / tiles_x) * 2 + (s >> 1);
      std::uint8_t* out = dxt.data() + (by * bw + bx) * 8;
      out[0] = in[1], out[1] = in[0], out[2] = in[3], out[3] = in[2];
      for (unsigned r = 0; r < 4; ++r) {
        const std::uint8_t b = in[4 + r];
        out[4 + r] = static_cast<std::uint8_t>((b >> 6) | ((b >> 2) & 0x0C) | ((b << 2) & 0x30) | (b << 6));
      }
    }
  ASSAY_TRY(image::Rgba full, image::decode_blocks(image::BlockFormat::bc1, dxt, tiles_x * 8, tiles_y * 8));
  image::Rgba img{w, h, ByteBuffer(std::uint64_t{w} * h * 4)};
  for (std::uint32_t y = 0; y < h; ++y)
    std::copy_n(full.pixels.data() + std::uint64_t{y} * full.width * 4, std::uint64_t{w} * 4,
                img.pixels.data() + std::uint64_t{y} * w * 4);
  return img;
}

Result<image::Rgba> decode_wii(WiiFormat f, ByteView src, std::uint32_t w, std::uint32_t h) {
  if (f == WiiFormat::cmpr) return decode_cmpr(src, w, h);
  const WiiTile t = wii_tile(f);
  const std::uint32_t tiles_x = (w + t.w - 1) / t.w, tiles_y = (h + t.h - 1) / t.h;
  const unsigned tile_bytes = t.w * t.h * t.bits / 8;
  image::Rgba img{w, h, ByteBuffer(std::uint64_t{w} * h * 4)};
  for (std::uint64_t i = 0; i < std::uint64_t{tiles_x} * tiles_y; ++i) {
    const std::uint8_t* tile = src.data() + i * tile_bytes;
    const std::uint32_t x0 = static_cast<std::uint32_t>(i % tiles_x) * t.w, y0 = static_cast<std::uint32_t>(i / tiles_x) * t.h;
    for (unsigned k = 0; k < unsigned{t.w} * t.h; ++k) put(img, x0 + k % t.w, y0 + k / t.w, wii_texel(f, tile, k));
  }
  return img;
}

}  // namespace

std::uint64_t morton_index(std::uint32_t x, std::uint32_t y, std::uint32_t w, std::uint32_t h) {
  std::uint64_t out = 0;
  unsigned bit = 0;
  for (std::uint64_t m = 1; m < w || m < h; m <<= 1) {
    if (m < w) out |= std::uint64_t{(x & m) != 0} << bit++;
    if (m < h) out |= std::uint64_t{(y & m) != 0} << bit++;
  }
  return out;
}

bool tiled_surface(const TexelLayout& t, std::uint32_t w, std::uint32_t h, image::TiledSurface& out) {
  const bool blocks = t.kind == TexelLayout::Kind::blocks;
  if (t.tiling == TexelLayout::Tiling::none || (!blocks && t.kind != TexelLayout::Kind::pixels)) return false;
  const std::uint32_t unit = blocks ? block_bytes(t.block) : t.pixel->bits / 8u;
  if (!image::tiling_unit_ok(unit)) return false;
  out = {};
  out.width = blocks ? (w + 3) / 4 : w, out.height = blocks ? (h + 3) / 4 : h, out.unit_bytes = unit;
  switch (t.tiling) {
    case TexelLayout::Tiling::xenon: out.tiling = image::Tiling::xenon; break;
    case TexelLayout::Tiling::tegra: {
      out.tiling = image::Tiling::tegra;
      const std::uint32_t h0 = blocks ? (t.height0 + 3) / 4 : t.height0;
      out.block_height = image::tegra_mip_block_height(out.height, image::tegra_block_height(h0));
      break;
    }
    case TexelLayout::Tiling::gx2: out.tiling = image::gx2_tile_mode(out.width, out.height, unit * 8); break;
    case TexelLayout::Tiling::ps4: out.tiling = image::Tiling::ps4; break;
    case TexelLayout::Tiling::none: return false;
  }
  return true;
}

bool texel_level_size(const TexelLayout& t, std::uint32_t w, std::uint32_t h, std::uint64_t& out) {
  if (t.tiling != TexelLayout::Tiling::none) return false;  // tiled levels: image_decode.cc's tiled_mip_chain
  switch (t.kind) {
    case TexelLayout::Kind::blocks: return image::block_level_size(t.block, w, h, out);
    case TexelLayout::Kind::pixels: out = std::uint64_t{w} * h * (t.pixel->bits / 8); return true;
    case TexelLayout::Kind::etc: out = etc_level_size(t.etc, w, h); return true;
    case TexelLayout::Kind::wii: {
      const WiiTile tile = wii_tile(t.wii);
      const std::uint64_t tiles = std::uint64_t{(w + tile.w - 1) / tile.w} * ((h + tile.h - 1) / tile.h);
      out = tiles * tile.w * tile.h * tile.bits / 8;
      return true;
    }
  }
  return false;
}

Result<image::Rgba> decode_texels(const TexelLayout& t, ByteView src, std::uint32_t w, std::uint32_t h) {
  std::uint64_t need = 0;
  if (!texel_level_size(t, w, h, need) || src.size() < need)
    return err("igImage2", kNoOffset, fmt::format("a {} x {} level needs {} bytes, {} given", w, h, need, src.size()));
  if (t.swap16) {  // Xbox 360 "_big" blocks: 16-bit words swapped back first
    ByteBuffer rows(src.begin(), src.begin() + static_cast<std::ptrdiff_t>(need));
    swap_words16(rows);
    TexelLayout plain = t;
    plain.swap16 = false;
    return decode_texels(plain, rows, w, h);
  }
  if (t.kind == TexelLayout::Kind::blocks) return image::decode_blocks(t.block, src, w, h);
  if (t.kind == TexelLayout::Kind::wii) return decode_wii(t.wii, src, w, h);
  if (t.kind == TexelLayout::Kind::etc) return decode_etc(t.etc, src, w, h);
  if (t.morton && (!pow2(w) || !pow2(h)))
    return unsupported(fmt::format("a swizzled {} x {} level: its sides are not powers of two", w, h));
  const PixelFormat& f = *t.pixel;
  const unsigned bytes = f.bits / 8;
  image::Rgba img{w, h, ByteBuffer(std::uint64_t{w} * h * 4)};
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) {
      const std::uint64_t i = t.morton ? morton_index(x, y, w, h) : std::uint64_t{y} * w + x;
      put(img, x, y, read_texel(f, src.data() + i * bytes, t.big_endian));
    }
  return img;
}

Result<ByteBuffer> encode_texels(const TexelLayout& t, const image::Rgba& img) {
  if (t.swap16) {  // plain blocks, then their 16-bit words swapped as decode undoes
    TexelLayout plain = t;
    plain.swap16 = false;
    ASSAY_TRY(ByteBuffer rows, encode_texels(plain, img));
    swap_words16(rows);
    return rows;
  }
  if (t.kind == TexelLayout::Kind::blocks) return image::encode_blocks(t.block, img);
  if (t.kind == TexelLayout::Kind::wii)
    return unsupported("Wii tiled textures are not encoded");
  if (t.kind == TexelLayout::Kind::etc) return encode_etc(t.etc, img);
  if (t.morton && (!pow2(img.width) || !pow2(img.height)))
    return unsupported(fmt::format("a swizzled {} x {} level: its sides are not powers of two", img.width, img.height));
  const PixelFormat& f = *t.pixel;
  const unsigned bytes = f.bits / 8;
  ByteBuffer out(std::uint64_t{img.width} * img.height * bytes);
  for (std::uint32_t y = 0; y < img.height; ++y)
    for (std::uint32_t x = 0; x < img.width; ++x) {
      const std::uint64_t i = t.morton ? morton_index(x, y, img.width, img.height) : std::uint64_t{y} * img.width + x;
      write_texel(f, img.pixels.data() + (std::uint64_t{y} * img.width + x) * 4, out.data() + i * bytes, t.big_endian);
    }
  return out;
}

}  // namespace assay::igz::detail
