// Targeted edits of an igArchive: replace, add and remove files while keeping everything else
// as stored (spec: alchemy.md#corrections C6, #iga-writer rule 1).
//
//   igarchive::EditPlan p;  p.replace.push_back({.name = "a.igz", .data = bytes});
//   auto r = igarchive::edit_archive(archive, p);   // r->bytes: the new archive
//
// What is kept: the header bytes (only counts, sizes, offsets, divider and slop are patched), the
// TOC pad, the data order (by offset, not by ordinal), each unchanged file's region copied
// verbatim (its blocks, block-table entries and padding: no decode, no re-encode), the raw
// file-info words (ordinal bits, codec nibble), each name-table entry's raw bytes and their
// order, and whatever follows the name table. Only new or replaced files are encoded, in
// parallel, with the game tools' LZMA settings (writer.h, encode_block).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/options.h"
#include "assay/formats/igarchive/archive.h"

namespace assay::igarchive {

struct EditFile {
  std::string name;  // replace: the existing name (logical, flag-folded or build path); add: new logical name
  ByteBuffer data;
  std::optional<Compression> compression;  // default: replace keeps the file's, add the archive's usual codec
  // Or the file holding the new bytes, read block by block as they are encoded (`data` unused;
  // a multi-GiB file is never held whole).
  std::filesystem::path file;
};

struct EditPlan {
  std::vector<EditFile> replace;    // each must exist
  std::vector<EditFile> add;        // none may exist (by name or hash)
  std::vector<std::string> remove;  // each must exist
  unsigned threads = 0;             // encoding threads (0 = all cores)
  std::uint32_t lzma_preset = 6;
  ProgressFn progress;  // raw bytes of each block encoded, with its file's name (core/progress.h)
};

struct EditReport {
  std::string op;        // "replace", "add", "remove"
  std::string name;      // logical name
  std::uint32_t hash = 0;
  std::uint64_t old_size = 0, new_size = 0;  // uncompressed bytes (0 when absent)
  std::uint64_t stored_size = 0;             // bytes the new data takes in the archive
  Compression compression = Compression::stored;
  bool unchanged = false;  // replace with the file's own bytes: its stored bytes were kept
};

struct EditResult {
  ByteBuffer bytes;                  // the whole new archive (empty when written to an EditOutput)
  std::uint64_t size = 0;            // its size in bytes
  std::vector<EditReport> changes;   // in plan order: replace, add, remove
  std::uint64_t copied_files = 0;    // files whose stored bytes were copied verbatim
  std::uint64_t encoded_blocks = 0;  // blocks compressed for new data
};

// True when `name` would escape a folder: empty, absolute ("/x", "\\x", "C:"), or a ".." part.
bool name_escapes(std::string_view name);

// Applies the plan to `a` (which must have a readable name table). Errors: a missing or
// duplicate name, a hash collision, an escaping name, or an archive layout that cannot be
// edited in place (block-table runs that overlap, a name table before the file data).
Result<EditResult> edit_archive(const Archive& a, const EditPlan& plan);

// Where a streamed edit goes: the archive's bytes in order through `append`,
// then its header and TOC (placeholders until then) once more at offset 0 through `write_at`.
// Unchanged files' stored bytes are handed over as views of the input, new data a batch of
// encoded blocks at a time: memory stays bounded whatever the files' sizes.
struct EditOutput {
  std::function<Result<void>(ByteView)> append;
  std::function<Result<void>(std::uint64_t, ByteView)> write_at;
};
Result<EditResult> edit_archive(const Archive& a, const EditPlan& plan, const EditOutput& out);

// Reads back a rewritten archive: it opens cleanly, every file is found by the game's lookup,
// the file count is `expected_files`, and each replaced/added file decodes to the plan's bytes.
// `read_up_to` (optional) is told, as the new files are read back in data order, the offset
// below which `bytes` will not be read again (a caller that mapped them can drop those pages).
Result<void> check_edited(ByteView bytes, const EditPlan& plan, std::uint64_t expected_files, unsigned threads = 0,
                          const std::function<void(std::uint64_t)>& read_up_to = {});

// `pack --like ORIGINAL DIR` as an edit: every file of `dir` whose bytes equal the original's is
// left as stored; the others replace it; files the original lacks are added with `extra`
// compression (listed in *added). A file of the original missing from `dir` is an error.
Result<EditPlan> plan_like(const Archive& a, const std::filesystem::path& dir, std::optional<Compression> extra,
                           unsigned threads, std::vector<std::string>* added = nullptr);

// Writes `bytes` to `target` through a temporary file beside it (exclusive create, flushed and
// synced), reads it back (equal bytes, then `check`), and only then renames it over `target`.
// Without `force` an existing target is an error. On any failure the temporary is removed and
// `target` is untouched.
Result<void> write_checked(const std::filesystem::path& target, ByteView bytes, bool force,
                           const std::function<Result<void>(ByteView)>& check);
// The same for a streamed edit: `produce` writes the archive through the EditOutput given (into
// the temporary); `check` then reads the temporary back (mapped) before the rename.
Result<void> write_checked_stream(const std::filesystem::path& target, bool force,
                                  const std::function<Result<void>(const EditOutput&)>& produce,
                                  const std::function<Result<void>(ByteView)>& check);

}  // namespace assay::igarchive
