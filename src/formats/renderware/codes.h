// Internal: the stable codes of renderware problems (docs/cli.md "### renderware" under
// "## Codes"): the spec's rule id (renderware.md#rw-9, R1-R22) where the rule is named,
// else "renderware.<what>".
#pragma once

#include <string>
#include <string_view>

#include "assay/core/diag.h"
#include "assay/core/error.h"

namespace assay::rw::detail {

// The rule a message names at its end ("... (R5)" -> "R5"); "" when it names none.
inline std::string_view rule_of(std::string_view message) {
  if (message.size() < 4 || message.back() != ')') return {};
  const auto open = message.rfind("(R");
  if (open == std::string_view::npos) return {};
  const std::string_view id = message.substr(open + 1, message.size() - open - 2);
  if (id.size() < 2 || id.size() > 3) return {};
  for (std::size_t i = 1; i < id.size(); ++i)
    if (id[i] < '0' || id[i] > '9') return {};
  return id;
}

// `e` with its code set where it is made: the rule its message names, else `fallback`. A code
// already set stays.
inline Error coded(Error e, std::string_view fallback) {
  if (!e.code.empty()) return e;
  const std::string_view rule = rule_of(e.message);
  e.code = std::string(rule.empty() ? fallback : rule);
  return e;
}

// A renderware error at `offset` in `structure`, coded as above.
inline Error rw_error(std::string structure, std::uint64_t offset, std::string message, std::string_view fallback) {
  return coded(make_error("renderware", structure, offset, std::move(message)), fallback);
}

// Copies `from` to `to`, every problem without a code given `fallback` (problems of the shared
// readers, e.g. a field past the end of its record).
inline void append_coded(const Diagnostics& from, Diagnostics& to, std::string_view fallback) {
  for (const Diagnostic& d : from.items()) to.add({d.severity, coded(d.where, fallback)});
}

}  // namespace assay::rw::detail

namespace assay::rw {
using detail::coded;
using detail::rw_error;
}  // namespace assay::rw
