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

unsigned log2_of(std::uint32_t v) {
  unsigned l = 0;
  while ((1u << l) < v) ++l;
  return l;
}

Error tiling_error(std::string message) { return make_error("image", "tiled level", kNoOffset, std::move(message)); }

// Walks every unit, calling f(linear offset, tiled offset).
template <class F>
void each_unit(const TiledSurface& s, F f) {
  for (std::uint32_t y = 0; y < s.height; ++y)
    for (std::uint32_t x = 0; x < s.width; ++x)
      f((std::uint64_t{y} * s.width + x) * s.unit_bytes, tiled_offset(s, x, y));
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

// ---- a whole level ----
bool tiling_unit_ok(std::uint32_t b) { return b == 1 || b == 2 || b == 4 || b == 8 || b == 16; }

bool tiled_size(const TiledSurface& s, std::uint64_t& out) {
  if (!tiling_unit_ok(s.unit_bytes) || s.width == 0 || s.height == 0 || s.width > (1u << 24) || s.height > (1u << 24))
    return false;
  switch (s.tiling) {
    case Tiling::xenon: out = align(s.width, 32) * align(s.height, 32) * s.unit_bytes; return true;
    case Tiling::tegra: {
      if (s.block_height == 0 || s.block_height > 32) return false;
      const std::uint64_t gobs_x = (std::uint64_t{s.width} * s.unit_bytes + 63) / 64;
      out = gobs_x * 64 * align(s.height, 8u * s.block_height);
      return true;
    }
    case Tiling::gx2_1d:
    case Tiling::gx2_2d:
      out = std::uint64_t{gx2_pitch(s.tiling, s.width, s.unit_bytes * 8)} * gx2_height(s.tiling, s.height) * s.unit_bytes;
      return true;
  }
  return false;
}

std::uint64_t tiled_offset(const TiledSurface& s, std::uint32_t x, std::uint32_t y) {
  const unsigned bits = s.unit_bytes * 8;
  switch (s.tiling) {
    case Tiling::xenon: return xenon_offset(x, y, s.width, log2_of(s.unit_bytes));
    case Tiling::tegra: return tegra_offset(x * s.unit_bytes, y, s.width * s.unit_bytes, s.block_height);
    case Tiling::gx2_1d: return gx2_offset_1d(x, y, bits, gx2_pitch(s.tiling, s.width, bits));
    case Tiling::gx2_2d:
      return gx2_offset_2d(x, y, bits, gx2_pitch(s.tiling, s.width, bits), s.pipe_swizzle, s.bank_swizzle);
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

Result<ByteBuffer> tile(const TiledSurface& s, ByteView linear) {
  std::uint64_t need = 0;
  if (!tiled_size(s, need)) return tiling_error(fmt::format("no tiled level of {} x {} units of {} bytes", s.width, s.height, s.unit_bytes));
  if (linear.size() < std::uint64_t{s.width} * s.height * s.unit_bytes)
    return tiling_error(fmt::format("{} bytes for {} x {} units of {} bytes", linear.size(), s.width, s.height, s.unit_bytes));
  ByteBuffer out(need);
  each_unit(s, [&](std::uint64_t lin, std::uint64_t til) { std::memcpy(out.data() + til, linear.data() + lin, s.unit_bytes); });
  return out;
}

}  // namespace assay::image
