// Console GPU tilings (include/assay/image/tiling.h names the sources). Written from the public
// descriptions of the address functions; every function maps one unit, and untile/tile walk the
// level's units in row order, so a tiling is used the same way both directions.
#include "assay/image/tiling.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace assay::image {

namespace {

std::uint64_t align(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }

// ceil(log2(v)) for v >= 1 (v <= 2^31).
unsigned log2_of(std::uint32_t v) {
  unsigned l = 0;
  while ((std::uint64_t{1} << l) < v) ++l;
  return l;
}

std::uint32_t next_pow2(std::uint32_t v) { return std::uint32_t{1} << log2_of(v); }

std::uint32_t units(std::uint32_t texels, std::uint32_t block) { return (texels + block - 1) / block; }

Error tiling_error(std::string message) { return make_error("image", "tiled level", kNoOffset, std::move(message)); }

// Walks every unit, calling f(linear offset, tiled offset).
template <class F>
void each_unit(const TiledSurface& s, F f) {
  for (std::uint32_t y = 0; y < s.height; ++y)
    for (std::uint32_t x = 0; x < s.width; ++x)
      f((std::uint64_t{y} * s.width + x) * s.unit_bytes, tiled_offset(s, x, y));
}

// xenon and gx2: the surface's padded pitch and rows (units).
std::uint32_t surface_pitch(const TiledSurface& s) {
  if (s.pitch != 0) return s.pitch;
  if (s.tiling == Tiling::xenon) return static_cast<std::uint32_t>(align(s.width, 32));
  return gx2_pitch(s.tiling, s.width, s.unit_bytes * 8);
}
std::uint32_t surface_rows(const TiledSurface& s) {
  if (s.rows != 0) return s.rows;
  if (s.tiling == Tiling::xenon) return static_cast<std::uint32_t>(align(s.height, 32));
  return gx2_height(s.tiling, s.height);
}

}  // namespace

// ---- Xbox 360 (Xenia texture_util.cc GetTiledOffset2D) ----
std::uint64_t xenon_offset(std::uint32_t x, std::uint32_t y, std::uint32_t pitch, unsigned log2_bytes) {
  const std::uint64_t tiles_per_row = align(pitch, 32) >> 5;
  // The 32 x 32 macro tile's index, and the unit's place in it before the bit mixing.
  const std::uint64_t macro = ((x >> 5) + (y >> 5) * tiles_per_row) << (log2_bytes + 7);
  const std::uint64_t micro = ((x & 7u) + ((y & 0xEu) << 2)) << log2_bytes;
  const std::uint64_t off = macro + ((micro & ~std::uint64_t{0xF}) << 1) + (micro & 0xF) + ((y & 1u) << 4);
  return ((off & ~std::uint64_t{0x1FF}) << 3) + (std::uint64_t{y & 16u} << 7) + ((off & 0x1C0) << 2) +
         (std::uint64_t{(((y & 8u) >> 2) + (x >> 3)) & 3u} << 6) + (off & 0x3F);
}

// ---- Tegra X1 block-linear (Ryujinx BlockLinearLayout; tegra_swizzle blockheight.rs) ----
std::uint32_t tegra_block_height(std::uint32_t height) {
  const std::uint64_t h = std::uint64_t{height} + height / 2;
  return h >= 128 ? 16 : h >= 64 ? 8 : h >= 32 ? 4 : h >= 16 ? 2 : 1;
}

std::uint32_t tegra_mip_block_height(std::uint32_t height, std::uint32_t block_height0) {
  std::uint32_t b = block_height0;
  while (b > 1 && height <= (b / 2) * 8) b /= 2;
  return b;
}

std::uint64_t tegra_offset(std::uint32_t x_byte, std::uint32_t y, std::uint32_t width_bytes, std::uint32_t block_height) {
  const std::uint64_t gobs_x = (std::uint64_t{width_bytes} + 63) / 64;
  const std::uint64_t block_bytes = 512u * std::uint64_t{block_height};
  const std::uint64_t block = (y / (8u * block_height)) * gobs_x + x_byte / 64;
  // Inside the 512-byte GOB: two 32-byte halves, each four 64-byte row pairs of two 16-byte sectors.
  const std::uint64_t in_gob = (x_byte % 64) / 32 * 256 + (y % 8) / 2 * 64 + (x_byte % 32) / 16 * 32 + (y % 2) * 16 + x_byte % 16;
  return block * block_bytes + (y / 8) % block_height * 512 + in_gob;
}

// ---- Wii U GX2 (addrlib r600: computePixelIndexWithinMicroTile, ...FromCoordMicroTiled/MacroTiled) ----
unsigned gx2_pixel_index(std::uint32_t x, std::uint32_t y, unsigned bits) {
  const unsigned x0 = x & 1, x1 = (x >> 1) & 1, x2 = (x >> 2) & 1, y0 = y & 1, y1 = (y >> 1) & 1, y2 = (y >> 2) & 1;
  unsigned b[6];  // index bits 0..5
  switch (bits) {
    case 8: b[0] = x0, b[1] = x1, b[2] = x2, b[3] = y1, b[4] = y0, b[5] = y2; break;
    case 16: b[0] = x0, b[1] = x1, b[2] = x2, b[3] = y0, b[4] = y1, b[5] = y2; break;
    case 64: b[0] = x0, b[1] = y0, b[2] = x1, b[3] = x2, b[4] = y1, b[5] = y2; break;
    case 128: b[0] = y0, b[1] = x0, b[2] = x1, b[3] = x2, b[4] = y1, b[5] = y2; break;
    default: b[0] = x0, b[1] = x1, b[2] = y0, b[3] = x2, b[4] = y1, b[5] = y2; break;  // 32
  }
  unsigned i = 0;
  for (unsigned k = 0; k < 6; ++k) i |= b[k] << k;
  return i;
}

std::uint64_t gx2_offset_1d(std::uint32_t x, std::uint32_t y, unsigned bits, std::uint32_t pitch) {
  const std::uint64_t micro_tile_bytes = 8u * bits;  // 64 units
  const std::uint64_t tile = x / 8 + std::uint64_t{y / 8} * (pitch / 8);
  return tile * micro_tile_bytes + gx2_pixel_index(x, y, bits) * bits / 8;
}

std::uint64_t gx2_offset_2d(std::uint32_t x, std::uint32_t y, unsigned bits, std::uint32_t pitch,
                            std::uint32_t pipe_swizzle, std::uint32_t bank_swizzle) {
  // 2 pipes, 4 banks, 256-byte groups: the micro tile's pipe and bank from x and y bits.
  std::uint32_t pipe = ((y >> 3) ^ (x >> 3)) & 1;
  std::uint32_t bank = (((y >> 5) ^ (x >> 3)) & 1) | ((((y >> 4) ^ (x >> 4)) & 1) << 1);
  const std::uint32_t bank_pipe = ((pipe + 2 * bank) ^ (pipe_swizzle + 2 * bank_swizzle)) % 8;
  pipe = bank_pipe % 2, bank = bank_pipe / 2;
  // Macro tiles of 32 x 16 units, row by row; their bytes spread over the 8 pipe/bank pairs.
  const std::uint64_t macro_bytes = 64u * std::uint64_t{bits};
  const std::uint64_t macro = (x / 32 + std::uint64_t{pitch / 32} * (y / 16)) * macro_bytes;
  const std::uint64_t total = gx2_pixel_index(x, y, bits) * bits / 8 + (macro >> 3);
  return ((total & ~std::uint64_t{0xFF}) << 3) | (std::uint64_t{bank} << 9) | (std::uint64_t{pipe} << 8) | (total & 0xFF);
}

std::uint32_t gx2_pitch(Tiling t, std::uint32_t width, unsigned bits) {
  const std::uint32_t a = t == Tiling::gx2_2d ? 32 * std::max(1u, 32 / bits) : std::max(8u, 256 / bits);
  return static_cast<std::uint32_t>(align(width, a));
}

std::uint32_t gx2_height(Tiling t, std::uint32_t height) {
  return static_cast<std::uint32_t>(align(height, t == Tiling::gx2_2d ? 16 : 8));
}

Tiling gx2_tile_mode(std::uint32_t width, std::uint32_t height, unsigned bits) {
  return width >= 32 * std::max(1u, 32 / bits) && height >= 16 ? Tiling::gx2_2d : Tiling::gx2_1d;
}

// The bytes a level reaches from its surface's start: the 32 x 32 tile holding its last unit,
// plus what one tile spans (Xenia texture_util.cc GetTiledAddressUpperBound2D: 8- and 16-bit
// units address 128 x 128 and 64 x 64 regions on their own, so a tile spans 0xA00 and 0xC00
// bytes; wider units 1 KB per byte of unit).
namespace {
std::uint64_t xenon_extent(std::uint32_t right, std::uint32_t bottom, std::uint32_t pitch, unsigned log2_bytes) {
  const std::uint64_t span = log2_bytes == 0 ? 0xA00 : log2_bytes == 1 ? 0xC00 : std::uint64_t{0x400} << log2_bytes;
  return xenon_offset((right - 1) & ~31u, (bottom - 1) & ~31u, pitch, log2_bytes) + span;
}
}  // namespace

// ---- PS4 (GFD-Studio PS4SwizzleAlgorithm.cs; ReverseBox swizzle_ps4.py) ----
std::uint64_t ps4_offset(std::uint32_t x, std::uint32_t y, std::uint32_t width, std::uint32_t unit_bytes) {
  const std::uint64_t tile = std::uint64_t{y / 8} * (align(width, 8) / 8) + x / 8;
  // Morton order inside the 8 x 8 tile: index bits x0 y0 x1 y1 x2 y2.
  unsigned in_tile = 0;
  for (unsigned b = 0; b < 3; ++b) in_tile |= ((x >> b) & 1u) << (2 * b) | ((y >> b) & 1u) << (2 * b + 1);
  return (tile * 64 + in_tile) * unit_bytes;
}

// ---- Xbox 360 packed mip tail (Xenia texture_util.cc GetPackedMipOffset, 2D) ----
bool xenon_packed_origin(std::uint32_t width, std::uint32_t height, unsigned level, std::uint32_t& x, std::uint32_t& y) {
  const unsigned lw = log2_of(width), lh = log2_of(height), lmin = std::min(lw, lh);
  if (lmin > 4 + level) return false;
  const unsigned base = lmin > 4 ? lmin - 4 : 0, packed = level - base;
  x = y = 0;
  // The first three levels of the tail step down 16, 8, 4 texels across the short side; the
  // smaller ones go along the long side from half its (tail-level) length.
  if (packed < 3) {
    (lw > lh ? y : x) = 16u >> packed;
  } else {
    const unsigned long_log2 = (lw > lh ? lw : lh) - base;
    const std::uint32_t along = packed - 2 > long_log2 ? 0 : (std::uint32_t{1} << long_log2) >> (packed - 2);
    (lw > lh ? x : y) = along;
  }
  return true;
}

// ---- a whole level ----
bool tiling_unit_ok(std::uint32_t b) { return b == 1 || b == 2 || b == 4 || b == 8 || b == 16; }

bool tiled_size(const TiledSurface& s, std::uint64_t& out) {
  if (!tiling_unit_ok(s.unit_bytes) || s.width == 0 || s.height == 0 || s.width > (1u << 24) || s.height > (1u << 24))
    return false;
  switch (s.tiling) {
    case Tiling::xenon: {
      const std::uint64_t pitch = align(surface_pitch(s), 32), rows = align(surface_rows(s), 32);
      if (std::uint64_t{s.x0} + s.width > pitch || std::uint64_t{s.y0} + s.height > rows || pitch > (1u << 24) || rows > (1u << 24))
        return false;
      out = xenon_extent(s.x0 + s.width, s.y0 + s.height, static_cast<std::uint32_t>(pitch), log2_of(s.unit_bytes));
      return true;
    }
    case Tiling::ps4: out = align(s.width, 8) * align(s.height, 8) * s.unit_bytes; return true;
    case Tiling::tegra: {
      if (s.block_height == 0 || s.block_height > 32) return false;
      const std::uint64_t gobs_x = (std::uint64_t{s.width} * s.unit_bytes + 63) / 64;
      out = gobs_x * 64 * align(s.height, 8u * s.block_height);
      return true;
    }
    case Tiling::gx2_1d:
    case Tiling::gx2_2d: {
      const std::uint32_t pitch = surface_pitch(s), rows = surface_rows(s);
      if (pitch < s.width || rows < s.height || pitch > (1u << 25) || rows > (1u << 25)) return false;
      out = std::uint64_t{pitch} * rows * s.unit_bytes;
      return true;
    }
  }
  return false;
}

std::uint64_t tiled_offset(const TiledSurface& s, std::uint32_t x, std::uint32_t y) {
  const unsigned bits = s.unit_bytes * 8;
  switch (s.tiling) {
    case Tiling::xenon: return xenon_offset(s.x0 + x, s.y0 + y, surface_pitch(s), log2_of(s.unit_bytes));
    case Tiling::tegra: return tegra_offset(x * s.unit_bytes, y, s.width * s.unit_bytes, s.block_height);
    case Tiling::gx2_1d: return gx2_offset_1d(x, y, bits, surface_pitch(s));
    case Tiling::gx2_2d: return gx2_offset_2d(x, y, bits, surface_pitch(s), s.pipe_swizzle, s.bank_swizzle);
    case Tiling::ps4: return ps4_offset(x, y, s.width, s.unit_bytes);
  }
  return 0;
}

Result<ByteBuffer> untile(const TiledSurface& s, ByteView tiled) {
  std::uint64_t need = 0;
  if (!tiled_size(s, need)) return tiling_error(fmt::format("no tiled level of {} x {} units of {} bytes", s.width, s.height, s.unit_bytes));
  if (tiled.size() < need) return tiling_error(fmt::format("a tiled level needs {} bytes, {} given", need, tiled.size()));
  ByteBuffer out(std::uint64_t{s.width} * s.height * s.unit_bytes);
  each_unit(s, [&](std::uint64_t lin, std::uint64_t til) { std::memcpy(out.data() + lin, tiled.data() + til, s.unit_bytes); });
  return out;
}

Result<void> tile_into(const TiledSurface& s, ByteView linear, std::span<std::uint8_t> out) {
  std::uint64_t need = 0;
  if (!tiled_size(s, need)) return tiling_error(fmt::format("no tiled level of {} x {} units of {} bytes", s.width, s.height, s.unit_bytes));
  if (linear.size() < std::uint64_t{s.width} * s.height * s.unit_bytes)
    return tiling_error(fmt::format("{} bytes for {} x {} units of {} bytes", linear.size(), s.width, s.height, s.unit_bytes));
  if (out.size() < need) return tiling_error(fmt::format("a tiled level needs {} bytes, {} given", need, out.size()));
  each_unit(s, [&](std::uint64_t lin, std::uint64_t til) { std::memcpy(out.data() + til, linear.data() + lin, s.unit_bytes); });
  return {};
}

Result<ByteBuffer> tile(const TiledSurface& s, ByteView linear) {
  std::uint64_t need = 0;
  if (!tiled_size(s, need)) return tiling_error(fmt::format("no tiled level of {} x {} units of {} bytes", s.width, s.height, s.unit_bytes));
  ByteBuffer out(need);
  ASSAY_CHECK(tile_into(s, linear, out));
  return out;
}

// ---- mip chains ----
namespace {

// Xbox 360 (Xenia GetGuestTextureLayout, 2D, tiled, packed mips when there is more than one level).
bool xenon_chain(std::uint32_t w, std::uint32_t h, std::uint32_t block, std::uint32_t unit, unsigned levels,
                 std::vector<TiledLevel>& out, std::uint64_t& total) {
  const unsigned lmin = log2_of(std::min(w, h));
  const unsigned packed = levels > 1 ? (lmin > 4 ? lmin - 4 : 0) : ~0u;  // the tail's level
  std::uint64_t next = 0;  // where the next stored surface starts
  total = 0;
  for (unsigned l = 0; l < levels; ++l) {
    TiledLevel lv;
    TiledSurface& s = lv.surface;
    s.tiling = Tiling::xenon, s.unit_bytes = unit;
    s.width = units(std::max(1u, w >> l), block), s.height = units(std::max(1u, h >> l), block);
    // Level 0's surface from its own sides; a smaller level's from the level-0 sides rounded up
    // to powers of two and shifted, the tail's by its level (0 for the mips' tail of a texture
    // whose level 0 is packed too). Level 0 and each level down to the tail (level 1 at least)
    // start a surface; the tail's levels share it.
    const unsigned shift = std::min(l, packed);
    const std::uint32_t sw = l == 0 ? w : std::max(1u, next_pow2(w) >> shift);
    const std::uint32_t sh = l == 0 ? h : std::max(1u, next_pow2(h) >> shift);
    s.pitch = static_cast<std::uint32_t>(align(units(sw, block), 32)), s.rows = static_cast<std::uint32_t>(align(units(sh, block), 32));
    if (l >= packed) {
      std::uint32_t px = 0, py = 0;
      if (!xenon_packed_origin(w, h, l, px, py)) return false;
      s.x0 = px / block, s.y0 = py / block;
    }
    // A new surface starts where the previous one's 4 KB-aligned stride (pitch x rows) ends; the
    // buffer ends where the last level's bytes reach (tiled_size: Xenia's upper bound).
    const bool new_surface = l <= std::max(packed, 1u);
    lv.offset = new_surface ? next : out.back().offset;
    if (new_surface) next = lv.offset + align(std::uint64_t{s.pitch} * s.rows * unit, 4096);
    std::uint64_t size = 0;
    if (!tiled_size(s, size)) return false;
    total = std::max(total, lv.offset + size);
    out.push_back(lv);
  }
  return true;
}

// Wii U (decaf-emu GX2CalcSurfaceSizeAndAlignment; addrlib r600 computeSurfaceMipLevelTileMode,
// computeSurfaceInfoMacroTiled/MicroTiled, computeSurfaceAlignments*): swizzle 0, one sample.
bool gx2_chain(std::uint32_t w, std::uint32_t h, std::uint32_t block, std::uint32_t unit, unsigned levels,
               std::vector<TiledLevel>& out, std::uint64_t& total) {
  const unsigned bits = unit * 8;
  const std::uint32_t macro_pitch = gx2_pitch(Tiling::gx2_2d, 1, bits);  // mode 4's pitch alignment
  // GX2's default: mode 2 when the texture's width and height (texels) are both under mode 4's
  // pitch and height alignments (decaf compares surface->width with output.pitchAlign).
  const bool base_2d = !(w < macro_pitch && h < 16);
  std::uint64_t prev_end = 0, rel = 0, first_mip = 0, prev_size = 0;
  for (unsigned l = 0; l < levels; ++l) {
    TiledLevel lv;
    TiledSurface& s = lv.surface;
    s.unit_bytes = unit;
    s.width = units(std::max(1u, w >> l), block), s.height = units(std::max(1u, h >> l), block);
    // Levels after the first are padded from their sides rounded up to powers of two, and fall
    // to mode 2 once under a macro tile (addrlib computeSurfaceMipLevelTileMode).
    const std::uint32_t pw = l == 0 ? s.width : next_pow2(s.width), ph = l == 0 ? s.height : next_pow2(s.height);
    const bool mode4 = base_2d && (l == 0 || (pw >= macro_pitch && ph >= 16));
    s.tiling = mode4 ? Tiling::gx2_2d : Tiling::gx2_1d;
    s.pitch = gx2_pitch(s.tiling, pw, bits), s.rows = gx2_height(s.tiling, ph);
    std::uint64_t size = 0;
    if (!tiled_size(s, size)) return false;
    const std::uint64_t base_align = mode4 ? std::max<std::uint64_t>(64u * bits, 2u * bits * macro_pitch) : 256;
    const std::uint64_t pad = (base_align - prev_size % base_align) % base_align;
    if (l == 1) first_mip = prev_size + pad;             // mipLevelOffset[0], from the image
    if (l >= 2) rel += prev_size + pad;                  // mipLevelOffset[l - 1], from level 1
    lv.offset = l == 0 ? 0 : first_mip + rel;
    prev_size = size, prev_end = lv.offset + size;
    out.push_back(lv);
  }
  total = prev_end;
  return true;
}

// Switch and PS4: each level padded by its own tiling, one after another.
bool packed_chain(Tiling t, std::uint32_t w, std::uint32_t h, std::uint32_t block, std::uint32_t unit, unsigned levels,
                  std::vector<TiledLevel>& out, std::uint64_t& total) {
  const std::uint32_t block_height0 = tegra_block_height(units(h, block));
  std::uint64_t next = 0;
  for (unsigned l = 0; l < levels; ++l) {
    TiledLevel lv;
    TiledSurface& s = lv.surface;
    s.tiling = t, s.unit_bytes = unit;
    s.width = units(std::max(1u, w >> l), block), s.height = units(std::max(1u, h >> l), block);
    if (t == Tiling::tegra) s.block_height = tegra_mip_block_height(s.height, block_height0);
    std::uint64_t size = 0;
    if (!tiled_size(s, size)) return false;
    lv.offset = next, next += size;
    out.push_back(lv);
  }
  total = next;
  return true;
}

}  // namespace

bool tiled_mip_chain(Tiling tiling, std::uint32_t width, std::uint32_t height, std::uint32_t block, std::uint32_t unit_bytes,
                     unsigned levels, std::vector<TiledLevel>& out, std::uint64_t& total) {
  out.clear();
  if (!tiling_unit_ok(unit_bytes) || (block != 1 && block != 4) || width == 0 || height == 0 || width > (1u << 24) ||
      height > (1u << 24) || levels == 0 || levels > log2_of(std::max(width, height) + 1))
    return false;
  switch (tiling) {
    case Tiling::xenon: return xenon_chain(width, height, block, unit_bytes, levels, out, total);
    case Tiling::gx2_1d:
    case Tiling::gx2_2d: return gx2_chain(width, height, block, unit_bytes, levels, out, total);
    case Tiling::tegra:
    case Tiling::ps4: return packed_chain(tiling, width, height, block, unit_bytes, levels, out, total);
  }
  return false;
}

}  // namespace assay::image
