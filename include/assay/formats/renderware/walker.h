// The validating RenderWare section walker (spec: renderware.md#rw-4, rules R1-R6, R22 of #rw-9).
// Works on any in-memory view (a whole file, or a chunk's bytes inside a Warriors WAD): offsets
// in the tree and in diagnostics are `base` + the offset in the view. The walker reads only
// section headers, plus the 4-byte platform word of each Texture Native's first Struct (needed
// for the PS2 raster exception of #rw-4-3) and the tail after the last top-level section
// (to tell zero padding from garbage).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <string>

#include "assay/core/diag.h"
#include "assay/formats/renderware/profile.h"
#include "assay/formats/renderware/section.h"

namespace assay::rw {

struct WalkOptions {
  std::uint32_t max_depth = 64;  // spec: #rw-4-1 (assay decision); deeper is error R6
  // The game's reader profile (R13, R14, R17 severity, plugin ids); null = plain RenderWare 3.
  const Profile* profile = nullptr;
  // Stop after the first top-level section: bytes after it must be zero padding (a note);
  // anything else is an error. When false, further top-level sections are walked (R5).
  bool single_top_level = false;
  // Report unknown section ids as notes (R22).
  bool report_unknown = true;
};

struct Section {
  std::uint64_t offset = 0;       // absolute offset of the header (base + offset in the view)
  SectionHeader header;
  std::uint32_t depth = 0;        // 0 = top level
  std::int32_t parent = -1;       // index in SectionTree::sections, -1 for top level
  std::uint64_t index = 0;        // pre-order number of this section in the walk
  std::uint32_t child_count = 0;  // direct children (0 for raw sections)
  bool container = false;         // walked as a container (after the #rw-4-3 exceptions)
  [[nodiscard]] std::uint64_t body_offset() const { return offset + SectionHeader::kSize; }
  [[nodiscard]] std::uint64_t end() const { return body_offset() + header.size; }
};

struct SectionTree {
  std::vector<Section> sections;     // pre-order (a parent before its children)
  std::vector<std::uint32_t> top;    // indices of the top-level sections
  std::uint64_t base = 0;            // absolute offset of the view's first byte
  std::uint64_t stream_end = 0;      // absolute end of the last top-level section
  std::uint64_t padding = 0;         // zero bytes after it (R5 info)
  std::uint32_t max_depth = 0;
  [[nodiscard]] const Section* find_top(std::uint32_t type) const;
  // Direct children of sections[index], in order.
  [[nodiscard]] std::vector<std::uint32_t> children(std::uint32_t index) const;
};

// What a streaming walk found besides the sections it visited.
struct WalkSummary {
  std::uint64_t base = 0, stream_end = 0, padding = 0;
  std::uint64_t sections = 0, top_sections = 0;
  std::uint32_t max_depth = 0;
};
// Called once per section, in pre-order, when the walk reaches it (child_count is counted ahead
// from the body's headers; `index` is the pre-order number, `parent` the parent's).
using SectionVisitor = std::function<void(const Section&)>;
// Called now and then with a range [begin, end) of the view the walk does not need for now: a
// caller that owns a mapping may drop those pages (memory stays flat on huge streams); reading
// them again later stays allowed.
using WalkProgress = std::function<void(std::uint64_t begin, std::uint64_t end)>;

// The same walk as walk(), keeping nothing: memory does not grow with the stream
// (spec: renderware.md#rw-real "Memory"). Rules and errors as walk().
Result<WalkSummary> walk_each(ByteView bytes, std::uint64_t base, const DiagSink& diag, const WalkOptions& options,
                              const SectionVisitor& visit, const WalkProgress& progress = {});
// walk_each over a file it maps itself, dropping the walked pages as it goes (rw tree).
Result<WalkSummary> walk_file(const std::string& path, const DiagSink& diag, const WalkOptions& options,
                              const SectionVisitor& visit);

// Walks every section of `bytes`. Fatal problems (R1 overrun, R2 children not filling a
// container, R3 bad stamp, R6 depth) are returned as an Error naming the deepest open section and
// its offset; warnings and notes (R4 stamp differs, R5 padding, R22 unknown id, R17) go to `diag`
// (which may be empty).
Result<SectionTree> walk(ByteView bytes, std::uint64_t base, const DiagSink& diag,
                         const WalkOptions& options = {});

// The first top-level section with id `type`, skipping other top-level sections before it
// (RenderWare's find-chunk; spec: warriors.md#wr-7-1). Reads headers only; checks each header's
// size against the view. Returns the offset in the view of that section's header.
Result<std::uint64_t> find_section(ByteView bytes, std::uint32_t type, std::uint64_t base = 0);

// The view of exactly one section (header + body) at `offset` of `bytes`, size-checked.
Result<ByteView> section_bytes(ByteView bytes, std::uint64_t offset, std::uint64_t base = 0);

}  // namespace assay::rw
