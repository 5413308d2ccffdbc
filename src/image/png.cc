#include "assay/image/png.h"

#include <fmt/format.h>
#include <libdeflate.h>
#include <spng.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "deflate.h"
#include "spng_context.h"

namespace assay::image {

namespace {

using detail::png_error;

// The deflate: for RGBA rows from 64 KiB our own (deflate.h: runs of a repeated byte or pixel as
// matches), which on decoded textures is faster than libdeflate's level 1 (Debian's libdeflate-dev)
// and its output 10% smaller; for smaller images and palette indices libdeflate's level 1, whose
// LZ77 search finds more in those (repeated patterns, indices) and takes microseconds there
// (docs/PERFORMANCE.md, "igz textures to PNG"). Both compress whole buffers, so the filtered rows
// are built first; both depend on the rows only (the same bytes on any thread).
constexpr std::size_t kRunsFrom = std::size_t{64} << 10;
constexpr int kDeflateLevel = 1;

struct CompressorFree {
  void operator()(libdeflate_compressor* c) const { libdeflate_free_compressor(c); }
};

libdeflate_compressor* compressor() {
  thread_local std::unique_ptr<libdeflate_compressor, CompressorFree> c(libdeflate_alloc_compressor(kDeflateLevel));
  return c.get();
}

// Bytes left uninitialised (a vector would zero them first: on large textures that memset and its
// page faults cost as much as the deflate). `scratch(k, n)` is this thread's buffer k of at least n
// bytes, kept between images unless larger than kKeptScratch.
struct Scratch {
  std::unique_ptr<std::uint8_t[]> bytes;
  std::size_t size = 0;
};
constexpr std::size_t kKeptScratch = std::size_t{32} << 20;

std::uint8_t* scratch(unsigned k, std::size_t n) {
  thread_local Scratch buffers[3];
  Scratch& b = buffers[k];
  if (b.size < n || (b.size > kKeptScratch && n <= kKeptScratch)) {
    b.bytes.reset();
    b.bytes.reset(new (std::nothrow) std::uint8_t[n]);
    b.size = b.bytes ? n : 0;
  }
  return b.bytes.get();
}

void put_u32(ByteBuffer& out, std::uint32_t v) {
  const std::uint8_t b[4] = {static_cast<std::uint8_t>(v >> 24), static_cast<std::uint8_t>(v >> 16),
                             static_cast<std::uint8_t>(v >> 8), static_cast<std::uint8_t>(v)};
  out.insert(out.end(), b, b + 4);
}

// A chunk: length, type, data, CRC-32 of type and data (ISO 15948 5.3).
void put_chunk(ByteBuffer& out, const char (&type)[5], ByteView data) {
  put_u32(out, static_cast<std::uint32_t>(data.size()));
  const std::size_t typed = out.size();
  out.insert(out.end(), type, type + 4);
  out.insert(out.end(), data.begin(), data.end());
  // libdeflate's CRC-32 (the same polynomial as core crc32(), several times faster on the IDAT)
  put_u32(out, libdeflate_crc32(0, out.data() + typed, out.size() - typed));
}

struct Header {
  std::uint32_t width = 0, height = 0;
  std::uint8_t bit_depth = 8, colour_type = 6;  // 6: truecolour with alpha, 2: truecolour, 3: indexed
};

// Signature and IHDR (ISO 15948 11.2.2): no interlace, deflate, adaptive filtering.
ByteBuffer begin_png(const Header& h) {
  static constexpr std::uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  ByteBuffer out(kSignature, kSignature + 8);
  ByteBuffer ihdr;
  put_u32(ihdr, h.width);
  put_u32(ihdr, h.height);
  ihdr.insert(ihdr.end(), {h.bit_depth, h.colour_type, 0, 0, 0});
  put_chunk(out, "IHDR", ihdr);
  return out;
}

Result<ByteBuffer> put_idat(ByteBuffer out, const std::uint8_t* z, std::size_t n);

// The zlib stream of `rows` as IDAT chunks, then IEND. `pixel`: the bytes of a pixel (4 RGBA, 3
// RGB; 0 palette indices).
Result<ByteBuffer> finish_png(ByteBuffer out, ByteView rows, unsigned pixel) {
  if (rows.empty()) return make_error("png", "encoder", kNoOffset, "out of memory");  // filter_rows
  const bool runs = pixel != 0 && rows.size() >= kRunsFrom;
  libdeflate_compressor* c = runs ? nullptr : compressor();
  if (!runs && c == nullptr) return make_error("png", "encoder", kNoOffset, "out of memory");
  const std::size_t bound = runs ? detail::zlib_fast_bound(rows.size()) : libdeflate_zlib_compress_bound(c, rows.size());
  std::uint8_t* z = scratch(1, bound);
  if (z == nullptr) return make_error("png", "encoder", kNoOffset, "out of memory");
  const std::size_t n = runs ? detail::zlib_fast_compress(rows, z, pixel) : libdeflate_zlib_compress(c, rows.data(), rows.size(), z, bound);
  return put_idat(std::move(out), z, n);
}

// The zlib stream z[0, n) as IDAT chunks of at most 1 GiB (a chunk's length is below 2^31), then IEND.
Result<ByteBuffer> put_idat(ByteBuffer out, const std::uint8_t* z, std::size_t n) {
  if (n == 0) return make_error("png", "encoder", kNoOffset, "deflate failed");
  constexpr std::size_t kMaxChunk = std::size_t{1} << 30;
  out.reserve(out.size() + n + 12 * (n / kMaxChunk + 2));
  for (std::size_t at = 0; at < n; at += kMaxChunk)
    put_chunk(out, "IDAT", ByteView(z + at, std::min(kMaxChunk, n - at)));
  put_chunk(out, "IEND", {});
  return out;
}

// out = in - above, byte by byte mod 256, 16 bytes at a time (GCC/Clang vector extension: -O2
// does not vectorise the plain loop).
void up_row(std::uint8_t* out, const std::uint8_t* in, const std::uint8_t* above, std::size_t n) {
  using Bytes16 = std::uint8_t __attribute__((vector_size(16)));
  std::size_t x = 0;
  for (; x + 16 <= n; x += 16) {
    Bytes16 a, b;
    std::memcpy(&a, in + x, 16);
    std::memcpy(&b, above + x, 16);
    a -= b;
    std::memcpy(out + x, &a, 16);
  }
  for (; x < n; ++x) out[x] = static_cast<std::uint8_t>(in[x] - above[x]);
}

// Rows of `row_bytes` of palette indices from `pixels`, each after filter byte 0 (none: ISO 15948
// 12.8 advises no filters for indexed images).
ByteView filter_rows(const std::uint8_t* pixels, std::size_t row_bytes, std::uint32_t height) {
  const std::size_t size = (row_bytes + 1) * height;
  std::uint8_t* const rows = scratch(0, size);
  if (rows == nullptr) return {};  // finish_png: out of memory
  std::uint8_t* o = rows;
  for (std::uint32_t y = 0; y < height; ++y, o += row_bytes + 1) {
    o[0] = 0;
    std::memcpy(o + 1, pixels + y * row_bytes, row_bytes);
  }
  return ByteView(rows, size);
}

// A byte-wise a - b mod 256 of 8 bytes in a word (no borrow across bytes).
constexpr std::uint64_t sub_bytes(std::uint64_t a, std::uint64_t b) {
  constexpr std::uint64_t kHigh = 0x8080808080808080u;
  return ((a | kHigh) - (b & ~kHigh)) ^ ((a ^ ~b) & kHigh);
}

// `n` rows of RGBA pixels from `first` Up-filtered (filter byte 2, ISO 15948 9.2) as RGB (colour
// type 2) into `out` (3 * width + 1 bytes a row); the row before the first is at first - 4 * width
// when `above`, else zeros (the image's first row): four pixels a step with SSE2 (the differences of two
// pixels packed to 6 bytes and stored 8 at a time: the 2 bytes past are overwritten next, the
// buffer has 8 bytes of slack), then (and without SSE2) two pixels a word, then a last one.
// False at the first row with an alpha below 255 (an image with alpha stops there).
bool filter_rgb(const std::uint8_t* first, bool has_above, std::uint32_t width, std::uint32_t n, std::uint8_t* out) {
  const std::size_t in_row = std::size_t{width} * 4, out_row = std::size_t{width} * 3 + 1;
  constexpr std::uint64_t kAlpha = 0xFF000000FF000000u;
  std::uint8_t* o = out;
  for (std::uint32_t y = 0; y < n; ++y, o += out_row) {
    const std::uint8_t* in = first + y * in_row;
    const bool zeros = y == 0 && !has_above;  // the image's first row: its prior row is zeros
    const std::uint8_t* above = zeros ? in : in - in_row;
    const std::uint64_t keep = zeros ? 0 : ~std::uint64_t{0};
    std::uint64_t alpha = kAlpha;
    o[0] = 2;
    std::uint8_t* q = o + 1;
    std::size_t x = 0;
#if defined(__SSE2__)
    __m128i alpha4 = _mm_set1_epi32(-1), keep4 = _mm_set1_epi32(static_cast<int>(keep));
    for (; x + 16 <= in_row; x += 16, q += 12) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + x));
      const __m128i b = _mm_and_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(above + x)), keep4);
      alpha4 = _mm_and_si128(alpha4, a);
      const __m128i d = _mm_sub_epi8(a, b);
      const std::uint64_t lo = static_cast<std::uint64_t>(_mm_cvtsi128_si64(d));
      const std::uint64_t hi = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(d, d)));
      const std::uint64_t plo = (lo & 0xFFFFFFu) | ((lo >> 8) & 0xFFFFFF000000u);
      const std::uint64_t phi = (hi & 0xFFFFFFu) | ((hi >> 8) & 0xFFFFFF000000u);
      std::memcpy(q, &plo, 8);
      std::memcpy(q + 6, &phi, 8);
    }
    alpha &= static_cast<std::uint64_t>(_mm_cvtsi128_si64(alpha4)) &
             static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(alpha4, alpha4)));
#endif
    for (; x + 8 <= in_row; x += 8, q += 6) {
      std::uint64_t a, b;
      std::memcpy(&a, in + x, 8);
      std::memcpy(&b, above + x, 8);
      alpha &= a;
      const std::uint64_t d = sub_bytes(a, b & keep);
      const std::uint64_t packed = (d & 0xFFFFFFu) | ((d >> 8) & 0xFFFFFF000000u);
      std::memcpy(q, &packed, 8);
    }
    if (x < in_row) {  // an odd width's last pixel
      std::uint32_t a, b;
      std::memcpy(&a, in + x, 4);
      std::memcpy(&b, above + x, 4);
      alpha &= a | 0xFF00000000000000u;  // the word's second pixel: none
      const std::uint64_t d = sub_bytes(a, b & keep);
      std::memcpy(q, &d, 4);
    }
    if ((alpha & kAlpha) != kAlpha) return false;
  }
  return true;
}

// The same rows Up-filtered as RGBA (colour type 6; 4 * width + 1 bytes a row).
void filter_rgba(const std::uint8_t* first, bool has_above, std::uint32_t width, std::uint32_t n, std::uint8_t* out) {
  const std::size_t row_bytes = std::size_t{width} * 4;
  std::uint8_t* o = out;
  for (std::uint32_t y = 0; y < n; ++y, o += row_bytes + 1) {
    const std::uint8_t* in = first + y * row_bytes;
    o[0] = 2;
    if (y == 0 && !has_above)
      std::memcpy(o + 1, in, row_bytes);
    else
      up_row(o + 1, in, in - row_bytes, row_bytes);
  }
}

// The PNG of `img` as RGB (pixel 3; nothing when a pixel's alpha is below 255) or RGBA (pixel 4).
// (Filtering and deflating a band of rows at a time, to deflate them while they are in cache, was
// no faster: docs/PERFORMANCE.md, "igz textures to PNG".)
Result<std::optional<ByteBuffer>> encode_truecolour(const Rgba& img, unsigned pixel) {
  const std::uint32_t w = img.width, h = img.height;
  const std::size_t out_row = std::size_t{w} * pixel + 1, size = out_row * h;
  std::uint8_t* const rows = scratch(0, size + 8);
  if (rows == nullptr) return make_error("png", "encoder", kNoOffset, "out of memory");
  const Header header{w, h, 8, static_cast<std::uint8_t>(pixel == 3 ? 2 : 6)};
  const std::uint8_t* pixels = img.pixels.data();
  if (pixel == 3) {
    if (!filter_rgb(pixels, false, w, h, rows)) return std::optional<ByteBuffer>{};
  } else {
    filter_rgba(pixels, false, w, h, rows);
  }
  ASSAY_TRY(ByteBuffer png, finish_png(begin_png(header), ByteView(rows, size), pixel));
  return std::optional<ByteBuffer>(std::move(png));
}

// The same from a RowSource a band at a time: the band's RGBA in this thread's scratch 2 after the
// band before's last row (the Up filter's prior row), filtered into the rows.
Result<std::optional<ByteBuffer>> encode_truecolour_rows(std::uint32_t w, std::uint32_t h, std::uint32_t band_rows,
                                                         const RowSource& source, unsigned pixel) {
  const std::size_t in_row = std::size_t{w} * 4, out_row = std::size_t{w} * pixel + 1, size = out_row * h;
  band_rows = std::min(band_rows, h);
  std::uint8_t* const rows = scratch(0, size + 8);
  std::uint8_t* const band = scratch(2, in_row * (std::size_t{band_rows} + 1));
  if (rows == nullptr || band == nullptr) return make_error("png", "encoder", kNoOffset, "out of memory");
  for (std::uint32_t y0 = 0; y0 < h; y0 += band_rows) {
    const std::uint32_t n = std::min(band_rows, h - y0);
    if (y0 != 0) std::memcpy(band, band + band_rows * in_row, in_row);  // the band before's last row
    ASSAY_CHECK(source(y0, y0 + n, band + in_row));
    if (pixel == 4) {
      filter_rgba(band + in_row, y0 != 0, w, n, rows + y0 * out_row);
    } else if (!filter_rgb(band + in_row, y0 != 0, w, n, rows + y0 * out_row)) {
      return std::optional<ByteBuffer>{};
    }
  }
  const Header header{w, h, 8, static_cast<std::uint8_t>(pixel == 3 ? 2 : 6)};
  ASSAY_TRY(ByteBuffer png, finish_png(begin_png(header), ByteView(rows, size), pixel));
  return std::optional<ByteBuffer>(std::move(png));
}

}  // namespace

Result<void> check_rgba_shape(const Rgba& img, std::string_view family) {
  std::uint64_t need = 0;
  if (img.width == 0 || img.height == 0 || !mul_ok(std::uint64_t{img.width} * img.height, 4, need) ||
      need != img.pixels.size())
    return make_error(family, "image", kNoOffset, "pixel buffer does not match width x height x 4");
  return {};
}

Result<ByteBuffer> encode_png_rows(std::uint32_t width, std::uint32_t height, std::uint32_t band_rows,
                                   const RowSource& source) {
  std::uint64_t need = 0;
  if (width == 0 || height == 0 || band_rows == 0 || !mul_ok(std::uint64_t{width} * height, 4, need))
    return make_error("png", "image", kNoOffset, "an empty image or no rows a band");
  ASSAY_TRY(std::optional<ByteBuffer> rgb, encode_truecolour_rows(width, height, band_rows, source, 3));
  if (rgb) return std::move(*rgb);
  ASSAY_TRY(std::optional<ByteBuffer> rgba, encode_truecolour_rows(width, height, band_rows, source, 4));
  return std::move(*rgba);
}

Result<ByteBuffer> encode_png(const Rgba& img) {
  ASSAY_CHECK(check_rgba_shape(img, "png"));
  // Opaque images as RGB (colour type 2): a quarter less to filter and deflate; they decode to
  // the same RGBA (alpha 255, ISO 15948 6.1). Rows with alpha go back to RGBA (colour type 6).
  ASSAY_TRY(std::optional<ByteBuffer> rgb, encode_truecolour(img, 3));
  if (rgb) return std::move(*rgb);
  ASSAY_TRY(std::optional<ByteBuffer> rgba, encode_truecolour(img, 4));
  return std::move(*rgba);
}

namespace {

// The checks of encode_png(Indexed) and to_rgba(): sizes agree, 1-256 entries, every index names one.
Result<void> check_indexed(const Indexed& img) {
  std::uint64_t need = 0;
  if (img.width == 0 || img.height == 0 || !mul_ok(std::uint64_t{img.width}, img.height, need) ||
      need != img.indices.size())
    return make_error("png", "image", kNoOffset, "index buffer does not match width x height");
  const std::size_t entries = img.palette.size() / 4;
  if (entries == 0 || entries > 256 || img.palette.size() % 4 != 0)
    return make_error("png", "palette", kNoOffset, "a palette holds 1 to 256 entries of 4 bytes");
  std::uint8_t top = 0;
  for (const std::uint8_t v : img.indices) top = std::max(top, v);
  if (top >= entries)
    return make_error("png", "image", kNoOffset,
                      fmt::format("index {} is past the palette's {} entries", top, entries));
  return {};
}

// Two indices a byte, the left one in the high nibble (PNG bit depth 4; ISO 15948 7.2).
ByteBuffer pack_nibbles(const Indexed& img) {
  const std::size_t row = (std::size_t{img.width} + 1) / 2;
  ByteBuffer out(row * img.height, 0);
  const std::uint8_t* in = img.indices.data();
  for (std::uint32_t y = 0; y < img.height; ++y) {
    std::uint8_t* o = out.data() + y * row;
    for (std::uint32_t x = 0; x < img.width; ++x, ++in) o[x >> 1] |= static_cast<std::uint8_t>(*in << ((~x & 1) * 4));
  }
  return out;
}

}  // namespace

Result<ByteBuffer> encode_png(const Indexed& img) {
  ASSAY_CHECK(check_indexed(img));
  const std::size_t entries = img.palette.size() / 4;
  const Header h{img.width, img.height, static_cast<std::uint8_t>(entries <= 16 ? 4 : 8), 3};
  ByteBuffer out = begin_png(h);
  ByteBuffer plte, trns;
  std::size_t alpha_entries = 0;  // entries past the last alpha below 255 read 255 (ISO 15948 11.3.2)
  for (std::size_t i = 0; i < entries; ++i) {
    const std::uint8_t* c = img.palette.data() + i * 4;
    plte.insert(plte.end(), c, c + 3);
    trns.push_back(c[3]);
    if (c[3] != 255) alpha_entries = i + 1;
  }
  put_chunk(out, "PLTE", plte);
  if (alpha_entries != 0) put_chunk(out, "tRNS", ByteView(trns.data(), alpha_entries));
  // indices: no row filters (ISO 15948 12.8)
  if (h.bit_depth == 4) {
    const ByteBuffer packed = pack_nibbles(img);
    return finish_png(std::move(out), filter_rows(packed.data(), (std::size_t{img.width} + 1) / 2, img.height), 0);
  }
  return finish_png(std::move(out), filter_rows(img.indices.data(), img.width, img.height), 0);
}

Rgba to_rgba(const Indexed& img) {
  if (!check_indexed(img)) return {};
  Rgba out{img.width, img.height, ByteBuffer(img.indices.size() * 4)};
  for (std::size_t k = 0; k < img.indices.size(); ++k)
    std::copy_n(img.palette.data() + std::size_t{img.indices[k]} * 4, 4, out.pixels.data() + k * 4);
  return out;
}

Result<Rgba> decode_png(ByteView png) {
  detail::SpngContext ctx(spng_ctx_new(0));
  if (!ctx) return make_error("png", "decoder", kNoOffset, "out of memory");
  spng_set_image_limits(ctx.get(), 1u << 14, 1u << 14);
  if (int rc = spng_set_png_buffer(ctx.get(), png.data(), png.size())) return png_error("buffer", rc);
  spng_ihdr ihdr{};
  if (int rc = spng_get_ihdr(ctx.get(), &ihdr)) return png_error("ihdr", rc);
  std::size_t size = 0;
  if (int rc = spng_decoded_image_size(ctx.get(), SPNG_FMT_RGBA8, &size)) return png_error("size", rc);
  Rgba img;
  img.width = ihdr.width;
  img.height = ihdr.height;
  img.pixels.resize(size);
  // tRNS applied (a palette's alpha), as read_png and every viewer do
  if (int rc = spng_decode_image(ctx.get(), img.pixels.data(), size, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS))
    return png_error("decode", rc);
  return img;
}

}  // namespace assay::image
