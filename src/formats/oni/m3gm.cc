// Oni M3GM geometry decoding (Oni wiki OBD:M3GM, OBD:PNTA, OBD:VCRA, OBD:TXCA, OBD:IDXA).
// Array templates (spec: oni.md#oni-4-4 sizes): PNTA 0x40 fixed bytes (bounding box min 0x14, max
// 0x20, sphere centre 0x2C, radius 0x38, count 0x3C, 12-byte points from 0x40); VCRA, TXCA and IDXA
// 0x20 fixed bytes (count 0x1C, elements of 12, 8 and 4 bytes from 0x20). Offsets include the
// 8-byte instance header, as instance_bytes() returns it.
#include "assay/formats/oni/m3gm.h"

#include <fmt/format.h>

#include <bit>
#include <cstring>

#include "assay/formats/oni/names.h"
#include "linked_parts.h"

namespace assay::oni {

namespace {

using detail::f32_at;
using detail::has_data;
using detail::name_of;
using detail::Part;
using detail::part_of;
using detail::u32_at;

constexpr std::uint32_t kStripStart = 0x80000000u;  // OBD:IDXA: the high bit starts a new strip

Error m3gm_error(const InstanceFile& f, const std::string& lab, std::uint64_t at, std::string msg) {
  return f.error(lab, at, std::move(msg)).with_code("oni.m3gm");
}

model::Vec3 vec3_at(ByteView b, std::uint64_t at) { return {f32_at(b, at), f32_at(b, at + 4), f32_at(b, at + 8)}; }

constexpr const char* kCode = "oni.m3gm";

Result<std::optional<std::uint32_t>> link_at(const InstanceFile& f, const Part& m, std::uint32_t field, const char (&tag)[5],
                                             bool placeholder_ok = false) {
  return detail::link_at(f, m, field, make_tag(tag), kCode, placeholder_ok);
}

Result<Part> array_part(const InstanceFile& f, std::uint32_t i, std::uint32_t count_at, std::uint32_t elem, std::uint32_t& count) {
  return detail::array_part(f, i, count_at, elem, count, kCode);
}

Result<std::vector<model::Vec3>> vec3_array(const InstanceFile& f, std::uint32_t i, std::uint32_t count_at) {
  std::uint32_t n = 0;
  ASSAY_TRY(const Part p, array_part(f, i, count_at, 12, n));
  std::vector<model::Vec3> out(n);
  if constexpr (std::endian::native == std::endian::little && sizeof(model::Vec3) == 12) {
    if (n) std::memcpy(out.data(), p.bytes.data() + count_at + 4, 12ull * n);  // the stored layout (bounds checked above)
  } else {
    for (std::uint32_t k = 0; k < n; ++k) out[k] = vec3_at(p.bytes, count_at + 4 + 12ull * k);
  }
  return out;
}

Result<std::vector<std::uint32_t>> index_array(const InstanceFile& f, std::uint32_t i) {
  std::uint32_t n = 0;
  ASSAY_TRY(const Part p, array_part(f, i, 0x1C, 4, n));
  std::vector<std::uint32_t> out(n);
  if constexpr (std::endian::native == std::endian::little) {
    if (n) std::memcpy(out.data(), p.bytes.data() + 0x20, 4ull * n);
  } else {
    for (std::uint32_t k = 0; k < n; ++k) out[k] = u32_at(p.bytes, 0x20 + 4ull * k);
  }
  return out;
}

Result<void> read_points(const InstanceFile& f, std::uint32_t i, M3gmGeometry& g) {
  ASSAY_TRY(g.points, vec3_array(f, i, 0x3C));
  const ByteView b = *f.instance_bytes(i);  // checked by vec3_array
  g.bbox_min = vec3_at(b, 0x14), g.bbox_max = vec3_at(b, 0x20), g.sphere_center = vec3_at(b, 0x2C);
  g.sphere_radius = f32_at(b, 0x38);
  return {};
}

Result<std::vector<model::Vec2>> read_uvs(const InstanceFile& f, std::uint32_t i) {
  std::uint32_t n = 0;
  ASSAY_TRY(const Part p, array_part(f, i, 0x1C, 8, n));
  std::vector<model::Vec2> out(n);
  for (std::uint32_t k = 0; k < n; ++k) out[k] = {f32_at(p.bytes, 0x20 + 8ull * k), f32_at(p.bytes, 0x24 + 8ull * k)};
  return out;
}

// OBD:IDXA: a set high bit starts a new strip (the first index always starts one). Each strip is
// copied whole at its size (a level's M3GMs have hundreds of strips).
std::vector<std::vector<std::uint32_t>> split_strips(const std::vector<std::uint32_t>& raw) {
  std::vector<std::vector<std::uint32_t>> strips;
  std::size_t count = 0;
  for (std::size_t k = 0; k < raw.size(); ++k) count += k == 0 || (raw[k] & kStripStart);
  strips.reserve(count);
  for (std::size_t k = 0; k < raw.size();) {
    std::size_t end = k + 1;
    while (end < raw.size() && !(raw[end] & kStripStart)) ++end;
    auto& s = strips.emplace_back(raw.begin() + static_cast<std::ptrdiff_t>(k), raw.begin() + static_cast<std::ptrdiff_t>(end));
    s.front() &= ~kStripStart;  // only a strip's first index has the bit
    k = end;
  }
  return strips;
}

model::Vec3 sub(const model::Vec3& a, const model::Vec3& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
model::Vec3 cross(const model::Vec3& a, const model::Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
float dot(const model::Vec3& a, const model::Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// Strip triangles (odd ones swapped to keep one winding), then the engine's rule: a triangle whose
// normal (p1 - p0) x (p2 - p0) points away from its stored face normal is turned (goldens
// oni/README.md "face-normal winding rule"). Face normal k belongs to strip triangle k.
void make_triangles(M3gmGeometry& g) {
  std::size_t t = 0, count = 0;
  for (const auto& s : g.strips) count += s.size() > 2 ? s.size() - 2 : 0;
  g.triangles.reserve(count);
  for (const auto& s : g.strips)
    for (std::size_t k = 2; k < s.size(); ++k, ++t) {
      std::array<std::uint32_t, 3> tri = k % 2 == 0 ? std::array{s[k - 2], s[k - 1], s[k]} : std::array{s[k - 1], s[k - 2], s[k]};
      if (t < g.face_normal_indices.size() && g.face_normal_indices[t] < g.face_normals.size()) {
        const auto& p = g.points;
        const model::Vec3 n = cross(sub(p[tri[1]], p[tri[0]]), sub(p[tri[2]], p[tri[0]]));
        if (dot(n, g.face_normals[g.face_normal_indices[t]]) < 0) std::swap(tri[1], tri[2]), ++g.winding_flips;
      }
      g.triangles.push_back(tri);
    }
}

// Sizes agree: one normal and one UV per point, every strip index a point, one face normal
// index per strip triangle naming a face normal.
Result<void> check_counts(const InstanceFile& f, const Part& m, const M3gmGeometry& g) {
  const auto fail = [&](std::uint32_t field, std::string msg) { return m3gm_error(f, m.label(), m.at + field, std::move(msg)); };
  if (g.normals.size() != g.points.size())
    return fail(M3gmLinks::kVertexNormals, fmt::format("{} vertex normals for {} points", g.normals.size(), g.points.size()));
  if (g.uvs.size() != g.points.size())
    return fail(M3gmLinks::kTexCoords, fmt::format("{} texture coordinates for {} points", g.uvs.size(), g.points.size()));
  std::size_t k = 0, tris = 0;
  for (const auto& s : g.strips) {
    for (std::uint32_t v : s) {
      if (v >= g.points.size())
        return fail(M3gmLinks::kStrips, fmt::format("strip index {} (entry {}) outside the {} points", v, k, g.points.size())).with_code("oni.m3gm-strip");
      ++k;
    }
    tris += s.size() > 2 ? s.size() - 2 : 0;
  }
  if (!g.face_normal_indices.empty() && g.face_normal_indices.size() != tris)
    return fail(M3gmLinks::kFaceNormalIndices, fmt::format("{} face normal indices for {} strip triangles", g.face_normal_indices.size(), tris));
  for (std::size_t t = 0; t < g.face_normal_indices.size(); ++t)
    if (g.face_normal_indices[t] >= g.face_normals.size())
      return fail(M3gmLinks::kFaceNormalIndices, fmt::format("face normal index {} (entry {}) outside the {} face normals", g.face_normal_indices[t], t, g.face_normals.size()));
  return {};
}

Result<Part> m3gm_part(const InstanceFile& f, std::uint32_t i) {
  if (i >= f.instance_count() || f.descriptor(i).tag != make_tag("M3GM") || !has_data(f, i))
    return make_error(kFormat, "M3GM", kNoOffset, fmt::format("instance {} is not an M3GM with data", i)).with_code("oni.m3gm");
  ASSAY_TRY(const ByteView b, f.instance_bytes(i));
  Part m = part_of(f, i, b);
  if (b.size() < M3gmLinks::kSize) return m3gm_error(f, m.label(), m.at, fmt::format("M3GM instance of 0x{:x} bytes, smaller than 0x{:x}", b.size(), M3gmLinks::kSize));
  return m;
}

Result<void> read_arrays(const InstanceFile& f, const Part& m, M3gmGeometry& g) {
  ASSAY_TRY(const auto pnta, link_at(f, m, M3gmLinks::kPoints, "PNTA"));
  ASSAY_TRY(const auto vn, link_at(f, m, M3gmLinks::kVertexNormals, "VCRA"));
  ASSAY_TRY(const auto fn, link_at(f, m, M3gmLinks::kFaceNormals, "VCRA"));
  ASSAY_TRY(const auto txca, link_at(f, m, M3gmLinks::kTexCoords, "TXCA"));
  ASSAY_TRY(const auto strips, link_at(f, m, M3gmLinks::kStrips, "IDXA"));
  ASSAY_TRY(const auto fni, link_at(f, m, M3gmLinks::kFaceNormalIndices, "IDXA"));
  ASSAY_TRY(g.texture, link_at(f, m, M3gmLinks::kTexture, "TXMP", true));
  if (!pnta || !vn || !txca || !strips) return m3gm_error(f, m.label(), m.at, "M3GM without points, vertex normals, texture coordinates or strips");
  ASSAY_CHECK(read_points(f, *pnta, g));
  ASSAY_TRY(g.normals, vec3_array(f, *vn, 0x1C));
  ASSAY_TRY(g.uvs, read_uvs(f, *txca));
  ASSAY_TRY(const auto raw, index_array(f, *strips));
  g.strips = split_strips(raw);
  if (fn && fni) {
    ASSAY_TRY(g.face_normals, vec3_array(f, *fn, 0x1C));
    ASSAY_TRY(g.face_normal_indices, index_array(f, *fni));
  }
  return {};
}

}  // namespace

Result<M3gmGeometry> decode_m3gm(const InstanceFile& f, std::uint32_t i) {
  ASSAY_TRY(const Part m, m3gm_part(f, i));
  M3gmGeometry g;
  g.name = m.label();
  ASSAY_CHECK(read_arrays(f, m, g));
  if (g.texture) g.texture_name = std::string(name_of(f, *g.texture));
  ASSAY_CHECK(check_counts(f, m, g));
  make_triangles(g);
  return g;
}

Result<M3gmGeometry> decode_m3gm(const LoadedFile& f, std::uint32_t i) { return decode_m3gm(f.file, i); }

Result<M3gmCounts> m3gm_counts(const InstanceFile& f, std::uint32_t i) {
  ASSAY_TRY(const Part m, m3gm_part(f, i));
  ASSAY_TRY(const auto pnta, link_at(f, m, M3gmLinks::kPoints, "PNTA"));
  ASSAY_TRY(const auto strips, link_at(f, m, M3gmLinks::kStrips, "IDXA"));
  ASSAY_TRY(const auto txmp, link_at(f, m, M3gmLinks::kTexture, "TXMP", true));
  if (!pnta || !strips) return m3gm_error(f, m.label(), m.at, "M3GM without points or strips");
  M3gmCounts c;
  ASSAY_CHECK(array_part(f, *pnta, 0x3C, 12, c.vertices));
  std::uint32_t n = 0;
  ASSAY_TRY(const Part s, array_part(f, *strips, 0x1C, 4, n));
  std::uint32_t run = 0;  // indices in the current strip (OBD:IDXA: the high bit starts one)
  for (std::uint32_t k = 0; k < n; ++k) {
    run = (k == 0 || (u32_at(s.bytes, 0x20 + 4ull * k) & kStripStart)) ? 1 : run + 1;
    c.triangles += run >= 3;
  }
  if (txmp) c.texture = std::string(name_of(f, *txmp));
  return c;
}

}  // namespace assay::oni
