// igArchive terms and arithmetic: compression and block-table names, the name hash, the
// hash-search divider and slop. spec: alchemy.md#iga-hash, #iga-block-tables, #iga-lookup
#include "assay/formats/igarchive/archive.h"
#include "records.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <thread>

#include "assay/core/hash.h"
#include "assay/core/mapped_file.h"
#include "assay/core/thread_pool.h"
#include "codes.h"

namespace assay::igarchive {

// ---------------------------------------------------------------- names and arithmetic

std::string_view to_string(Compression c) {
  switch (c) {
    case Compression::none: return "none";
    case Compression::deflate: return "deflate";
    case Compression::lzma: return "lzma";
    case Compression::lz4: return "lz4";
    case Compression::stored: return "stored";
  }
  return "unknown";
}

std::optional<Compression> compression_from_string(std::string_view s) {
  for (Compression c : {Compression::none, Compression::deflate, Compression::lzma, Compression::lz4,
                        Compression::stored})
    if (to_string(c) == s) return c;
  return std::nullopt;
}

std::string_view to_string(BlockTable t) {
  switch (t) {
    case BlockTable::small: return "small";
    case BlockTable::medium: return "medium";
    case BlockTable::large: return "large";
  }
  return "?";
}

bool is_known_version(std::uint32_t v) { return v == 4 || v == 8 || (v >= 0x0A && v <= 0x0D); }
std::uint32_t header_size(std::uint32_t v) { return v == 4 ? 0x30 : v == 8 ? 0x34 : 0x38; }
std::uint32_t file_info_size(std::uint32_t v) { return v <= 8 ? 12 : 16; }

// spec: alchemy.md#iga-block-tables
BlockTable table_for_length(std::uint64_t length, std::uint32_t s) {
  if (length <= 0x7Full * s) return BlockTable::small;
  if (length <= 0x7FFFull * s) return BlockTable::medium;
  return BlockTable::large;
}
std::uint32_t entry_bytes(BlockTable t) { return t == BlockTable::small ? 1 : t == BlockTable::medium ? 2 : 4; }
std::uint32_t flag_bit(BlockTable t) {
  return t == BlockTable::small ? 0x80u : t == BlockTable::medium ? 0x8000u : 0x80000000u;
}
std::uint64_t block_count(std::uint64_t length) { return (length + kBlockSize - 1) / kBlockSize; }
std::uint32_t block_usize(std::uint64_t length, std::uint64_t j) {
  const std::uint64_t start = j * kBlockSize;
  if (start >= length) return 0;
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(kBlockSize, length - start));
}

// spec: alchemy.md#iga-hash (igRewrite8 HashFilePath): with flags bit 0, '\\' -> '/' and ASCII
// lower-case; with bit 1, only the part after the last separator; then leading separators are
// dropped. Computed on the fly (no copy): the name-table reader hashes many candidate strings.
std::uint32_t hash_name(std::string_view name, std::uint32_t flags) {
  if (flags & kFlagNameOnly) {
    const auto p = name.find_last_of("/\\");
    if (p != std::string_view::npos) name.remove_prefix(p + 1);
  }
  while (!name.empty() && (name.front() == '/' || name.front() == '\\')) name.remove_prefix(1);
  const bool fold = (flags & kFlagCaseInsensitive) != 0;
  std::uint32_t h = kFnv1aBasis;
  for (char c : name) {
    auto b = static_cast<unsigned char>(c);
    if (fold) {
      if (b == '\\') b = '/';
      else if (b >= 'A' && b <= 'Z') b = static_cast<unsigned char>(b + 32);
    }
    h = (h ^ b) * kFnv1aPrime;
  }
  return h;
}

std::uint32_t divider_for(std::uint64_t n) {
  return n == 0 ? 0xFFFFFFFFu : static_cast<std::uint32_t>(0xFFFFFFFFull / n);
}

// spec: alchemy.md#iga-lookup
std::optional<std::size_t> hash_search(std::span<const std::uint32_t> hashes, std::uint32_t divider,
                                       std::uint32_t slop, std::uint32_t h) {
  const std::uint64_t n = hashes.size();
  const std::uint64_t q = divider == 0 ? 0 : h / divider;
  const std::uint64_t lo = q > slop ? q - slop : 0;
  const std::uint64_t hi = std::min<std::uint64_t>(n, q + slop + 1);
  if (lo >= hi) return std::nullopt;
  auto it = std::lower_bound(hashes.begin() + lo, hashes.begin() + hi, h);
  const auto idx = static_cast<std::size_t>(it - hashes.begin());
  if (idx < n && hashes[idx] == h) return idx;
  return std::nullopt;
}

std::uint32_t minimal_slop(std::span<const std::uint32_t> hashes, std::uint32_t divider) {
  // The search lands on index i when lo <= i <= hi (hi itself is read when every hash in the
  // window is smaller: the game's HashSearcher reads *v11 one past the window, and igRewrite8's
  // CalculateSlop uses the same search). So entry i needs q - i when i < q and i - q - 1 when
  // i > q. Note: spec #bootstrap-rest says a file-1 hash below 0x7FFFFFFF "needs slop 1"; by
  // the #iga-lookup steps (and the original code) slop 0 already finds it.
  std::uint64_t need = 0;
  for (std::size_t i = 0; i < hashes.size(); ++i) {
    const std::uint64_t q = divider == 0 ? 0 : hashes[i] / divider;
    const std::uint64_t d = q > i ? q - i : (i > q ? i - q - 1 : 0);
    need = std::max(need, d);
  }
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(need, 0xFFFFFFFFu));
}

}  // namespace assay::igarchive
