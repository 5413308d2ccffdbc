// Private: a bound on the diagnostics one file can list, so a hostile file with millions of bad
// descriptors cannot grow memory without limit (docs/cli.md: at most 5,000 per file, then one error).
#pragma once

#include "assay/core/diag.h"

namespace assay::oni::detail {

inline constexpr std::size_t kMaxListed = 5000;

inline void capped(Diagnostics& d, Severity s, Error e) {
  const std::size_t n = d.items().size();
  if (n < kMaxListed) {
    d.add({s, std::move(e)});
  } else if (n == kMaxListed) {
    e.structure.clear();
    e.offset = kNoOffset;
    e.message = "more than 5,000 problems in this file: the rest are not listed";
    d.add({Severity::error, std::move(e)});
  }
}
inline void capped_error(Diagnostics& d, Error e) { capped(d, Severity::error, std::move(e)); }
inline void capped_warning(Diagnostics& d, Error e) { capped(d, Severity::warning, std::move(e)); }
inline void capped_note(Diagnostics& d, Error e) { capped(d, Severity::note, std::move(e)); }

}  // namespace assay::oni::detail
