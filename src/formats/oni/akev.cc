// Oni AKEV level geometry decoding (Oni wiki OBD:AKEV, OBD:AGQG, OBD:AGQR, OBD:TXMA; issue 27).
// Array templates (data/oni/templates.txt, offsets with the 8-byte instance header): PNTA count at
// 0x3C, 12-byte points from 0x40; TXCA, AGQG, AGQR and TXMA count at 0x1C, elements from 0x20 of
// 8 (two floats), 0x38 (AkevQuad), 4 (u16 texture slot + u16; OniSplit reads the u32 and masks
// 0xFFFF) and 4 (a TXMP link) bytes. OniSplit AkiraDatReader.ReadGeometry/ReadMaterials read the
// same fields (its OpenRead offsets are after the header: 52 = 0x3C - 8, 20 = 0x1C - 8).
#include "assay/formats/oni/akev.h"

#include <fmt/format.h>

#include <bit>

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

Error akev_error(const InstanceFile& f, const std::string& lab, std::uint64_t at, std::string msg, const char* code = "oni.akev") {
  return f.error(lab, at, std::move(msg)).with_code(code);
}

Result<std::optional<std::uint32_t>> link_at(const InstanceFile& f, const Part& a, std::uint64_t field, std::uint32_t tag,
                                             bool placeholder_ok = false) {
  return detail::link_at(f, a, field, tag, "oni.akev", placeholder_ok);
}

// The `elem`-byte elements of linked instance i (detail::array_part), as a view.
Result<ByteView> elements(const InstanceFile& f, std::uint32_t i, std::uint32_t count_at, std::uint32_t elem, std::uint32_t& count) {
  ASSAY_TRY(const Part p, detail::array_part(f, i, count_at, elem, count, "oni.akev"));
  return p.bytes.subspan(count_at + 4, std::size_t{count} * elem);
}

Result<Part> akev_part(const InstanceFile& f, std::uint32_t i) {
  if (i >= f.instance_count() || f.descriptor(i).tag != make_tag("AKEV") || !has_data(f, i))
    return make_error(kFormat, "AKEV", kNoOffset, fmt::format("instance {} is not an AKEV with data", i)).with_code("oni.akev");
  ASSAY_TRY(const ByteView b, f.instance_bytes(i));
  Part a = part_of(f, i, b);
  if (b.size() < AkevLinks::kSize)
    return akev_error(f, a.label(), a.at, fmt::format("AKEV instance of 0x{:x} bytes, smaller than 0x{:x}", b.size(), AkevLinks::kSize));
  return a;
}

// TXMA: one TXMP link per slot (a placeholder is fine: level 0 holds its pixels).
Result<void> read_textures(const InstanceFile& f, std::uint32_t txma, AkevGeometry& g) {
  std::uint32_t n = 0;
  ASSAY_CHECK(elements(f, txma, 0x1C, 4, n));
  const Part t = part_of(f, txma, *f.instance_bytes(txma));
  g.textures.reserve(n);
  for (std::uint32_t k = 0; k < n; ++k) {
    ASSAY_TRY(auto tx, link_at(f, t, 0x20 + 4ull * k, make_tag("TXMP"), true));
    g.textures.push_back(tx);
    g.texture_names.emplace_back(tx ? name_of(f, *tx) : std::string_view{});
  }
  return {};
}

Result<void> read_arrays(const InstanceFile& f, const Part& a, AkevGeometry& g) {
  ASSAY_TRY(const auto pnta, link_at(f, a, AkevLinks::kPoints, make_tag("PNTA")));
  ASSAY_TRY(const auto txca, link_at(f, a, AkevLinks::kTexCoords, make_tag("TXCA")));
  ASSAY_TRY(const auto agqg, link_at(f, a, AkevLinks::kQuads, make_tag("AGQG")));
  ASSAY_TRY(const auto agqr, link_at(f, a, AkevLinks::kQuadRender, make_tag("AGQR")));
  ASSAY_TRY(const auto txma, link_at(f, a, AkevLinks::kTextures, make_tag("TXMA")));
  if (!pnta || !txca || !agqg || !agqr || !txma)
    return akev_error(f, a.label(), a.at, "AKEV without points, texture coordinates, quads, quad textures or textures");
  ASSAY_TRY(g.points, elements(f, *pnta, 0x3C, 12, g.point_count));
  ASSAY_TRY(g.uvs, elements(f, *txca, 0x1C, 8, g.uv_count));
  ASSAY_TRY(g.quads, elements(f, *agqg, 0x1C, AkevQuad::kSize, g.quad_count));
  std::uint32_t render = 0;
  ASSAY_TRY(g.render, elements(f, *agqr, 0x1C, 4, render));
  if (render != g.quad_count)
    return akev_error(f, a.label(), a.at + AkevLinks::kQuadRender, fmt::format("{} quad textures (AGQR) for {} quads (AGQG)", render, g.quad_count));
  return read_textures(f, *txma, g);
}

// The first quad with an index outside PNTA/TXCA or a slot outside TXMA, as an error at its field.
Result<void> check_quads(const InstanceFile& f, const AkevGeometry& g, std::uint32_t agqg, std::uint32_t agqr) {
  for (std::uint32_t k = 0; k < g.quad_count; ++k) {
    const AkevQuad q = g.quad(k);
    const std::size_t corners = q.triangle() ? 3 : 4;
    for (std::size_t c = 0; c < corners; ++c) {
      if (q.points[c] < g.point_count && q.uvs[c] < g.uv_count) continue;
      const Part p = part_of(f, agqg, *f.instance_bytes(agqg));
      const bool pt = q.points[c] >= g.point_count;
      return akev_error(f, p.label(), p.at + 0x20 + std::uint64_t{AkevQuad::kSize} * k + (pt ? 0 : 16) + 4 * c,
                        pt ? fmt::format("quad {} corner {}: point {} outside the {} points", k, c, q.points[c], g.point_count)
                           : fmt::format("quad {} corner {}: texture coordinate {} outside the {}", k, c, q.uvs[c], g.uv_count),
                        "oni.akev-quad");
    }
    if (q.texture >= g.textures.size()) {
      const Part p = part_of(f, agqr, *f.instance_bytes(agqr));
      return akev_error(f, p.label(), p.at + 0x20 + 4ull * k,
                        fmt::format("quad {}: texture {} outside the {} TXMA textures", k, q.texture, g.textures.size()), "oni.akev-texture");
    }
  }
  return {};
}

}  // namespace

std::size_t AkevQuad::triangles(std::array<std::array<std::uint8_t, 3>, 4>& out) const {
  std::size_t n = 0;
  const auto add = [&](std::uint8_t a, std::uint8_t b, std::uint8_t c) {
    if (points[a] == points[b] || points[b] == points[c] || points[a] == points[c]) return;
    out[n++] = {a, b, c};
    if (flags & kTwoSided) out[n++] = {a, c, b};
  };
  add(0, 1, 2);
  if (!triangle()) add(0, 2, 3);  // a quad whose 4th corner repeats its 3rd drops this one
  return n;
}

model::Vec3 AkevGeometry::point(std::uint32_t k) const {
  return {f32_at(points, 12ull * k), f32_at(points, 12ull * k + 4), f32_at(points, 12ull * k + 8)};
}

model::Vec2 AkevGeometry::uv(std::uint32_t k) const { return {f32_at(uvs, 8ull * k), f32_at(uvs, 8ull * k + 4)}; }

AkevQuad AkevGeometry::quad(std::uint32_t k) const {
  AkevQuad q;
  const std::uint64_t at = std::uint64_t{AkevQuad::kSize} * k;
  for (int c = 0; c < 4; ++c) {
    q.points[c] = u32_at(quads, at + 4 * c);
    q.uvs[c] = u32_at(quads, at + 16 + 4 * c);
    q.colors[c] = u32_at(quads, at + 32 + 4 * c);
  }
  q.flags = u32_at(quads, at + 48);
  q.object = u32_at(quads, at + 52);
  q.texture = static_cast<std::uint16_t>(u32_at(render, 4ull * k) & 0xFFFF);
  return q;
}

Result<AkevGeometry> decode_akev(const InstanceFile& f, std::uint32_t i) {
  ASSAY_TRY(const Part a, akev_part(f, i));
  AkevGeometry g;
  g.name = a.label();
  ASSAY_CHECK(read_arrays(f, a, g));
  ASSAY_CHECK(check_quads(f, g, u32_at(a.bytes, AkevLinks::kQuads) >> 8, u32_at(a.bytes, AkevLinks::kQuadRender) >> 8));
  return g;
}

Result<AkevGeometry> decode_akev(const LoadedFile& f, std::uint32_t i) { return decode_akev(f.file, i); }

Result<AkevCounts> akev_counts(const InstanceFile& f, std::uint32_t i) {
  ASSAY_TRY(const AkevGeometry g, decode_akev(f, i));
  AkevCounts c{g.point_count, 0, static_cast<std::uint32_t>(g.textures.size())};
  std::array<std::array<std::uint8_t, 3>, 4> tris;
  for (std::uint32_t k = 0; k < g.quad_count; ++k)
    if (const AkevQuad q = g.quad(k); !q.ghost()) c.triangles += static_cast<std::uint32_t>(q.triangles(tris));
  return c;
}

// Every quad checked (decode_akev stops at the first): counts of bad indices and slots.
void verify_akev(const InstanceFile& f, std::uint32_t i, Diagnostics& out) {
  auto ap = akev_part(f, i);
  if (!ap) return out.warning(ap.error());
  const Part& a = *ap;
  AkevGeometry g;
  g.name = a.label();
  if (auto r = read_arrays(f, a, g); !r) return out.warning(r.error());
  std::uint32_t bad_index = 0, bad_slot = 0;
  for (std::uint32_t k = 0; k < g.quad_count; ++k) {
    const AkevQuad q = g.quad(k);
    bool bad = false;
    for (std::size_t c = 0; c < (q.triangle() ? 3u : 4u); ++c) bad |= q.points[c] >= g.point_count || q.uvs[c] >= g.uv_count;
    bad_index += bad;
    bad_slot += q.texture >= g.textures.size();
  }
  if (bad_index)
    out.warning(akev_error(f, a.label(), a.at + AkevLinks::kQuads,
                           fmt::format("{} of {} quads have a point or texture coordinate index outside PNTA ({}) or TXCA ({})", bad_index,
                                       g.quad_count, g.point_count, g.uv_count), "oni.akev-quad"));
  if (bad_slot)
    out.warning(akev_error(f, a.label(), a.at + AkevLinks::kQuadRender,
                           fmt::format("{} of {} quads name a texture outside the {} TXMA textures", bad_slot, g.quad_count, g.textures.size()),
                           "oni.akev-texture"));
}

}  // namespace assay::oni
