// Packed integer lists. spec: alchemy.md#igz-packed (the implemented rule; the bytes published
// in igRewrite8 IGZ.md are wrong, spec Q13). Source: NefariousTechSupport/igRewrite8
// igLibrary/Core/igIGZLoader.cs and igIGZSaver.cs.
#include <algorithm>

#include "assay/formats/igz/igz.h"
#include "diag_util.h"

namespace assay::igz {

using detail::err;

Result<std::vector<std::uint32_t>> unpack_list(ByteView data, std::uint32_t count,
                                               std::uint32_t version, std::size_t* bytes_used) {
  const std::uint64_t nibbles = std::uint64_t{data.size()} * 2;
  if (count > nibbles)  // every value takes at least one nibble: checked before reserving
    return err("packed list", 0,
               fmt::format("{} values cannot fit in 0x{:x} bytes", count, data.size()));
  const std::uint64_t bias = version < 9 ? 4 : 0;
  std::vector<std::uint32_t> out;
  out.reserve(count);
  std::uint64_t prev = 0, at = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    std::uint64_t part = 0;
    unsigned shift = 0;
    for (;;) {
      if (at >= nibbles)
        return err("packed list", at / 2,
                   fmt::format("data ends inside value {} of {} (0x{:x} bytes)", i, count, data.size()));
      const unsigned nib = (data[at / 2] >> ((at & 1) * 4)) & 0xF;
      ++at;
      if (shift > 30)
        return err("packed list", (at - 1) / 2, fmt::format("value {} has more than 33 bits", i));
      part |= std::uint64_t{nib & 7u} << shift;
      shift += 3;
      if ((nib & 8) == 0) break;
    }
    const std::uint64_t v = prev + part * 4 + bias;
    if (v > 0xFFFFFFFFu)
      return err("packed list", (at - 1) / 2, fmt::format("value {} exceeds 32 bits", i));
    out.push_back(static_cast<std::uint32_t>(v));
    prev = v;
  }
  if (bytes_used != nullptr) *bytes_used = static_cast<std::size_t>((at + 1) / 2);
  return out;
}

Result<ByteBuffer> pack_list(std::vector<std::uint32_t> values, std::uint32_t version) {
  std::sort(values.begin(), values.end());
  std::vector<std::uint8_t> nibs;
  std::uint32_t prev = 0;
  for (std::uint32_t v : values) {
    std::uint32_t q = v - prev;
    if (q % 4 != 0)
      return err("packed list", kNoOffset, fmt::format("0x{:x} is not 4-byte aligned", v));
    q /= 4;
    if (version < 9) {
      if (q == 0)
        return err("packed list", kNoOffset,
                   fmt::format("0x{:x}: version {} lists need a gap of at least 4", v, version));
      q -= 1;
    }
    do {
      const std::uint8_t g = q & 7;
      q >>= 3;
      nibs.push_back(static_cast<std::uint8_t>(g | (q != 0 ? 8 : 0)));
    } while (q != 0);
    prev = v;
  }
  ByteBuffer out((nibs.size() + 1) / 2, 0);
  for (std::size_t i = 0; i < nibs.size(); ++i)
    out[i / 2] |= static_cast<std::uint8_t>(nibs[i] << ((i & 1) * 4));
  return out;
}

}  // namespace assay::igz
