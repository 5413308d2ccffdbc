// Stable problem codes of the igarchive family (docs/cli.md#codes): "igarchive.<structure>",
// named after the structure the problem is about with its indexes left out ("file[3] block 2"
// -> "igarchive.file-block"), unless the problem already carries one.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

#include "assay/core/codes.h"
#include "assay/core/diag.h"
#include "assay/core/error.h"

namespace assay::igarchive::detail {

// "<family>.<kebab structure>" (core/codes.h); "<family>.archive" when nothing is left.
inline std::string structure_code(std::string_view family, std::string_view structure) {
  return assay::structure_code(family, structure, "archive");
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
