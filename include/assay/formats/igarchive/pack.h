// `pack igarchive`: writer entries from a folder (new archives, or `--like ORIGINAL`).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "assay/formats/igarchive/writer.h"

namespace assay::igarchive {

// Every regular file under `dir` (recursive, symlinks skipped), sorted by relative path with
// '/' separators; the relative path is the logical name. For v0x0A+ the build path is the same.
Result<std::vector<WriterFile>> files_from_directory(const std::filesystem::path& dir, Compression c);

// The original's entries (order, names, paths, times, ordinals, per-file compression) with the
// bytes of dir/<logical name> (the path `extract` writes). Files in `dir` that the original does
// not have are appended with `extra` compression and listed in *added. A missing file is an error.
Result<std::vector<WriterFile>> files_like(const Archive& original, const std::filesystem::path& dir,
                                           Compression extra, std::vector<std::string>* added = nullptr);

}  // namespace assay::igarchive
