// An igz holding one igImage2, written by our own writer in the layout of skylanders_zap.pak's
// PS3 textures (version 7, big-endian, platform 6; igImage2 0x60 bytes in an ImageObject pool,
// _width at 0x30, _format (REXT -> EXID "metaimages"::format) at 0x3C, _data (RMHN -> TMHN) at 0x48,
// the pixels in an Image pool): the fixture of image_test.cc and the fuzz corpus of igz_image.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <random>

#include "assay/container.h"
#include "assay/core/hash.h"
#include "assay/formats/igz/writer.h"
#include "assay/image/png.h"

namespace assay::igz::fixtures {

struct ImageSpec {
  std::uint16_t width = 8, height = 8, depth = 1, levels = 1, images = 1;
  std::string format = "dxt1_tile_big_ps3";
  ByteBuffer pixels;  // the _data bytes as stored
};

inline Result<ByteBuffer> build_image_igz(const ImageSpec& s) {
  Writer w(Layout{7, Endian::big, 6});
  const std::uint32_t list_t = w.add_type("igObjectList", w.data_list_size());
  const std::uint32_t image_t = w.add_type("igImage2", 0x60);
  const std::uint32_t def = w.add_pool("Default", 4);
  const std::uint32_t objects = w.add_pool("ImageObject", 16);
  const std::uint32_t pixels = w.add_pool("Image", 128);
  const std::uint32_t img = w.add_object(objects, image_t);
  w.put_u32(img + 0x30, std::uint32_t{s.width} << 16 | s.height);  // big-endian u16 pairs
  w.put_u32(img + 0x34, std::uint32_t{s.depth} << 16 | s.levels);
  w.put_u32(img + 0x38, std::uint32_t{s.images} << 16);
  w.set_external(img + 0x3C, w.add_external_id(fnv1a32(s.format, true), 0x843CD0C2));
  const auto size = static_cast<std::uint32_t>(s.pixels.size());
  const std::uint32_t data = w.alloc(pixels, (size + 3) & ~3u, 128);
  for (std::uint32_t i = 0; i + 4 <= size; i += 4)  // stored big-endian: the bytes in order
    w.put_u32(data + i, std::uint32_t{s.pixels[i]} << 24 | std::uint32_t{s.pixels[i + 1]} << 16 |
                            std::uint32_t{s.pixels[i + 2]} << 8 | s.pixels[i + 3]);
  w.set_memory_handle(img + 0x48, w.add_memory_handle(w.memory_word(size), data));
  w.set_root(w.add_object_list(def, list_t, {img}));
  return w.finish();
}

// One 4 x 4 DXT1 block (the bytes of zap.pak's colormap_zap_e_11 block 432, hand-decoded in
// image_test.cc) repeated to fill `width` x `height`, one level.
inline ByteBuffer dxt1_blocks(std::uint32_t width, std::uint32_t height) {
  const ByteBuffer block = {0xa8, 0x3b, 0x83, 0x19, 0x55, 0xff, 0xaa, 0x00};
  ByteBuffer out;
  for (std::uint32_t i = 0; i < (width / 4) * (height / 4); ++i) out.insert(out.end(), block.begin(), block.end());
  return out;
}

// The container of an igz the test built (null, and a test failure, when it does not open).
inline std::unique_ptr<Container> open_image_igz(Result<ByteBuffer> igz, std::string name = "t.igz") {
  EXPECT_TRUE(igz.ok()) << (igz ? "" : igz.error().str());
  if (!igz) return nullptr;
  auto c = open(Input::from_buffer(std::move(name), std::move(*igz)));
  EXPECT_TRUE(c.ok()) << (c ? "" : c.error().str());
  return c ? std::move(*c) : nullptr;
}

// Its first texture entry, or null.
inline const Entry* texture_entry(const Container& c) {
  for (const Entry& e : c.entries())
    if (e.kind == EntryKind::texture) return &e;
  return nullptr;
}

// The RGBA of texel (x, y).
// w x h pixels of random bytes from `seed` (the round-trip tests' input).
inline image::Rgba random_rgba(std::uint32_t w, std::uint32_t h, unsigned seed) {
  std::mt19937 rng(seed);
  image::Rgba img{w, h, ByteBuffer(std::uint64_t{w} * h * 4)};
  for (auto& b : img.pixels) b = static_cast<std::uint8_t>(rng());
  return img;
}

inline std::array<std::uint8_t, 4> texel(const image::Rgba& img, std::uint32_t x, std::uint32_t y) {
  const std::size_t p = (std::size_t{y} * img.width + x) * 4;
  return {img.pixels[p], img.pixels[p + 1], img.pixels[p + 2], img.pixels[p + 3]};
}

// Opens `b` and decodes each texture entry's top level: no crash, and a level that decodes has the
// size its fields give.
inline void expect_sound_textures(ByteBuffer b) {
  auto c = open(Input::from_buffer("sweep.igz", std::move(b)));
  if (!c) return;
  for (const Entry& e : (*c)->entries()) {
    if (e.kind != EntryKind::texture) continue;
    if (auto img = (*c)->texture(e, 0)) {
      EXPECT_EQ(img->pixels.size(), std::size_t{img->width} * img->height * 4);
    }
  }
}

// The truncation and mutation sweep of a writer-built igz: every third truncation, and the byte at
// every offset but [skip_from, skip_to) xored with 0xA5, through expect_sound_textures. The default
// skip is the zero padding after the pool names up to the first pool at 0x800 (spec:
// #igz-header-v7), which keeps the sweep fast under ASan.
inline void sweep_image_igz(const ByteBuffer& good, std::size_t skip_from = 0x260, std::size_t skip_to = 0x800) {
  for (std::size_t n = 0; n < good.size(); n += 3) expect_sound_textures(ByteBuffer(good.begin(), good.begin() + n));
  for (std::size_t i = 0; i < good.size(); ++i) {
    if (i == skip_from && skip_to > skip_from) i = skip_to;
    if (i >= good.size()) break;
    ByteBuffer b = good;
    b[i] ^= 0xA5;
    expect_sound_textures(std::move(b));
  }
}

}  // namespace assay::igz::fixtures
