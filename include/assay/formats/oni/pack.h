// `assay pack oni`: a level from .oni files.
#pragma once

#include <filesystem>
#include "assay/core/diag.h"
#include "assay/formats/oni/layout.h"

namespace assay::oni {

struct PackOptions {
  bool sep = false;    // write a .sep (required when any instance has .sep data)
  bool force = false;
  bool progress = false;  // a bar on stderr over the .oni files' bytes as they load (core Progress)
};
struct PackStats {
  std::uint64_t instances = 0, placeholders = 0, oni_files = 0;
};
// `assay pack oni -o levelN_X.dat DIR`: .dat + .raw (+ .sep) from the .oni files under DIR.
Result<PackStats> pack_level(const std::filesystem::path& dir, const std::filesystem::path& out_dat, const LayoutSource& layouts,
                             const PackOptions& opt, Diagnostics& diags);

}  // namespace assay::oni
