// Loading, walking and linking Oni level files (spec: oni.md#oni-6, oni.md#oni-7).
// Each file is walked once on its own (bounds, link values, tags, raw/sep offsets); links are then
// resolved per loaded set (level 0 alone, then level 0 + level N) into handles slot << 24 | index.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "assay/core/diag.h"
#include "assay/core/input.h"
#include "assay/formats/oni/instance_file.h"
#include "assay/formats/oni/layout.h"
#include "assay/formats/oni/names.h"

namespace assay {
class Container;
}

namespace assay::oni {

// A walked, non-zero link field whose value named a valid index of the right tag.
struct Link {
  std::uint32_t instance = 0;  // the instance holding the field
  std::uint32_t offset = 0;    // instance-relative
  std::uint32_t target = 0;    // descriptor index in the same file
  bool bad = false;            // bad value, index out of range or wrong tag (a problem)
};

struct WalkedInstance {
  std::uint32_t index = 0;
  std::uint32_t end = 0;         // walked end
  std::uint32_t first_link = 0;  // into LoadedFile::links
  std::uint32_t link_count = 0;
};

// A .raw/.sep offset the walk found (zero offsets are not kept).
struct ChunkRef {
  std::uint32_t instance = 0;
  std::uint32_t offset = 0;  // instance-relative field offset
  std::uint32_t value = 0;   // offset into the companion file (or a .oni's raw block)
  FieldKind kind = FieldKind::raw;
  std::optional<std::uint64_t> size;  // when the template tells it (spec: oni.md#oni-9-3)
};

struct LoadedFile {
  std::string display;
  std::filesystem::path path;
  std::optional<LevelFileName> fname;
  std::shared_ptr<const void> owner;  // keeps the bytes alive
  InstanceFile file;
  bool opened = false;
  std::vector<std::string_view> names;     // per descriptor ("" unnamed or bad)
  std::vector<std::uint8_t> has_data;      // per descriptor: data in this file
  std::uint32_t placeholders = 0;          // descriptors with flag 2
  std::vector<const CompiledLayout*> layout;  // per descriptor (nullptr: not walkable)
  std::vector<WalkedInstance> walked;
  std::vector<Link> links;
  std::vector<ChunkRef> chunks;
  ByteView raw, sep;                       // companions (VR32: raw = the raw block)
  std::shared_ptr<const void> raw_owner, sep_owner;
  bool raw_present = false, sep_present = false;
  Diagnostics diags;
  const LayoutSet* layouts = nullptr;      // the set this file was walked with
  std::vector<std::uint32_t> name_index;   // index_names: open addressing, pairs (hash tag, descriptor + 1)
  std::vector<std::uint8_t> name_filter;   // index_names: per slot 0 (empty) or the key's top bits | 1
  std::vector<std::uint64_t> name_bloom;   // index_names: two bits per name in one word (most misses stop here)
  [[nodiscard]] std::uint32_t file_id() const { return fname ? fname->file_id : 0; }
  [[nodiscard]] unsigned level() const { return fname ? fname->level : 0; }
};

// A level file's .raw and .sep as its opener took them from its siblings (spec: oni.md#oni-6-4).
struct Companions {
  std::optional<Input> raw, sep;
  std::vector<Error> errors;  // a sibling that would not open (the walk reports it)
};

struct LoadOptions {
  bool walk = true;   // false: structure only (list, info)
  // Given: the .raw/.sep are these (a file inside a container); else the files beside `path`.
  const Companions* companions = nullptr;
};

// Opens, validates and walks one file. Never fails: problems go to the file's diagnostics
// (an unopenable file has opened = false).
std::unique_ptr<LoadedFile> load_file(const std::filesystem::path& path, ByteView bytes, std::shared_ptr<const void> owner,
                                      const LayoutSet* layouts, LoadOptions opt = {});
std::unique_ptr<LoadedFile> load_file(const std::filesystem::path& path, const LayoutSet* layouts, LoadOptions opt = {});
// The same with the layouts picked for the file's header checksum (built-in sets); a
// checksum the built-in sets do not know is an error naming --exe/--layouts, and nothing is walked.
std::unique_ptr<LoadedFile> load_file(const std::filesystem::path& path, ByteView bytes, std::shared_ptr<const void> owner,
                                      const LayoutSource& layouts, LoadOptions opt = {});
std::unique_ptr<LoadedFile> load_file(const std::filesystem::path& path, const LayoutSource& layouts, LoadOptions opt = {});

// The level an Oni Container walked when it opened its entries (its links, for the viewer), or
// why it could not be walked; a usage error for a Container of another family.
Result<const LoadedFile*> walked_file(const Container& c);

// Builds g's name index, so that find-by-name is one hash probe instead of a binary search (issue
// 12 item 5). Kept empty when the directory is not sorted and duplicate-free (the binary search is
// then used, as the engine would).
void index_names(LoadedFile& g);
namespace detail {
// The name index's hash of a full name (index_names); its low bits pick the slot.
std::uint64_t name_key(std::string_view name) noexcept;
// The name index's Bloom filter (LoadedFile::name_bloom): the two bits a key sets, in the word
// name_bloom_word picks among `words` (a power of two).
[[nodiscard]] inline std::uint64_t name_bloom_bits(std::uint64_t key) noexcept {
  return (std::uint64_t{1} << ((key >> 36) & 63)) | (std::uint64_t{1} << ((key >> 42) & 63));
}
[[nodiscard]] inline std::size_t name_bloom_word(std::uint64_t key, std::size_t words) noexcept { return (key >> 16) & (words - 1); }
}  // namespace detail

inline constexpr std::uint32_t kUnresolved = 0xFFFFFFFFu;
inline constexpr std::uint32_t kBadHandle = 0xFFFFFFFEu;

// Resolves the links of loaded[slot] against the loaded set (spec: oni.md#oni-7-1): one handle
// (slot << 24 | index) per Link, kUnresolved for a name no loaded file has data for.
std::vector<std::uint32_t> resolve_links(const std::vector<const LoadedFile*>& loaded, std::size_t slot);

struct LevelCounts {
  unsigned level = 0;
  std::vector<std::string> files;  // load order: Final first, then byte order
  std::uint64_t instances = 0, placeholders = 0, links = 0, unresolved = 0, problems = 0;
  std::optional<std::uint64_t> into_level0;  // none for level 0
};

struct CheckReport {
  std::vector<LevelCounts> levels;
  std::uint64_t instances = 0, links = 0;  // every file walked once
  std::uint32_t hash = 0;                  // docs/cli.md "oni check"
  Diagnostics diags;                       // every problem, each naming its file
  [[nodiscard]] bool ok() const { return !diags.has_errors(); }
};

// `assay oni check`: inputs are folders (their level*.dat files) and files.
// `progress` draws a bar on stderr (core Progress) while the files load.
Result<CheckReport> check_level_set(const std::vector<std::filesystem::path>& inputs, const LayoutSource& layouts, unsigned threads,
                                    bool progress = false);

// The level files of a folder, tools files skipped (spec: oni.md#oni-2-1).
std::vector<std::filesystem::path> level_files_in(const std::filesystem::path& dir);

}  // namespace assay::oni
