// Small helpers for reporting igz findings through a DiagSink (internal).
#pragma once

#include <fmt/format.h>

#include <cctype>

#include <string>
#include <string_view>

#include "assay/core/codes.h"
#include "assay/core/diag.h"
#include "assay/formats/igz/igz.h"

namespace assay::igz::detail {

// The stable code of a problem (docs/cli.md#codes): "igz.<structure>", named after the structure
// it is about with indexes and numbers left out ("object[3] field 0x10" -> "igz.object-field"),
// "igz.file" when nothing is left.
inline std::string structure_code(std::string_view structure) { return assay::structure_code("igz", structure, "file"); }

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
