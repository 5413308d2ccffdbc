// Internal: the igArchive's JSON fields (docs/cli.md#igarchive), all built in json.cc:
// the header, how the name table was read (spec: alchemy.md#corrections C1, C7) and each entry's
// family fields.
#pragma once

#include "assay/options.h"
#include "assay/printer.h"
#include "assay/formats/igarchive/archive.h"
#include "assay/formats/igarchive/edit.h"
#include "assay/formats/igarchive/salvage.h"
#include "formats/serialise.h"

namespace assay::igarchive {

// {"name_layout": "<layout>" or "mixed", "name_layouts": {"<layout>": count, ...}}
Json name_table_json(const Archive& a);
// The header fields `info` prints (sizes, counts, hash-search parameters, flags) and the name
// table's layout.
Json header_json(const Archive& a, std::uint64_t file_size);
// {"name_layout": "<layout>", "name_match": "exact"|"folded"|"suffix"|"none"}
Json name_entry_json(const FileEntry& f);
// The family fields of a `list` entry: build_path (null before v0x0A), hash, compression, blocks,
// table, first_entry, word, ordinal, time, then name_entry_json's fields.
void print_entry_details(FieldPrinter& p, const Archive& a, const FileEntry& f);

// {"file_end", "names_lost", "intact", "lost": [{"index", "name", "hash", "size", "offset",
// "end"}]} for list --json and info (docs/cli.md#igarchive); null when the archive is whole.
Json cut_json(const Archive& a, const Cut& c);

// The report of an edit (docs/cli.md#edit): {"format", "input", "output", "in_place", "files",
// "bytes", "copied_files", "encoded_blocks", "changes": [{"op", "name", "hash", "old_size",
// "new_size", "stored_size", "compression", "unchanged"}]}.
Json edit_json(std::string_view input, std::string_view output, bool in_place, std::uint64_t files, const EditResult& r);
// What list prints before the entries: version, byte order; for a cut archive "truncated" and
// its "problems".
Json list_fields_json(const Archive& a, const Cut& cut);

// The family's edit (assay replace/add/remove): options from req.read.family:
// "compression" (lzma, deflate, lz4, none, stored) for the new data.
Result<Json> edit_format(const Input& in, const EditRequest& req);

}  // namespace assay::igarchive
