// Library operations: what `assay`, the Python module and the viewer do, written once here and
// called by each (they only parse arguments and print the results).
#pragma once

#include <vector>

#include "assay/container.h"
#include "assay/core/extract_each.h"

namespace assay {

// ---- extract ---------------------------------------------------------------------------------
// The extract items of `c` (core/extract_each.h): globs match an entry's name and the path it is
// written at; --skip-existing looks at that path; progress counts the sizes.
std::vector<ExtractItem> extract_items(const Container& c, bool stored = false);
// x's selection over `c`: exact names through find() (hash spellings, build paths, "#INDEX"),
// globs folding case where the container does, the container's threads and progress.
ExtractPolicy extract_policy(const Container& c, const ExtractOptions& x);
// Writes every selected entry through Container::write_entry (stored bytes, or converted: PNG
// with mips, .oni, ...) in one loop: a bad entry is in ExtractStats::failed and the others are
// written. `findings` receives the problems of the file itself (Container::extract_findings);
// an Error means nothing could start (Container::extractable).
Result<ExtractStats> extract(const Container& c, const ExtractOptions& x, const OutputDir& dir, Diagnostics& findings);

// Transitional: extract_each over c's entries with a writer of the family's own.
ExtractStats extract_entries(const Container& c, const ExtractOptions& x, const OutputDir& dir,
                             const WriteItem& write = {});
Result<ExtractStats> extract_entries(const Input& in, std::string_view family, const ReadOptions& ro,
                                     const ExtractOptions& x, const OutputDir& dir);

}  // namespace assay
