// libFuzzer target: Oni AKEV level geometry (oni/akev.h). The input is a level: a u32 (little-endian)
// length, that many bytes of .dat, then the .raw. Every AKEV (the first 4) is counted, verified and
// decoded from the instance file alone, then exported after the walk; a decoded geometry must hold
// what the decoder checked (every drawn corner inside PNTA/TXCA, every slot inside TXMA) and an
// export is a GLB.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "assay/formats/oni/akev.h"
#include "assay/formats/oni/layout.h"
#include "assay/formats/oni/level_set.h"

namespace {

void akev_check_decoded(const assay::oni::AkevGeometry& g) {
  std::array<std::array<std::uint8_t, 3>, 4> tris;
  for (std::uint32_t k = 0; k < g.quad_count; ++k) {
    const assay::oni::AkevQuad q = g.quad(k);
    if (q.texture >= g.textures.size()) __builtin_trap();
    const std::size_t n = q.triangles(tris);
    for (std::size_t t = 0; t < n; ++t)
      for (auto c : tris[t])
        if (q.points[c] >= g.point_count || q.uvs[c] >= g.uv_count) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  if (size < 4) return 0;
  const std::size_t n = std::size_t{data[0]} | std::size_t{data[1]} << 8 | std::size_t{data[2]} << 16 | std::size_t{data[3]} << 24;
  if (n > size - 4) return 0;
  auto dat = std::make_shared<ByteBuffer>(data + 4, data + 4 + n);
  auto f = oni::InstanceFile::open(ByteView(*dat), "fuzz.dat");
  if (!f) return 0;
  std::uint32_t akev = 0;
  for (std::uint32_t i = 0; i < f->instance_count() && akev < 4; ++i) {
    if (f->descriptor(i).tag != oni::make_tag("AKEV")) continue;
    ++akev;
    Diagnostics d;
    oni::verify_akev(*f, i, d);
    (void)oni::akev_counts(*f, i);
    if (auto g = oni::decode_akev(*f, i)) akev_check_decoded(*g);
  }
  if (akev == 0) return 0;
  oni::Companions c;
  c.raw = Input::from_buffer("level0_Final.raw", ByteBuffer(data + 4 + n, data + size));
  auto l = oni::load_file("level0_Final.dat", ByteView(*dat), dat, oni::LayoutSource{}, oni::LoadOptions{true, &c});
  if (!l || !l->opened) return 0;
  akev = 0;
  for (std::uint32_t i = 0; i < l->file.instance_count() && akev < 4; ++i) {
    if (l->file.descriptor(i).tag != oni::make_tag("AKEV")) continue;
    ++akev;
    auto glb = oni::export_akev_glb(*l, i);
    if (glb && (glb->size() < 12 || (*glb)[0] != 'g' || (*glb)[1] != 'l' || (*glb)[2] != 'T' || (*glb)[3] != 'F')) __builtin_trap();
  }
  return 0;
}
