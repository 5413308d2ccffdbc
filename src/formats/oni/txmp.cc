// TXMP textures to PNG (spec: oni.md#oni-9-1).
#include <fmt/format.h>

#include "assay/core/glob.h"
#include "assay/formats/oni/oni.h"
#include "assay/image/png.h"
#include "records.h"

namespace assay::oni {

namespace {

constexpr std::uint32_t kMaxDim = 16384;

const char* detail_name(const LoadedFile& f, const ChunkRef& c) {
  return f.file.is_oni() ? "raw block" : (c.kind == FieldKind::sep ? ".sep" : ".raw");
}

// The image fields of a TXMP instance whose 8-byte header is at `at` (spec: oni.md#oni-9-1); an
// instance too short to hold both versions' pixel offsets (0x9C, 0xA0) is refused.
Result<records::TxmpImage> txmp_image(const LoadedFile& f, const std::string& lab, ByteView inst, std::uint64_t at) {
  if (inst.size() < records::kTxmpMinSize) return f.file.error(lab, at, "TXMP instance smaller than 0xa4 bytes");
  return records::read_txmp_image(inst, at);
}

std::uint8_t x5(unsigned v) { return static_cast<std::uint8_t>(v << 3 | v >> 2); }  // bit replication
std::uint8_t x6(unsigned v) { return static_cast<std::uint8_t>(v << 2 | v >> 4); }
std::uint8_t x4(unsigned v) { return static_cast<std::uint8_t>(v * 17); }

// Pixel i of the RGBA image `px`.
void put(std::span<std::uint8_t> px, std::size_t i, std::uint8_t r, std::uint8_t g, std::uint8_t b, std::uint8_t a) {
  px[i * 4] = r, px[i * 4 + 1] = g, px[i * 4 + 2] = b, px[i * 4 + 3] = a;
}

// spec: oni.md#oni-9-1 code 9: a standard BC1 palette (bit replication, integer thirds).
void dxt1_palette(const records::Dxt1Block& blk, std::uint8_t (&pal)[4][4]) {
  auto rgb = [](unsigned c, std::uint8_t* o) { o[0] = x5(c >> 11), o[1] = x6((c >> 5) & 63), o[2] = x5(c & 31), o[3] = 255; };
  rgb(blk.c0, pal[0]);
  rgb(blk.c1, pal[1]);
  for (int k = 0; k < 3; ++k) {
    if (blk.c0 > blk.c1) {
      pal[2][k] = static_cast<std::uint8_t>((2 * pal[0][k] + pal[1][k]) / 3);
      pal[3][k] = static_cast<std::uint8_t>((pal[0][k] + 2 * pal[1][k]) / 3);
    } else {
      pal[2][k] = static_cast<std::uint8_t>((pal[0][k] + pal[1][k]) / 2);
      pal[3][k] = 0;
    }
  }
  pal[2][3] = 255;
  pal[3][3] = blk.c0 > blk.c1 ? 255 : 0;
}

// `blocks` holds the ceil(w/4) x ceil(h/4) blocks (checked by the caller), read in stored order
// through a local cursor (decode speed: its byte order is a constant, its state never aliased).
void decode_dxt1(ByteView blocks, std::uint32_t w, std::uint32_t h, std::span<std::uint8_t> px) {
  RecordCursor level(blocks, Endian::little);
  const std::uint32_t bw = (w + 3) / 4, bh = (h + 3) / 4;
  for (std::uint32_t by = 0; by < bh; ++by)
    for (std::uint32_t bx = 0; bx < bw; ++bx) {
      const records::Dxt1Block blk = records::Dxt1Block::decode(level);
      std::uint8_t pal[4][4];
      dxt1_palette(blk, pal);
      for (unsigned p = 0; p < 16; ++p) {
        const std::uint32_t x = bx * 4 + p % 4, y = by * 4 + p / 4;
        if (x >= w || y >= h) continue;
        const auto* c = pal[(blk.indices >> (2 * p)) & 3];
        put(px, std::size_t(y) * w + x, c[0], c[1], c[2], c[3]);
      }
    }
}

// f(i, pixel) for the n pixels of `pixels` (size checked by the caller), in stored order, through a
// local cursor; one loop per format, the format not tested per pixel (decode speed).
template <class P, class F>
void for_each_pixel(ByteView pixels, std::size_t n, F&& f) {
  RecordCursor level(pixels, Endian::little);
  for (std::size_t i = 0; i < n; ++i) f(i, P::decode(level));
}

// spec: oni.md#oni-9-1 codes 0-2 (16-bit, little-endian) and 7, 8 (4 bytes).
void decode_pixels(ByteView pixels, std::uint32_t format, std::size_t n, std::span<std::uint8_t> px) {
  using records::Pixel16;
  using records::Pixel32;
  const auto bgr555 = [&](auto alpha) {  // alpha: std::bool_constant (a loop each)
    for_each_pixel<Pixel16>(pixels, n, [&](std::size_t i, Pixel16 p) {
      put(px, i, x5((p.v >> 10) & 31), x5((p.v >> 5) & 31), x5(p.v & 31), !alpha() || (p.v & 0x8000) ? 255 : 0);
    });
  };
  switch (format) {
    case 0:
      for_each_pixel<Pixel16>(pixels, n, [&](std::size_t i, Pixel16 p) {
        put(px, i, x4((p.v >> 8) & 15), x4((p.v >> 4) & 15), x4(p.v & 15), x4(p.v >> 12));
      });
      break;
    case 1: bgr555(std::false_type{}); break;  // bit 15 ignored
    case 2: bgr555(std::true_type{}); break;
    case 7:  // bytes R, G, B, A
      for_each_pixel<Pixel32>(pixels, n, [&](std::size_t i, Pixel32 p) { put(px, i, p.b0, p.b1, p.b2, p.b3); });
      break;
    default:  // 8: bytes B, G, R, unused
      for_each_pixel<Pixel32>(pixels, n, [&](std::size_t i, Pixel32 p) { put(px, i, p.b2, p.b1, p.b0, 255); });
      break;
  }
}

}  // namespace

Result<Rgba8> decode_txmp(ByteView src, std::uint32_t w, std::uint32_t h, std::uint32_t format) {
  if (w == 0 || h == 0 || w > kMaxDim || h > kMaxDim)
    return make_error(kFormat, "TXMP", kNoOffset, fmt::format("size {}x{} (must be 1-16384)", w, h));
  auto need = txmp_data_size(w, h, format, false);
  if (!need) return make_error(kFormat, "TXMP", kNoOffset, fmt::format("unsupported TXMP format {}", format));
  if (src.size() < *need)
    return make_error(kFormat, "TXMP", kNoOffset, fmt::format("pixel data of 0x{:x} bytes, format {} {}x{} needs 0x{:x}", src.size(), format, w, h, *need));
  Rgba8 img{w, h, ByteBuffer(std::size_t(w) * h * 4)};
  const ByteView level = src.first(static_cast<std::size_t>(*need));  // size checked above
  if (format == 9) decode_dxt1(level, w, h, img.pixels);
  else decode_pixels(level, format, std::size_t(w) * h, img.pixels);
  return img;
}

Result<Rgba8> decode_txmp_instance(const LoadedFile& f, std::uint32_t i, unsigned mip) {
  if (i >= f.file.instance_count() || f.file.descriptor(i).tag != make_tag("TXMP") || !f.has_data[i])
    return make_error(kFormat, "TXMP", kNoOffset, fmt::format("instance {} is not a TXMP with data", i));
  const Descriptor d = f.file.descriptor(i);
  const ByteView inst = *f.file.instance_bytes(i);
  const std::string lab = instance_label(i, d.tag, f.names[i]);
  const std::uint64_t at = f.file.instance_file_offset(d);
  ASSAY_TRY(const records::TxmpImage t, txmp_image(f, lab, inst, at));
  const ChunkRef* c = nullptr;
  for (const ChunkRef& r : f.chunks)
    if (r.instance == i) {
      c = &r;
      break;
    }
  if (c == nullptr) return f.file.error(lab, at, i < f.layout.size() && f.layout[i] ? "no pixel offset known for this TXMP layout" : "no layout for this TXMP (not walked)");
  const ByteView comp = (c->kind == FieldKind::sep && !f.file.is_oni()) ? f.sep : f.raw;
  ASSAY_TRY(auto levels, txmp_levels(t.width, t.height, t.format, t.mipmapped()));
  if (mip >= levels.size())
    return f.file.error(lab, at + records::TxmpImage::kOffset, fmt::format("mip {} asked, the texture has {}", mip, levels.size()));
  const TxmpLevel& lv = levels[mip];
  const std::uint64_t from = std::uint64_t(c->value) + lv.offset;
  if (c->value < 32 || !range_ok(from, lv.size, comp.size()))
    return f.file.error(lab, at + c->offset, fmt::format("level {} ({}x{}) at 0x{:x}+0x{:x} outside the {} (0x{:x} bytes)", mip, lv.width, lv.height,
                                                         from, lv.size, detail_name(f, *c), comp.size()));
  return decode_txmp(comp.subspan(from, lv.size), lv.width, lv.height, t.format);
}

}  // namespace assay::oni
