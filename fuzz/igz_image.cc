// libFuzzer target for igz images (assay/formats/igz/image.h): open the igz, find every igImage2,
// decode each of its levels. Must never crash; a decoded level must have the size its fields give,
// and only when the image's _data covers every level (data_size).
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "assay/formats/igz/image.h"
#include "../src/formats/igz/json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  auto f = igz::IgzFile::open(ByteView(data, size));
  if (!f) return 0;
  Diagnostics d;
  const igz::Fixups fx = igz::decode_fixups(*f, d.sink());
  const igz::Graph g = igz::build_graph(*f, fx, nullptr);
  for (const igz::Image2& img : igz::find_images(*f, fx, g)) {
    (void)igz::image_details_json(img);
    for (unsigned l = 0; l < std::min<unsigned>(img.levels, 4); ++l) {
      auto rgba = igz::decode_image2(*f, img, l);
      if (!rgba) continue;
      const std::uint32_t w = std::max(1u, std::uint32_t{img.width} >> l), h = std::max(1u, std::uint32_t{img.height} >> l);
      if (rgba->width != w || rgba->height != h || rgba->pixels.size() != std::uint64_t{w} * h * 4) __builtin_trap();
      if (auto need = igz::data_size(img); !need || img.data.size < *need) __builtin_trap();
    }
  }
  return 0;
}
