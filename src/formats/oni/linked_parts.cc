#include "linked_parts.h"

#include <fmt/format.h>

#include "assay/formats/oni/names.h"

namespace assay::oni::detail {

bool has_data(const InstanceFile& f, std::uint32_t i) { return !f.descriptor(i).placeholder() && f.instance_bytes(i).ok(); }

std::string_view name_of(const InstanceFile& f, std::uint32_t i) {
  if (f.descriptor(i).unnamed()) return {};
  auto n = f.name(i);
  return n ? *n : std::string_view{};
}

Part part_of(const InstanceFile& f, std::uint32_t i, ByteView bytes) {
  return {&f, i, bytes, f.instance_file_offset(f.descriptor(i))};
}

std::string Part::label() const { return instance_label(index, file->descriptor(index).tag, name_of(*file, index)); }

Error part_error(const InstanceFile& f, const Part& p, std::uint64_t at_in_part, std::string msg, const char* code) {
  return f.error(p.label(), p.at + at_in_part, std::move(msg)).with_code(code);
}

Result<std::optional<std::uint32_t>> link_at(const InstanceFile& f, const Part& p, std::uint64_t field, std::uint32_t tag,
                                             const char* code, bool placeholder_ok) {
  const std::uint32_t v = u32_at(p.bytes, field);
  if (v == 0) return std::optional<std::uint32_t>{};
  const std::uint32_t i = v >> 8;
  if ((v & 0xFF) != 1 || i >= f.instance_count() || f.descriptor(i).tag != tag)
    return part_error(f, p, field, fmt::format("link 0x{:08x} is not a {} of this file", v, tag_string(tag)), code);
  if (!placeholder_ok && !has_data(f, i))
    return part_error(f, p, field, fmt::format("linked {} (instance {}) has no data here", tag_string(tag), i), code);
  return std::optional<std::uint32_t>{i};
}

Result<Part> array_part(const InstanceFile& f, std::uint32_t i, std::uint32_t count_at, std::uint32_t elem,
                        std::uint32_t& count, const char* code) {
  ASSAY_TRY(const ByteView b, f.instance_bytes(i));
  Part p = part_of(f, i, b);
  if (b.size() < count_at + 4ull)
    return part_error(f, p, 0, fmt::format("0x{:x} bytes, smaller than its 0x{:x} fixed part", b.size(), count_at + 4), code);
  count = u32_at(b, count_at);
  if (count > (b.size() - count_at - 4) / elem)
    return part_error(f, p, count_at, fmt::format("{} elements of {} bytes do not fit the 0x{:x}-byte instance", count, elem, b.size()), code);
  return p;
}

}  // namespace assay::oni::detail
