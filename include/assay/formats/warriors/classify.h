// The WAD entry classifier. spec: warriors.md#wr-8 (kinds K1-K15, tested in order), #wr-9.
// Reads only headers and the few bytes each test needs: a container's chunk data is never read.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "assay/core/bytes.h"

namespace assay::warriors {

enum class EntryKind : std::uint8_t {
  pack,             // K1 .pak
  world_part,       // K2 <world>_ms<i>.sec
  resource,         // K3 standalone resource
  world_stream,     // K4 <world>_sec.wld
  world_manifest,   // K5 <world>_sec.mem
  old_renderware,   // K6 stamp 0x1803FFFF
  lua,              // K7 Lua 4.0 bytecode
  scene_record,     // K8 .scn
  sound_bank_index, // K9 .msd
  font_metrics,     // K10
  icon,             // K11 .ico
  bitmap,           // K12
  text,             // K13 _objs.txt
  sound_bank,       // K14 ADPCM (.msb)
  other,            // K15
};
inline constexpr int kEntryKindCount = 15;
std::string_view to_string(EntryKind k);
bool is_container(EntryKind k);  // pack or resource

// `name` (the basename, when known) adds K2's own-name hash check.
EntryKind classify_entry(ByteView entry, std::optional<std::string_view> name = std::nullopt);
// The kind a file name's extension implies (spec: #wr-8-1 "when a name is known"), if any.
std::optional<EntryKind> kind_from_name(std::string_view name);

}  // namespace assay::warriors
