// A hand-made Oni level with one M3GM (built with oni/writer.h), for the M3GM tests and the
// oni_m3gm fuzz corpus. Geometry worked out by hand (layouts: Oni wiki OBD:M3GM/PNTA/VCRA/TXCA/IDXA):
//   points p0 (0,0,0), p1 (1,0,0), p2 (0,1,0), p3 (1,1,0), p4 (0,0,1); UVs stored as (u, 1 - v);
//   IDXA strips 0x80000000|0, 1, 2, 3, 0x80000000|4, 0, 1: strip A (0 1 2 3) gives (0,1,2) and, odd,
//   (2,1,3), both with normal +z; strip B (4 0 1) gives (4,0,1) whose normal (p0-p4)x(p1-p4) is -y;
//   face normals +z, +z, +y: B is turned by the engine's rule to (4,1,0).
#pragma once

#include <bit>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/formats/oni/writer.h"

namespace assay::testing {

struct M3gmFixture {
  std::vector<std::uint32_t> strips{0x80000000u, 1, 2, 3, 0x80000004u, 0, 1};
  std::vector<std::array<float, 3>> points{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 0, 1}};
  std::vector<std::array<float, 3>> face_normals{{0, 0, 1}, {0, 0, 1}, {0, 1, 0}};
  std::vector<std::uint32_t> face_normal_indices{0, 1, 2};
  std::array<float, 3> bbox_max{1, 1, 1};
};

namespace m3gm_detail {
inline void u32(ByteBuffer& b, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) b.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
}
inline void f32(ByteBuffer& b, float v) { u32(b, std::bit_cast<std::uint32_t>(v)); }
// An array instance: 8-byte header, zero padding up to `count_at`, the count, the elements.
inline ByteBuffer array(std::size_t count_at, std::uint32_t count) {
  ByteBuffer b(count_at, 0);
  u32(b, count);
  return b;
}
}  // namespace m3gm_detail

inline ByteBuffer m3gm_level(const M3gmFixture& x = {}) {
  using namespace m3gm_detail;
  using oni::make_tag;
  const auto link = [](std::uint32_t i) { return i << 8 | 1; };  // spec: oni.md#oni-3-7
  ByteBuffer m(8, 0);
  u32(m, 0);
  for (std::uint32_t i : {1, 2, 3, 4, 5, 6}) u32(m, link(i));
  u32(m, 0), u32(m, 0);  // no TXMP, padding
  ByteBuffer pnta(0x14, 0);
  for (float v : {0.f, 0.f, 0.f}) f32(pnta, v);
  for (float v : x.bbox_max) f32(pnta, v);
  for (float v : {0.5f, 0.5f, 0.5f, 0.8660254f}) f32(pnta, v);
  u32(pnta, static_cast<std::uint32_t>(x.points.size()));
  for (const auto& p : x.points) f32(pnta, p[0]), f32(pnta, p[1]), f32(pnta, p[2]);
  ByteBuffer vn = array(0x1C, static_cast<std::uint32_t>(x.points.size()));
  for (std::size_t k = 0; k < x.points.size(); ++k) f32(vn, 0), f32(vn, 0), f32(vn, 1);
  ByteBuffer fn = array(0x1C, static_cast<std::uint32_t>(x.face_normals.size()));
  for (const auto& n : x.face_normals) f32(fn, n[0]), f32(fn, n[1]), f32(fn, n[2]);
  ByteBuffer uv = array(0x1C, static_cast<std::uint32_t>(x.points.size()));
  for (std::size_t k = 0; k < x.points.size(); ++k) f32(uv, 0.25f), f32(uv, 0.75f);
  ByteBuffer st = array(0x1C, static_cast<std::uint32_t>(x.strips.size()));
  for (std::uint32_t v : x.strips) u32(st, v);
  ByteBuffer fni = array(0x1C, static_cast<std::uint32_t>(x.face_normal_indices.size()));
  for (std::uint32_t v : x.face_normal_indices) u32(fni, v);
  oni::LevelFileSpec spec;
  // template checksums: ../shared/specs/oni-templates.txt (v1.0 = v1.1 for these)
  spec.template_checksums = {{make_tag("M3GM"), 0x27a078e436ull}, {make_tag("PNTA"), 0x37676cull}, {make_tag("VCRA"), 0x54739ull},
                             {make_tag("TXCA"), 0x9141aull},      {make_tag("IDXA"), 0x2708full}};
  spec.instances = {{make_tag("M3GM"), "M3GMhand", 0, m},  {make_tag("PNTA"), "", 0, pnta}, {make_tag("VCRA"), "", 0, vn},
                    {make_tag("VCRA"), "", 0, fn},         {make_tag("TXCA"), "", 0, uv},   {make_tag("IDXA"), "", 0, st},
                    {make_tag("IDXA"), "", 0, fni}};
  auto out = oni::write_level_file(spec);
  return out ? *out : ByteBuffer{};
}

}  // namespace assay::testing
