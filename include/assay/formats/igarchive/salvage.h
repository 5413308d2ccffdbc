// A cut igArchive: its header and tables are whole, but the file ends before
// some files' data, and usually before the name table, which the writers put last. As 7-Zip does
// with "unexpected end of data": the intact files are listed and extracted, the lost ones named
// (each with the offset where its data would be and the file's end), and the exit code is 1.
// A file cut inside its header or TOC still fails, naming the structure and offset.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "assay/core/diag.h"
#include "assay/options.h"
#include "assay/formats/igarchive/archive.h"

namespace assay::igarchive {

struct LostFile {
  std::uint32_t index = 0;  // TOC (hash) order
  Shortfall at;
};

struct Cut {
  std::uint64_t file_end = 0;         // the archive's size
  bool names_lost = false;            // the name table lies (partly) past the end
  std::vector<std::uint32_t> intact;  // TOC indices of the files whose data are whole (all when not cut)
  std::vector<LostFile> lost;
  [[nodiscard]] bool cut() const noexcept { return names_lost || !lost.empty(); }
};

struct Salvaged {
  Archive archive;
  Cut cut;
};

// Archive::open that fails as open_strict does, except on what a cut file shows: a name table
// past the end (the names are then lost; files are named by their hash) and files whose data lie
// past the end (Archive::past_end; not intact). Warnings and notes go to `diags` when given.
Result<Salvaged> open_salvage(ByteView data, std::string_view name, Diagnostics* diags);

// The files of `a` sorted into intact and lost (names_lost from the name table's place).
Cut find_cut(const Archive& a);

// The name a member is listed and extracted under: its logical name; with the names lost,
// "<hash as 8 hex digits>.bin" (as Warriors names an unnamed entry), "<index>_" before it when
// an earlier file has the same hash.
std::string member_name(const Archive& a, const Cut& c, const FileEntry& f);

// One error per lost thing, for list/extract/verify: the name table, then each lost file
// ("unexpected end of data: its data at 0x... to 0x... lie past the file end 0x...").
std::vector<Diagnostic> cut_findings(const Archive& a, const Cut& c);

}  // namespace assay::igarchive
