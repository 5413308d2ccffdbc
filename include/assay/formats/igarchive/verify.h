// igArchive validation: every rule of spec: alchemy.md#verify-iga, each finding with an offset.
#pragma once

#include <string_view>

#include "assay/core/bytes.h"
#include "assay/core/diag.h"

namespace assay::igarchive {

struct VerifyOptions {
  unsigned threads = 0;         // block decoding (0 = all cores)
  bool decode = true;           // decode every block (the codec rules)
  std::uint64_t member_cap = std::uint64_t{1} << 30;
  bool progress = false;        // draw the decoding's progress on stderr (core Progress)
};

// Appends every problem found to `out` (errors, warnings, notes). Never throws, never crashes.
void verify(ByteView data, std::string_view name, const VerifyOptions& opt, Diagnostics& out);

}  // namespace assay::igarchive
