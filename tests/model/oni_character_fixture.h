// A hand-made Oni character (built with oni/writer.h), for the character tests and the
// oni_character fuzz corpus. Layouts: Oni wiki OBD:ONCC/TRBS/TRCM/TRGA/TRTA/TRIA/TRAC/TRAM, offsets
// with the 8-byte instance header (include/assay/formats/oni/character.h). Worked out by hand:
//   body: 2 parts, one triangle M3GM each; part 1 is part 0's child (TRIA 0: child 1; 1: none),
//         translations (0, 0, 0) and (0, 1, 0);
//   TRAMeuler (6-byte keys, 3 frames): bone 0 keys (0x4000, 0, 0) lasting 2 frames, then
//         (0, 0, 0) at frame 2; bone 1 keys (0, 0, 0x2000), (0, 0x4000, 0), (1820, 3641, 5461) at
//         frames 0, 1, 2 (a unit is 360/65535 degrees: 90.00137, 45.00069, 9.99771, 20.00092,
//         29.99863); heights 1, 2, 3; velocities (1, 0), (0, 2), (3, 3);
//   TRAMquat (16-byte keys, 2 frames): bone 0 stored (0, 0, 0.70710678, -0.70710678) then
//         (0, 0, 0, -1) (the engine's w is negated: +90 degrees about z, then none); bone 1
//         stored (1, 0, 0, 0), then (0, 1, 0, 0) (half turns about x and y); no heights or
//         velocities (offsets 0);
//   TRAMoverlay (6-byte, 2 frames, flag 0x2000, used bones 0x2): moves bone 1 only.
// The TRAC names the three; `trac = false` leaves the ONCC without one (then every TRAM with the
// body's bone count is its animation, as for the goldens' ONCCchar4).
#pragma once

#include <bit>
#include <string>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/core/input.h"
#include "assay/formats/oni/level_set.h"
#include "assay/formats/oni/writer.h"

namespace assay::testing {

struct CharacterFixture {
  bool trac = true;
  std::uint16_t tram_frames = 3;      // TRAMeuler's frame count field
  std::uint8_t first_duration = 2;    // TRAMeuler bone 0's first key duration
  std::uint16_t tram_bones = 2;       // TRAMeuler's bone count field
};

struct CharacterLevel {
  ByteBuffer dat, raw;
};

namespace oni_character_fixture {

inline void u8(ByteBuffer& b, std::uint8_t v) { b.push_back(v); }
inline void u16(ByteBuffer& b, std::uint16_t v) { u8(b, static_cast<std::uint8_t>(v)), u8(b, static_cast<std::uint8_t>(v >> 8)); }
inline void u32(ByteBuffer& b, std::uint32_t v) { u16(b, static_cast<std::uint16_t>(v)), u16(b, static_cast<std::uint16_t>(v >> 16)); }
inline void f32(ByteBuffer& b, float v) { u32(b, std::bit_cast<std::uint32_t>(v)); }
inline void put32(ByteBuffer& b, std::size_t at, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) b[at + k] = static_cast<std::uint8_t>(v >> (8 * k));
}
inline void put16(ByteBuffer& b, std::size_t at, std::uint16_t v) { b[at] = static_cast<std::uint8_t>(v), b[at + 1] = static_cast<std::uint8_t>(v >> 8); }
inline std::uint32_t link(std::uint32_t i) { return i << 8 | 1; }  // spec: oni.md#oni-3-7

// An array instance: zero padding to 0x1E, a u16 count, then the elements (appended by the caller).
inline ByteBuffer short_array(std::uint16_t count) {
  ByteBuffer b(0x1E, 0);
  u16(b, count);
  return b;
}
inline ByteBuffer int_array(std::size_t count_at, std::uint32_t count) {
  ByteBuffer b(count_at, 0);
  u32(b, count);
  return b;
}

// A TRAM of `frame_size`-byte keys: the rotation block (bone offsets, then tracks) at `rot`.
inline ByteBuffer tram(std::uint32_t heights, std::uint32_t velocities, std::uint32_t rot, std::uint32_t flags, std::uint32_t used,
                       std::uint16_t frame_size, std::uint16_t bones, std::uint16_t frames) {
  ByteBuffer t(0x188, 0);
  put32(t, 0x0C, heights), put32(t, 0x10, velocities), put32(t, 0x34, rot), put32(t, 0x3C, flags), put32(t, 0x48, used);
  put16(t, 0x15E, 60), put16(t, 0x160, frame_size), put16(t, 0x16A, bones), put16(t, 0x16C, frames), put16(t, 0x16E, frames);
  put16(t, 0x17C, 0xFFFF);  // no action frame
  return t;
}

// A rotation block: one u16 offset per track, then the tracks.
inline ByteBuffer rotation_block(const std::vector<ByteBuffer>& tracks) {
  ByteBuffer b;
  std::uint16_t at = static_cast<std::uint16_t>(2 * tracks.size());
  for (const auto& t : tracks) u16(b, at), at = static_cast<std::uint16_t>(at + t.size());
  for (const auto& t : tracks) b.insert(b.end(), t.begin(), t.end());
  return b;
}

inline ByteBuffer euler(std::initializer_list<std::int16_t> xyz, int duration) {
  ByteBuffer b;
  for (std::int16_t v : xyz) u16(b, static_cast<std::uint16_t>(v));
  if (duration >= 0) u8(b, static_cast<std::uint8_t>(duration));
  return b;
}
inline ByteBuffer quat(std::initializer_list<float> xyzw, int duration) {
  ByteBuffer b;
  for (float v : xyzw) f32(b, v);
  if (duration >= 0) u8(b, static_cast<std::uint8_t>(duration));
  return b;
}
inline ByteBuffer cat(std::initializer_list<ByteBuffer> parts) {
  ByteBuffer b;
  for (const auto& p : parts) b.insert(b.end(), p.begin(), p.end());
  return b;
}

// One triangle (0,0,0) (1,0,0) (0,1,0), normals +z, no face normals: M3GM at `m`, arrays after it.
inline std::vector<oni::InstanceSpec> triangle_m3gm(std::uint32_t m) {
  using oni::make_tag;
  ByteBuffer g(8, 0);
  u32(g, 0);
  for (std::uint32_t k : {1u, 2u, 0u, 3u, 4u, 0u}) u32(g, k ? link(m + k) : 0);  // PNTA VCRA - TXCA IDXA -
  u32(g, 0), u32(g, 0);
  ByteBuffer pnta(0x14, 0);
  for (float v : {0.f, 0.f, 0.f, 1.f, 1.f, 0.f, 0.33f, 0.33f, 0.f, 0.75f}) f32(pnta, v);
  u32(pnta, 3);
  for (float v : {0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 1.f, 0.f}) f32(pnta, v);
  ByteBuffer vn = int_array(0x1C, 3);
  for (int k = 0; k < 3; ++k) f32(vn, 0), f32(vn, 0), f32(vn, 1);
  ByteBuffer uv = int_array(0x1C, 3);
  for (int k = 0; k < 3; ++k) f32(uv, 0), f32(uv, 0);
  ByteBuffer st = int_array(0x1C, 3);
  for (std::uint32_t v : {0x80000000u, 1u, 2u}) u32(st, v);
  return {{make_tag("M3GM"), "", 0, g}, {make_tag("PNTA"), "", 0, pnta}, {make_tag("VCRA"), "", 0, vn},
          {make_tag("TXCA"), "", 0, uv}, {make_tag("IDXA"), "", 0, st}};
}

}  // namespace oni_character_fixture

inline CharacterLevel character_level(const CharacterFixture& x = {}) {
  using namespace oni_character_fixture;
  using oni::make_tag;
  // Instances: 0 ONCC, 1 TRBS, 2 TRCM, 3 TRGA, 4 TRTA, 5 TRIA, 6 TRAC, 7-9 TRAMs, 10-14 the M3GM.
  oni::CompanionWriter raw;
  ByteBuffer heights, vel;
  for (float f : {1.f, 2.f, 3.f}) f32(heights, f);
  const std::uint32_t h = raw.add(heights);
  for (float v : {1.f, 0.f, 0.f, 2.f, 3.f, 3.f}) f32(vel, v);
  const std::uint32_t v = raw.add(vel);
  const std::uint32_t r1 = raw.add(rotation_block({cat({euler({0x4000, 0, 0}, x.first_duration), euler({0, 0, 0}, -1)}),
                                                   cat({euler({0, 0, 0x2000}, 1), euler({0, 0x4000, 0}, 1), euler({1820, 3641, 5461}, -1)})}));
  const std::uint32_t r2 = raw.add(rotation_block({cat({quat({0, 0, 0.70710678f, -0.70710678f}, 1), quat({0, 0, 0, -1}, -1)}),
                                                   cat({quat({1, 0, 0, 0}, 1), quat({0, 1, 0, 0}, -1)})}));
  const std::uint32_t r3 = raw.add(rotation_block({cat({euler({0, 0, 0}, 1), euler({0, 0, 0}, -1)}),
                                                   cat({euler({0x4000, 0, 0}, 1), euler({0, 0, 0}, -1)})}));
  ByteBuffer oncc(0xC98, 0);
  put32(oncc, 0xC3C, link(1));
  if (x.trac) put32(oncc, 0xC88, link(6));
  ByteBuffer trbs(8, 0);
  for (int k = 0; k < 5; ++k) u32(trbs, link(2));
  ByteBuffer trcm(0x68, 0);
  put16(trcm, 0x0C, 2), put32(trcm, 0x5C, link(3)), put32(trcm, 0x60, link(4)), put32(trcm, 0x64, link(5));
  ByteBuffer trga = short_array(2);
  u32(trga, link(10)), u32(trga, link(10));
  ByteBuffer trta = short_array(2);
  for (float f : {0.f, 0.f, 0.f, 0.f, 1.f, 0.f}) f32(trta, f);
  ByteBuffer tria = short_array(2);
  for (std::uint8_t b : {0, 1, 0, 0, 0, 0, 0, 0}) u8(tria, b);
  ByteBuffer trac(0x18, 0);
  u32(trac, 0), u16(trac, 0), u16(trac, 3);
  for (std::uint32_t t : {7u, 8u, 9u}) u16(trac, 100), u16(trac, 0), u32(trac, 0), u32(trac, link(t));
  oni::LevelFileSpec spec;
  // template checksums: ../shared/specs/oni-templates.txt (v1.0 = v1.1 for these)
  spec.template_checksums = {{make_tag("ONCC"), 0x4a5aac759efull}, {make_tag("TRBS"), 0x2a2924239ull}, {make_tag("TRCM"), 0x2392de054eull},
                             {make_tag("TRGA"), 0x5206b20f8ull},   {make_tag("TRTA"), 0x759e8ull},    {make_tag("TRIA"), 0xac482ull},
                             {make_tag("TRAC"), 0xf26e9fb2full},   {make_tag("TRAM"), 0x107e3cc918ull}, {make_tag("M3GM"), 0x27a078e436ull},
                             {make_tag("PNTA"), 0x37676cull},      {make_tag("VCRA"), 0x54739ull},    {make_tag("TXCA"), 0x9141aull},
                             {make_tag("IDXA"), 0x2708full}};
  spec.instances = {{make_tag("ONCC"), "ONCChand", 0, oncc},
                    {make_tag("TRBS"), "TRBShand", 0, trbs},
                    {make_tag("TRCM"), "", 0, trcm},
                    {make_tag("TRGA"), "", 0, trga},
                    {make_tag("TRTA"), "", 0, trta},
                    {make_tag("TRIA"), "", 0, tria},
                    {make_tag("TRAC"), "TRAChand", 0, trac},
                    {make_tag("TRAM"), "TRAMeuler", 0, tram(h, v, r1, 0, 0, 6, x.tram_bones, x.tram_frames)},
                    {make_tag("TRAM"), "TRAMquat", 0, tram(0, 0, r2, 0, 0, 16, 2, 2)},
                    {make_tag("TRAM"), "TRAMoverlay", 0, tram(0, 0, r3, 0x2000, 0x2, 6, 2, 2)}};
  for (auto& m : triangle_m3gm(10)) spec.instances.push_back(std::move(m));
  auto dat = oni::write_level_file(spec);
  return {dat ? *dat : ByteBuffer{}, raw.bytes()};
}

// The level loaded and walked with its .raw, as the Oni container loads it.
inline std::unique_ptr<oni::LoadedFile> load_character_level(const CharacterLevel& l) {
  auto dat = std::make_shared<ByteBuffer>(l.dat);
  oni::Companions c;
  c.raw = Input::from_buffer("level0_Final.raw", l.raw);
  return oni::load_file("level0_Final.dat", ByteView(*dat), dat, oni::LayoutSource{}, oni::LoadOptions{true, &c});
}

}  // namespace assay::testing
