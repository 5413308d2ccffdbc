// libFuzzer target for igz materials (assay/formats/igz/material.h): open the igz, and for every
// object read the textures it binds as a material, and every name of the root list. Must never
// crash; each binding is an igTextureBindAttr2 of the file, and the bindings are in unit order.
#include <cstddef>
#include <cstdint>

#include "assay/formats/igz/material.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  auto f = igz::IgzFile::open(ByteView(data, size));
  if (!f) return 0;
  auto fx = igz::decode_fixups(*f);
  if (!fx) return 0;
  const igz::Graph g = igz::build_graph(*f, *fx, nullptr);
  for (const igz::NameEntry& n : g.names) (void)igz::named_object(g, n.hash);
  for (std::size_t i = 0; i < g.objects.size(); ++i) {
    const igz::MaterialTextures m = igz::material_textures(*f, *fx, g, i);
    int last = -1;
    for (const igz::TextureBinding& b : m.bindings) {
      if (b.object >= g.objects.size() || g.objects[b.object].type_name != "igTextureBindAttr2") __builtin_trap();
      const int unit = b.unit < 0 ? 0x10000 : b.unit;
      if (unit < last) __builtin_trap();
      last = unit;
      (void)igz::handle_hashes(b.image);
    }
  }
  return 0;
}
