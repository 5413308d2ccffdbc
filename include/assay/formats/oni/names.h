// Oni level file names and file ids (spec: oni.md#oni-2).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "assay/core/error.h"

namespace assay::oni {

inline constexpr std::string_view kFormat = "oni";

// Tag helpers: a tag is a u32 whose big-endian characters spell the four letters
// (spec: oni.md#oni-0); "TXMP" is 0x54584D50.
constexpr std::uint32_t make_tag(const char (&s)[5]) {
  return (std::uint32_t(std::uint8_t(s[0])) << 24) | (std::uint32_t(std::uint8_t(s[1])) << 16) |
         (std::uint32_t(std::uint8_t(s[2])) << 8) | std::uint32_t(std::uint8_t(s[3]));
}
std::string tag_string(std::uint32_t tag);  // "TXMP"; non-printable bytes as '?'
// A tag from exactly four characters; false otherwise.
bool parse_tag(std::string_view s, std::uint32_t& tag);

// The parsed name level<N>_<suffix>.dat (spec: oni.md#oni-2-1).
struct LevelFileName {
  unsigned level = 0;
  std::string suffix;
  bool final = false;       // suffix exactly "Final"
  std::uint32_t hash = 0;   // suffix hash (0 for Final)
  std::uint32_t file_id = 0;
};

// Σ (toupper(c_i) − 0x40) × i, 32-bit wrap-around; 0 for "Final" (spec: oni.md#oni-2-2).
std::uint32_t suffix_hash(std::string_view suffix) noexcept;
// ((hash & 0xFFFFFF) | N << 24) << 1 | 1 (spec: oni.md#oni-2-2).
constexpr std::uint32_t make_file_id(unsigned level, std::uint32_t hash) noexcept {
  return (std::uint32_t(level & 0x7F) << 25) | ((hash & 0xFFFFFFu) << 1) | 1u;
}
constexpr unsigned file_id_level(std::uint32_t id) noexcept { return (id >> 25) & 0x7F; }

// Names containing "_tools.dat" or "_Tools.dat" are skipped by the engine (spec: oni.md#oni-2-1).
bool is_tools_file(std::string_view file_name) noexcept;
// Parses a bare file name (no folder). Errors: not level<1-3 digits>_, level above 127,
// no '.' after the suffix, suffix bytes outside 0x20-0x7E.
Result<LevelFileName> parse_level_file_name(std::string_view file_name);

}  // namespace assay::oni
