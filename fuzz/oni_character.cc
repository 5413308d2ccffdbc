// libFuzzer target: Oni characters (oni/character.h). The input is a level: a u32 (little-endian)
// length, that many bytes of .dat, then the .raw. Every ONCC (the first 16) is verified and
// exported (body, TRAC collection, TRAMs) and every TRAM verified; an export is a GLB.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "assay/formats/oni/character.h"
#include "assay/formats/oni/layout.h"
#include "assay/formats/oni/level_set.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  if (size < 4) return 0;
  const std::size_t n = std::size_t{data[0]} | std::size_t{data[1]} << 8 | std::size_t{data[2]} << 16 | std::size_t{data[3]} << 24;
  if (n > size - 4) return 0;
  auto dat = std::make_shared<ByteBuffer>(data + 4, data + 4 + n);
  oni::Companions c;
  c.raw = Input::from_buffer("level0_Final.raw", ByteBuffer(data + 4 + n, data + size));
  auto f = oni::load_file("level0_Final.dat", ByteView(*dat), dat, oni::LayoutSource{}, oni::LoadOptions{true, &c});
  if (!f || !f->opened) return 0;
  std::uint32_t oncc = 0;
  for (std::uint32_t i = 0; i < f->file.instance_count(); ++i) {
    const std::uint32_t tag = f->file.descriptor(i).tag;
    Diagnostics d;
    if (tag == oni::make_tag("TRAM")) oni::verify_tram(*f, i, d);
    if (tag != oni::make_tag("ONCC") || ++oncc > 16) continue;
    oni::verify_character(*f, i, nullptr, d);
    auto glb = oni::export_character_glb(*f, i);
    if (glb && (glb->size() < 12 || (*glb)[0] != 'g' || (*glb)[1] != 'l' || (*glb)[2] != 'T' || (*glb)[3] != 'F')) __builtin_trap();
  }
  return 0;
}
