// Fuzz target: a DIR/WAD pair. Input = u16 DIR length, the DIR, then the WAD. Opens the pair
// (D1), runs D2-D10, then classifies and loads every entry that lies inside the WAD.
#include <cstddef>
#include <cstdint>

#include "assay/formats/warriors/chunks.h"
#include "assay/formats/warriors/classify.h"
#include "assay/formats/warriors/disc.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay::warriors;
  if (size < 2) return 0;
  const std::size_t dir_len = std::min<std::size_t>(data[0] | (data[1] << 8), size - 2);
  const assay::ByteView dir(data + 2, dir_len), wad(data + 2 + dir_len, size - 2 - dir_len);
  auto disc = Disc::from_views(dir, wad);
  if (!disc) return 0;
  assay::Diagnostics diags;
  disc->validate(diags);
  static const HandlerTable table = HandlerTable::standard();
  for (std::uint32_t i = 0; i < disc->count() && i < 256; ++i) {
    auto bytes = disc->entry_bytes(disc->entry(i));
    if (!bytes) continue;
    if (is_container(classify_entry(*bytes))) (void)load_container(*bytes, table);
  }
  return 0;
}
