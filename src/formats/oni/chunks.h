// Private helpers shared by export and pack: chunk extents in a companion file.
#pragma once

#include <algorithm>
#include <optional>
#include <vector>

#include "assay/formats/oni/level_set.h"

namespace assay::oni::detail {

// The chunk starts of one companion, so a chunk of unknown size runs to the next start or the
// file's end (docs/cli.md: "extract" of .oni files).
struct ChunkStarts {
  std::vector<std::uint32_t> starts;
  void add(std::uint32_t v) { starts.push_back(v); }
  void finish() {
    std::sort(starts.begin(), starts.end());
    starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  }
  [[nodiscard]] std::uint64_t extent(std::uint32_t v, std::optional<std::uint64_t> size, std::uint64_t file_size) const {
    if (size) return *size;
    auto it = std::upper_bound(starts.begin(), starts.end(), v);
    return (it == starts.end() ? file_size : *it) - v;
  }
};

inline ByteView companion_of(const LoadedFile& f, FieldKind kind) {
  return (kind == FieldKind::sep && !f.file.is_oni()) ? f.sep : f.raw;
}

}  // namespace assay::oni::detail
