// igArchive extraction to a folder and other whole-archive helpers used by the CLI record.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "assay/core/diag.h"
#include "assay/core/output.h"
#include "assay/formats/igarchive/archive.h"
#include "assay/formats/igarchive/writer.h"

namespace assay::igarchive {

// Archive::open that fails on the first error-severity finding; warnings and notes go to
// `diags` when given.
Result<Archive> open_strict(ByteView data, std::string_view name, Diagnostics* diags);

struct ExtractSettings {
  std::vector<std::string> globs;  // by logical name; empty = all
  unsigned threads = 0;            // 0 = all cores
  bool progress = false;
  // Drop the archive's mapped pages once decoded (only for a read-only file mapping), so that
  // peak memory stays at the decode window, whatever the archive's size.
  bool release_input_pages = false;
  std::uint64_t window = 16u << 20;  // uncompressed bytes decoded per parallel batch
  // A member longer than this is an error (spec: alchemy.md#verify, default 1 GiB); the CLI's
  // --igarchive-max-member raises it. Extraction streams, so memory does not grow with it.
  std::uint64_t member_cap = kDefaultMemberCap;
};

struct ExtractResult {
  std::uint64_t files = 0;
  std::uint64_t bytes = 0;
};

// Writes each selected file at DIR/<logical name> (sanitised by OutputDir), decoding blocks in
// parallel batches; each file goes through an AtomicFile, so a broken file leaves nothing
// behind. Stops at the first error (files finished before it stay).
Result<ExtractResult> extract_all(const Archive& a, const OutputDir& dir, const ExtractSettings& s);

// Demo archives for `assay make-samples`: file name -> (options, files).
std::vector<std::pair<std::string, std::pair<WriterOptions, std::vector<WriterFile>>>> sample_archives();

}  // namespace assay::igarchive
