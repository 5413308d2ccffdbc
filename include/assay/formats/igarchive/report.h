// JSON fields that report how the igArchive name table was read (spec: alchemy.md#corrections
// C1, C7): for `info` the layout(s) of the whole table, for each `list` entry its layout and how its
// name was tied to the hash. Used by the Format record; any other view of an archive (the
// container model) can merge the same fields.
#pragma once

#include "assay/formats/format.h"
#include "assay/formats/igarchive/archive.h"

namespace assay::igarchive {

// {"name_layout": "<layout>" or "mixed", "name_layouts": {"<layout>": count, ...}}
Json name_table_json(const Archive& a);
// The header fields `info` prints (sizes, counts, hash-search parameters, flags) and the name
// table's layout; one definition for the Format record and the container.
Json header_json(const Archive& a, std::uint64_t file_size);
// {"name_layout": "<layout>", "name_match": "exact"|"folded"|"suffix"|"none"}
Json name_entry_json(const FileEntry& f);

}  // namespace assay::igarchive
