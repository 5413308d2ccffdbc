// Links and arrays of the character instances (character_parts.h).
#include <fmt/format.h>

#include "assay/formats/oni/names.h"
#include "character_parts.h"

namespace assay::oni::character_detail {

std::string label_of(const LoadedFile& f, std::uint32_t i) {
  return instance_label(i, f.file.descriptor(i).tag, i < f.names.size() ? f.names[i] : std::string_view{});
}

std::uint64_t offset_of(const LoadedFile& f, std::uint32_t i) { return f.file.instance_file_offset(f.file.descriptor(i)); }

Error field_error(const LoadedFile& f, std::uint32_t i, std::uint64_t field, std::string msg, std::string_view code) {
  return f.file.error(label_of(f, i), offset_of(f, i) + field, std::move(msg)).with_code(code);
}

Result<std::optional<std::uint32_t>> link_target(const InstanceFile& f, std::uint32_t i, ByteView b, std::uint32_t field,
                                                 std::uint32_t tag) {
  const std::uint32_t v = le32(b, field);
  if (v == 0) return std::optional<std::uint32_t>{};
  const std::uint32_t t = v >> 8;
  if ((v & 0xFF) == 1 && t < f.instance_count() && f.descriptor(t).tag == tag) return std::optional<std::uint32_t>{t};
  const Descriptor d = f.descriptor(i);
  std::string_view name;
  if (auto n = f.name(i); n && !d.unnamed()) name = *n;
  return f.error(instance_label(i, d.tag, name), f.instance_file_offset(d) + field,
                 fmt::format("link 0x{:08x} is not a {} of this file", v, tag_string(tag)))
      .with_code("oni.character");
}

Result<std::optional<InstanceRef>> resolved_link(const LoadedFile& f, std::uint32_t i, std::uint32_t field, std::uint32_t tag,
                                                 const LoadedFile* level0) {
  ASSAY_TRY(const ByteView b, sized_bytes({&f, i}, field + 4));
  ASSAY_TRY(const auto t, link_target(f.file, i, b, field, tag));
  if (!t) return std::optional<InstanceRef>{};
  if (*t < f.has_data.size() && f.has_data[*t]) return std::optional<InstanceRef>{InstanceRef{&f, *t}};
  const std::string_view name = *t < f.names.size() ? f.names[*t] : std::string_view{};
  if (level0 != nullptr && level0 != &f && !name.empty())
    if (const auto j = level0->file.find(name); j && *j < level0->has_data.size() && level0->has_data[*j] && level0->file.descriptor(*j).tag == tag)
      return std::optional<InstanceRef>{InstanceRef{level0, *j}};
  return field_error(f, i, field, fmt::format("linked {} (instance {}{}) has no data here{}", tag_string(tag), *t,
                                              name.empty() ? "" : fmt::format(", {}", name), level0 ? " nor in level 0" : ""));
}

Result<ByteView> sized_bytes(const InstanceRef& r, std::uint32_t min_size) {
  const LoadedFile& f = *r.file;
  if (r.index >= f.has_data.size() || !f.has_data[r.index])
    return make_error(kFormat, "instance", kNoOffset, fmt::format("instance {} has no data", r.index)).with_code("oni.character");
  ASSAY_TRY(const ByteView b, f.file.instance_bytes(r.index));
  if (b.size() < min_size)
    return field_error(f, r.index, 0, fmt::format("0x{:x} bytes, smaller than its 0x{:x}-byte fixed part", b.size(), min_size));
  return b;
}

Result<std::uint32_t> array_count(const InstanceRef& r, std::uint32_t elem) {
  ASSAY_TRY(const ByteView b, sized_bytes(r, 0x20));
  const std::uint32_t n = le16(b, 0x1E);
  if (n > (b.size() - 0x20) / elem)
    return field_error(*r.file, r.index, 0x1E, fmt::format("{} elements of {} bytes do not fit the 0x{:x}-byte instance", n, elem, b.size()));
  return n;
}

}  // namespace assay::oni::character_detail
