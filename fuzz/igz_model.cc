// libFuzzer target for igz models (assay/formats/igz/model.h): open the igz, read every model
// (igModelInfo / lone igModelData), decode each draw call, build the glTF scene and run the checks
// of verify, for igModelInfo/igModelData and the older igGeometryAttr entries (PS3 EDGE geometry:
// fuzz/igz_edge.cc). Must never crash; decoded geometry must be
// consistent (triangle indices inside the vertices, one position per vertex, skinned vertices'
// joints inside the skin).
#include <cstddef>
#include <cstdint>

#include "assay/formats/igz/model.h"
#include "assay/model/gltf.h"
#include "../src/formats/igz/json.h"
#include "../src/formats/igz/model_fields.h"

namespace {

// Every draw call decoded and checked, the scene built and written; traps on inconsistent geometry.
void exercise(const assay::igz::IgzFile& f, const assay::igz::Model& m, assay::Diagnostics& d) {
  using namespace assay;
  (void)igz::model_details_json(m);
  for (const igz::DrawCall& dc : m.draws) {
    auto geo = igz::decode_draw(f, dc);
    if (!geo) continue;
    if (geo->positions.size() != dc.vertices.count || geo->triangles.size() % 3 != 0) __builtin_trap();
    for (std::uint32_t t : geo->triangles)
      if (t >= geo->positions.size()) __builtin_trap();
  }
  igz::check_model(f, m, d.sink());
  auto s = igz::model_scene(f, m);
  if (!s) return;
  for (const model::Mesh& mesh : s->meshes) {  // a skinned mesh's joints are the skin's
    if (mesh.joints.empty()) continue;
    if (s->skins.empty() || mesh.joints.size() != mesh.positions.size() || mesh.weights.size() != mesh.positions.size()) __builtin_trap();
    for (const auto& j : mesh.joints)
      for (std::uint16_t k : j)
        if (k >= s->skins[0].joints.size()) __builtin_trap();
  }
  (void)model::write_glb(*s);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  auto f = igz::IgzFile::open(ByteView(data, size));
  if (!f) return 0;
  Diagnostics d;
  const igz::Fixups fx = igz::decode_fixups(*f, d.sink());
  const igz::Graph g = igz::build_graph(*f, fx, nullptr);
  for (std::size_t o : igz::find_models(*f, g))
    if (auto m = igz::read_model(*f, fx, g, o)) exercise(*f, *m, d);
  const auto attrs = igz::find_geometry_attrs(g);  // the older igGeometryAttr graphs
  if (attrs.empty()) return 0;
  const igz::EdgeSceneIndex index = igz::index_edge_scene(*f, fx, g);
  const igz::FieldReader r(*f, fx, g);
  for (std::size_t o : attrs)
    if (auto m = igz::read_geometry_attr(r, o, index)) exercise(*f, *m, d);
  return 0;
}
