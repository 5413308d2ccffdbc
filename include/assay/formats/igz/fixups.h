// Decoded igz fixup tables (spec: alchemy.md#igz-tags, #igz-strings, #igz-packed).
// Strings are views into the file's bytes; nothing is copied.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include "assay/formats/igz/igz.h"

namespace assay::igz {

struct Dependency {  // TDEP
  std::string_view name_space;
  std::string_view path;
  bool build_only = false;  // path starts with "<build>"
};

struct ExternalId {  // EXID: an object in another directory, by FNV-1a hashes
  std::uint32_t name_hash = 0;
  std::uint32_t namespace_hash = 0;
};

struct ExternalName {  // EXNM: an object by two TSTR indices (spec: alchemy.md#igz-externals)
  std::uint32_t namespace_word = 0;  // high half of the u64; bit 31 = named handle
  std::uint32_t name_word = 0;       // low half
  [[nodiscard]] bool handle() const { return (namespace_word & 0x80000000u) != 0; }
  [[nodiscard]] std::uint32_t namespace_index() const { return namespace_word & 0x7FFFFFFFu; }
  // Not masked: a set bit 31 here means the words were swapped (spec Q9).
  [[nodiscard]] std::uint32_t name_index() const { return name_word; }
};

struct MemoryHandle {  // TMHN: an igMemory {size word, data pointer}
  std::uint64_t size_word = 0;
  std::uint64_t data = 0;
};

struct Fixups {
  std::vector<Dependency> dependencies;      // TDEP
  std::vector<std::string_view> strings;     // TSTR
  std::vector<std::string_view> types;       // TMET (the "vtable index" names)
  std::vector<std::uint32_t> type_sizes;     // MTSZ
  std::vector<ExternalId> external_ids;      // EXID
  std::vector<ExternalName> external_names;  // EXNM
  std::vector<MemoryHandle> memory_handles;  // TMHN
  std::optional<std::uint32_t> name_list;    // ONAM: serialized offset of the igNameList
  // NSPC: serialized offset of the igNameList holding the file's own namespace name
  // (spec: alchemy.md#corrections C5; Crash NST / CTR).
  std::optional<std::uint32_t> namespace_list;
  // Runtime lists by tag, decoded to serialized offsets (ROOT holds the chosen reading).
  std::map<std::uint32_t, std::vector<std::uint32_t>> lists;
  // ROOT read both ways (spec: alchemy.md#open Q5); the choice is made against RVTB.
  std::optional<std::uint32_t> root_raw;
  std::optional<std::vector<std::uint32_t>> root_packed;

  [[nodiscard]] const std::vector<std::uint32_t>& list(std::uint32_t tag) const;
  // EXNM indices with the handle bit clear (RNEX's list) and set (RHND's named handles).
  [[nodiscard]] std::vector<std::uint32_t> named_externals() const;
  [[nodiscard]] std::vector<std::uint32_t> named_handles() const;
};

// Decodes every table. Each table's problems go to `sink` (errors leave that table empty;
// decoding carries on with the others).
Fixups decode_fixups(const IgzFile& f, const DiagSink& sink);
// The same, failing at the first error.
Result<Fixups> decode_fixups(const IgzFile& f);

// Reads `count` strings from `data` (spec: alchemy.md#igz-strings): padded to even length when
// `padded`. Errors when a string runs past the data or the count cannot fit.
Result<std::vector<std::string_view>> read_string_table(const ByteReader& data,
                                                        std::uint32_t count, bool padded,
                                                        std::string_view what);

}  // namespace assay::igz
