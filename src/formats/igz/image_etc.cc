// ETC1, ETC2 RGB8 and ETC2 RGBA8 (EAC alpha) blocks of the igz "etc1", "etc2" and "etc2_alpha"
// metaimages (the Android and iOS platforms), decoded as the Khronos Data Format Specification 1.3
// describes them (sections "ETC1 compressed texture image formats" and "ETC2 compressed texture
// image formats"; the same text as OES_compressed_ETC1_RGB8_texture and OpenGL ES 3.0 §C.1).
//
// A block is 64 bits read big-endian (bit 63 = the first byte's top bit), 4 x 4 texels, blocks in
// row order. Texel (x, y)'s 2-bit index: its high bit at bit 16 + (4x + y), its low bit at 4x + y.
// Individual/differential mode: two sub-blocks (2 x 4 side by side, or 4 x 2 stacked when the flip
// bit 32 is set), each a base colour plus a modifier of its table (bits 39-37, 36-34). ETC2 reads
// a differential block whose second base overflows 0..31 as T (red), H (green) or planar (blue)
// mode. An EAC alpha block: base 63-56, multiplier 55-52, table 51-48, 3-bit indices from bit 47
// (texel order as above). `replace` encodes with a simple encoder (ETC1 individual/differential
// blocks, valid ETC2 too; EAC alpha), not a quality compressor.
#include <algorithm>
#include <array>
#include <cmath>

#include "image_texels.h"

namespace assay::igz::detail {

namespace {

using Rgb = std::array<int, 3>;

constexpr int kModifiers[8][2] = {{2, 8}, {5, 17}, {9, 29}, {13, 42}, {18, 60}, {24, 80}, {33, 106}, {47, 183}};
constexpr int kDistances[8] = {3, 6, 11, 16, 23, 32, 41, 64};  // T and H modes
constexpr int kAlphaModifiers[16][8] = {
    {-3, -6, -9, -15, 2, 5, 8, 14}, {-3, -7, -10, -13, 2, 6, 9, 12}, {-2, -5, -8, -13, 1, 4, 7, 12},
    {-2, -4, -6, -13, 1, 3, 5, 12}, {-3, -6, -8, -12, 2, 5, 7, 11}, {-3, -7, -9, -11, 2, 6, 8, 10},
    {-4, -7, -8, -11, 3, 6, 7, 10}, {-3, -5, -8, -11, 2, 4, 7, 10}, {-2, -6, -8, -10, 1, 5, 7, 9},
    {-2, -5, -8, -10, 1, 4, 7, 9},  {-2, -4, -8, -10, 1, 3, 7, 9},  {-2, -5, -7, -10, 1, 4, 6, 9},
    {-3, -4, -7, -10, 2, 3, 6, 9},  {-1, -2, -3, -10, 0, 1, 2, 9},  {-4, -6, -8, -9, 3, 5, 7, 8},
    {-3, -5, -7, -9, 2, 4, 6, 8}};

std::uint64_t be64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = v << 8 | p[i];
  return v;
}
int bits(std::uint64_t v, unsigned hi, unsigned lo) { return static_cast<int>((v >> lo) & ((std::uint64_t{1} << (hi - lo + 1)) - 1)); }
int clamp8(int v) { return std::clamp(v, 0, 255); }
int ext4(int v) { return v << 4 | v; }
int ext5(int v) { return v << 3 | v >> 2; }
int ext6(int v) { return v << 2 | v >> 4; }
int ext7(int v) { return v << 1 | v >> 6; }
Rgb add(const Rgb& c, int d) { return {clamp8(c[0] + d), clamp8(c[1] + d), clamp8(c[2] + d)}; }

// Texel (x, y)'s 2-bit index (high bit at 16 + i, low bit at i, i = 4x + y).
int index2(std::uint64_t b, unsigned x, unsigned y) {
  const unsigned i = 4 * x + y;
  return static_cast<int>(((b >> (16 + i)) & 1) << 1 | ((b >> i) & 1));
}

// The 16 colours of a colour block, texel (x, y) at [4y + x].
using Block = std::array<Rgb, 16>;

void sub_blocks(std::uint64_t b, const Rgb& c1, const Rgb& c2, Block& out) {
  const bool flip = (b >> 32) & 1;
  const int table[2] = {bits(b, 39, 37), bits(b, 36, 34)};
  const Rgb base[2] = {c1, c2};
  for (unsigned y = 0; y < 4; ++y)
    for (unsigned x = 0; x < 4; ++x) {
      const int s = flip ? y >= 2 : x >= 2;
      const int idx = index2(b, x, y);
      const int m = kModifiers[table[s]][idx & 1];
      out[4 * y + x] = add(base[s], idx & 2 ? -m : m);
    }
}

void paint(std::uint64_t b, const std::array<Rgb, 4>& p, Block& out) {
  for (unsigned y = 0; y < 4; ++y)
    for (unsigned x = 0; x < 4; ++x) out[4 * y + x] = p[index2(b, x, y)];
}

void t_mode(std::uint64_t b, Block& out) {
  const Rgb c1 = {ext4(bits(b, 60, 59) << 2 | bits(b, 57, 56)), ext4(bits(b, 55, 52)), ext4(bits(b, 51, 48))};
  const Rgb c2 = {ext4(bits(b, 47, 44)), ext4(bits(b, 43, 40)), ext4(bits(b, 39, 36))};
  const int d = kDistances[bits(b, 35, 34) << 1 | bits(b, 32, 32)];
  paint(b, {c1, add(c2, d), c2, add(c2, -d)}, out);
}

void h_mode(std::uint64_t b, Block& out) {
  const int r1 = bits(b, 62, 59), g1 = bits(b, 58, 56) << 1 | bits(b, 52, 52), b1 = bits(b, 51, 51) << 3 | bits(b, 49, 47);
  const int r2 = bits(b, 46, 43), g2 = bits(b, 42, 39), b2 = bits(b, 38, 35);
  const int order = (r1 << 8 | g1 << 4 | b1) >= (r2 << 8 | g2 << 4 | b2);
  const int d = kDistances[bits(b, 34, 34) << 2 | bits(b, 32, 32) << 1 | order];
  const Rgb c1 = {ext4(r1), ext4(g1), ext4(b1)}, c2 = {ext4(r2), ext4(g2), ext4(b2)};
  paint(b, {add(c1, d), add(c1, -d), add(c2, d), add(c2, -d)}, out);
}

void planar(std::uint64_t b, Block& out) {
  const Rgb o = {ext6(bits(b, 62, 57)), ext7(bits(b, 56, 56) << 6 | bits(b, 54, 49)),
                 ext6(bits(b, 48, 48) << 5 | bits(b, 44, 43) << 3 | bits(b, 41, 39))};
  const Rgb h = {ext6(bits(b, 38, 34) << 1 | bits(b, 32, 32)), ext7(bits(b, 31, 25)), ext6(bits(b, 24, 19))};
  const Rgb v = {ext6(bits(b, 18, 13)), ext7(bits(b, 12, 6)), ext6(bits(b, 5, 0))};
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x)
      for (int c = 0; c < 3; ++c) out[4 * y + x][c] = clamp8((x * (h[c] - o[c]) + y * (v[c] - o[c]) + 4 * o[c] + 2) >> 2);
}

// A colour block (ETC1, or ETC2 with its T, H and planar modes).
void colour_block(std::uint64_t b, bool etc2, Block& out) {
  if (!((b >> 33) & 1)) {  // individual: two 4-bit colours
    sub_blocks(b, {ext4(bits(b, 63, 60)), ext4(bits(b, 55, 52)), ext4(bits(b, 47, 44))},
               {ext4(bits(b, 59, 56)), ext4(bits(b, 51, 48)), ext4(bits(b, 43, 40))}, out);
    return;
  }
  const auto signed3 = [](int v) { return v >= 4 ? v - 8 : v; };
  const int r = bits(b, 63, 59), g = bits(b, 55, 51), bl = bits(b, 47, 43);
  const int r2 = r + signed3(bits(b, 58, 56)), g2 = g + signed3(bits(b, 50, 48)), b2 = bl + signed3(bits(b, 42, 40));
  const auto out_of_range = [](int v) { return v < 0 || v > 31; };
  if (etc2 && out_of_range(r2)) return t_mode(b, out);
  if (etc2 && out_of_range(g2)) return h_mode(b, out);
  if (etc2 && out_of_range(b2)) return planar(b, out);
  // ETC1 gives no meaning to an overflow; the 5-bit sum's low bits are used.
  sub_blocks(b, {ext5(r), ext5(g), ext5(bl)}, {ext5(r2 & 31), ext5(g2 & 31), ext5(b2 & 31)}, out);
}

// An EAC alpha block: alpha of texel (x, y) at [4y + x].
std::array<std::uint8_t, 16> alpha_block(std::uint64_t b) {
  const int base = bits(b, 63, 56), mult = bits(b, 55, 52), table = bits(b, 51, 48);
  std::array<std::uint8_t, 16> a{};
  for (unsigned x = 0; x < 4; ++x)
    for (unsigned y = 0; y < 4; ++y) {
      const unsigned i = 4 * x + y, hi = 47 - 3 * i;
      a[4 * y + x] = static_cast<std::uint8_t>(clamp8(base + kAlphaModifiers[table][bits(b, hi, hi - 2)] * mult));
    }
  return a;
}

// ---- encoding: a simple encoder (per sub-block the quantised mean colour as base, the table and
// indices of least squared error, the base then moved to centre the chosen modifiers and refitted;
// flip and individual/differential tried, the best kept) ----

struct SubFit {
  long err = 0;
  int table = 0;
  std::array<int, 8> idx{};
};

// The texels of sub-block `s` of `src` (texel (x, y) at [4y + x]) for flip `flip`, and their (x, y).
void sub_texels(const Block& src, bool flip, int s, std::array<Rgb, 8>& px, std::array<std::array<unsigned, 2>, 8>& at) {
  int n = 0;
  for (unsigned y = 0; y < 4; ++y)
    for (unsigned x = 0; x < 4; ++x)
      if ((flip ? y >= 2 : x >= 2) == (s == 1)) px[n] = src[4 * y + x], at[n++] = {x, y};
}

SubFit fit(const Rgb& base, const std::array<Rgb, 8>& px) {
  SubFit best;
  best.err = -1;
  for (int t = 0; t < 8; ++t) {
    SubFit f;
    f.table = t;
    for (int k = 0; k < 8; ++k) {
      long e_best = -1;
      for (int v = 0; v < 4; ++v) {
        const int m = kModifiers[t][v & 1];
        const Rgb c = add(base, v & 2 ? -m : m);
        long e = 0;
        for (int ch = 0; ch < 3; ++ch) e += long{c[ch] - px[k][ch]} * (c[ch] - px[k][ch]);
        if (e_best < 0 || e < e_best) e_best = e, f.idx[k] = v;
      }
      f.err += e_best;
    }
    if (best.err < 0 || f.err < best.err) best = f;
  }
  return best;
}

// One flip's two sub-blocks: their texels and where they sit.
struct Halves {
  int flip = 0;
  std::array<Rgb, 8> px[2];
  std::array<std::array<unsigned, 2>, 8> at[2];
};

// The block's bits: bases q (4-bit individual, 5-bit base + 3-bit delta differential), tables,
// mode, flip and the texels' indices.
std::uint64_t pack_block(const Halves& h, int diff, const int (&q)[2][3], const SubFit (&f)[2]) {
  std::uint64_t b = 0;
  for (int ch = 0; ch < 3; ++ch) {
    const unsigned hi = 63 - 8 * ch;  // R at 63, G at 55, B at 47
    if (diff)
      b |= std::uint64_t(q[0][ch]) << (hi - 4) | std::uint64_t((q[1][ch] - q[0][ch]) & 7) << (hi - 7);
    else
      b |= std::uint64_t(q[0][ch]) << (hi - 3) | std::uint64_t(q[1][ch]) << (hi - 7);
  }
  b |= std::uint64_t(f[0].table) << 37 | std::uint64_t(f[1].table) << 34 | std::uint64_t(diff) << 33 | std::uint64_t(h.flip) << 32;
  for (int s = 0; s < 2; ++s)
    for (int k = 0; k < 8; ++k) {
      const unsigned i = 4 * h.at[s][k][0] + h.at[s][k][1];
      b |= std::uint64_t(f[s].idx[k] >> 1) << (16 + i) | std::uint64_t(f[s].idx[k] & 1) << i;
    }
  return b;
}

// Base colour `target` (8-bit per channel, fractional) quantised to the mode's bits.
void quantise(const std::array<double, 3>& target, int levels, int (&q)[3]) {
  for (int ch = 0; ch < 3; ++ch) q[ch] = std::clamp(static_cast<int>(target[ch] * levels / 255 + 0.5), 0, levels);
}

// The colour a sub-block's base should have for the modifiers its fit chose: the mean of each
// texel less its modifier.
std::array<double, 3> recentred(const std::array<Rgb, 8>& px, const SubFit& f) {
  std::array<double, 3> t = {};
  for (int k = 0; k < 8; ++k) {
    const int m = kModifiers[f.table][f.idx[k] & 1] * (f.idx[k] & 2 ? -1 : 1);
    for (int ch = 0; ch < 3; ++ch) t[ch] += (px[k][ch] - m) / 8.0;
  }
  return t;
}

std::uint64_t encode_colour_block(const Block& src) {
  std::uint64_t best_bits = 0;
  long best_err = -1;
  for (int flip = 0; flip < 2; ++flip) {
    Halves h;
    h.flip = flip;
    std::array<double, 3> mean[2] = {};
    for (int s = 0; s < 2; ++s) {
      sub_texels(src, flip, s, h.px[s], h.at[s]);
      for (const Rgb& c : h.px[s])
        for (int ch = 0; ch < 3; ++ch) mean[s][ch] += c[ch] / 8.0;
    }
    for (int diff = 0; diff < 2; ++diff) {
      const int levels = diff ? 31 : 15;
      const auto ext = diff ? ext5 : ext4;
      int q[2][3];
      quantise(mean[0], levels, q[0]), quantise(mean[1], levels, q[1]);
      for (int pass = 0; pass < 3; ++pass) {  // fit, then move each base to centre its modifiers, refit
        const auto delta_ok = [&](int ch) { return q[1][ch] - q[0][ch] >= -4 && q[1][ch] - q[0][ch] <= 3; };
        if (diff && !(delta_ok(0) && delta_ok(1) && delta_ok(2))) break;
        const SubFit f[2] = {fit({ext(q[0][0]), ext(q[0][1]), ext(q[0][2])}, h.px[0]),
                             fit({ext(q[1][0]), ext(q[1][1]), ext(q[1][2])}, h.px[1])};
        if (best_err < 0 || f[0].err + f[1].err < best_err) best_err = f[0].err + f[1].err, best_bits = pack_block(h, diff, q, f);
        int next[2][3];
        quantise(recentred(h.px[0], f[0]), levels, next[0]), quantise(recentred(h.px[1], f[1]), levels, next[1]);
        if (std::equal(&next[0][0], &next[0][0] + 6, &q[0][0])) break;
        std::copy(&next[0][0], &next[0][0] + 6, &q[0][0]);
      }
    }
  }
  return best_bits;
}

// An EAC block for alpha `a` (texel (x, y) at [4y + x]): per table, the multipliers around the one
// that spans the values, the base centring the table's range on them, the indices of least error.
std::uint64_t encode_alpha_block(const std::array<std::uint8_t, 16>& a) {
  const auto [lo_it, hi_it] = std::minmax_element(a.begin(), a.end());
  const int lo = *lo_it, hi = *hi_it;
  std::uint64_t best_bits = 0;
  long best_err = -1;
  for (int t = 0; t < 16; ++t) {
    const int span = kAlphaModifiers[t][7] - kAlphaModifiers[t][3];
    const int m0 = std::clamp((hi - lo + span - 1) / span, 1, 15);
    for (int mult = std::max(1, m0 - 1); mult <= std::min(15, m0 + 1); ++mult) {
      const double centre = (kAlphaModifiers[t][7] + kAlphaModifiers[t][3]) / 2.0;
      const int base = std::clamp(static_cast<int>(std::lround((lo + hi) / 2.0 - centre * mult)), 0, 255);
      std::uint64_t b = std::uint64_t(base) << 56 | std::uint64_t(mult) << 52 | std::uint64_t(t) << 48;
      long err = 0;
      for (unsigned x = 0; x < 4; ++x)
        for (unsigned y = 0; y < 4; ++y) {
          int best_v = 0;
          long e_best = -1;
          for (int v = 0; v < 8; ++v) {
            const long d = clamp8(base + kAlphaModifiers[t][v] * mult) - a[4 * y + x];
            if (e_best < 0 || d * d < e_best) e_best = d * d, best_v = v;
          }
          err += e_best;
          b |= std::uint64_t(best_v) << (45 - 3 * (4 * x + y));
        }
      if (best_err < 0 || err < best_err) best_err = err, best_bits = b;
    }
  }
  return best_bits;
}

void put_be64(std::uint8_t* p, std::uint64_t v) {
  for (int i = 7; i >= 0; --i, v >>= 8) p[i] = static_cast<std::uint8_t>(v);
}

}  // namespace

std::optional<EtcFormat> etc_format(std::string_view canonical) {
  if (canonical == "etc1") return EtcFormat::etc1;
  if (canonical == "etc2") return EtcFormat::etc2;
  if (canonical == "etc2_alpha") return EtcFormat::etc2_alpha;
  return std::nullopt;
}

std::uint64_t etc_level_size(EtcFormat f, std::uint32_t w, std::uint32_t h) {
  return std::uint64_t{(w + 3) / 4} * ((h + 3) / 4) * (f == EtcFormat::etc2_alpha ? 16 : 8);
}

image::Rgba decode_etc(EtcFormat f, ByteView src, std::uint32_t w, std::uint32_t h) {
  const std::uint32_t bw = (w + 3) / 4, bh = (h + 3) / 4;
  const unsigned step = f == EtcFormat::etc2_alpha ? 16 : 8;
  image::Rgba img{w, h, ByteBuffer(std::uint64_t{w} * h * 4)};
  Block colours;
  for (std::uint64_t n = 0; n < std::uint64_t{bw} * bh; ++n) {
    const std::uint8_t* p = src.data() + n * step;
    std::array<std::uint8_t, 16> alpha;
    alpha.fill(255);
    if (f == EtcFormat::etc2_alpha) alpha = alpha_block(be64(p)), p += 8;
    colour_block(be64(p), f != EtcFormat::etc1, colours);
    const std::uint32_t x0 = static_cast<std::uint32_t>(n % bw) * 4, y0 = static_cast<std::uint32_t>(n / bw) * 4;
    for (std::uint32_t k = 0; k < 16; ++k) {
      const std::uint32_t x = x0 + k % 4, y = y0 + k / 4;
      if (x >= w || y >= h) continue;
      std::uint8_t* o = img.pixels.data() + (std::uint64_t{y} * w + x) * 4;
      o[0] = static_cast<std::uint8_t>(colours[k][0]), o[1] = static_cast<std::uint8_t>(colours[k][1]);
      o[2] = static_cast<std::uint8_t>(colours[k][2]), o[3] = alpha[k];
    }
  }
  return img;
}

ByteBuffer encode_etc(EtcFormat f, const image::Rgba& img) {
  const std::uint32_t bw = (img.width + 3) / 4, bh = (img.height + 3) / 4;
  const unsigned step = f == EtcFormat::etc2_alpha ? 16 : 8;
  ByteBuffer out(std::uint64_t{bw} * bh * step);
  for (std::uint64_t n = 0; n < std::uint64_t{bw} * bh; ++n) {
    Block colours;
    std::array<std::uint8_t, 16> alpha;
    for (std::uint32_t k = 0; k < 16; ++k) {  // texels past the edge repeat the last row and column
      const std::uint32_t x = std::min<std::uint32_t>(static_cast<std::uint32_t>(n % bw) * 4 + k % 4, img.width - 1);
      const std::uint32_t y = std::min<std::uint32_t>(static_cast<std::uint32_t>(n / bw) * 4 + k / 4, img.height - 1);
      const std::uint8_t* p = img.pixels.data() + (std::uint64_t{y} * img.width + x) * 4;
      colours[k] = {p[0], p[1], p[2]}, alpha[k] = p[3];
    }
    std::uint8_t* o = out.data() + n * step;
    if (f == EtcFormat::etc2_alpha) put_be64(o, encode_alpha_block(alpha)), o += 8;
    put_be64(o, encode_colour_block(colours));
  }
  return out;
}

}  // namespace assay::igz::detail
