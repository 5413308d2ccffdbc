// A fast deflate for PNG rows (deflate.h). Written from RFC 1951 (blocks, Huffman codes, lengths and
// distances) and RFC 1950 (the zlib header and Adler-32); libdeflate computes the Adler-32 only.
//
// Each block is made in two passes: the matcher turns up to kBlockTokens tokens (the literals before
// a match, and the match) into a buffer while counting symbols, then the block is written with the
// Huffman codes of those counts (literal/length codes of at most 14 bits, four literals a 56-bit
// put), or stored when that is shorter. The matcher looks for runs only: 5 or more bytes equal to
// the byte before (distance 1) or 4 or more equal to the byte a pixel before (the pixel to the
// left: distance 4 in RGBA rows, 3 in RGB), 32 bytes compared at a time, no hash table. On the Up-filtered rows of
// decoded textures (where a pixel repeats the one above, the row is zeros) that finds smaller
// output than libdeflate's level 1 and zlib's Z_RLE (docs/PERFORMANCE.md, "igz textures to PNG");
// on other data (indices, photographs) it compresses less than a real LZ77 search would.
#include "deflate.h"

#include <libdeflate.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <memory>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace assay::image::detail {

namespace {

constexpr std::size_t kBlockTokens = std::size_t{1} << 15;
constexpr unsigned kMaxMatch = 258;
constexpr unsigned kLitLenSymbols = 286, kDistSymbols = 30, kCodeLenSymbols = 19;
// Literal/length codes of at most 14 bits (RFC 1951 allows 15): four literals fit one 56-bit put.
constexpr unsigned kMaxLitLenBits = 14;

// Length 3..258 -> symbol 257..285 and its extra bits (RFC 1951 3.2.5).
struct Symbol {
  unsigned sym, extra_bits, extra;
};
constexpr Symbol length_symbol(unsigned len) {
  const unsigned x = len - 3;
  if (x < 8) return {257 + x, 0, 0};
  if (len == 258) return {285, 0, 0};
  const unsigned b = std::bit_width(x) - 1;  // 3..7
  const unsigned nb = b - 2;
  return {257 + 4 * (b - 1) + ((x >> nb) & 3), nb, x & ((1u << nb) - 1)};
}
constexpr unsigned length_extra_bits(unsigned sym) { return sym < 265 || sym == 285 ? 0 : (sym - 261) / 4; }
constexpr unsigned distance_extra_bits(unsigned sym) { return sym < 4 ? 0 : sym / 2 - 1; }

// A token is a sequence: k literals (bits 0-15), then a match of length 3 + (bits 16-23) at the
// pixel's distance (4 for RGBA rows, 3 for RGB) when bit 24 is set, else 1 (RFC 1951 3.2.5: distance
// symbols 3, 2 and 0, no extra bits),
// or no match when bit 25 is set (the literals before the end of a block or a long literal run).
// The writer keeps the position in the input: a token needs no offset.
constexpr std::uint32_t kPixel = 1u << 24, kNoMatch = 1u << 25;
constexpr std::uint32_t kMaxLiterals = 0xFFFF - 16;  // below 2^16 after one more step of 14
// By length - 3: its symbol - 257.
constexpr std::array<std::uint8_t, 256> make_length_symbols() {
  std::array<std::uint8_t, 256> t{};
  for (unsigned len = 3; len <= 258; ++len) t[len - 3] = static_cast<std::uint8_t>(length_symbol(len).sym - 257);
  return t;
}
constexpr std::array<std::uint8_t, 256> kLengthSymbols = make_length_symbols();

// LSB-first bit output (RFC 1951 3.1.1) without branches: a put of at most 56 bits, then the whole
// bytes stored (8 at a time: the bound leaves room past the end).
struct BitWriter {
  std::uint8_t* out;
  std::uint64_t buf = 0;
  unsigned n = 0;  // bits in buf, below 8 between puts
  void put(std::uint64_t v, unsigned k) {
    buf |= v << n;
    n += k;
    std::memcpy(out, &buf, 8);  // little-endian host (x86-64, AArch64); see the static_assert below
    out += n >> 3;
    buf >>= n & 56;
    n &= 7;
  }
  void align() {
    std::memcpy(out, &buf, 8);
    out += (n + 7) / 8;
    buf = 0;
    n = 0;
  }
};
static_assert(std::endian::native == std::endian::little, "BitWriter stores the bit buffer little-endian");

// Lengths (at most `limit` bits) of a complete prefix code for the symbols of nonzero frequency
// (the caller gives at least two), Huffman's by two queues, then the deepest leaves moved up until
// the Kraft sum is 1 again.
void code_lengths(const std::uint32_t* freq, unsigned n, unsigned limit, std::uint8_t* len) {
  std::array<std::uint16_t, kLitLenSymbols> syms{};
  unsigned m = 0;
  for (unsigned s = 0; s < n; ++s) {
    len[s] = 0;
    if (freq[s] != 0) syms[m++] = static_cast<std::uint16_t>(s);
  }
  std::sort(syms.begin(), syms.begin() + m, [&](std::uint16_t a, std::uint16_t b) {
    return freq[a] != freq[b] ? freq[a] < freq[b] : a < b;
  });
  if (m < 2) {
    if (m == 1) len[syms[0]] = 1;
    return;
  }
  std::array<std::uint64_t, 2 * kLitLenSymbols> weight{};
  std::array<std::uint16_t, 2 * kLitLenSymbols> parent{}, depth{};
  for (unsigned i = 0; i < m; ++i) weight[i] = freq[syms[i]];
  unsigned leaf = 0, inner = m, next = m;
  auto take = [&] { return leaf < m && (inner >= next || weight[leaf] <= weight[inner]) ? leaf++ : inner++; };
  for (; next < 2 * m - 1; ++next) {
    const unsigned a = take(), b = take();
    weight[next] = weight[a] + weight[b];
    parent[a] = parent[b] = static_cast<std::uint16_t>(next);
  }
  depth[2 * m - 2] = 0;
  for (unsigned k = 2 * m - 2; k-- > 0;) depth[k] = static_cast<std::uint16_t>(depth[parent[k]] + 1);
  std::array<std::uint32_t, 16> count{};
  for (unsigned i = 0; i < m; ++i) ++count[std::min<unsigned>(depth[i], limit)];
  std::uint64_t kraft = 0;
  for (unsigned l = 1; l <= limit; ++l) kraft += std::uint64_t{count[l]} << (limit - l);
  while (kraft > (std::uint64_t{1} << limit)) {  // only after leaves deeper than `limit` were lifted
    --count[limit];
    for (unsigned l = limit - 1; l > 0; --l)
      if (count[l] != 0) {
        --count[l];
        count[l + 1] += 2;
        break;
      }
    --kraft;
  }
  unsigned i = 0;  // the least frequent symbols take the longest codes
  for (unsigned l = limit; l > 0; --l)
    for (std::uint32_t c = 0; c < count[l]; ++c) len[syms[i++]] = static_cast<std::uint8_t>(l);
}

// Canonical codes of `len` (RFC 1951 3.2.2), bit-reversed for the LSB-first writer.
void canonical_codes(const std::uint8_t* len, unsigned n, std::uint16_t* code) {
  std::array<std::uint16_t, 16> count{}, next{};
  for (unsigned s = 0; s < n; ++s) ++count[len[s]];
  count[0] = 0;
  unsigned c = 0;
  for (unsigned l = 1; l < 16; ++l) next[l] = static_cast<std::uint16_t>(c = (c + count[l - 1]) << 1);
  for (unsigned s = 0; s < n; ++s) {
    if (len[s] == 0) continue;
    const unsigned v = next[len[s]]++;
    unsigned r = 0;
    for (unsigned b = 0; b < len[s]; ++b) r |= ((v >> b) & 1u) << (len[s] - 1 - b);
    code[s] = static_cast<std::uint16_t>(r);
  }
}

struct Huffman {
  std::array<std::uint8_t, kLitLenSymbols> lit_len{};
  std::array<std::uint16_t, kLitLenSymbols> lit_code{};
  std::array<std::uint8_t, kDistSymbols> dist_len{};
  std::array<std::uint16_t, kDistSymbols> dist_code{};
};

// The run-length coded code lengths of a dynamic block header (RFC 1951 3.2.7): symbols 0-15, 16
// (repeat the previous 3-6 times), 17 (3-10 zeros), 18 (11-138 zeros), each with its extra bits.
struct LengthRun {
  std::uint8_t sym, extra;
};
unsigned run_length_code(const std::uint8_t* lens, unsigned n, LengthRun* out) {
  unsigned k = 0;
  for (unsigned i = 0; i < n;) {
    const std::uint8_t v = lens[i];
    unsigned run = 1;
    while (i + run < n && lens[i + run] == v) ++run;
    i += run;
    if (v == 0) {
      for (; run >= 11; ) {
        const unsigned r = std::min(run, 138u);
        out[k++] = {18, static_cast<std::uint8_t>(r - 11)};
        run -= r;
      }
      if (run >= 3) out[k++] = {17, static_cast<std::uint8_t>(run - 3)}, run = 0;
    } else {
      out[k++] = {v, 0};
      --run;
      for (; run >= 3;) {
        const unsigned r = std::min(run, 6u);
        out[k++] = {16, static_cast<std::uint8_t>(r - 3)};
        run -= r;
      }
    }
    for (; run > 0; --run) out[k++] = {v, 0};
  }
  return k;
}

constexpr std::uint8_t kCodeLenOrder[kCodeLenSymbols] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
constexpr std::uint8_t kCodeLenExtra[kCodeLenSymbols] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7};

// At least two symbols of nonzero frequency (a complete code; the added ones are never written).
void at_least_two(std::uint32_t* freq, unsigned n) {
  unsigned used = 0;
  for (unsigned s = 0; s < n; ++s) used += freq[s] != 0;
  for (unsigned s = 0; s < n && used < 2; ++s)
    if (freq[s] == 0) freq[s] = 1, ++used;
}

// kSimd: the 16-byte compares with SSE2 where the target has it, else (and in a test, Deflate.
// PortablePathGivesTheSameStream) byte by byte: the same masks, the same stream.
template <bool kSimd>
class Deflater {
 public:
  Deflater() : tokens_(new std::uint32_t[kBlockTokens]) {}

  std::size_t compress(ByteView in, std::uint8_t* out, unsigned pixel) {
    pixel_ = pixel;
    BitWriter bits{out};
    bits.put(0x78, 8);  // CMF: deflate, 32 KiB window; FLG: fastest, no dictionary (RFC 1950 2.2)
    bits.put(0x01, 8);
    in_end_ = in.data() + in.size();
    if (in.empty()) {
      stored(bits, in, true);
    }
    for (std::size_t p = 0; p < in.size();) {
      const std::size_t start = p;
      p = tokenize(in, p);
      block(bits, in.subspan(start, p - start), p == in.size());
    }
    bits.align();
    const std::uint32_t adler = libdeflate_adler32(1, in.data(), in.size());
    for (int s = 24; s >= 0; s -= 8) *bits.out++ = static_cast<std::uint8_t>(adler >> s);
    return static_cast<std::size_t>(bits.out - out);
  }

 private:
  // Tokens from in[p] until the buffer is full or the input ends; the position after them. Matches
  // are runs: of bytes equal to the one before (distance 1: the zeros of the Up filter where a row
  // repeats the one above) or to the one 4 before (the pixel to the left). 32 bytes are compared at
  // a time; between runs, the bytes are literals. One token a match (with the literals before it):
  // the branches are per match, not per literal run and match.
  std::size_t tokenize(ByteView in, std::size_t p) {
    // four literal histograms in turn: a literal repeated next to itself does not wait for its count
    std::uint32_t lit[4][256] = {};
    std::uint32_t len_freq[29] = {};
    std::uint32_t* out = tokens_.get();
    std::uint32_t* const out_end = out + kBlockTokens - 1;  // room for the last literals
    const std::uint8_t* data = in.data();
    const std::size_t n = in.size();
    const std::size_t wide_end = n >= 32 ? n - 32 : 0;  // 32 bytes readable from p
    std::uint32_t matches = 0, pixels = 0;  // matches, those at the pixel distance
    std::uint32_t literals = 0;             // before the next match
    while (p < n && out < out_end) {
      if (p < 4 || p > wide_end || literals >= kMaxLiterals) [[unlikely]] {
        if (literals >= kMaxLiterals) {
          *out++ = literals | kNoMatch;
          literals = 0;
          continue;
        }
        ++lit[0][data[p++]];
        ++literals;
        continue;
      }
      std::uint32_t m1 = equal_mask32(data + p, data + p - 1), m4 = equal_mask32(data + p, data + p - pixel_);
      // literals up to where a run starts: 5 bytes equal to the byte before or 4 equal to the pixel
      // before (bit i: bytes i.. repeat), at most 28. Shorter runs stay literals: fewer tokens
      // (each costs about as much as several literals to find and to write) and smaller output
      // on texture rows than runs from 3 (docs/PERFORMANCE.md, "igz textures to PNG").
      const std::uint32_t starts = (m1 & m1 >> 1 & m1 >> 2 & m1 >> 3 & m1 >> 4) | (m4 & m4 >> 1 & m4 >> 2 & m4 >> 3);
      const unsigned k = std::countr_zero(starts | 1u << 28);
      if (k != 0) {
        for (unsigned i = 0; i < k; i += 4) {  // p + 31 is readable: counts of 0 past k
          ++lit[0][data[p + i]];
          lit[1][data[p + i + 1]] += i + 1 < k;
          lit[2][data[p + i + 2]] += i + 2 < k;
          lit[3][data[p + i + 3]] += i + 3 < k;
        }
        literals += k;
        p += k;
        if (k == 28) continue;
        m1 >>= k;  // the window's bits from the run on (zeros past the window)
        m4 >>= k;
      }
      const unsigned r1 = std::countr_zero(~m1), r4 = std::countr_zero(~m4);  // one of them 4..32 - k
      const bool pixel = r4 > r1;  // the pixel's distance (symbol 3 or 2), else 1 (symbol 0)
      const std::size_t most = std::min<std::size_t>(kMaxMatch, n - p);
      std::size_t len = std::max(r1, r4);
      if (len == 32 - k) len = run_length(data, p, len, pixel ? pixel_ : 1, most, n);
      *out++ = literals | static_cast<std::uint32_t>(len - 3) << 16 | (pixel ? kPixel : 0);
      ++len_freq[kLengthSymbols[len - 3]];
      ++matches;
      pixels += pixel;
      literals = 0;
      p += len;
    }
    if (literals != 0) *out++ = literals | kNoMatch;
    lit_freq_.fill(0);
    dist_freq_.fill(0);
    for (unsigned s = 0; s < 256; ++s) lit_freq_[s] = lit[0][s] + lit[1][s] + lit[2][s] + lit[3][s];
    for (unsigned s = 0; s < 29; ++s) lit_freq_[257 + s] = len_freq[s];
    dist_freq_[0] = matches - pixels;
    dist_freq_[pixel_ - 1] = pixels;
    ntokens_ = static_cast<std::size_t>(out - tokens_.get());
    return p;
  }

  // Bit i set where a[i] == b[i], i < 32.
  static std::uint32_t equal_mask32(const std::uint8_t* a, const std::uint8_t* b) {
    return equal_mask16(a, b) | equal_mask16(a + 16, b + 16) << 16;
  }

  // Bit i set where a[i] == b[i], i < 16.
  static std::uint32_t equal_mask16(const std::uint8_t* a, const std::uint8_t* b) {
#if defined(__SSE2__)
    if constexpr (kSimd) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a));
      const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b));
      return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, y))) & 0xFFFFu;
    }
#endif
    std::uint32_t m = 0;
    for (int i = 0; i < 16; ++i) m |= std::uint32_t{a[i] == b[i]} << i;
    return m;
  }

  // The length, up to `most`, of the run at p of bytes equal to those d before (`len` known).
  static std::size_t run_length(const std::uint8_t* data, std::size_t p, std::size_t len, std::size_t d, std::size_t most,
                                std::size_t n) {
    while (len < most) {
      if (p + len + 16 > n) {
        while (len < most && data[p + len] == data[p + len - d]) ++len;
        break;
      }
      const unsigned r = std::countr_zero(~equal_mask16(data + p + len, data + p + len - d));
      len += r;
      if (r < 16) break;
    }
    return std::min(len, most);
  }

  // The tokens of `raw` as one dynamic Huffman block, or as stored blocks when those are shorter.
  void block(BitWriter& bits, ByteView raw, bool last) {
    ++lit_freq_[256];  // end of block
    std::array<std::uint32_t, kLitLenSymbols> lit = lit_freq_;
    std::array<std::uint32_t, kDistSymbols> dist = dist_freq_;
    at_least_two(lit.data(), kLitLenSymbols);
    at_least_two(dist.data(), kDistSymbols);
    Huffman h;
    code_lengths(lit.data(), kLitLenSymbols, kMaxLitLenBits, h.lit_len.data());
    code_lengths(dist.data(), kDistSymbols, 15, h.dist_len.data());
    unsigned hlit = kLitLenSymbols, hdist = kDistSymbols;
    while (hlit > 257 && h.lit_len[hlit - 1] == 0) --hlit;
    while (hdist > 1 && h.dist_len[hdist - 1] == 0) --hdist;
    std::array<std::uint8_t, kLitLenSymbols + kDistSymbols> lens{};
    std::copy_n(h.lit_len.begin(), hlit, lens.begin());
    std::copy_n(h.dist_len.begin(), hdist, lens.begin() + hlit);
    std::array<LengthRun, kLitLenSymbols + kDistSymbols> runs{};
    const unsigned nruns = run_length_code(lens.data(), hlit + hdist, runs.data());
    std::array<std::uint32_t, kCodeLenSymbols> cl_freq{};
    for (unsigned k = 0; k < nruns; ++k) ++cl_freq[runs[k].sym];
    at_least_two(cl_freq.data(), kCodeLenSymbols);
    std::array<std::uint8_t, kCodeLenSymbols> cl_len{};
    std::array<std::uint16_t, kCodeLenSymbols> cl_code{};
    code_lengths(cl_freq.data(), kCodeLenSymbols, 7, cl_len.data());
    canonical_codes(cl_len.data(), kCodeLenSymbols, cl_code.data());
    unsigned hclen = kCodeLenSymbols;
    while (hclen > 4 && cl_len[kCodeLenOrder[hclen - 1]] == 0) --hclen;

    // Its size in bits against stored blocks' (each up to 7 bits of padding, 3 + 32 bits of header).
    std::uint64_t dyn = 3 + 5 + 5 + 4 + 3 * hclen;
    for (unsigned k = 0; k < nruns; ++k) dyn += cl_len[runs[k].sym] + kCodeLenExtra[runs[k].sym];
    for (unsigned s = 0; s < kLitLenSymbols; ++s)
      if (lit_freq_[s] != 0)
        dyn += std::uint64_t{lit_freq_[s]} * (h.lit_len[s] + (s >= 257 ? length_extra_bits(s) : 0));
    for (unsigned s = 0; s < kDistSymbols; ++s)
      dyn += std::uint64_t{dist_freq_[s]} * (h.dist_len[s] + distance_extra_bits(s));
    const std::uint64_t stored_bits = (raw.size() / 65535 + 1) * (7 + 3 + 32) + std::uint64_t{raw.size()} * 8;
    if (dyn > stored_bits) {
      stored(bits, raw, last);
      return;
    }

    canonical_codes(h.lit_len.data(), kLitLenSymbols, h.lit_code.data());
    canonical_codes(h.dist_len.data(), kDistSymbols, h.dist_code.data());
    bits.put(last ? 1 : 0, 1);
    bits.put(2, 2);  // dynamic Huffman codes
    bits.put(hlit - 257, 5);
    bits.put(hdist - 1, 5);
    bits.put(hclen - 4, 4);
    for (unsigned k = 0; k < hclen; ++k) bits.put(cl_len[kCodeLenOrder[k]], 3);
    for (unsigned k = 0; k < nruns; ++k) {
      const LengthRun r = runs[k];
      bits.put(cl_code[r.sym], cl_len[r.sym]);
      if (kCodeLenExtra[r.sym] != 0) bits.put(r.extra, kCodeLenExtra[r.sym]);
    }
    write_tokens(bits, h, raw.data());
  }

  // The block's tokens: literals four to a put (at most 4 x 14 bits), a match (length and
  // distance codes with the length's extra bits) one put from a table made for the block.
  void write_tokens(BitWriter& writer, const Huffman& h, const std::uint8_t* raw) const {
    BitWriter bits = writer;  // a local copy: the compiler keeps it in registers (the byte stores may alias `writer`)
    std::array<std::uint32_t, 256> literal{};  // code | length << 16
    for (unsigned s = 0; s < 256; ++s) literal[s] = h.lit_code[s] | std::uint32_t{h.lit_len[s]} << 16;
    std::array<std::uint64_t, 512> match{};  // by pixel distance << 8 | length - 3: the codes
    std::array<std::uint8_t, 512> match_bits{};  // and their bits, at most 14 + 5 + 15
    for (unsigned d = 0; d < 2; ++d)
      for (unsigned len = 3; len <= kMaxMatch; ++len) {
        const Symbol s = length_symbol(len);
        const unsigned ds = d != 0 ? pixel_ - 1 : 0, ll = h.lit_len[s.sym];
        match[d << 8 | (len - 3)] = h.lit_code[s.sym] | std::uint64_t{s.extra} << ll |
                                    std::uint64_t{h.dist_code[ds]} << (ll + s.extra_bits);
        match_bits[d << 8 | (len - 3)] = static_cast<std::uint8_t>(ll + s.extra_bits + h.dist_len[ds]);
      }
    const std::uint8_t* b = raw;
    for (std::size_t i = 0; i < ntokens_; ++i) {
      const std::uint32_t t = tokens_[i];
      const std::uint8_t* const e = b + (t & 0xFFFF);
      if (e + 4 <= in_end_) [[likely]] {
        // groups of four, the last one masked to the literals left (1-4; none when there are none)
        for (;;) {
          const std::size_t r = std::min<std::size_t>(4, static_cast<std::size_t>(e - b));
          const std::uint32_t x0 = literal[b[0]] & -std::uint32_t{r > 0}, x1 = literal[b[1]] & -std::uint32_t{r > 1};
          const std::uint32_t x2 = literal[b[2]] & -std::uint32_t{r > 2}, x3 = literal[b[3]] & -std::uint32_t{r > 3};
          const unsigned l0 = x0 >> 16, l01 = l0 + (x1 >> 16), l012 = l01 + (x2 >> 16);
          bits.put((x0 & 0xFFFF) | std::uint64_t{x1 & 0xFFFF} << l0 | std::uint64_t{x2 & 0xFFFF} << l01 |
                       std::uint64_t{x3 & 0xFFFF} << l012,
                   l012 + (x3 >> 16));
          b += r;
          if (b == e) break;
        }
      } else {
        for (; b < e; ++b) bits.put(literal[*b] & 0xFFFF, literal[*b] >> 16);
      }
      if ((t & kNoMatch) != 0) [[unlikely]]
        continue;
      const unsigned m = (t >> 16) & 0x1FF;  // pixel distance << 8 | length - 3
      bits.put(match[m], match_bits[m]);
      b += (m & 0xFF) + 3;
    }
    bits.put(h.lit_code[256], h.lit_len[256]);
    writer = bits;
  }

  // `raw` as stored blocks of at most 65535 bytes (RFC 1951 3.2.4); the last one final when `last`.
  static void stored(BitWriter& bits, ByteView raw, bool last) {
    std::size_t at = 0;
    do {
      const std::size_t n = std::min<std::size_t>(65535, raw.size() - at);
      const bool final_piece = last && at + n == raw.size();
      bits.put(final_piece ? 1 : 0, 1);
      bits.put(0, 2);
      bits.align();
      const std::uint8_t head[4] = {static_cast<std::uint8_t>(n), static_cast<std::uint8_t>(n >> 8),
                                    static_cast<std::uint8_t>(~n), static_cast<std::uint8_t>(~n >> 8)};
      std::memcpy(bits.out, head, 4);
      if (n != 0) std::memcpy(bits.out + 4, raw.data() + at, n);
      bits.out += 4 + n;
      at += n;
    } while (at < raw.size());
  }

  std::unique_ptr<std::uint32_t[]> tokens_;  // sequences: literals and a match (kPixel, kNoMatch)
  unsigned pixel_ = 4;  // the distance of the pixel to the left: 4 (RGBA rows) or 3 (RGB)
  std::size_t ntokens_ = 0;
  const std::uint8_t* in_end_ = nullptr;  // the end of the input: the writer reads 4 bytes at a time before it
  std::array<std::uint32_t, kLitLenSymbols> lit_freq_{};
  std::array<std::uint32_t, kDistSymbols> dist_freq_{};
};

}  // namespace

std::size_t zlib_fast_bound(std::size_t n) {
  // stored pieces of 65535 bytes, at most one more per block (each block but the last takes at
  // least kBlockTokens - 4 bytes), 6 bytes each; the zlib header and Adler-32; 8 bytes of slack
  const std::size_t pieces = n / 65535 + n / (kBlockTokens - 4) + 2;
  return n + 6 * pieces + 2 + 4 + 16;
}

std::size_t zlib_fast_compress(ByteView in, std::uint8_t* out, unsigned pixel) {
  thread_local Deflater<true> d;
  return d.compress(in, out, pixel == 3 ? 3 : 4);
}

std::size_t zlib_fast_compress_portable(ByteView in, std::uint8_t* out, unsigned pixel) {
  thread_local Deflater<false> d;
  return d.compress(in, out, pixel == 3 ? 3 : 4);
}

}  // namespace assay::image::detail
