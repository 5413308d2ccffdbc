// Small helpers for reporting igz findings through a DiagSink (internal).
#pragma once

#include <fmt/format.h>

#include <cctype>

#include <string>
#include <string_view>

#include "assay/core/diag.h"
#include "assay/formats/igz/igz.h"

namespace assay::igz::detail {

// The stable code of a problem (docs/cli.md#codes): "igz.<structure>", named after the structure
// it is about with indexes and numbers left out ("object[3] field 0x10" -> "igz.object-field"),
// "igz.file" when nothing is left.
inline std::string structure_code(std::string_view structure) {
  std::string word, out;
  auto flush = [&] {
    const bool letter = !word.empty() && std::isalpha(static_cast<unsigned char>(word[0])) &&
                        !(word.size() > 1 && word[0] == 'x' && std::isdigit(static_cast<unsigned char>(word[1])));
    if (letter) out += (out.empty() ? "" : "-") + word;
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
  return "igz." + (out.empty() ? std::string("file") : out);
}

// `e` with its code set from its structure when it has none.
inline Error coded(Error e) {
  if (e.code.empty()) e.code = structure_code(e.structure);
  return e;
}

inline Error err(std::string_view structure, std::uint64_t offset, std::string message) {
  return coded(make_error(kFormatName, structure, offset, std::move(message)));
}

// Sends one finding; a null sink drops it.
inline void report(const DiagSink& sink, Severity s, std::string_view structure,
                   std::uint64_t offset, std::string message) {
  if (sink) sink(Diagnostic{s, err(structure, offset, std::move(message))});
}
inline void report(const DiagSink& sink, Severity s, Error e) {
  if (sink) sink(Diagnostic{s, coded(std::move(e))});
}

}  // namespace assay::igz::detail
