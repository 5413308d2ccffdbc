// The synthetic member data of the igArchive benchmarks (bench_igarchive, bench_igarchive_edit).
#pragma once

#include <cstdint>
#include <cstdio>

#include "assay/core/bytes.h"

namespace assay::bench {

// Text-like records with random numbers and short runs of noise: LZMA gets roughly 3-4x.
// The same seed gives the same bytes (xorshift64), so runs are comparable.
inline ByteBuffer igarchive_synth(std::size_t n, std::uint64_t seed) {
  static const char* words[] = {"igObjectList", "igNameList", "spawn", "actor", "level", "mesh", "texture",
                                "igVertexArray", "position", "rotation", "scale", "material", "shader"};
  ByteBuffer b;
  b.reserve(n + 64);
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  auto next = [&] { x ^= x << 13, x ^= x >> 7, x ^= x << 17; return x; };
  char tmp[64];
  while (b.size() < n) {
    const std::uint64_t r = next();
    if ((r & 63) == 0) {
      for (int i = 0; i < 8; ++i) b.push_back(static_cast<std::uint8_t>(next()));
      continue;
    }
    const int len = std::snprintf(tmp, sizeof tmp, "%s %u %u\n", words[r % 13], static_cast<unsigned>((r >> 8) % 100000),
                                  static_cast<unsigned>((r >> 32) % 1000));
    b.insert(b.end(), tmp, tmp + len);
  }
  b.resize(n);
  return b;
}

}  // namespace assay::bench
