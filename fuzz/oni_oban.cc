// libFuzzer target: Oni OBAN object animations (oni/oban.h). The input is a level .dat. Every OBAN
// (the first 4) is verified, listed and decoded from the instance file alone (a decoded animation
// holds the key count its bytes hold), then exported after the walk with the OBOA objects that play
// it (or the DOOR/TRIG class that names it); an export is a GLB (or an error). Who names each OBAN
// (oban_player_index) names OBAN descriptors only.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "assay/formats/oni/layout.h"
#include "assay/formats/oni/level_set.h"
#include "assay/formats/oni/oban.h"
#include "formats/json_printer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  auto dat = std::make_shared<ByteBuffer>(data, data + size);
  auto f = oni::InstanceFile::open(ByteView(*dat), "fuzz.dat");
  if (!f) return 0;
  std::uint32_t n = 0;
  for (std::uint32_t i = 0; i < f->instance_count() && n < 4; ++i) {
    if (f->descriptor(i).tag != oni::make_tag("OBAN")) continue;
    ++n;
    Diagnostics d;
    oni::verify_oban(*f, i, d);
    if (auto b = f->instance_bytes(i)) {
      Json j;
      detail::JsonPrinter p(j);
      oni::print_oban_details(p, *b);
    }
    if (auto a = oni::decode_oban(*f, i)) {
      const auto b = f->instance_bytes(i);
      if (!b || oni::ObanFields::kKeys + std::uint64_t{oni::ObanFields::kKeySize} * a->keys.size() > b->size()) __builtin_trap();
      for (const auto& k : a->keys) (void)k.rotation();
    }
  }
  for (const auto& [oban, players] : oni::oban_player_index(*f)) {
    if (oban >= f->instance_count() || f->descriptor(oban).tag != oni::make_tag("OBAN")) __builtin_trap();
    Json j;
    detail::JsonPrinter p(j);
    oni::print_oban_players(p, players);
  }
  if (n == 0) return 0;
  auto l = oni::load_file("level1_Final.dat", ByteView(*dat), dat, oni::LayoutSource{}, oni::LoadOptions{true, nullptr});
  if (!l || !l->opened) return 0;
  n = 0;
  for (std::uint32_t i = 0; i < l->file.instance_count() && n < 4; ++i) {
    if (l->file.descriptor(i).tag != oni::make_tag("OBAN")) continue;
    ++n;
    (void)oni::oban_objects(*l, i);
    auto glb = oni::export_oban_glb(*l, i);
    if (glb && (glb->size() < 12 || (*glb)[0] != 'g' || (*glb)[1] != 'l' || (*glb)[2] != 'T' || (*glb)[3] != 'F')) __builtin_trap();
  }
  return 0;
}
