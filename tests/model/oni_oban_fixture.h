// A hand-made Oni level with object animations (built with oni/writer.h), for the OBAN tests and
// the oni_oban fuzz corpus. Layouts: data/oni/templates.txt (OBAN BFW#48, OBOA BFW#50, M3GA BFW#26)
// and the Oni wiki OBD:OBAN/OBD:OBOA. Instances:
//   0 OBANhand  flags 0x9 (loop, autostart), frames 91, half stop 30, ticks 1, fixed matrix scale 2,
//               keys (stored quaternion x, y, z, w; translation; frame):
//                 k0 (-0.70710678, 0, 0, -0.70710678) (10, 20, 30) frame 0
//                 k1 (0, 0, 0.6, 0.8)                 (10, 25, 30) frame 30
//                 k2 (0, 0, 0, 1)                     (0, 0, 0)    frame 90
//               initial matrix = key 0 with the fixed scale, by hand: the glTF rotation of k0 is
//               (x, y, z, -w) = (-0.7071, 0, 0, 0.7071), -90 degrees about x, which takes y to -z
//               and z to y; scaled by 2: x -> (2,0,0), y -> (0,0,-2), z -> (0,2,0), then (10,20,30).
//   1 OBOA      2 objects: "door_a" (M3GA 2, OBAN 0, flags 0x200 in use), then an unused one (zeros)
//   2 M3GA      1 geometry: M3GM 3
//   3 M3GMtri   a triangle p0 (0,0,0) p1 (1,0,0) p2 (0,1,0), strip 0 1 2, normals +z; instances 4-7 its
//               PNTA, VCRA, TXCA, IDXA
//   8 OBANcam   no object plays it: 2 keys, identity then (5, 0, 0) at frame 60, frames 61
#pragma once

#include <array>
#include <bit>
#include <optional>
#include <string>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/formats/oni/names.h"
#include "assay/formats/oni/writer.h"

namespace assay::testing {

struct ObanKeySpec {
  std::array<float, 4> q;
  std::array<float, 3> t;
  std::uint32_t frame;
};

struct ObanSpec {
  std::uint32_t flags = 0x9;
  std::array<float, 12> initial{2, 0, 0, 0, 0, -2, 0, 2, 0, 10, 20, 30};
  std::array<float, 12> base{2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0};
  std::uint16_t ticks = 1, frames = 91, half_stop = 30;
  std::vector<ObanKeySpec> keys{{{-0.70710678f, 0, 0, -0.70710678f}, {10, 20, 30}, 0},
                                {{0, 0, 0.6f, 0.8f}, {10, 25, 30}, 30},
                                {{0, 0, 0, 1}, {0, 0, 0}, 90}};
  std::optional<std::uint16_t> count;  // the stored key count, when not keys.size()
};

struct ObanFixture {
  ObanSpec hand;
  ObanSpec cam{0, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, 1, 61, 0,
               {{{0, 0, 0, 1}, {0, 0, 0}, 0}, {{0, 0, 0, 1}, {5, 0, 0}, 60}}, std::nullopt};
  std::string object_name = "door_a";
};

namespace oni_oban_fixture {
inline void u16(ByteBuffer& b, std::uint16_t v) { b.push_back(static_cast<std::uint8_t>(v)), b.push_back(static_cast<std::uint8_t>(v >> 8)); }
inline void u32(ByteBuffer& b, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) b.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
}
inline void f32(ByteBuffer& b, float v) { u32(b, std::bit_cast<std::uint32_t>(v)); }
inline std::uint32_t link(std::uint32_t i) { return i << 8 | 1; }  // spec: oni.md#oni-3-7
inline ByteBuffer array(std::size_t count_at, std::uint32_t count) {
  ByteBuffer b(count_at, 0);
  u32(b, count);
  return b;
}
// OBAN: header, 12 bytes padding, flags 0x14, matrices 0x18 and 0x48, u16 0x78 0x7A 0x7C, count 0x7E, keys 0x80.
inline ByteBuffer oban(const ObanSpec& s) {
  ByteBuffer b(0x14, 0);
  u32(b, s.flags);
  for (float v : s.initial) f32(b, v);
  for (float v : s.base) f32(b, v);
  u16(b, s.ticks), u16(b, s.frames), u16(b, s.half_stop);
  u16(b, s.count ? *s.count : static_cast<std::uint16_t>(s.keys.size()));
  for (const auto& k : s.keys) {
    for (float v : k.q) f32(b, v);
    for (float v : k.t) f32(b, v);
    u32(b, k.frame);
  }
  return b;
}
// OBOA: u16 count at 0x1E, 240-byte objects from 0x20.
inline ByteBuffer oboa(const std::string& name) {
  ByteBuffer b(0x1E, 0);
  u16(b, 2);
  ByteBuffer o(0xF0, 0);
  const auto put = [&](std::size_t at, std::uint32_t v) {
    for (int k = 0; k < 4; ++k) o[at + k] = static_cast<std::uint8_t>(v >> (8 * k));
  };
  put(0x00, link(2)), put(0x04, link(0)), put(0x0C, 0x200), put(0x18, 3);  // M3GA, OBAN, in use, animated
  for (std::size_t k = 0; k < name.size() && k < 63; ++k) o[0x70 + k] = static_cast<std::uint8_t>(name[k]);
  b.insert(b.end(), o.begin(), o.end());
  b.resize(b.size() + 0xF0, 0);  // an unused object
  return b;
}
// M3GMtri: the triangle p0 (0,0,0) p1 (1,0,0) p2 (0,1,0), normals +z, one strip; its PNTA (with the
// box and sphere), VCRA, TXCA and IDXA are instances parts .. parts + 3.
struct TriangleM3gm {
  ByteBuffer m3gm, points, normals, uvs, strips;
};
inline TriangleM3gm triangle_m3gm(std::uint32_t parts) {
  TriangleM3gm t{ByteBuffer(8, 0), ByteBuffer(0x14, 0), array(0x1C, 3), array(0x1C, 3), array(0x1C, 3)};
  u32(t.m3gm, 0);
  u32(t.m3gm, link(parts)), u32(t.m3gm, link(parts + 1)), u32(t.m3gm, 0), u32(t.m3gm, link(parts + 2));
  u32(t.m3gm, link(parts + 3)), u32(t.m3gm, 0), u32(t.m3gm, 0), u32(t.m3gm, 0);
  for (float v : {0.f, 0.f, 0.f, 1.f, 1.f, 0.f, 0.5f, 0.5f, 0.f, 0.7072f}) f32(t.points, v);  // box, sphere
  u32(t.points, 3);
  for (float v : {0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 1.f, 0.f}) f32(t.points, v);
  for (int k = 0; k < 3; ++k) f32(t.normals, 0), f32(t.normals, 0), f32(t.normals, 1);
  for (int k = 0; k < 3; ++k) f32(t.uvs, 0.5f), f32(t.uvs, 0.5f);
  for (std::uint32_t v : {0x80000000u, 1u, 2u}) u32(t.strips, v);
  return t;
}
}  // namespace oni_oban_fixture

inline ByteBuffer oban_level(const ObanFixture& x = {}) {
  using namespace oni_oban_fixture;
  using oni::make_tag;
  ByteBuffer m3ga = array(0x1C, 1);
  u32(m3ga, link(3));
  const TriangleM3gm t = triangle_m3gm(4);
  oni::LevelFileSpec spec;
  spec.file_id = 0x02000001;  // level 1 (instance file ids: spec oni.md#oni-3-7)
  // template checksums: data/oni/templates.txt (v1.0 = v1.1 for these)
  spec.template_checksums = {{make_tag("OBAN"), 0x4e0c24ull},   {make_tag("OBOA"), 0x134f8986e1ull}, {make_tag("M3GA"), 0x5206b20b2ull},
                             {make_tag("M3GM"), 0x27a078e436ull}, {make_tag("PNTA"), 0x37676cull},     {make_tag("VCRA"), 0x54739ull},
                             {make_tag("TXCA"), 0x9141aull},      {make_tag("IDXA"), 0x2708full}};
  spec.instances = {{make_tag("OBAN"), "OBANhand", 0, oban(x.hand)}, {make_tag("OBOA"), "", 0, oboa(x.object_name)},
                    {make_tag("M3GA"), "", 0, m3ga},                 {make_tag("M3GM"), "M3GMtri", 0, t.m3gm},
                    {make_tag("PNTA"), "", 0, t.points},             {make_tag("VCRA"), "", 0, t.normals},
                    {make_tag("TXCA"), "", 0, t.uvs},                {make_tag("IDXA"), "", 0, t.strips},
                    {make_tag("OBAN"), "OBANcam", 0, oban(x.cam)}};
  auto out = oni::write_level_file(spec);
  return out ? *out : ByteBuffer{};
}

}  // namespace assay::testing
