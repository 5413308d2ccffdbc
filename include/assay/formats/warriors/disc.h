// WARRIORS.DIR / WARRIORS.WAD: the disc argument, the DIR rows, name hashing and the DIR rules.
// spec: warriors.md#wr-1-2 (disc argument), #wr-2-1 (DIR layout), #wr-2-2 (hashing),
// #wr-2-4 (lookup), #wr-2-5 (D1-D10).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/core/diag.h"
#include "assay/core/input.h"
#include "assay/core/record.h"

namespace assay {
class Siblings;  // assay/family.h
}  // namespace assay

namespace assay::warriors {

inline constexpr std::string_view kFormat = "warriors";
// The RenderWare library stamp of every stream on the disc but five: 3.7.0.2 build 0x000A
// (spec: renderware.md#rw-2-3); the Warriors' writers pass it to the RenderWare writer.
inline constexpr std::uint32_t kRenderWareStamp = 0x1C02000A;
inline constexpr std::uint32_t kSector = 2048;
inline constexpr std::uint64_t kDirHeaderSize = 16;
inline constexpr std::uint64_t kDirRowSize = 12;

// DIR header (#wr-2-1): row count, then 12 bytes the reader does not use (editors keep them).
struct DirHeader {
  static constexpr std::size_t kSize = kDirHeaderSize;  // 16
  std::uint32_t count = 0;
  ByteView unused;
  static constexpr void fields(auto& h, auto&& f) { f(h.count, fixed_bytes<12>(h.unused)); }
};

struct DirRow {
  static constexpr std::size_t kSize = kDirRowSize;  // 12
  std::uint32_t offset = 0, size = 0, hash = 0;
  static constexpr void fields(auto& r, auto&& f) { f(r.offset, r.size, r.hash); }
};

[[nodiscard]] constexpr std::uint64_t align2048(std::uint64_t n) noexcept { return (n + 2047) & ~std::uint64_t{2047}; }
[[nodiscard]] constexpr std::uint64_t align16(std::uint64_t n) noexcept { return (n + 15) & ~std::uint64_t{15}; }

// spec: warriors.md#wr-2-2. "GLOBAL.LUA", "ee_files/Global.lua" -> "./ee_files/global.lua"
// (ASCII A-Z lowercased only; other bytes kept; the game: 0x00143fd8, 0x00143f68).
std::string normalise_name(std::string_view name);
// crc32(normalise_name(name)), or the raw value of "0x" + 1-8 hex digits.
std::uint32_t name_hash(std::string_view name);
// Parses "0x" + 1..8 hex digits.
std::optional<std::uint32_t> parse_hash(std::string_view s);
// The basename a user name refers to ("./ee_files/Global.lua" -> "Global.lua").
std::string_view base_name(std::string_view name);

// One DIR row. spec: warriors.md#wr-2-1
struct DirEntry {
  std::uint32_t index = 0;
  std::uint32_t offset = 0;  // wadOffset
  std::uint32_t size = 0;
  std::uint32_t hash = 0;    // nameHash
};

// Where the DIR and WAD came from (for info).
enum class DiscSource : std::uint8_t { folder, dir_file, iso };
std::string_view to_string(DiscSource s);

// A non-owning view of a DIR and its WAD (both mapped; rows read lazily).
class Disc {
 public:
  // A folder holding both files, a DIR file with the WAD among its siblings (its folder's files,
  // or the entries beside it in a container), or an ISO 9660 image whose root holds both.
  // I/O problems are ErrorKind::io; a bad DIR (D1) is a data error.
  static Result<Disc> open(const Input& in, const Siblings& siblings);
  // The same with the siblings of a file on disk (folder_siblings).
  static Result<Disc> open(const Input& in);
  // From views already in memory (tests, writers). D1 is checked here.
  static Result<Disc> from_views(ByteView dir, ByteView wad, std::shared_ptr<const void> owner = {},
                                 DiscSource source = DiscSource::folder);

  [[nodiscard]] std::uint32_t count() const noexcept { return count_; }
  [[nodiscard]] DirEntry entry(std::uint32_t i) const noexcept;  // i < count(): rows fit (D1)
  [[nodiscard]] ByteView dir_bytes() const noexcept { return dir_; }
  [[nodiscard]] ByteView wad_bytes() const noexcept { return wad_; }
  [[nodiscard]] DiscSource source() const noexcept { return source_; }
  // Keeps the mapped DIR and WAD alive (for inputs that view an entry in place).
  [[nodiscard]] const std::shared_ptr<const void>& owner() const noexcept { return owner_; }
  // WAD[offset, offset + size), or an error naming the row (D5).
  [[nodiscard]] Result<ByteView> entry_bytes(const DirEntry& e) const;
  // spec: warriors.md#wr-2-4: the first row with this hash.
  [[nodiscard]] std::optional<DirEntry> find(std::uint32_t hash) const noexcept;
  // D2-D10 (D1 was checked by open).
  void validate(Diagnostics& out) const;
  // "WAD truncated: ..." (what is missing and where; structure "WAD", offset the WAD's end) when
  // the DIR's rows reach past the WAD's end, as a warning; none otherwise. `info` and `list` show it
  // as a `warning` field and in `problems`, `verify` as an error.
  [[nodiscard]] std::optional<Diagnostic> wad_truncation_warning() const;

 private:
  ByteView dir_, wad_;
  std::uint32_t count_ = 0;
  RecordTable<DirRow> rows_;  // checked whole (D1) before any row is read
  DiscSource source_ = DiscSource::folder;
  std::shared_ptr<const void> owner_;
};

// True when `in` looks like a disc argument (folder / DIR file / ISO with the files); a DIR is
// known by its name, also as an entry of a container. Cheap.
bool looks_like_disc(const Input& in);

// Names from names files: hash (of the normalised name) -> basename as given.
class NameTable {
 public:
  static Result<NameTable> load(const std::vector<std::string>& files);
  void add(std::string_view name);
  [[nodiscard]] const std::string* find(std::uint32_t hash) const;
  [[nodiscard]] std::size_t size() const noexcept { return names_.size(); }

 private:
  std::map<std::uint32_t, std::string> names_;
};

// The file name `extract` writes for an entry: its known name or "<8 hex digits>.bin".
std::string entry_file_name(const DirEntry& e, const NameTable& names);
// The entry a user's selector names (spec: warriors.md#wr-2-4): "0xHASH"; "<8 hex digits>.bin",
// the name list and extract give an entry without a known name (or, when no entry has that hash,
// the name it spells); any other name by its hash. Every verb and `warriors load` use it.
std::optional<DirEntry> find_selected(const Disc& disc, std::string_view selector);
// "entry[12] 7e23a6f2 (global.lua)" for diagnostics.
std::string entry_label(const DirEntry& e, const NameTable& names);

}  // namespace assay::warriors
