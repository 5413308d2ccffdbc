// spec: oni.md#oni-2 (ON: TMrUtility_LevelInfo_Get 0x420590; BFW TMiGame_InstanceFileRef_Add).
#include "assay/formats/oni/names.h"

#include <fmt/format.h>

namespace assay::oni {

std::string tag_string(std::uint32_t tag) {
  std::string s(4, '?');
  for (int i = 0; i < 4; ++i) {
    const auto c = static_cast<unsigned char>(tag >> (24 - 8 * i));
    if (c >= 0x20 && c < 0x7F) s[static_cast<std::size_t>(i)] = static_cast<char>(c);
  }
  return s;
}

bool parse_tag(std::string_view s, std::uint32_t& tag) {
  if (s.size() != 4) return false;
  tag = 0;
  for (char c : s) tag = (tag << 8) | static_cast<unsigned char>(c);
  return true;
}

std::uint32_t suffix_hash(std::string_view suffix) noexcept {
  if (suffix == "Final") return 0;  // case-sensitive: "final" is hashed
  std::uint32_t h = 0, i = 1;
  for (char ch : suffix) {
    auto c = static_cast<unsigned char>(ch);
    if (c >= 'a' && c <= 'z') c = static_cast<unsigned char>(c - 32);
    h += (static_cast<std::uint32_t>(c) - 0x40u) * i++;  // negative terms wrap (spec: oni.md#oni-2-2)
  }
  return h;
}

bool is_tools_file(std::string_view n) noexcept {
  return n.find("_tools.dat") != std::string_view::npos || n.find("_Tools.dat") != std::string_view::npos;
}

Result<LevelFileName> parse_level_file_name(std::string_view name) {
  auto bad = [&](std::string why) {
    Error e = make_error(kFormat, "file name", kNoOffset, std::move(why));
    e.file = std::string(name);
    return e;
  };
  if (name.substr(0, 5) != "level") return bad("not a level<N>_<suffix>.dat name");
  const auto us = name.find('_');
  if (us == std::string_view::npos) return bad("no '_' after the level number");
  const auto digits = name.substr(5, us - 5);
  if (digits.empty() || digits.size() > 3) return bad("level number must have 1 to 3 digits");
  unsigned level = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return bad("level number is not decimal");
    level = level * 10 + static_cast<unsigned>(c - '0');
  }
  if (level > 127) return bad(fmt::format("level {} above 127", level));
  const auto dot = name.find('.', us + 1);
  if (dot == std::string_view::npos) return bad("no '.' after the suffix");
  LevelFileName out;
  out.level = level;
  out.suffix = std::string(name.substr(us + 1, dot - us - 1));
  for (char c : out.suffix) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u > 0x7E) return bad(fmt::format("suffix byte 0x{:02x} is not ASCII 0x20-0x7e", u));
  }
  out.final = out.suffix == "Final";
  out.hash = suffix_hash(out.suffix);
  out.file_id = make_file_id(level, out.hash);
  return out;
}

}  // namespace assay::oni
