// The memory budget for decoded texture pixels (docs/reliability.md#memory): a
// Container's texture() takes a lease for the RGBA bytes of the level it decodes, from the
// entry's texture_info, before decoding. The lease ends when texture() returns, so it
// bounds what concurrent decodes hold at once and refuses a level larger than --max-memory.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "assay/container.h"
#include "assay/core/memory.h"

namespace assay {

inline std::uint64_t texture_level_bytes(const Entry& e, unsigned mip) {
  auto dim = [&](std::uint32_t (TextureInfo::*side)) -> std::uint64_t {
    if (!e.texture_info || (*e.texture_info).*side == 0) return 1;
    return std::min<std::uint64_t>((*e.texture_info).*side, std::uint64_t{1} << 24);  // no overflow below
  };
  const unsigned shift = std::min(mip, 31u);
  return std::max<std::uint64_t>(1, dim(&TextureInfo::width) >> shift) * std::max<std::uint64_t>(1, dim(&TextureInfo::height) >> shift) * 4;
}

inline Result<MemoryLease> texture_lease(const Container& c, const Entry& e, unsigned mip) {
  const std::string what = c.input().name + "::" + (e.name ? *e.name : e.path) + " (decoded pixels)";
  return MemoryBudget::process().acquire(texture_level_bytes(e, mip), what);
}

}  // namespace assay
