// libFuzzer target: TXMP pixel decoding (oni/oni.h decode_txmp; spec: oni.md#oni-9-1) with
// hostile width, height and format: header u16 width, u16 height, u8 format, then the pixels.
// A success must give width x height x 4 bytes, and only when the pixel bytes cover the size the
// spec gives for that format (txmp_data_size, level 0).
#include <cstddef>
#include <cstdint>

#include "assay/formats/oni/oni.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay::oni;
  if (size < 5) return 0;
  const std::uint32_t w = data[0] | (data[1] << 8), h = data[2] | (data[3] << 8), fmt = data[4];
  const assay::ByteView px(data + 5, size - 5);
  auto img = decode_txmp(px, w, h, fmt);
  if (!img) return 0;
  if (img->width != w || img->height != h || img->pixels.size() != std::uint64_t{w} * h * 4) __builtin_trap();
  if (auto need = txmp_data_size(w, h, fmt, false); need && px.size() < *need) __builtin_trap();
  return 0;
}
