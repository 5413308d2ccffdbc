// spec: alchemy.md#iga-writer rule 1 (keep the input's names, times, ordinals) for --like.
#include "assay/formats/igarchive/pack.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "assay/core/mapped_file.h"
#include "assay/core/output.h"

namespace assay::igarchive {

namespace fs = std::filesystem;

namespace {

Result<ByteBuffer> slurp(const fs::path& p) {
  ASSAY_TRY(MappedFile m, MappedFile::open(p));
  return ByteBuffer(m.bytes().begin(), m.bytes().end());
}

Result<std::vector<std::string>> relative_files(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return io_error(dir.string(), "is not a folder");
  std::vector<std::string> out;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_symlink() || !it->is_regular_file()) continue;
    out.push_back(fs::relative(it->path(), dir).generic_string());
  }
  if (ec) return io_error(dir.string(), "cannot list: " + ec.message());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

Result<std::vector<WriterFile>> files_from_directory(const fs::path& dir, Compression c) {
  ASSAY_TRY(std::vector<std::string> rel, relative_files(dir));
  std::vector<WriterFile> out;
  for (const auto& r : rel) {
    ASSAY_TRY(ByteBuffer data, slurp(dir / r));
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
    ASSAY_TRY(ByteBuffer data, slurp(p));
    w.data = std::move(data);
    used.insert(rel);
    if (w.ordinal) max_ord = std::max(max_ord, *w.ordinal);
  }
  ASSAY_TRY(std::vector<std::string> rel, relative_files(dir));
  for (const auto& r : rel) {
    if (used.count(r)) continue;
    ASSAY_TRY(ByteBuffer data, slurp(dir / r));
    out.push_back({.name = r, .data = std::move(data), .compression = extra, .ordinal = ++max_ord});
    if (added) added->push_back(r);
  }
  return out;
}

}  // namespace assay::igarchive
