// Where the end of the bytes cuts a stream. spec: renderware.md#rw-4-1 (R1, R6), #rw-3 (C column).
#include "assay/formats/renderware/truncation.h"
#include "codes.h"

#include <fmt/format.h>

#include "records.h"

namespace assay::rw {

namespace {

constexpr std::uint32_t kMaxDepth = 64;  // spec: #rw-4-1 R6

std::string label(const CutSection& s, bool header) {
  if (header) return "a section header";
  const std::string_view n = section_name(s.type);
  return n.empty() ? fmt::format("section 0x{:X}", s.type) : std::string(n);
}

}  // namespace

std::optional<Truncation> find_truncation(ByteView bytes, std::uint64_t base) {
  const std::uint64_t size = bytes.size();
  Truncation t;
  t.file_end = base + size;
  // Top level: hop over the sections that fit (R5's padding and garbage are the walker's).
  std::uint64_t pos = 0;
  while (true) {
    if (size - pos < SectionHeader::kSize) return std::nullopt;
    const SectionHeader h = records::decode_at<SectionHeader>(bytes, pos);
    if (!plausible_stamp(h.stamp)) return std::nullopt;
    const std::uint64_t end = pos + SectionHeader::kSize + h.size;
    if (end > size) {
      t.path.push_back({h.type, base + pos, SectionHeader::kSize + std::uint64_t{h.size}});
      break;
    }
    pos = end;
  }
  // Down through the cut containers: hop over the children that fit, descend into the cut one.
  while (is_container(t.deepest().type) && t.path.size() <= kMaxDepth) {
    const std::uint64_t parent_end = t.deepest().end() - base;
    pos = t.deepest().offset - base + SectionHeader::kSize;
    bool descended = false;
    while (pos < size) {
      if (size - pos < SectionHeader::kSize) {  // the end falls inside a child's header
        t.path.push_back({0, base + pos, SectionHeader::kSize});
        t.header_cut = true;
        return t;
      }
      const SectionHeader h = records::decode_at<SectionHeader>(bytes, pos);
      const std::uint64_t end = pos + SectionHeader::kSize + h.size;
      if (!plausible_stamp(h.stamp) || end > parent_end) return t;  // damage: stop at the parent
      if (end > size) {
        t.path.push_back({h.type, base + pos, SectionHeader::kSize + std::uint64_t{h.size}});
        descended = true;
        break;
      }
      pos = end;
    }
    if (!descended) break;  // the end falls between two children of the deepest one
  }
  return t;
}

namespace {

// "unexpected end of data: needs 0x1e8 bytes (to 0x7bc), the file ends at 0x700; ..."
std::string tail(const Truncation& t) {
  const CutSection& d = t.deepest();
  std::string m = fmt::format("unexpected end of data: needs 0x{:x} bytes (to 0x{:x}), the file ends at 0x{:x}", d.needs,
                              d.end(), t.file_end);
  if (t.path.size() > 1)
    m += fmt::format("; the {} at 0x{:x} needs 0x{:x} bytes more", label(t.top(), false), t.top().offset, t.missing());
  return m;
}

}  // namespace

std::string Truncation::message() const {
  return fmt::format("{} at 0x{:x}: {}", label(deepest(), header_cut), deepest().offset, tail(*this));
}

Error Truncation::error() const {
  return rw_error(label(deepest(), header_cut), deepest().offset, tail(*this), "renderware.truncated");
}

}  // namespace assay::rw
