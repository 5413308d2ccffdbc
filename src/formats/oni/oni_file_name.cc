// .oni file names: the full instance name with characters illegal in file names as %XX
// (spec: oni.md#oni-8; OniSplit's convention).
#include <fmt/format.h>

#include "assay/formats/oni/oni.h"

namespace assay::oni {

std::string oni_file_name(std::string_view full) {
  std::string s;
  for (char ch : full) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c >= 0x7F || std::string_view("\\/:*?\"<>|%").find(ch) != std::string_view::npos)
      s += fmt::format("%{:02X}", c);
    else
      s += ch;
  }
  if (!s.empty() && s[0] == '.') s = "%2E" + s.substr(1);  // never "." or ".."
  return s + ".oni";
}

std::string oni_name_from_file(std::string_view stem) {
  std::string s;
  auto hexv = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (std::size_t i = 0; i < stem.size(); ++i) {
    if (stem[i] == '%' && i + 2 < stem.size() + 0 && hexv(stem[i + 1]) >= 0 && hexv(stem[i + 2]) >= 0) {
      s += static_cast<char>(hexv(stem[i + 1]) * 16 + hexv(stem[i + 2]));
      i += 2;
    } else {
      s += stem[i];
    }
  }
  return s;
}

}  // namespace assay::oni
