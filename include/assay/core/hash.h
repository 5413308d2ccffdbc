// Hashes used by the formats: CRC-32 (reflected 0xEDB88320, as zlib) and FNV-1a 32.
#pragma once

#include <cstdint>
#include <string_view>

#include "assay/core/bytes.h"

namespace assay {

// CRC-32 as zlib's crc32(): init 0xFFFFFFFF, reflected poly 0xEDB88320, final xor.
// `seed` continues a previous crc (pass the previous result).
std::uint32_t crc32(ByteView data, std::uint32_t seed = 0) noexcept;
std::uint32_t crc32(std::string_view s, std::uint32_t seed = 0) noexcept;

inline constexpr std::uint32_t kFnv1aBasis = 0x811C9DC5u;
inline constexpr std::uint32_t kFnv1aPrime = 0x01000193u;

// FNV-1a 32 over bytes; `lowercase` folds ASCII A-Z first (Alchemy's case-insensitive flag).
constexpr std::uint32_t fnv1a32(std::string_view s, bool lowercase = false,
                                std::uint32_t h = kFnv1aBasis) noexcept {
  for (char c : s) {
    auto b = static_cast<unsigned char>(c);
    if (lowercase && b >= 'A' && b <= 'Z') b = static_cast<unsigned char>(b + 32);
    h = (h ^ b) * kFnv1aPrime;
  }
  return h;
}

}  // namespace assay
