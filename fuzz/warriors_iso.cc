// libFuzzer target: a Warriors disc given as an ISO 9660 image (warriors/disc.h Disc::open,
// src/formats/warriors/disc_iso.cc through libiso9660, which needs a path: the input is written
// to a scratch file first). Then D2-D10, every entry's bytes, and the warriors record's
// info/list/verify as JSON.
#include <cstddef>
#include <cstdint>

#include "assay/options.h"
#include "assay/formats/warriors/disc.h"
#include "assay/ops.h"
#include "fuzz_util.h"
#include "formats/serialise.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  using namespace assay::warriors;
  if (size > (4u << 20)) return 0;
  static const fs::path iso = fuzz::scratch() / "disc.iso";
  fuzz::write_bytes(iso, data, size);
  auto in = Input::open(iso);
  if (!in) return 0;
  if (!looks_like_disc(*in)) return 0;
  if (auto disc = Disc::open(*in)) {
    Diagnostics d;
    disc->validate(d);
    for (std::uint32_t i = 0; i < disc->count() && i < 4096; ++i) {
      auto b = disc->entry_bytes(disc->entry(i));
      if (b && (b->data() < disc->wad_bytes().data() ||
                b->data() + b->size() > disc->wad_bytes().data() + disc->wad_bytes().size()))
        __builtin_trap();  // an entry outside the WAD's extent
    }
  }
  ReadOptions opt;
  opt.threads = 1;
  const ContainerOptions co = *container_options(opt);
  if (auto c = assay::open(*in, co, "warriors")) {
    if (auto j = info_json(**c)) fuzz::dump_all(*j);
    fuzz::dump_all(list_json(**c));
  }
  (void)verify_input(*in, co, nullptr, "warriors");
  return 0;
}
