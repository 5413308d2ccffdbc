// What `list` shows of an ONCC without walking the level (character.h character_counts): the
// same links as character_scene follows, inside this file only (a placeholder ends the count).
#include <fmt/format.h>

#include <set>

#include "assay/formats/oni/names.h"
#include "character_parts.h"

namespace assay::oni {

namespace {

using character_detail::le16;
using character_detail::link_target;

// Instance i's bytes, when it has data here and holds `size` bytes.
Result<ByteView> counted_bytes(const InstanceFile& f, std::uint32_t i, std::uint32_t size) {
  if (!f.descriptor(i).placeholder()) {
    auto b = f.instance_bytes(i);
    if (b && b->size() >= size) return *b;
  }
  return make_error(kFormat, "instance", kNoOffset, fmt::format("instance {} has no data here", i)).with_code("oni.character");
}

Result<std::uint32_t> counted_parts(const InstanceFile& f, std::uint32_t oncc, ByteView ob) {
  ASSAY_TRY(const auto trbs, link_target(f, oncc, ob, OnccFields::kBody, make_tag("TRBS")));
  if (!trbs) return make_error(kFormat, "ONCC", kNoOffset, "no body").with_code("oni.character");
  ASSAY_TRY(const ByteView tb, counted_bytes(f, *trbs, TrbsFields::kSize));
  for (std::uint32_t k = TrbsFields::kBodies; k-- > 0;) {
    ASSAY_TRY(const auto trcm, link_target(f, *trbs, tb, TrbsFields::kFirstBody + 4 * k, make_tag("TRCM")));
    if (!trcm) continue;
    ASSAY_TRY(const ByteView cb, counted_bytes(f, *trcm, TrcmFields::kSize));
    return std::uint32_t{le16(cb, TrcmFields::kPartCount)};
  }
  return make_error(kFormat, "TRBS", kNoOffset, "no TRCM").with_code("oni.character");
}

Result<void> count_tram(const InstanceFile& f, std::uint32_t i, CharacterCounts& c) {
  ASSAY_TRY(const ByteView b, counted_bytes(f, i, TramFields::kSize));
  ++c.animations;
  c.frames += le16(b, TramFields::kFrames);
  return {};
}

}  // namespace

Result<CharacterCounts> character_counts(const InstanceFile& f, std::uint32_t oncc) {
  if (oncc >= f.instance_count() || f.descriptor(oncc).tag != make_tag("ONCC"))
    return make_error(kFormat, "ONCC", kNoOffset, fmt::format("instance {} is not an ONCC", oncc)).with_code("oni.character");
  ASSAY_TRY(const ByteView ob, counted_bytes(f, oncc, OnccFields::kSize));
  CharacterCounts c;
  ASSAY_TRY(c.bones, counted_parts(f, oncc, ob));
  ASSAY_TRY(auto trac, link_target(f, oncc, ob, OnccFields::kAnimations, make_tag("TRAC")));
  if (!trac) {  // no collection: the TRAMs with the body's bone count (character_animations)
    for (std::uint32_t i = 0; i < f.instance_count(); ++i)
      if (f.descriptor(i).tag == make_tag("TRAM"))
        if (auto b = counted_bytes(f, i, TramFields::kSize); b && le16(*b, TramFields::kBones) == c.bones) ASSAY_CHECK(count_tram(f, i, c));
    return c;
  }
  std::set<std::uint32_t> seen, collections;
  while (trac && collections.insert(*trac).second) {
    ASSAY_TRY(const ByteView b, counted_bytes(f, *trac, TracFields::kFirst));
    const std::uint32_t n = le16(b, TracFields::kCount);
    if (n > (b.size() - TracFields::kFirst) / TracFields::kElement) return make_error(kFormat, "TRAC", kNoOffset, "count too large").with_code("oni.character");
    for (std::uint32_t k = 0; k < n; ++k) {
      ASSAY_TRY(const auto tram, link_target(f, *trac, b, TracFields::kFirst + TracFields::kElement * k + TracFields::kAnimation, make_tag("TRAM")));
      if (tram && seen.insert(*tram).second) ASSAY_CHECK(count_tram(f, *tram, c));
    }
    ASSAY_TRY(trac, link_target(f, *trac, b, TracFields::kParent, make_tag("TRAC")));
  }
  return c;
}

}  // namespace assay::oni
