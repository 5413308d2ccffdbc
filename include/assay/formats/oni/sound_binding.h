// Oni OSBD sound bindings: the chunk an OSBD instance points to in the
// .raw (v1.0) or .sep (v1.1) (spec: oni.md#oni-7-1: offset 0x0C, size 0x08), as JSON. A sound group
// (OSGr) is decoded field by field (Oni wiki OBD:OSBD/OSGr: fields appear with the version); an
// ambient (OSAm) or impulse (OSIm) binding gives its tag, size and version only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "assay/core/extract_each.h"
#include "assay/core/output.h"
#include "assay/formats/oni/level_set.h"
#include "assay/options.h"

namespace assay::oni {

struct SoundPermutation {
  static constexpr std::uint32_t kSize = 0x34;
  std::uint32_t weight = 0;
  float min_volume = 1, max_volume = 1, min_pitch = 1, max_pitch = 1;
  std::string sound;  // char[32]: an SNDD name without its tag
};

struct SoundGroup {
  std::uint32_t version = 0;
  float volume = 1, pitch = 1;            // v2+, v3+ (else 1)
  std::uint16_t prevent_repeats = 0;      // v6+ (else 1 for v4-5, 0 below)
  std::uint16_t last_selected = 0;        // v6+
  std::uint32_t channels = 0;
  std::vector<SoundPermutation> permutations;
};

// The OSGr chunk `b` (tag, size, version, fields); `at` names its offset in errors.
Result<SoundGroup> read_sound_group(ByteView b, std::uint64_t at);

// What extract --sounds writes for OSBD i: STEM.json (that JSON, indented).
Result<ExtractCount> write_sound_binding(const LoadedFile& f, std::uint32_t i, const std::string& stem, const OutputDir& dir);

}  // namespace assay::oni
