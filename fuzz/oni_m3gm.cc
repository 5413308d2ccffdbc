// libFuzzer target: Oni M3GM geometry (oni/m3gm.h). The input is a level file (.dat); every M3GM
// descriptor is decoded and verified from the instance file alone (no walk). A decoded geometry
// must hold what the decoder checked: one normal and UV per point, every triangle corner a point.
#include <cstddef>
#include <cstdint>

#include "assay/formats/oni/m3gm.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay::oni;
  auto f = InstanceFile::open(assay::ByteView(data, size), "fuzz.dat");
  if (!f) return 0;
  const std::uint32_t n = f->instance_count() < 64 ? f->instance_count() : 64;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (f->descriptor(i).tag != make_tag("M3GM")) continue;
    assay::Diagnostics d;
    verify_m3gm(*f, i, d);
    auto g = decode_m3gm(*f, i);
    if (!g) continue;
    if (g->normals.size() != g->points.size() || g->uvs.size() != g->points.size()) __builtin_trap();
    for (const auto& t : g->triangles)
      for (std::uint32_t v : t)
        if (v >= g->points.size()) __builtin_trap();
  }
  return 0;
}
