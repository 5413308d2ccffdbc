// ASCII text helpers: file names in game formats compare without case (A-Z only).
#pragma once

#include <algorithm>
#include <string_view>

namespace assay {

[[nodiscard]] constexpr char ascii_lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }

[[nodiscard]] constexpr bool ascii_iequals(std::string_view a, std::string_view b) noexcept {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return ascii_lower(x) == ascii_lower(y); });
}

}  // namespace assay
