// Where the end of a file cuts a RenderWare stream: the deepest section whose
// body runs past the end of the bytes, found from the headers alone, so a truncated texture
// dictionary can say what it is and where it is cut, and list what lies before the cut (7-Zip's
// "unexpected end of data"). spec: renderware.md#rw-4-1 (R1: a size past the end of the data).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "assay/core/diag.h"
#include "assay/formats/renderware/section.h"

namespace assay::rw {

struct CutSection {
  std::uint32_t type = 0;
  std::uint64_t offset = 0;  // absolute offset of the header
  std::uint64_t needs = 0;   // header + body bytes the header asks for
  [[nodiscard]] std::uint64_t end() const { return offset + needs; }
};

struct Truncation {
  std::uint64_t file_end = 0;    // absolute end of the bytes (base + size)
  // The cut sections, outermost (the top-level section) first, deepest last. When the end falls
  // inside a header, the last one is that header: `header_cut`, needs 12, type unknown (0).
  std::vector<CutSection> path;
  bool header_cut = false;
  [[nodiscard]] const CutSection& top() const { return path.front(); }
  [[nodiscard]] const CutSection& deepest() const { return path.back(); }
  // Bytes missing to the end of the top-level section.
  [[nodiscard]] std::uint64_t missing() const { return top().end() - file_end; }
  // "Texture Native at 0x5d4: unexpected end of data: needs 0x1e8 bytes (to 0x7bc), the file
  // ends at 0x700; the Texture Dictionary at 0x0 needs 0x2d0 bytes more"
  [[nodiscard]] std::string message() const;
  // The same as an error: structure = the deepest cut section's name ("a section header" when
  // the end falls inside one), offset = its header, message from "unexpected end of data" on.
  [[nodiscard]] Error error() const;
};

// Finds the top-level section the end of `bytes` cuts (sections before it are hopped over by
// their sizes) and follows it down through its containers to the deepest cut section. nullopt
// when no section runs past the end, or when a header on the way is not a plausible section
// (a bad stamp, a child larger than its parent: damage the walker reports, not a truncation).
// Reads headers only; at most 64 levels (spec: #rw-4-1 R6).
std::optional<Truncation> find_truncation(ByteView bytes, std::uint64_t base = 0);

}  // namespace assay::rw
