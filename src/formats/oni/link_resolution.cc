// Link resolution across a level set (spec: oni.md#oni-7-1; seed: TMrLevel_Load 0x4217d0): the
// name directory's hash index and the engine's rules for which loaded file a link lands in.
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

#include "link_resolution.h"

namespace assay::oni {

// The name index's key: every byte of the name, 8 at a time (the last 8 overlapping), with a
// multiply-xorshift mix and a final fold (std::hash's byte loop was a tenth of the resolution).
// Any key finds the right names (a probe compares the names themselves); a poor one makes long
// probe runs (level_set_test checks the runs stay short on names alike but for their last bytes).
std::uint64_t detail::name_key(std::string_view s) noexcept {
  constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ull;
  const auto* p = s.data();
  const std::size_t n = s.size();
  auto word = [p](std::size_t at) {
    std::uint64_t w;
    std::memcpy(&w, p + at, 8);
    return w;
  };
  auto mix = [](std::uint64_t h, std::uint64_t w) {
    h = (h ^ w) * kMul;
    return h ^ (h >> 29);
  };
  std::uint64_t h = n * kMul;
  if (n < 8) {  // two 4-byte reads (overlapping when n < 8); shorter names are read bytewise
    std::uint32_t a = 0, b = 0;
    if (n >= 4) {
      std::memcpy(&a, p, 4);
      std::memcpy(&b, p + n - 4, 4);
    } else {
      for (std::size_t i = 0; i < n; ++i) a |= std::uint32_t(static_cast<unsigned char>(p[i])) << (8 * i);
    }
    h = mix(h, std::uint64_t(a) << 32 | b);
  } else {
    for (std::size_t i = 0; i + 8 < n; i += 8) h = mix(h, word(i));
    h = mix(h, word(n - 8));
  }
  // Spread every bit over the low ones the slot is taken from (a multiply alone only carries bits
  // upward: names differing only in their last bytes all landed in one cluster).
  constexpr std::uint64_t kFold = 0xD6E8FEB86659FD93ull;
  h ^= h >> 32;
  h *= kFold;
  h ^= h >> 32;
  h *= kFold;
  return h ^ (h >> 32);
}

// The name index is open addressing: per slot a filter byte (0: empty; else the key's top bits,
// so that most misses, the common case, settle in this small array), and a pair of u32: the key's
// high half, then descriptor + 1.
static std::uint8_t name_filter_byte(std::uint64_t key) { return static_cast<std::uint8_t>(key >> 56) | 1; }

// In front of the slots, a blocked Bloom filter (detail::name_bloom_bits): two bits of one 64-bit
// word per name, a word per 32 slots (8 KB for the bench's level 0 of 9,347 names: it stays in L1),
// so that a miss, the usual answer for another level's own names, costs one word instead of a walk
// along the slots (about 6% of the check).
using detail::name_bloom_bits;
using detail::name_bloom_word;

void index_names(LoadedFile& g) {
  g.name_index.clear();
  g.name_filter.clear();
  g.name_bloom.clear();
  if (!g.opened || g.file.is_oni()) return;
  const std::uint32_t m = g.file.name_count();
  std::size_t cap = 32;
  while (cap < std::size_t(m) * 2) cap *= 2;
  std::vector<std::uint32_t> table(2 * cap, 0);
  std::vector<std::uint8_t> filter(cap, 0);
  std::vector<std::uint64_t> bloom(cap / 32, 0);
  std::string_view prev;
  for (std::uint32_t k = 0; k < m; ++k) {
    const std::uint32_t idx = g.file.name_entry_index(k);
    // An entry out of range or out of order: the engine's binary search could miss names, so keep it.
    if (idx >= g.names.size() || (k > 0 && compare_bytes(prev, g.names[idx]) >= 0)) return;
    prev = g.names[idx];
    const std::uint64_t key = detail::name_key(prev);
    std::size_t at = key & (cap - 1);
    while (filter[at] != 0) at = (at + 1) & (cap - 1);
    filter[at] = name_filter_byte(key);
    table[2 * at] = static_cast<std::uint32_t>(key >> 32);
    table[2 * at + 1] = idx + 1;
    bloom[name_bloom_word(key, bloom.size())] |= name_bloom_bits(key);
  }
  g.name_index = std::move(table);
  g.name_filter = std::move(filter);
  g.name_bloom = std::move(bloom);
}

// The name directory's lookup (spec: oni.md#oni-3-8): the hash index when index_names built one
// (same answers: the directory is sorted and duplicate-free), else its binary search.
static std::optional<std::uint32_t> find_in_name_index(const LoadedFile& g, std::string_view name) {
  if (!g.name_index.empty()) {
    const std::size_t mask = g.name_filter.size() - 1;
    const std::uint64_t key = detail::name_key(name);
    const std::uint64_t bits = name_bloom_bits(key);
    if ((g.name_bloom[name_bloom_word(key, g.name_bloom.size())] & bits) != bits) return std::nullopt;
    const auto tag = static_cast<std::uint32_t>(key >> 32);
    const std::uint8_t fb = name_filter_byte(key);
    for (std::size_t at = key & mask; g.name_filter[at] != 0; at = (at + 1) & mask) {
      if (g.name_filter[at] != fb || g.name_index[2 * at] != tag) continue;
      const std::uint32_t idx = g.name_index[2 * at + 1] - 1;
      if (g.names[idx] == name) return idx;
    }
    return std::nullopt;
  }
  std::uint32_t lo = 0, hi = g.file.name_count();
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    const std::uint32_t idx = g.file.name_entry_index(mid);
    if (idx >= g.names.size()) return std::nullopt;
    const int c = compare_bytes(g.names[idx], name);
    if (c == 0) return idx;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return std::nullopt;
}

// The handle of loaded[slot]'s target t by the rules of spec oni.md#oni-7-1.
std::uint32_t resolve_link_target(const std::vector<const LoadedFile*>& loaded, std::size_t slot, std::uint32_t t) {
  const LoadedFile& f = *loaded[slot];
  // Rule 1: an unnamed target is that instance.
  if (f.file.descriptor(t).unnamed()) return static_cast<std::uint32_t>(slot << 24) | t;
  // Rule 2: the first loaded file with data for the name, passing over placeholders.
  const std::string_view name = f.names[t];
  for (std::size_t s = 0; s < loaded.size(); ++s) {
    const LoadedFile& g = *loaded[s];
    if (!g.opened || g.file.is_oni()) continue;
    if (s == slot) {  // the link's own file: its directory entry for the name is the target itself
      if (f.has_data[t]) return static_cast<std::uint32_t>(s << 24) | t;
      continue;
    }
    if (auto idx = find_in_name_index(g, name); idx && g.has_data[*idx]) return static_cast<std::uint32_t>(s << 24) | *idx;
  }
  return kUnresolved;  // rule 4: no data anywhere leaves the field 0
}


std::vector<std::uint32_t> resolve_links(const std::vector<const LoadedFile*>& loaded, std::size_t slot) {
  const LoadedFile& f = *loaded[slot];
  std::vector<std::uint32_t> out(f.links.size(), kBadHandle);
  std::vector<std::uint32_t> targets;
  LinkTargetCache cache(targets, f.names.size());
  for (std::size_t k = 0; k < f.links.size(); ++k) out[k] = cache.handle(loaded, slot, f.links[k]);
  return out;
}

}  // namespace assay::oni
