// libFuzzer target: `pack oni` (oni/oni.h pack_level) from hostile .oni files. Input: up to four
// .oni files separated by "ONIFUZZSPLIT", written as a0.oni.. in a scratch folder, packed with
// the sample layouts into level1_X.dat (+ .raw, + .sep when byte 0 is odd). A pack that succeeds
// must give a level file that opens and loads without errors (spec: oni.md#oni-10-4).
#include <cstddef>
#include <cstdint>

#include "assay/formats/oni/oni.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  using namespace assay::oni;
  static const LayoutSet layouts = [] {
    auto s = parse_layouts_file(sample_layouts_text(), "samples");
    return s.ok() ? std::move(*s) : LayoutSet{};
  }();
  if (size == 0 || size > (256u << 10)) return 0;
  const fs::path in = fuzz::fresh_dir("in"), out = fuzz::fresh_dir("out");
  int k = 0;
  for (ByteView part : fuzz::split(ByteView(data, size), "ONIFUZZSPLIT", 4))
    fuzz::write_bytes(in / ("a" + std::to_string(k++) + ".oni"), part.data(), part.size());
  PackOptions po;
  po.sep = data[0] & 1;
  po.force = true;
  Diagnostics d;
  auto st = pack_level(in, out / "level1_X.dat", layouts, po, d);
  if (!st) return 0;
  auto f = load_file(out / "level1_X.dat", &layouts);
  if (!f->opened || f->diags.has_errors()) __builtin_trap();  // pack wrote a file that does not load
  return 0;
}
