// An igz of the older, non-EDGE scene graph (no igModelData), written by our own writer in the
// 32-bit layout: a root igObjectList -> igFxMaterialNode (_name 0x08 "QuadMat", _childList igNodeList
// 0x20, its material handle an RHND EXID {fnv1a("quadmat"), fnv1a("quad_materials")} at 0x24; TDEP
// quad_materials = materials:/quad_materials.igz) -> igGeometry (_bound igAABox 0x0C with min 0x08
// and max 0x14, _attributes igAttrList 0x24) -> igGeometryAttr (_vertexBuffer 0x10, _indexBuffer 0x14,
// _offset 0x18, _primitiveCount 0x1C: igRewrite8's Trap Team metaobjects.xml) -> the igVertexBuffer,
// igVertexFormat and igIndexBuffer of model_fixture.h's v32 layout, from a ModelSpec (its min/max
// become the igAABox, its primitive_count the attribute's). The fixture of geometry_test.cc and of
// the igz_model fuzz corpus.
#pragma once

#include "model_fixture.h"

namespace assay::igz::fixtures {

struct GeometrySpec {
  ModelSpec buffers = triangle_spec(Endian::big);
  std::uint32_t offset = 0;  // _offset
  Layout layout{.version = 9, .endian = Endian::big, .platform = 9};
};

inline Result<ByteBuffer> build_geometry_igz(const GeometrySpec& g) {
  const ModelSpec& s = g.buffers;
  Writer w(g.layout);
  const FixtureFields at = fixture_fields(FixtureLayout::v32);
  const std::uint32_t def = w.add_pool("Default", 16), vtx = w.add_pool("Vertex", 16);
  const std::uint32_t list_t = w.add_type("igObjectList", w.data_list_size());
  const std::uint32_t node_t = w.add_type("igFxMaterialNode", 0x28), nodes_t = w.add_type("igNodeList", w.data_list_size());
  const std::uint32_t geo_t = w.add_type("igGeometry", 0x28), box_t = w.add_type("igAABox", 0x20);
  const std::uint32_t attrs_t = w.add_type("igAttrList", w.data_list_size()), attr_t = w.add_type("igGeometryAttr", 0x2C);
  const std::uint32_t vb_t = w.add_type("igVertexBuffer", at.vb_size), vf_t = w.add_type("igVertexFormat", at.vf_size);
  const std::uint32_t ib_t = w.add_type("igIndexBuffer", at.ib_size);
  w.add_dependency("quad_materials", "materials:/quad_materials.igz");
  const std::uint32_t root = w.add_object(def, list_t);  // first: the ROOT reads the same both ways (spec Q5)
  const std::uint32_t node = w.add_object(def, node_t), geo = w.add_object(def, geo_t), box = w.add_object(def, box_t);
  const std::uint32_t attr = w.add_object(def, attr_t), vb = w.add_object(def, vb_t);
  w.set_string(node + 0x08, "QuadMat");
  w.set_handle(node + 0x24, w.add_external_id(fnv1a32("quadmat", true), fnv1a32("quad_materials", true)));
  w.set_pointer(node + 0x20, w.add_object_list(def, nodes_t, {geo}));
  w.set_pointer(geo + 0x0C, box);
  for (unsigned k = 0; k < 3; ++k) {
    w.put_u32(box + 0x08 + 4 * k, std::bit_cast<std::uint32_t>(s.min[k]));
    w.put_u32(box + 0x14 + 4 * k, std::bit_cast<std::uint32_t>(s.max[k]));
  }
  w.set_pointer(geo + 0x24, w.add_object_list(def, attrs_t, {attr}));
  w.set_pointer(attr + 0x10, vb);
  w.put_u32(attr + 0x18, g.offset);
  w.put_u32(attr + 0x1C, static_cast<std::uint32_t>(s.primitive_count));
  w.put_u32(vb + at.buffer_count, s.vertex_count);
  put_buffer_data(w, vtx, vb + at.buffer_data, s.vertex_bytes, false);
  w.set_pointer(vb + at.buffer_format, put_vertex_format(w, def, vf_t, s, at));
  w.put_u32(vb + at.buffer_primitive, s.primitive_type);
  if (s.indices) w.set_pointer(attr + 0x14, put_index_object(w, s, at, ib_t, def, vtx));
  const std::uint32_t elements = w.alloc(def, w.pointer_size(), w.pointer_size());
  w.set_pointer(elements, node);
  w.set_data_list(root, 1, elements, w.pointer_size());
  w.set_root(root);
  return w.finish();
}

}  // namespace assay::igz::fixtures
