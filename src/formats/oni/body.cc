// TRBS bodies (Oni wiki OBD:TRBS, OBD:TRCM, OBD:TRGA, OBD:TRTA, OBD:TRIA, OBD:TRMA; OniSplit
// Oni.Totoro/BodyDatReader.cs): the TRBS's most detailed TRCM, its parts' M3GMs, translations
// (from the parent, in its frame) and hierarchy (TRIA: parent, first child, next sibling; OniSplit
// builds the tree from the child and sibling indices, 0 ending a list).
#include <fmt/format.h>

#include "assay/formats/oni/names.h"
#include "character_parts.h"

namespace assay::oni {

namespace {

using namespace character_detail;

// OniSplit's BodyNode.Names (the wiki's OBD:TRAM/raw0x34 order: pelvis, left leg, right leg, mid,
// chest, neck, head, left arm, right arm).
constexpr const char* kPartNames[] = {"pelvis",     "left_thigh",    "left_calf",      "left_foot",    "right_thigh",
                                      "right_calf", "right_foot",    "mid",            "chest",        "neck",
                                      "head",       "left_shoulder", "left_biceps",    "left_wrist",   "left_handfist",
                                      "right_shoulder", "right_biceps", "right_wrist", "right_handfist"};

std::string part_name(std::size_t k) { return k < std::size(kPartNames) ? kPartNames[k] : fmt::format("part{}", k); }

// The TRBS's last TRCM link (the most detailed body, as OniSplit exports it).
Result<InstanceRef> body_trcm(const LoadedFile& f, std::uint32_t trbs, const LoadedFile* level0) {
  for (std::uint32_t k = TrbsFields::kBodies; k-- > 0;) {
    ASSAY_TRY(const auto r, resolved_link(f, trbs, TrbsFields::kFirstBody + 4 * k, make_tag("TRCM"), level0));
    if (r) return *r;
  }
  return field_error(f, trbs, TrbsFields::kFirstBody, "a TRBS without a TRCM body");
}

// A TXMP link, resolved when its pixels can be had (a texture that cannot is left out).
std::optional<InstanceRef> soft_texture(const LoadedFile& f, std::uint32_t i, std::uint32_t field, const LoadedFile* level0) {
  auto r = resolved_link(f, i, field, make_tag("TXMP"), level0);
  return r ? *r : std::nullopt;
}

struct TriaEntry {
  std::uint8_t parent = 0, child = 0, sibling = 0;
};

// Parents from the first-child and sibling lists; a part listed twice, part 0 or a part past the
// count as a child, or a loop, is an error at the TRIA.
Result<std::vector<std::optional<std::uint32_t>>> body_parents(const InstanceRef& tria, const std::vector<TriaEntry>& e) {
  const std::size_t n = e.size();
  std::vector<std::optional<std::uint32_t>> parent(n);
  const auto bad = [&](std::size_t k, std::string msg) { return field_error(*tria.file, tria.index, 0x20 + 4 * k, std::move(msg)); };
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t c = e[j].child, steps = 0; c != 0; c = e[c].sibling, ++steps) {
      if (c >= n) return bad(j, fmt::format("part {} lists part {} of {} as a child", j, c, n));
      if (parent[c] || c == j || steps >= n) return bad(c, fmt::format("part {} is listed as a child twice (or of itself)", c));
      parent[c] = static_cast<std::uint32_t>(j);
    }
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t up = k, steps = 0;
    while (parent[up] && steps++ <= n) up = *parent[up];
    if (steps > n) return bad(k, fmt::format("part {} is its own ancestor", k));
  }
  return parent;
}

struct BodyArrays {
  InstanceRef trga, trta, tria;
  std::uint32_t parts = 0;
};

Result<BodyArrays> body_arrays(const InstanceRef& trcm, const LoadedFile* level0) {
  const LoadedFile& f = *trcm.file;
  ASSAY_TRY(const ByteView b, sized_bytes(trcm, TrcmFields::kSize));
  ASSAY_TRY(const auto trga, resolved_link(f, trcm.index, TrcmFields::kGeometry, make_tag("TRGA"), level0));
  ASSAY_TRY(const auto trta, resolved_link(f, trcm.index, TrcmFields::kTranslations, make_tag("TRTA"), level0));
  ASSAY_TRY(const auto tria, resolved_link(f, trcm.index, TrcmFields::kHierarchy, make_tag("TRIA"), level0));
  if (!trga || !trta || !tria) return field_error(f, trcm.index, TrcmFields::kGeometry, "a TRCM without its TRGA, TRTA or TRIA");
  BodyArrays a{*trga, *trta, *tria, le16(b, TrcmFields::kPartCount)};
  ASSAY_TRY(const std::uint32_t geometries, array_count(a.trga, 4));
  ASSAY_TRY(const std::uint32_t translations, array_count(a.trta, 12));
  ASSAY_TRY(const std::uint32_t indices, array_count(a.tria, 4));
  if (a.parts == 0 || geometries != a.parts || translations != a.parts || indices != a.parts)
    return field_error(f, trcm.index, TrcmFields::kPartCount,
                       fmt::format("{} parts, with {} geometries, {} translations and {} hierarchy entries", a.parts, geometries, translations, indices));
  return a;
}

Result<void> read_parts(const BodyArrays& a, const LoadedFile* level0, Body& body) {
  const ByteView ta = *a.trta.file->file.instance_bytes(a.trta.index);  // sized by array_count
  const ByteView ia = *a.tria.file->file.instance_bytes(a.tria.index);
  std::vector<TriaEntry> tria(a.parts);
  for (std::uint32_t k = 0; k < a.parts; ++k) tria[k] = {ia[0x20 + 4 * k], ia[0x21 + 4 * k], ia[0x22 + 4 * k]};
  ASSAY_TRY(const auto parents, body_parents(a.tria, tria));
  for (std::uint32_t k = 0; k < a.parts; ++k) {
    BodyPart p;
    p.name = part_name(k);
    p.parent = parents[k];
    p.translation = {lef32(ta, 0x20 + 12 * k), lef32(ta, 0x24 + 12 * k), lef32(ta, 0x28 + 12 * k)};
    ASSAY_TRY(const auto m, resolved_link(*a.trga.file, a.trga.index, 0x20 + 4 * k, make_tag("M3GM"), level0));
    if (!m) return field_error(*a.trga.file, a.trga.index, 0x20 + 4 * k, fmt::format("part {} has no M3GM", k));
    ASSAY_TRY(p.geometry, decode_m3gm(m->file->file, m->index));
    if (p.geometry.texture) p.texture = soft_texture(*m->file, m->index, M3gmLinks::kTexture, level0);
    body.parts.push_back(std::move(p));
  }
  return {};
}

}  // namespace

Result<Body> decode_body(const LoadedFile& f, std::uint32_t trbs, const LoadedFile* level0, std::optional<InstanceRef> textures) {
  if (trbs >= f.has_data.size() || !f.has_data[trbs] || f.file.descriptor(trbs).tag != make_tag("TRBS"))
    return make_error(kFormat, "TRBS", kNoOffset, fmt::format("instance {} is not a TRBS with data", trbs)).with_code("oni.character");
  ASSAY_CHECK(sized_bytes({&f, trbs}, TrbsFields::kSize));
  ASSAY_TRY(const InstanceRef trcm, body_trcm(f, trbs, level0));
  ASSAY_TRY(const BodyArrays arrays, body_arrays(trcm, level0));
  Body body;
  body.name = std::string(f.names[trbs]);
  ASSAY_CHECK(read_parts(arrays, level0, body));
  if (!textures) return body;
  ASSAY_TRY(const std::uint32_t n, array_count(*textures, 4));
  for (std::uint32_t k = 0; k < n && k < body.parts.size(); ++k)  // OniSplit: part k takes TRMA texture k
    if (auto t = soft_texture(*textures->file, textures->index, 0x20 + 4 * k, level0)) body.parts[k].texture = t;
  return body;
}

}  // namespace assay::oni
