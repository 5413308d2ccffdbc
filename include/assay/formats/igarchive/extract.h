// igArchive extraction of one member to a folder, and other helpers of the igarchive record.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "assay/core/diag.h"
#include "assay/core/extract_each.h"
#include "assay/core/output.h"
#include "assay/formats/igarchive/archive.h"
#include "assay/formats/igarchive/writer.h"

namespace assay::igarchive {

// Archive::open that fails on the first error-severity finding; warnings and notes go to
// `diags` when given.
Result<Archive> open_strict(ByteView data, std::string_view name, Diagnostics* diags);

struct MemberSettings {
  unsigned threads = 0;  // cores decoding the member's blocks (0 = all)
  // Drop the archive's mapped pages once decoded (only for a read-only file mapping), so that
  // peak memory stays at the decode windows, whatever the archive's size.
  bool release_input_pages = false;
  std::uint64_t window = 16u << 20;  // uncompressed bytes decoded per parallel batch
  // A member longer than this is an error (spec: alchemy.md#verify, default 1 GiB); the CLI's
  // --igarchive-max-member raises it. Extraction streams, so memory does not grow with it.
  std::uint64_t member_cap = kDefaultMemberCap;
  // The path written, when not the logical name (a cut archive's "<hash>.bin", salvage.h).
  std::string_view name;
};

// Writes member `f` at DIR/<logical name> (sanitised by OutputDir): its blocks decoded `window`
// bytes at a time on `threads` cores while the previous window is written; stored bytes copied
// from the mapping. Through an AtomicFile: a broken member leaves nothing behind. The writer of
// one item behind the igarchive record's extract (core/extract_each.h does selection, keep-going,
// --skip-existing and the report).
Result<ExtractCount> write_member(const Archive& a, const FileEntry& f, const OutputDir& dir, const MemberSettings& s);

// Demo archives for `assay make-samples`: file name -> (options, files).
std::vector<std::pair<std::string, std::pair<WriterOptions, std::vector<WriterFile>>>> sample_archives();

}  // namespace assay::igarchive
