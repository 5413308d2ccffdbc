#include "assay/core/hash.h"

#include <zlib.h>

namespace assay {

// zlib's crc32 is the reference CRC-32 (spec: warriors.md#dir-hash uses it too).
std::uint32_t crc32(ByteView data, std::uint32_t seed) noexcept {
  uLong c = seed;
  const Bytef* p = data.data();
  std::size_t n = data.size();
  while (n > 0) {  // zlib takes uInt lengths
    const uInt step = n > (1u << 30) ? (1u << 30) : static_cast<uInt>(n);
    c = ::crc32(c, p, step);
    p += step;
    n -= step;
  }
  return static_cast<std::uint32_t>(c);
}

std::uint32_t crc32(std::string_view s, std::uint32_t seed) noexcept {
  return crc32(ByteView(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()), seed);
}

}  // namespace assay
