// igArchive name-table entries in each layout the readers meet (spec: alchemy.md#iga-name-table,
// #corrections C1; igArchiveExtractor's forms: docs/alchemy-readers.md), and a way to put a new
// name table on an archive. Used to build test and fuzz fixtures in layouts our archive writer
// does not emit; a repack that keeps the original entries writes FileEntry::name_raw instead.
//
//   auto e = igarchive::name_entry(NameLayout::path_tail_time, "a/b.igz", "x/y/z/w/a/b.igz", 0, Endian::big);
//   auto bytes = igarchive::with_name_entries(archive_bytes, {e, ...});
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/formats/igarchive/archive.h"

namespace assay::igarchive {

// The bytes of one entry: `name` is the logical (hashed) name, `path` the build path (the
// two-string and path_tail layouts), `time` the u32 where the layout has one.
ByteBuffer name_entry(NameLayout layout, std::string_view name, std::string_view path, std::uint32_t time,
                      Endian endian);

// `archive` with its name table replaced by offsets + `entries` (in hash-table order, one per
// file), nameTableSize patched. The name table must be the last thing in the archive.
Result<ByteBuffer> with_name_entries(ByteView archive, const std::vector<ByteBuffer>& entries);

}  // namespace assay::igarchive
