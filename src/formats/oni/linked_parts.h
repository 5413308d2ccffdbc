// Internal: one instance and the arrays it links to, read at fixed offsets without a walk (the
// M3GM and AKEV exporters). Every link, count and size is checked before anything is read; errors
// name the instance and the absolute offset, with the caller's code ("oni.m3gm", "oni.akev").
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "assay/core/bytes.h"
#include "assay/formats/oni/instance_file.h"

namespace assay::oni::detail {

// One linked instance: its descriptor index, bytes and absolute offset; its label (for errors and
// names) is built only when asked for (most parts never report one).
struct Part {
  const InstanceFile* file = nullptr;
  std::uint32_t index = 0;
  ByteView bytes;
  std::uint64_t at = 0;
  [[nodiscard]] std::string label() const;
};

// A descriptor with bytes in the data block (LoadedFile::has_data's rule).
bool has_data(const InstanceFile& f, std::uint32_t i);
// Its name, "" when unnamed.
std::string_view name_of(const InstanceFile& f, std::uint32_t i);
Part part_of(const InstanceFile& f, std::uint32_t i, ByteView bytes);
Error part_error(const InstanceFile& f, const Part& p, std::uint64_t at_in_part, std::string msg, const char* code);

// Fields the caller has proven inside `b`: one load each.
inline std::uint32_t u32_at(ByteView b, std::uint64_t at) { return load<std::uint32_t>(b.data() + at, Endian::little); }
inline float f32_at(ByteView b, std::uint64_t at) { return std::bit_cast<float>(u32_at(b, at)); }

// The link at `field` of `p` (inside its bytes): none for 0; else an instance id (index << 8 | 1,
// spec: oni.md#oni-3-7) of a `tag` descriptor of this file, with data unless `placeholder_ok`.
Result<std::optional<std::uint32_t>> link_at(const InstanceFile& f, const Part& p, std::uint64_t field, std::uint32_t tag,
                                             const char* code, bool placeholder_ok = false);

// Linked instance i as an array of `elem`-byte elements: the count at `count_at`, the elements
// from `count_at + 4`, the count checked against the instance's bytes.
Result<Part> array_part(const InstanceFile& f, std::uint32_t i, std::uint32_t count_at, std::uint32_t elem,
                        std::uint32_t& count, const char* code);

}  // namespace assay::oni::detail
