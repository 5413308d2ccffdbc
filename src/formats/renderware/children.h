// Internal: strict iteration over a container's children (spec: renderware.md#rw-4-1, R1/R2),
// used by the texture and clump readers so they stay correct on their own when called on a
// sub-view (no walk needed first).
#pragma once

#include "codes.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "assay/core/diag.h"
#include "assay/formats/renderware/section.h"

namespace assay::rw::detail {

struct Child {
  SectionHeader h;
  std::uint64_t offset = 0;  // of the header, in the view
  ByteView body;
  [[nodiscard]] std::uint64_t body_offset() const { return offset + SectionHeader::kSize; }
};

inline std::string describe(std::uint32_t type) {
  const std::string_view n = section_name(type);
  return n.empty() ? fmt::format("section 0x{:X}", type) : fmt::format("section 0x{:X} ({})", type, n);
}

// The children of the container whose header is at `offset` in `bytes` (its size already checked).
Result<std::vector<Child>> read_children(ByteView bytes, std::uint64_t offset, std::uint64_t base);
// The children of the container at `offset` whose header claims more than `bytes` holds (a file
// cut short): those that lie whole before the end of `bytes`, in order, up to
// the first that does not. A child running past its parent's end is still an error (R1).
Result<std::vector<Child>> read_intact_children(ByteView bytes, std::uint64_t offset, std::uint64_t base);
// One section at `offset`: header read and body size checked against `bytes` (R1).
Result<Child> read_one(ByteView bytes, std::uint64_t offset, std::uint64_t base);

inline void report(const DiagSink& d, Severity s, std::string structure, std::uint64_t abs_offset,
                   std::string message, std::string_view code = "renderware.unexpected-content") {
  if (d) d({s, rw_error(std::move(structure), abs_offset, std::move(message), code)});
}

// What the clump readers (clump.cc's summary, model.cc's whole decode) share: the bytes, errors
// in clump terms at absolute offsets, and a container's leading Struct.
class ClumpWalk {
 protected:
  ClumpWalk(ByteView b, std::uint64_t base) : b_(b), base_(base) {}
  Error err(std::string structure, std::uint64_t off, std::string m) const {
    return rw_error(std::move(structure), base_ + off, std::move(m), "renderware.clump");
  }
  Result<Child> first_struct(const std::vector<Child>& kids, const Child& parent, std::uint64_t min) const {
    if (kids.empty() || kids[0].h.type != id::kStruct || kids[0].h.size < min)
      return err(describe(parent.h.type), parent.offset,
                 fmt::format("the first child is not a Struct of at least {} bytes", min));
    return kids[0];
  }

  ByteView b_;
  std::uint64_t base_;
};

// The text of a String section: up to the first NUL; without a NUL the whole body (R18 warning).
std::string_view string_body(const Child& c, std::uint64_t base, const DiagSink& diag);

}  // namespace assay::rw::detail
