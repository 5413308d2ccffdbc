// The igarchive family's functions shared by its descriptor (family.cc), its Container and the
// Format record (format.cc).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "assay/container.h"
#include "assay/core/diag.h"
#include "assay/core/input.h"

namespace assay::igarchive {

// Confidence that `in` is an igArchive: 100 for a known version, 60 for the magic alone.
int identify_input(const Input& in);
// Every problem of the archive (spec: alchemy.md#verify) under the container options.
void verify_input(const Input& in, const assay::ContainerOptions& opt, Diagnostics& out);
// The demo archives of `assay make-samples`.
Result<std::vector<std::string>> write_sample_files(const std::filesystem::path& dir);

}  // namespace assay::igarchive
