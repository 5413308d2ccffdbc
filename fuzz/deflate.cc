// libFuzzer target: the PNG writer's run deflate (src/image/deflate.h). Byte 0 picks how the rest
// is used: its bit 4 the pixel distance (set: 3, RGB rows; else 4, RGBA), its low 4 bits + 1 copies
// of the rest, each copy with its byte at the copy's index
// changed (long inputs with runs and repeats, over several blocks, from short seeds). The stream
// must fit the bound, zlib must inflate it back to the input (Adler-32 checked), and the portable
// compares must give the same stream as the SIMD ones.
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "../src/image/deflate.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay::image::detail;
  if (size < 1) return 0;
  const std::size_t copies = (data[0] & 15u) + 1;
  std::vector<std::uint8_t> in;
  for (std::size_t c = 0; c < copies; ++c) {
    in.insert(in.end(), data + 1, data + size);
    if (size > 1) in[in.size() - (size - 1) + c % (size - 1)] ^= static_cast<std::uint8_t>(c);
  }
  const std::size_t bound = zlib_fast_bound(in.size());
  std::vector<std::uint8_t> z(bound), portable(bound);
  const unsigned pixel = (data[0] & 16u) != 0 ? 3 : 4;
  const std::size_t n = zlib_fast_compress(assay::ByteView(in.data(), in.size()), z.data(), pixel);
  const std::size_t m = zlib_fast_compress_portable(assay::ByteView(in.data(), in.size()), portable.data(), pixel);
  if (n + 8 > bound || n != m || std::memcmp(z.data(), portable.data(), n) != 0) __builtin_trap();
  std::vector<std::uint8_t> back(in.size() + 1);
  uLongf got = back.size();
  if (uncompress(back.data(), &got, z.data(), n) != Z_OK || got != in.size() ||
      (got != 0 && std::memcmp(back.data(), in.data(), got) != 0))
    __builtin_trap();
  return 0;
}
