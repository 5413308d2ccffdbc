// The igz family's functions shared by its descriptor (family.cc), its Container and the Format
// record (format.cc).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "assay/container.h"
#include "assay/core/diag.h"
#include "assay/core/input.h"

namespace assay::igz {

// Confidence that `in` is an igz: 100 for versions 5-10, 60 for the magic alone.
int identify_input(const Input& in);
// Every problem of the file (spec: alchemy.md#verify-igz), with progress over its bytes when
// opt.progress.
void verify_input(const Input& in, const assay::ContainerOptions& opt, Diagnostics& out);
// The demo files of `assay make-samples`.
Result<std::vector<std::string>> write_sample_files(const std::filesystem::path& dir);

}  // namespace assay::igz
