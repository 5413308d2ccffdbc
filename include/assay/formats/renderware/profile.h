// A reader profile: what one game's own RenderWare reader accepts, beyond RenderWare itself
// (spec: renderware.md#rw-9 rules R13, R14, R17, R22). RenderWare knows no game: the code of a
// game family supplies its profile (the Warriors chunk handlers supply theirs in
// src/formats/warriors); nullptr / generic_profile() is plain RenderWare 3.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "assay/core/diag.h"

namespace assay::rw {

struct Profile {
  std::string name = "RenderWare 3";  // "the <name> reader" in messages
  // R14: texture natives outside these versions (inclusive) are refused: an error.
  std::uint32_t min_texture_version = 0x30000, max_texture_version = 0x3FFFF;
  // R13: the PS2 raster formats the game's files hold; empty = any. Another one is reported at
  // `raster_severity`.
  std::vector<std::uint32_t> ps2_raster_formats;
  Severity raster_severity = Severity::warning;
  // R17: a Native Data (0x510) struct whose inner size exceeds its body.
  Severity native_data_size = Severity::warning;
  // Plugin section ids the game registers (raw sections; not R22 "unknown"), with their names.
  std::vector<std::pair<std::uint32_t, std::string>> plugins;

  [[nodiscard]] bool accepts_texture_version(std::uint32_t version) const {
    return version >= min_texture_version && version <= max_texture_version;
  }
  // The profile's name for a plugin id, empty when it registers none.
  [[nodiscard]] std::string_view plugin_name(std::uint32_t id) const {
    for (const auto& [pid, n] : plugins)
      if (pid == id) return n;
    return {};
  }
};

// Plain RenderWare 3: every version 3.x, every raster format, R17 a warning, no plugins.
const Profile& generic_profile();
// `p` or, when null, the generic profile.
inline const Profile& profile_or_generic(const Profile* p) { return p ? *p : generic_profile(); }

}  // namespace assay::rw
