#include "children.h"
#include "codes.h"

#include <cstring>

#include "records.h"

namespace assay::rw::detail {

Result<Child> read_one(ByteView bytes, std::uint64_t offset, std::uint64_t base) {
  ASSAY_TRY(SectionHeader h, read_section_header(bytes, offset, base));
  const auto body = records::le_reader(bytes, base).bytes(offset + SectionHeader::kSize, h.size, "section body");
  if (!body)
    return rw_error(describe(h.type), base + offset,
                      fmt::format("body of {} bytes runs past the end of the data at 0x{:x} (R1)", h.size,
                                  base + bytes.size()), "R1");
  return Child{h, offset, *body};
}

Result<std::vector<Child>> read_children(ByteView bytes, std::uint64_t offset, std::uint64_t base) {
  ASSAY_TRY(Child parent, read_one(bytes, offset, base));
  std::vector<Child> out;
  std::uint64_t pos = parent.body_offset();
  const std::uint64_t end = pos + parent.h.size;
  while (pos < end) {
    const std::uint64_t left = end - pos;
    if (left < SectionHeader::kSize)
      return rw_error(describe(parent.h.type), base + offset,
                        fmt::format("children do not fill the container: a tail of {} bytes at 0x{:x} (R2)",
                                    left, base + pos), "R2");
    ASSAY_TRY(SectionHeader h, read_section_header(bytes, pos, base));
    if (h.size > left - SectionHeader::kSize)
      return rw_error(describe(h.type), base + pos,
                        fmt::format("body of {} bytes runs past the end of its parent {} at 0x{:x} (R1)", h.size,
                                    describe(parent.h.type), base + offset), "R1");
    ASSAY_TRY(const ByteView body, records::le_reader(bytes, base).bytes(pos + SectionHeader::kSize, h.size, "section body"));
    out.push_back({h, pos, body});
    pos += SectionHeader::kSize + h.size;
  }
  return out;
}

Result<std::vector<Child>> read_intact_children(ByteView bytes, std::uint64_t offset, std::uint64_t base) {
  ASSAY_TRY(SectionHeader parent, read_section_header(bytes, offset, base));
  std::vector<Child> out;
  std::uint64_t pos = offset + SectionHeader::kSize;
  const std::uint64_t end = pos + parent.size;
  // stop at a tail too short for a header (R2, the walker's) or where the end of the bytes cuts
  while (end - pos >= SectionHeader::kSize && bytes.size() > pos && bytes.size() - pos >= SectionHeader::kSize) {
    const SectionHeader h = records::decode_at<SectionHeader>(bytes, pos);
    if (h.size > end - pos - SectionHeader::kSize)
      return rw_error(describe(h.type), base + pos,
                        fmt::format("body of {} bytes runs past the end of its parent {} at 0x{:x} (R1)", h.size,
                                    describe(parent.type), base + offset), "R1");
    if (h.size > bytes.size() - pos - SectionHeader::kSize) break;  // the first child the end cuts
    out.push_back({h, pos, bytes.subspan(pos + SectionHeader::kSize, h.size)});
    pos += SectionHeader::kSize + h.size;
  }
  return out;
}

std::string_view string_body(const Child& c, std::uint64_t base, const DiagSink& diag) {
  const auto* p = reinterpret_cast<const char*>(c.body.data());
  const void* nul = c.body.empty() ? nullptr : std::memchr(p, 0, c.body.size());
  if (nul == nullptr) {
    report(diag, Severity::warning, "String", base + c.offset, "string has no NUL in its body (R18)");
    return {p, c.body.size()};
  }
  return {p, static_cast<std::size_t>(static_cast<const char*>(nul) - p)};
}

}  // namespace assay::rw::detail
