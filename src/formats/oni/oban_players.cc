// Who names an OBAN (oban.h): OBOA objects, DOOR and TRIG classes, OBDC door class entries, read
// from their bytes at the offsets of data/oni/templates.txt (OBOA BFW#50, DOOR BFW#42, TRIG BFW#45,
// OBDC BFW#49; OniSplit InstanceMetadata agrees: DOORInstance "Animation", TRIGInstance
// "Animation", OBDCElement "Animation"). A link is an instance id (index << 8 | 1, spec:
// oni.md#oni-3-7) of an OBAN descriptor of the same file; anything else is not a player (the walk
// reports broken links).
#include <fmt/format.h>

#include "assay/formats/oni/names.h"
#include "assay/formats/oni/oban.h"
#include "linked_parts.h"

namespace assay::oni {

namespace oban_players_detail {  // named: the unity build joins these files

using detail::u32_at;

std::uint16_t le16(ByteView b, std::uint64_t at) { return load<std::uint16_t>(b.data() + at, Endian::little); }

// The OBAN a link field names, if it is one.
std::optional<std::uint32_t> oban_of(const InstanceFile& f, ByteView b, std::uint64_t at) {
  if (at + 4 > b.size()) return std::nullopt;
  const std::uint32_t v = u32_at(b, at);
  const std::uint32_t i = v >> 8;
  if ((v & 0xFF) != 1 || i >= f.instance_count() || f.descriptor(i).tag != make_tag("OBAN")) return std::nullopt;
  return i;
}

// The u16-counted array of instance bytes b (count at 0x1E, `elem`-byte elements from 0x20), or 0
// elements when the count overruns the bytes.
std::uint32_t short_array_count(ByteView b, std::uint32_t elem) {
  if (b.size() < 0x20) return 0;
  const std::uint32_t n = le16(b, 0x1E);
  return n <= (b.size() - 0x20) / elem ? n : 0;
}

// Calls visit(oban, player) for every OBAN link of a player instance of f, in instance order.
template <class Visit>
void each_player(const InstanceFile& f, Visit&& visit) {
  const std::uint32_t oboa = make_tag("OBOA"), door = make_tag("DOOR"), trig = make_tag("TRIG"), obdc = make_tag("OBDC");
  for (std::uint32_t i = 0; i < f.instance_count(); ++i) {
    const std::uint32_t tag = f.descriptor(i).tag;
    if (tag != oboa && tag != door && tag != trig && tag != obdc) continue;
    if (!detail::has_data(f, i)) continue;
    const ByteView b = *f.instance_bytes(i);
    const auto one = [&](std::uint64_t at, std::uint32_t element) {
      if (const auto o = oban_of(f, b, at)) visit(*o, ObanPlayer{tag, i, element});
    };
    if (tag == door) one(DoorFields::kAnimation, 0);
    else if (tag == trig) one(TrigFields::kAnimation, 0);
    else if (tag == oboa)
      for (std::uint32_t k = 0, n = short_array_count(b, OboaFields::kElement); k < n; ++k)
        one(OboaFields::kFirst + std::uint64_t{OboaFields::kElement} * k + OboaFields::kAnimation, k);
    else
      for (std::uint32_t k = 0, n = short_array_count(b, ObdcFields::kElement); k < n; ++k)
        one(ObdcFields::kFirst + std::uint64_t{ObdcFields::kElement} * k + ObdcFields::kAnimation, k);
  }
}

}  // namespace oban_players_detail

std::vector<ObanPlayer> oban_players(const InstanceFile& f, std::uint32_t oban) {
  std::vector<ObanPlayer> out;
  oban_players_detail::each_player(f, [&](std::uint32_t o, const ObanPlayer& p) {
    if (o == oban) out.push_back(p);
  });
  return out;
}

std::map<std::uint32_t, std::vector<ObanPlayer>> oban_player_index(const InstanceFile& f) {
  std::map<std::uint32_t, std::vector<ObanPlayer>> out;
  oban_players_detail::each_player(f, [&](std::uint32_t o, const ObanPlayer& p) { out[o].push_back(p); });
  return out;
}

void print_oban_players(FieldPrinter& p, const std::vector<ObanPlayer>& players) {
  std::uint64_t objects = 0, doors = 0, triggers = 0, entries = 0;
  for (const ObanPlayer& q : players)
    if (q.tag == make_tag("OBOA")) ++objects;
    else if (q.tag == make_tag("DOOR")) ++doors;
    else if (q.tag == make_tag("TRIG")) ++triggers;
    else ++entries;
  p.field("oboa_objects", objects).field("door_classes", doors).field("trigger_classes", triggers).field("door_class_entries", entries);
}

}  // namespace assay::oni
