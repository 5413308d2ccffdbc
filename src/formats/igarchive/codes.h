// Stable problem codes of the igarchive family (docs/cli.md#codes): "igarchive.<structure>",
// named after the structure the problem is about with its indexes left out ("file[3] block 2"
// -> "igarchive.file-block"), unless the problem already carries one.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

#include "assay/core/diag.h"
#include "assay/core/error.h"

namespace assay::igarchive::detail {

// "<family>.<kebab structure>": lower case, [..] and number-only words dropped, other runs of
// non-alphanumerics as one '-'; "<family>.archive" when nothing is left.
inline std::string structure_code(std::string_view family, std::string_view structure) {
  std::string word, out;
  auto flush = [&] {
    bool number = !word.empty();
    for (char c : word) number = number && std::isdigit(static_cast<unsigned char>(c));
    if (!word.empty() && !number && !std::isdigit(static_cast<unsigned char>(word[0])))
      out += (out.empty() ? "" : "-") + word;
    word.clear();
  };
  int depth = 0;
  for (char c : structure) {
    if (c == '[') ++depth, flush();
    else if (c == ']') depth = depth > 0 ? depth - 1 : 0;
    else if (depth == 0 && std::isalnum(static_cast<unsigned char>(c)))
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (depth == 0) flush();
  }
  flush();
  return std::string(family) + "." + (out.empty() ? "archive" : out);
}

// `e` with its code set from its structure when it has none.
inline Error coded(Error e) {
  if (e.code.empty()) e.code = structure_code("igarchive", e.structure);
  return e;
}

// Every diagnostic of `in` added to `out` with a code.
inline void add_coded(const Diagnostics& in, Diagnostics& out) {
  for (Diagnostic d : in.items()) {
    d.where = coded(std::move(d.where));
    out.add(std::move(d));
  }
}

}  // namespace assay::igarchive::detail
