// Small helpers for reporting igz findings through a DiagSink (internal).
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "assay/core/diag.h"
#include "assay/formats/igz/igz.h"

namespace assay::igz::detail {

inline Error err(std::string_view structure, std::uint64_t offset, std::string message) {
  return make_error(kFormatName, structure, offset, std::move(message));
}

// Sends one finding; a null sink drops it.
inline void report(const DiagSink& sink, Severity s, std::string_view structure,
                   std::uint64_t offset, std::string message) {
  if (sink) sink(Diagnostic{s, err(structure, offset, std::move(message))});
}
inline void report(const DiagSink& sink, Severity s, Error e) {
  if (sink) sink(Diagnostic{s, std::move(e)});
}

}  // namespace assay::igz::detail
