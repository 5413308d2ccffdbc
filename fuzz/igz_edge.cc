// libFuzzer target for PS3 EDGE geometry (assay/formats/igz/edge.h): the input is decompressed
// as an EDGE index stream (its first two bytes give the index count) and opened as an igz whose
// every igPS3EdgeGeometry is read, decoded, checked and written as GLB. Must never crash; decoded
// triangles must lie inside their segment's vertices.
#include <cstddef>
#include <cstdint>

#include "assay/formats/igz/edge.h"
#include "assay/model/gltf.h"
#include "../src/formats/igz/json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  if (size >= 2) {
    const std::uint32_t count = (data[0] << 8 | data[1]) / 3 * 3;
    if (auto t = igz::decompress_edge_indexes(ByteView(data + 2, size - 2), count); t && t->size() != count) __builtin_trap();
  }
  auto f = igz::IgzFile::open(ByteView(data, size));
  if (!f) return 0;
  Diagnostics d;
  const igz::Fixups fx = igz::decode_fixups(*f, d.sink());
  const igz::Graph g = igz::build_graph(*f, fx, nullptr);
  const igz::EdgeSceneIndex index = igz::index_edge_scene(*f, fx, g);
  for (std::size_t i = 0; i < g.objects.size(); ++i) {
    auto e = igz::read_edge_geometry(*f, g, i, index);
    if (!e) continue;
    (void)igz::edge_details_json(*e);
    for (const igz::EdgeSegment& s : e->segments) {
      auto geo = igz::decode_edge_segment(*f, s);
      if (!geo) continue;
      for (std::uint32_t t : geo->triangles)
        if (t >= geo->positions.size()) __builtin_trap();
    }
    igz::check_edge_geometry(*f, *e, d.sink());
    if (auto s = igz::edge_scene(*f, *e, "fuzz")) (void)model::write_glb(*s);
  }
  return 0;
}
