#include "assay/image/png.h"

#include <fmt/format.h>
#include <spng.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "spng_context.h"

namespace assay::image {

namespace {

// The encoder's memory (libspng's context, zlib's deflate state of about 270 KiB, row buffers, the
// output) comes from a small per-thread cache of freed blocks. Through plain malloc, every image
// grew the heap by those 270 KiB and gave them back on free (glibc trims a free top chunk over
// 128 KiB: brk down, a TLB flush, then page faults and zeroing for the next image): on a
// dictionary of 115 textures of 64 x 64 that was most of the CPU of `extract`
// (docs/PERFORMANCE.md). The cache holds at most kMaxBlocks blocks, kMaxBytes in all, freed with the thread.
class BlockCache {
 public:
  BlockCache() { free_.reserve(kMaxBlocks); }
  ~BlockCache() {
    for (Block* b : free_) std::free(b);
  }
  BlockCache(const BlockCache&) = delete;
  BlockCache& operator=(const BlockCache&) = delete;

  void* allocate(std::size_t n) {
    auto best = free_.end();  // the smallest cached block that holds n, if not wastefully large
    for (auto it = free_.begin(); it != free_.end(); ++it)
      if ((*it)->capacity >= n && (*it)->capacity <= 4 * n + kMinCached &&
          (best == free_.end() || (*it)->capacity < (*best)->capacity))
        best = it;
    if (best != free_.end()) {
      Block* b = *best;
      *best = free_.back();
      free_.pop_back();
      cached_ -= b->capacity;
      return b + 1;
    }
    if (n > SIZE_MAX - sizeof(Block)) return nullptr;
    auto* b = static_cast<Block*>(std::malloc(sizeof(Block) + n));
    if (b == nullptr) return nullptr;
    b->capacity = n;
    return b + 1;
  }
  void release(void* p) {
    if (p == nullptr) return;
    Block* b = static_cast<Block*>(p) - 1;
    if (b->capacity < kMinCached || free_.size() == kMaxBlocks || cached_ + b->capacity > kMaxBytes) {
      std::free(b);
      return;
    }
    free_.push_back(b);
    cached_ += b->capacity;
  }
  void* reallocate(void* p, std::size_t n) {
    if (p == nullptr) return allocate(n);
    const std::size_t have = (static_cast<Block*>(p) - 1)->capacity;
    if (have >= n) return p;
    void* q = allocate(n);
    if (q == nullptr) return nullptr;
    std::memcpy(q, p, have);
    release(p);
    return q;
  }

 private:
  struct alignas(16) Block {
    std::size_t capacity;
  };
  static constexpr std::size_t kMinCached = 4096, kMaxBlocks = 16, kMaxBytes = std::size_t{16} << 20;
  std::vector<Block*> free_;
  std::size_t cached_ = 0;
};

BlockCache& block_cache() {
  thread_local BlockCache cache;
  return cache;
}

spng_alloc cached_alloc() {
  spng_alloc a{};
  a.malloc_fn = [](std::size_t n) { return block_cache().allocate(n); };
  a.realloc_fn = [](void* p, std::size_t n) { return block_cache().reallocate(p, n); };
  a.calloc_fn = [](std::size_t count, std::size_t size) -> void* {
    if (size != 0 && count > SIZE_MAX / size) return nullptr;
    void* p = block_cache().allocate(count * size);
    if (p != nullptr) std::memset(p, 0, count * size);
    return p;
  };
  a.free_fn = [](void* p) { block_cache().release(p); };
  return a;
}

using Ctx = detail::SpngContext;
using detail::png_error;

// An encoder context drawing on block_cache(), writing to its own buffer.
Ctx new_encoder() {
  spng_alloc a = cached_alloc();
  Ctx ctx(spng_ctx_new2(&a, SPNG_CTX_ENCODER));
  if (ctx) {
    spng_set_option(ctx.get(), SPNG_ENCODE_TO_BUFFER, 1);
    // zlib level 4, not libspng's 6, and the Up filter on every row of a truecolour image, not a
    // trial of all five: zap.pak's textures encode in about a third of the time for 4.8% more
    // bytes (docs/PERFORMANCE.md, "Small textures").
    spng_set_option(ctx.get(), SPNG_IMG_COMPRESSION_LEVEL, 4);
    spng_set_option(ctx.get(), SPNG_FILTER_CHOICE, SPNG_FILTER_CHOICE_UP);
  }
  return ctx;
}

// The finished PNG, copied out of the context's buffer (which goes back to the cache).
Result<ByteBuffer> take_png(spng_ctx* ctx);
}  // namespace

Result<void> check_rgba_shape(const Rgba& img, std::string_view family) {
  std::uint64_t need = 0;
  if (img.width == 0 || img.height == 0 || !mul_ok(std::uint64_t{img.width} * img.height, 4, need) ||
      need != img.pixels.size())
    return make_error(family, "image", kNoOffset, "pixel buffer does not match width x height x 4");
  return {};
}

Result<ByteBuffer> encode_png(const Rgba& img) {
  ASSAY_CHECK(check_rgba_shape(img, "png"));
  Ctx ctx = new_encoder();
  if (!ctx) return make_error("png", "encoder", kNoOffset, "out of memory");
  spng_ihdr ihdr{};
  ihdr.width = img.width;
  ihdr.height = img.height;
  ihdr.bit_depth = 8;
  ihdr.color_type = SPNG_COLOR_TYPE_TRUECOLOR_ALPHA;
  if (int rc = spng_set_ihdr(ctx.get(), &ihdr)) return png_error("ihdr", rc);
  if (int rc = spng_encode_image(ctx.get(), img.pixels.data(), img.pixels.size(), SPNG_FMT_PNG,
                                 SPNG_ENCODE_FINALIZE))
    return png_error("encode", rc);
  return take_png(ctx.get());
}

namespace {

Result<ByteBuffer> take_png(spng_ctx* ctx) {
  std::size_t len = 0;
  int rc = 0;
  void* out = spng_get_png_buffer(ctx, &len, &rc);
  if (out == nullptr) return png_error("buffer", rc);
  ByteBuffer buf(static_cast<std::uint8_t*>(out), static_cast<std::uint8_t*>(out) + len);
  block_cache().release(out);
  return buf;
}

}  // namespace

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
  Ctx ctx = new_encoder();
  if (!ctx) return make_error("png", "encoder", kNoOffset, "out of memory");
  spng_ihdr ihdr{};
  ihdr.width = img.width;
  ihdr.height = img.height;
  ihdr.bit_depth = entries <= 16 ? 4 : 8;
  ihdr.color_type = SPNG_COLOR_TYPE_INDEXED;
  if (int rc = spng_set_ihdr(ctx.get(), &ihdr)) return png_error("ihdr", rc);
  spng_set_option(ctx.get(), SPNG_FILTER_CHOICE, SPNG_FILTER_CHOICE_NONE);  // indices: no row filters (ISO 15948 12.8)
  spng_plte plte{};
  spng_trns trns{};
  plte.n_entries = static_cast<std::uint32_t>(entries);
  for (std::size_t i = 0; i < entries; ++i) {
    const std::uint8_t* c = img.palette.data() + i * 4;
    plte.entries[i] = {c[0], c[1], c[2], 0};
    trns.type3_alpha[i] = c[3];
    if (c[3] != 255) trns.n_type3_entries = static_cast<std::uint32_t>(i + 1);  // entries past it read 255
  }
  if (int rc = spng_set_plte(ctx.get(), &plte)) return png_error("plte", rc);
  if (trns.n_type3_entries != 0)
    if (int rc = spng_set_trns(ctx.get(), &trns)) return png_error("trns", rc);
  const ByteBuffer packed = ihdr.bit_depth == 4 ? pack_nibbles(img) : ByteBuffer{};
  const ByteBuffer& rows = ihdr.bit_depth == 4 ? packed : img.indices;
  if (int rc = spng_encode_image(ctx.get(), rows.data(), rows.size(), SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE))
    return png_error("encode", rc);
  return take_png(ctx.get());
}

Rgba to_rgba(const Indexed& img) {
  if (!check_indexed(img)) return {};
  Rgba out{img.width, img.height, ByteBuffer(img.indices.size() * 4)};
  for (std::size_t k = 0; k < img.indices.size(); ++k)
    std::copy_n(img.palette.data() + std::size_t{img.indices[k]} * 4, 4, out.pixels.data() + k * 4);
  return out;
}

Result<Rgba> decode_png(ByteView png) {
  Ctx ctx(spng_ctx_new(0));
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
