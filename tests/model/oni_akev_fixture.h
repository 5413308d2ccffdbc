// A hand-made Oni level with one AKEV (built with oni/writer.h), for the AKEV tests and the
// oni_akev fuzz corpus. Layouts: data/oni/templates.txt (AKEV links at 0x08 PNTA, 0x10 TXCA,
// 0x14 AGQG, 0x18 AGQR, 0x24 TXMA; arrays count at 0x1C, PNTA at 0x3C), OniSplit AkiraDatReader.
// Instances: 0 AKEVhand, 1 PNTA, 2 TXCA, 3 AGQG, 4 AGQR, 5 TXMA, 6 TXMPstone, 7 TXMPglass.
// Worked out by hand:
//   points p0 (0,0,0) p1 (2,0,0) p2 (2,0,2) p3 (0,0,2) p4 (0,1,0) p5 (1,1,0) p6 (0,2,0);
//   texture coordinates stored t0 (0,0) t1 (1,0) t2 (1,1) t3 (0,1) t4 (0.5,0.25) (exported V = 1 - V);
//   quad 0: points (0,3,2,1), coords (0,1,2,3), slot 0, colours red then 3 x grey 0x808080, flags 0:
//     (p3 - p0) x (p2 - p0) = (0,0,2) x (2,0,2) = (0,4,0): faces up; triangles (0,3,2), (0,2,1);
//   quad 1: points (4,5,6,6), coords (0,1,4,4), slot 1, white, flag 0x40 (triangle): (4,5,6), normal
//     (1,0,0) x (0,1,0) = +z;
//   quad 2: points (0,1,2,3), slot 0, flag 0x2 (ghost): not drawn.
//   TXMA: slot 0 TXMPstone (2x2 opaque RGBA), slot 1 TXMPglass (2x2, alpha 128): format 7 (bytes R, G,
//   B, A; spec oni.md#oni-9-1), pixels in the .raw at the v1.0 offset field 0x9C (spec oni.md#oni-9-3).
#pragma once

#include <bit>
#include <memory>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/core/input.h"
#include "assay/formats/oni/level_set.h"
#include "assay/formats/oni/writer.h"

namespace assay::testing {

struct AkevQuadSpec {
  std::array<std::uint32_t, 4> points, uvs, colors;
  std::uint32_t flags = 0, texture = 0;
};

struct AkevFixture {
  std::vector<std::array<float, 3>> points{{0, 0, 0}, {2, 0, 0}, {2, 0, 2}, {0, 0, 2}, {0, 1, 0}, {1, 1, 0}, {0, 2, 0}};
  std::vector<std::array<float, 2>> uvs{{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0.5f, 0.25f}};
  std::vector<AkevQuadSpec> quads{
      {{0, 3, 2, 1}, {0, 1, 2, 3}, {0xFFFF0000u, 0xFF808080u, 0xFF808080u, 0xFF808080u}, 0, 0},
      {{4, 5, 6, 6}, {0, 1, 4, 4}, {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu}, 0x40, 1},
      {{0, 1, 2, 3}, {0, 1, 2, 3}, {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu}, 0x2, 0}};
  std::uint32_t render_count = 3;  // AGQR's count (AGQG's is quads.size())
};

struct AkevLevel {
  ByteBuffer dat, raw;
};

namespace oni_akev_fixture {
inline void u32(ByteBuffer& b, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) b.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
}
inline void f32(ByteBuffer& b, float v) { u32(b, std::bit_cast<std::uint32_t>(v)); }
inline void put32(ByteBuffer& b, std::size_t at, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) b[at + k] = static_cast<std::uint8_t>(v >> (8 * k));
}
inline std::uint32_t link(std::uint32_t i) { return i << 8 | 1; }  // spec: oni.md#oni-3-7
inline ByteBuffer array(std::size_t count_at, std::uint32_t count) {
  ByteBuffer b(count_at, 0);
  u32(b, count);
  return b;
}
// A v1.0 TXMP (0xAC bytes): 2 x 2, format 7, pixels at `raw_at` in the .raw.
inline ByteBuffer txmp(std::uint32_t raw_at) {
  ByteBuffer t(0xAC, 0);
  put32(t, 0x8C, 2 | 2u << 16), put32(t, 0x90, 7), put32(t, 0x9C, raw_at);
  return t;
}
}  // namespace oni_akev_fixture

// The pixels of TXMPstone (opaque) and TXMPglass (alpha 128), R, G, B, A per texel.
inline const ByteBuffer& akev_stone_pixels() {
  static const ByteBuffer p{200, 10, 10, 255, 10, 200, 10, 255, 10, 10, 200, 255, 90, 90, 90, 255};
  return p;
}
inline const ByteBuffer& akev_glass_pixels() {
  static const ByteBuffer p{0, 0, 255, 128, 0, 0, 255, 128, 0, 0, 255, 128, 0, 0, 255, 128};
  return p;
}

inline AkevLevel akev_level(const AkevFixture& x = {}) {
  using namespace oni_akev_fixture;
  using oni::make_tag;
  oni::CompanionWriter raw;
  const std::uint32_t stone = raw.add(akev_stone_pixels()), glass = raw.add(akev_glass_pixels());
  ByteBuffer akev(0x80, 0);
  put32(akev, 0x08, link(1)), put32(akev, 0x10, link(2)), put32(akev, 0x14, link(3)), put32(akev, 0x18, link(4)),
      put32(akev, 0x24, link(5));
  ByteBuffer pnta(0x3C, 0);
  u32(pnta, static_cast<std::uint32_t>(x.points.size()));
  for (const auto& p : x.points) f32(pnta, p[0]), f32(pnta, p[1]), f32(pnta, p[2]);
  ByteBuffer txca = array(0x1C, static_cast<std::uint32_t>(x.uvs.size()));
  for (const auto& t : x.uvs) f32(txca, t[0]), f32(txca, t[1]);
  ByteBuffer agqg = array(0x1C, static_cast<std::uint32_t>(x.quads.size()));
  ByteBuffer agqr = array(0x1C, x.render_count);
  for (const auto& q : x.quads) {
    for (auto v : q.points) u32(agqg, v);
    for (auto v : q.uvs) u32(agqg, v);
    for (auto v : q.colors) u32(agqg, v);
    u32(agqg, q.flags), u32(agqg, 0xFFFFFFFFu);  // flags, no object
    u32(agqr, q.texture);
  }
  agqr.resize(0x20 + 4ull * x.render_count, 0);
  ByteBuffer txma = array(0x1C, 2);
  u32(txma, link(6)), u32(txma, link(7));
  oni::LevelFileSpec spec;
  // template checksums: data/oni/templates.txt (v1.0 = v1.1 for these; TXMP the PC v1.0 one)
  spec.template_checksums = {{make_tag("AKEV"), 0x883014de75ull}, {make_tag("PNTA"), 0x37676cull},  {make_tag("TXCA"), 0x9141aull},
                             {make_tag("AGQG"), 0x1c03d2ull},     {make_tag("AGQR"), 0x83a3bull},   {make_tag("TXMA"), 0x599de7f90ull},
                             {make_tag("TXMP"), 0x891187581ull}};
  spec.instances = {{make_tag("AKEV"), "AKEVhand", 0, akev},   {make_tag("PNTA"), "", 0, pnta},
                    {make_tag("TXCA"), "", 0, txca},           {make_tag("AGQG"), "", 0, agqg},
                    {make_tag("AGQR"), "", 0, agqr},           {make_tag("TXMA"), "", 0, txma},
                    {make_tag("TXMP"), "TXMPstone", 0, txmp(stone)}, {make_tag("TXMP"), "TXMPglass", 0, txmp(glass)}};
  auto dat = oni::write_level_file(spec);
  return {dat ? *dat : ByteBuffer{}, raw.bytes()};
}

// The level loaded and walked with its .raw, as the Oni container loads it.
inline std::unique_ptr<oni::LoadedFile> load_akev_level(const AkevLevel& l) {
  auto dat = std::make_shared<ByteBuffer>(l.dat);
  oni::Companions c;
  c.raw = Input::from_buffer("level0_Final.raw", l.raw);
  return oni::load_file("level0_Final.dat", ByteView(*dat), dat, oni::LayoutSource{}, oni::LoadOptions{true, &c});
}

}  // namespace assay::testing
