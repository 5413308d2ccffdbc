// The Oni family's demo files, made with its own writers.
#pragma once

#include <filesystem>
#include <string>
#include <vector>
#include "assay/core/error.h"

namespace assay::oni {

// The demo's synthetic layouts (spec illustrations ZPTS/ZTEX/ZLST plus ZANM and a TXMP layout
// built from spec oni.md#oni-9-1): not Oni's real layouts.
std::string sample_layouts_text();
// level0_Final.dat/.raw, level1_X.dat and oni-layouts.txt in `dir`.
Result<std::vector<std::string>> write_sample_files(const std::filesystem::path& dir);

}  // namespace assay::oni
