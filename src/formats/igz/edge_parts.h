// Internal: reading 32-bit igz object fields for the PS3 EDGE reader (model_edge.cc, edge_scene.cc):
// every position checked through resolve(), a field that does not resolve reads as absent.
#pragma once

#include <optional>
#include <vector>

#include "assay/formats/igz/edge.h"

namespace assay::igz::detail {

template <class T>
T or_zero(const Result<T>& r) {
  return r ? *r : T{};
}

// The absolute position of `o`'s field, `need` bytes checked; nullopt when it does not resolve.
inline std::optional<std::uint64_t> field_at(const IgzFile& f, const Object& o, std::uint32_t field, std::uint64_t need) {
  if (o.size != 0 && field + need > o.size) return std::nullopt;
  auto pos = resolve(f, encode_pointer(f.header().version, {o.pool, o.offset + field}), need, o.type_name);
  return pos ? std::optional(*pos) : std::nullopt;
}

// The object a pointer field names, kNoObject when none.
inline std::size_t pointer_at(const IgzFile& f, const Graph& g, const Object& o, std::uint32_t field) {
  const auto pos = field_at(f, o, field, 4);
  const std::uint32_t v = pos ? or_zero(f.reader().u32(*pos, "pointer")) : 0;
  return v != 0 ? g.object_at(v) : kNoObject;
}

// The object's igMemory {u32 size word, u32 pointer} at `field`: absolute position and size, or
// nullopt when it is empty or does not resolve.
inline std::optional<MemorySpan> memory_at(const IgzFile& f, const Object& o, std::uint32_t field) {
  const auto pos = field_at(f, o, field, 8);
  if (!pos) return std::nullopt;
  auto word = f.reader().u32(*pos, "igMemory"), ptr = f.reader().u32(*pos + 4, "igMemory");
  if (!word || !ptr || *ptr == 0) return std::nullopt;
  MemorySpan m{0, decode_memory_word(*word, 4).size};
  auto at = resolve(f, *ptr, m.size, "igMemory");
  if (!at) return std::nullopt;
  m.offset = *at;
  return m;
}

// The objects an igObjectList holds (count 0x08, igMemory 0x10 on 32-bit).
inline std::vector<std::size_t> list_elements(const IgzFile& f, const Graph& g, const Object& list) {
  std::vector<std::size_t> out;
  const auto count = field_at(f, list, 0x08, 4);
  const auto data = memory_at(f, list, 0x10);
  if (!count || !data) return out;
  const std::uint32_t n = or_zero(f.reader().u32(*count, "igObjectList"));
  for (std::uint32_t i = 0; i < n && std::uint64_t{i} * 4 + 4 <= data->size; ++i) {
    const std::uint32_t v = or_zero(f.reader().u32(data->offset + std::uint64_t{i} * 4, "igObjectList"));
    out.push_back(v != 0 ? g.object_at(v) : kNoObject);
  }
  return out;
}

}  // namespace assay::igz::detail
