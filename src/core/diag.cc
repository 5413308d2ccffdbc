#include "assay/core/diag.h"

#include <algorithm>

namespace assay {

std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::note: return "note";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
  }
  return "error";
}

std::size_t Diagnostics::count(Severity s) const {
  return static_cast<std::size_t>(
      std::count_if(items_.begin(), items_.end(), [s](const Diagnostic& d) { return d.severity == s; }));
}

void Diagnostics::append(const Diagnostics& other) {
  items_.insert(items_.end(), other.items_.begin(), other.items_.end());
}

}  // namespace assay
