// A hand-made Oni level whose OBANs are named by a door class, a trigger class, a door class array
// and an OBOA object with a "local" animation (built with oni/writer.h), for the OBAN tests and the
// oni_oban fuzz corpus. Layouts: data/oni/templates.txt (DOOR BFW#42, OFGA BFW#43, TRIG BFW#45,
// TRGE BFW#46, OBAN BFW#48, OBDC BFW#49, OBOA BFW#50, M3GA BFW#26); the Oni wiki OBD:DOOR, OBD:TRIG,
// OBD:OBDC, OBD:OBOA. Instances:
//   0 OBANdoor  flags 0x18 (autostart, local), frames 31, half stop 15, fixed matrix scale 2, keys
//               (stored quaternion x, y, z, w; translation; frame):
//                 k0 (0, 0, 0, 1)                   (0, 0, 0) frame 0
//                 k1 (0, 0, 0.70710678, -0.70710678) (1, 2, 3) frame 30  (glTF: +90 degrees about z)
//   1 DOOR DOORbare  OBAN 0, no OFGA (no geometry: skipped by the export's rule)
//   2 DOOR DOORwh    OFGA 3 at 0x08, OBAN 0 at 0x10
//   3 OFGA      1 element: flags 0, M3GM 4, no OBLS
//   4 M3GMtri   a triangle p0 (0,0,0) p1 (1,0,0) p2 (0,1,0) (as oni_oban_fixture.h); 5-8 its parts
//   9 OBDC      2 entries: (id 1, OBAN 0), (id 2, OBAN 10)
//  10 OBANtrig  flags 0x9, identity fixed matrix, k0 identity (0, 0, 0) frame 0, k1 identity
//               (0, 10, 0) frame 60, frames 61
//  11 TRIG TRIGlaser  rail M3GM 4 (0x18), TRGE 12 (0x24), OBAN 10 (0x28)
//  12 TRGE      emitter M3GM 4 at 0x20
//  13 OBANlocal flags 0x10, identity fixed matrix, k0 identity (0, 0, 0) frame 0, k1 identity
//               (0, 0, 5) frame 60, frames 61
//  14 OBOA      1 object "crate": M3GA 15, OBAN 13, flags 0x200; position, quaternion, scale and
//               origin matrix are the wiki's OBD:OBOA example (00597-.OBOA object 0, the bytes as
//               the wiki prints them)
//  15 M3GA      M3GM 4
#pragma once

#include "oni_oban_fixture.h"

namespace assay::testing {

// The wiki's OBD:OBOA example object, as its raw hex (little-endian floats).
namespace oni_oban_class_fixture {
inline constexpr std::uint32_t kPosition[3] = {0x434F0000, 0x42F6051F, 0xC3CC7F98};              // 207, 123.010002, -408.996826
inline constexpr std::uint32_t kQuaternion[4] = {0x3F3504F2, 0xB982BC74, 0xB982BC74, 0x3F3504F3};  // 0.707107, -0.000249, -0.000249, 0.707107
inline constexpr std::uint32_t kOrigin[12] = {0x3F7FFFFC, 0x00000000, 0xBA38E38A, 0xBA38E38A, 0x324CDE2E, 0xBF7FFFFC,
                                              0x2D13F5C9, 0x3F800000, 0x324CDE2B, 0x434F0000, 0x42F6051F, 0xC3CC7F98};

inline ByteBuffer sized(std::size_t n) { return ByteBuffer(n, 0); }
inline void put32(ByteBuffer& b, std::size_t at, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) b[at + k] = static_cast<std::uint8_t>(v >> (8 * k));
}
}  // namespace oni_oban_class_fixture

struct ObanClassFixture {
  ObanSpec door{0x18, {2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0}, {2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0}, 1, 31, 15,
                {{{0, 0, 0, 1}, {0, 0, 0}, 0}, {{0, 0, 0.70710678f, -0.70710678f}, {1, 2, 3}, 30}}, std::nullopt};
  ObanSpec trig{0x9, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, 1, 61, 0,
                {{{0, 0, 0, 1}, {0, 0, 0}, 0}, {{0, 0, 0, 1}, {0, 10, 0}, 60}}, std::nullopt};
  ObanSpec local{0x10, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, 1, 61, 0,
                 {{{0, 0, 0, 1}, {0, 0, 0}, 0}, {{0, 0, 0, 1}, {0, 0, 5}, 60}}, std::nullopt};
  bool origin = true;  // false: the crate's origin matrix left zero (singular)
};

inline ByteBuffer oban_class_level(const ObanClassFixture& x = {}) {
  using namespace oni_oban_fixture;
  using namespace oni_oban_class_fixture;
  using oni::make_tag;
  ByteBuffer door_bare = sized(0x6C), door_wh = sized(0x6C);
  put32(door_bare, 0x10, link(0));
  put32(door_wh, 0x08, link(3)), put32(door_wh, 0x10, link(0));
  ByteBuffer ofga = array(0x1C, 1);
  u32(ofga, 0), u32(ofga, link(4)), u32(ofga, 0);
  const TriangleM3gm t = triangle_m3gm(5);  // M3GM 4, its parts at 5..8
  ByteBuffer obdc(0x1E, 0);  // u16 count at 0x1E, 24-byte entries: u16 id, u16, OBAN, 16 bytes
  u16(obdc, 2);
  for (std::uint32_t k = 0; k < 2; ++k) {
    u16(obdc, static_cast<std::uint16_t>(k + 1)), u16(obdc, 0), u32(obdc, link(k == 0 ? 0 : 10));
    obdc.resize(obdc.size() + 16, 0);
  }
  ByteBuffer trig = sized(0x74);
  put32(trig, 0x18, link(4)), put32(trig, 0x24, link(12)), put32(trig, 0x28, link(10));
  ByteBuffer trge = sized(0x28);
  put32(trge, 0x14, std::bit_cast<std::uint32_t>(1.0f));  // direction (1, 0, 0)
  put32(trge, 0x20, link(4));
  ByteBuffer oboa(0x1E, 0);
  u16(oboa, 1);
  ByteBuffer o(0xF0, 0);
  put32(o, 0x00, link(15)), put32(o, 0x04, link(13)), put32(o, 0x0C, 0x200), put32(o, 0x18, 3), put32(o, 0x1C, 0xFFFF);
  for (int k = 0; k < 3; ++k) put32(o, 0x20 + 4 * k, kPosition[k]);
  for (int k = 0; k < 4; ++k) put32(o, 0x2C + 4 * k, kQuaternion[k]);
  put32(o, 0x3C, std::bit_cast<std::uint32_t>(1.0f));
  if (x.origin)
    for (int k = 0; k < 12; ++k) put32(o, 0x40 + 4 * k, kOrigin[k]);
  for (std::size_t k = 0; k < 5; ++k) o[0x70 + k] = static_cast<std::uint8_t>("crate"[k]);
  oboa.insert(oboa.end(), o.begin(), o.end());
  ByteBuffer m3ga = array(0x1C, 1);
  u32(m3ga, link(4));
  oni::LevelFileSpec spec;
  spec.file_id = 0x02000001;  // level 1 (spec oni.md#oni-3-7)
  // template checksums: data/oni/templates.txt (v1.0 = v1.1 for these)
  spec.template_checksums = {{make_tag("OBAN"), 0x4e0c24ull},      {make_tag("OBOA"), 0x134f8986e1ull}, {make_tag("M3GA"), 0x5206b20b2ull},
                             {make_tag("M3GM"), 0x27a078e436ull},  {make_tag("PNTA"), 0x37676cull},     {make_tag("VCRA"), 0x54739ull},
                             {make_tag("TXCA"), 0x9141aull},       {make_tag("IDXA"), 0x2708full},      {make_tag("DOOR"), 0x63172fd67ull},
                             {make_tag("OFGA"), 0x1374fac362ull},  {make_tag("TRIG"), 0x21dcd0cd2cull}, {make_tag("TRGE"), 0x871a6b93cull},
                             {make_tag("OBDC"), 0x7bd9eca0bull}};
  spec.instances = {{make_tag("OBAN"), "OBANdoor", 0, oban(x.door)},   {make_tag("DOOR"), "DOORbare", 0, door_bare},
                    {make_tag("DOOR"), "DOORwh", 0, door_wh},          {make_tag("OFGA"), "", 0, ofga},
                    {make_tag("M3GM"), "M3GMtri", 0, t.m3gm},          {make_tag("PNTA"), "", 0, t.points},
                    {make_tag("VCRA"), "", 0, t.normals},              {make_tag("TXCA"), "", 0, t.uvs},
                    {make_tag("IDXA"), "", 0, t.strips},                  {make_tag("OBDC"), "", 0, obdc},
                    {make_tag("OBAN"), "OBANtrig", 0, oban(x.trig)},   {make_tag("TRIG"), "TRIGlaser", 0, trig},
                    {make_tag("TRGE"), "", 0, trge},                   {make_tag("OBAN"), "OBANlocal", 0, oban(x.local)},
                    {make_tag("OBOA"), "", 0, oboa},                   {make_tag("M3GA"), "", 0, m3ga}};
  auto out = oni::write_level_file(spec);
  return out ? *out : ByteBuffer{};
}

}  // namespace assay::testing
