// spec: alchemy.md#iga-writer rule 1 (keep the input's names, times, ordinals) for --like.
#include "assay/formats/igarchive/pack.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "assay/core/folder.h"
#include "assay/core/output.h"

namespace assay::igarchive {

namespace fs = std::filesystem;

namespace {

// Regular files only, never through a symlink, never blocking (core/folder.h).
Result<ByteBuffer> slurp(const fs::path& dir, const std::string& rel) { return read_file_beneath(dir, rel); }

Result<std::vector<std::string>> relative_files(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return io_error(dir.string(), "is not a folder");
  return regular_files_under(dir);  // refuses symlinks, FIFOs, devices, naming them
}

}  // namespace

Result<std::vector<WriterFile>> files_from_directory(const fs::path& dir, Compression c) {
  ASSAY_TRY(std::vector<std::string> rel, relative_files(dir));
  std::vector<WriterFile> out;
  for (const auto& r : rel) {
    ASSAY_TRY(ByteBuffer data, slurp(dir, r));
    out.push_back({.name = r, .data = std::move(data), .compression = c});
  }
  return out;
}

Result<std::vector<WriterFile>> files_like(const Archive& a, const fs::path& dir, Compression extra,
                                           std::vector<std::string>* added) {
  std::vector<WriterFile> out = entries_like(a);
  std::set<std::string> used;
  std::uint32_t max_ord = 0;
  for (WriterFile& w : out) {
    ASSAY_TRY(std::string rel, sanitize_relative_path(w.name));
    const fs::path p = dir / rel;
    std::error_code ec;
    if (!fs::is_regular_file(p, ec))
      return io_error(p.string(), fmt::format("missing: the original has '{}'", w.name));
    ASSAY_TRY(ByteBuffer data, slurp(dir, rel));
    w.data = std::move(data);
    used.insert(rel);
    if (w.ordinal) max_ord = std::max(max_ord, *w.ordinal);
  }
  ASSAY_TRY(std::vector<std::string> rel, relative_files(dir));
  for (const auto& r : rel) {
    if (used.count(r)) continue;
    ASSAY_TRY(ByteBuffer data, slurp(dir, r));
    out.push_back({.name = r, .data = std::move(data), .compression = extra, .ordinal = ++max_ord});
    if (added) added->push_back(r);
  }
  return out;
}

}  // namespace assay::igarchive
