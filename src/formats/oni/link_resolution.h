// Link resolution shared by resolve_links and the level-set check (link_resolution.cc, level_set.cc).
#pragma once

#include <cstdint>
#include <vector>

#include "assay/formats/oni/level_set.h"

namespace assay::oni {

// The handle of loaded[slot]'s target t by the rules of spec oni.md#oni-7-1.
std::uint32_t resolve_link_target(const std::vector<const LoadedFile*>& loaded, std::size_t slot, std::uint32_t t);

// Each named target's handle, looked up once however many links point at it.
struct LinkTargetCache {
  static constexpr std::uint32_t kNotYet = 0xFFFFFFFDu;
  std::vector<std::uint32_t>& by_target;  // the caller's, so that its pages serve file after file
  LinkTargetCache(std::vector<std::uint32_t>& v, std::size_t n) : by_target(v) { by_target.assign(n, kNotYet); }
  std::uint32_t handle(const std::vector<const LoadedFile*>& loaded, std::size_t slot, const Link& l) {
    if (l.bad) return kBadHandle;
    std::uint32_t& h = by_target[l.target];
    if (h == kNotYet) h = resolve_link_target(loaded, slot, l.target);
    return h;
  }
};

}  // namespace assay::oni
