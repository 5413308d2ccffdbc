// An igz holding one model, written by our own writer: igModelInfo -> igModelData -> one
// igModelDrawCallData -> igGraphicsVertexBuffer -> igVertexBuffer -> igVertexFormat, and
// igGraphicsIndexBuffer -> igIndexBuffer with its _format an EXID "indexformats"::"i16_cafe"; the
// vertex and index bytes in a Vertex pool. Layouts (FixtureLayout), each with the field offsets and
// MTSZ sizes written out here from the sources, independently of src/formats/igz/model_layout.cc:
//   v32    the 32-bit layout of the Wii U sample igModelTool_model.igz (version 9, platform 9 = cafe;
//          igRewrite8 Resources/metaobjects.txt), _data behind memory handles (RMHN)
//   v9_64  version 9, little-endian, platform 8 (win64): the metadata's field order laid out with
//          8-byte pointers (igRewrite7 igModelDrawCallData.cs / igModelData.cs 64-bit column; the
//          Noesis plugin fmt_alchemy_igz.py sscIgzFile), _data a u64 TMHN index (RMHN), igVector
//          {u64 count, u64 size word, u64 pointer}
//   nst    version 10, little-endian, platform word 6 (Crash NST): kishimisu/Crash-NST-Level-Editor
//          Autogen FieldAttr nst: offsets and ObjectAttr sizes, _data an igMemoryRef in place
//          {u32 size, u32 flags 0x01100000, u64 pointer (ROFS)}, igVector {u32 count, pad, igMemoryRef}
//   ctr    the same with the ctr: offsets (igVertexBuffer, igIndexBuffer, igVertexFormat fields
//          4 bytes earlier) and CTR's igDataList (count at 0x0C)
// The fixture of model_test.cc, model64_test.cc and the fuzz corpus of igz_model.
#pragma once

#include <bit>
#include <optional>
#include <string>
#include <vector>

#include "assay/container.h"
#include "assay/core/hash.h"
#include "assay/formats/igz/model.h"
#include "assay/formats/igz/writer.h"

namespace assay::igz::fixtures {

enum class FixtureLayout { v32, v9_64, nst, ctr };

// Field offsets and MTSZ sizes of one layout (see the file comment for the sources).
struct FixtureFields {
  std::uint32_t name = 0x08;                              // igNamedObject::_name
  std::uint32_t info_size = 0x18, info_data = 0x14;       // igModelInfo
  std::uint32_t data_size = 0x80, data_min = 0x10, data_max = 0x20, data_transforms = 0x30, data_draws = 0x48,
                data_indices = 0x54, data_blend = 0x6C;  // igModelData
  std::uint32_t draw_size = 0x70, draw_min = 0x10, draw_max = 0x20, draw_gvb = 0x34, draw_gib = 0x38,
                draw_blend = 0x40, draw_count = 0x48, draw_properties = 0x4C;  // igModelDrawCallData
  std::uint32_t gvb_size = 0x18, gib_size = 0x14, graphics_buffer = 0x0C;      // igGraphics*Buffer
  std::uint32_t vb_size = 0x30, ib_size = 0x2C, buffer_count = 0x08, buffer_data = 0x14, buffer_format = 0x18,
                buffer_primitive = 0x1C;                  // igVertexBuffer / igIndexBuffer
  std::uint32_t vf_size = 0x48, vf_vertex_size = 0x08, vf_elements = 0x0C;  // igVertexFormat
  std::uint32_t xf_size = 0x60, xf_matrix = 0x10;        // igAnimatedTransform
};

inline FixtureFields fixture_fields(FixtureLayout l) {
  FixtureFields f;  // v32
  if (l == FixtureLayout::v32) return f;
  // 64-bit: the igNamedObject-derived objects alike in version 9 and 10 (igRewrite7 64-bit column,
  // NST editor nst:/ctr: columns): _name 16, _modelData 40, igModelData 32 48 64 112 136 184,
  // draw call 32 48 72 80 96 104 108, _matrix 32.
  f.name = 0x10, f.info_size = 48, f.info_data = 40;
  f.data_size = 208, f.data_min = 32, f.data_max = 48, f.data_transforms = 64, f.data_draws = 112, f.data_indices = 136,
  f.data_blend = 184;
  f.draw_size = 160, f.draw_min = 32, f.draw_max = 48, f.draw_gvb = 72, f.draw_gib = 80, f.draw_blend = 96,
  f.draw_count = 104, f.draw_properties = 108;
  f.xf_size = 112, f.xf_matrix = 32;
  if (l == FixtureLayout::v9_64) {  // igObject fields from 0x0C; _data an 8-byte handle
    f.gvb_size = 0x28, f.gib_size = 0x20, f.graphics_buffer = 0x10;
    f.vb_size = 0x58, f.ib_size = 0x50, f.buffer_count = 0x0C, f.buffer_data = 0x20, f.buffer_format = 0x28, f.buffer_primitive = 0x30;
    f.vf_size = 0x80, f.vf_vertex_size = 0x0C, f.vf_elements = 0x10;
  } else if (l == FixtureLayout::nst) {  // igVertexBuffer.cs, igIndexBuffer.cs, igVertexFormat.cs nst:
    f.gvb_size = 56, f.gib_size = 48, f.graphics_buffer = 32;
    f.vb_size = 104, f.ib_size = 96, f.buffer_count = 16, f.buffer_data = 40, f.buffer_format = 56, f.buffer_primitive = 64;
    f.vf_size = 136, f.vf_vertex_size = 16, f.vf_elements = 24;
  } else {  // ctr:
    f.gvb_size = 56, f.gib_size = 48, f.graphics_buffer = 32;
    f.vb_size = 96, f.ib_size = 88, f.buffer_count = 12, f.buffer_data = 32, f.buffer_format = 48, f.buffer_primitive = 56;
    f.vf_size = 128, f.vf_vertex_size = 12, f.vf_elements = 16;
  }
  return f;
}

// A skeleton for the model: CGraphicsSkinInfo {_skeleton, _skin = the igModelData} -> igSkeleton2
// {_boneList (igSkeletonBoneList), _inverseJointArray}. Offsets: 32-bit igRewrite8 metaobjects.txt
// (CGraphicsSkinInfo 0x14 / 0x18, size 0x3C; igSkeleton2 0x0C / 0x10, size 0x18; igSkeletonBone
// _parentIndex 0x0C, _blendMatrixIndex 0x10, _translation 0x14, size 0x20); 64-bit the NST editor's
// CGraphicsSkinInfo.cs 40 / 48 (size 96), igSkeleton2.cs 24 / 32 (48), igSkeletonBone.cs 24 / 28 / 32
// (48), the same in the Noesis plugin's 64-bit column.
struct SkinBone {
  std::string name;
  std::int32_t parent = -1, blend_matrix = -1;
  model::Vec3 translation{};
};
struct SkinSpec {
  std::vector<SkinBone> bones;
  std::vector<model::Mat4> inverse_joints;
  std::vector<std::uint32_t> blend_matrix_indices;  // igModelData::_blendMatrixIndices
  std::uint16_t blend_offset = 0, blend_count = 0;  // the draw call's _blendVectorOffset, _blendVectorCount
};

struct ModelSpec {
  Endian endian = Endian::big;
  std::uint32_t stride = 12;
  std::uint32_t vertex_count = 3;
  std::vector<VertexElement> elements;  // the UNUSED terminator is added
  ByteBuffer vertex_bytes;              // as stored, in the file's byte order
  std::optional<std::vector<std::uint16_t>> indices;  // nullopt: no index buffer
  std::string index_format = "i16_cafe";
  std::uint32_t primitive_type = 3;     // IG_GFX_DRAW_TRIANGLES
  model::Vec4 min{}, max{};             // the draw call's _min, _max
  model::Vec4 model_min{}, model_max{};
  std::int32_t primitive_count = 1;
  std::uint32_t properties = 0x4052;    // IG_INDEX_TYPE_INT16, IG_GFX_DRAW_TRIANGLES, lod 1, enabled
  std::optional<model::Mat4> transform; // an igAnimatedTransform for the draw call
  FixtureLayout layout = FixtureLayout::v32;
  bool data_handle = false;             // nst / ctr: _data through RMHN instead of in place
  std::optional<SkinSpec> skin;
};

// Raw bytes at a serialized offset, 4 at a time (the writer stores u32s in the file's byte order).
inline void put_bytes(Writer& w, std::uint32_t at, const ByteBuffer& b) {
  for (std::size_t i = 0; i < b.size(); i += 4) {
    std::uint8_t q[4] = {};
    for (std::size_t k = 0; k < 4 && i + k < b.size(); ++k) q[k] = b[i + k];
    w.put_u32(at + static_cast<std::uint32_t>(i), load<std::uint32_t>(q, w.layout().endian));
  }
}

inline ByteBuffer element_bytes(const VertexElement& e, Endian endian) {
  ByteBuffer b = {e.type, e.stream, e.map_to_element, e.count, e.usage, e.usage_index, e.pack_data_offset,
                  e.pack_type_and_frac_hint, 0, 0, 0, 0};
  store<std::uint16_t>(b.data() + 8, e.offset, endian);
  store<std::uint16_t>(b.data() + 10, e.freq, endian);
  return b;
}

inline void put_vec4(Writer& w, std::uint32_t at, const model::Vec4& v) {
  for (unsigned k = 0; k < 4; ++k) w.put_u32(at + 4 * k, std::bit_cast<std::uint32_t>(v[k]));
}

// An igMemory at `at` holding `size` bytes at `data`: {size word, pointer (ROFS)}, each
// pointer-sized; on version 10 the word is {u32 size, u32 flags} (Writer::memory_word).
inline void put_memory(Writer& w, std::uint32_t at, std::uint32_t size, std::uint32_t data) {
  w.put_word(at, w.memory_word(size));
  if (size != 0) w.set_pointer(at + w.pointer_size(), data);
}

// igVector {count, igMemory} at `at`: 32-bit {u32 count, u32 word, u32 pointer}; 64-bit version 9
// {u64 count, u64 word, u64 pointer}; version 10 {u32 count, pad, u32 size, u32 flags, u64 pointer}.
// `pointers`: pointer-sized object references, else 4-byte integers.
inline void put_vector(Writer& w, std::uint32_t pool, std::uint32_t at, const std::vector<std::uint32_t>& values,
                       bool pointers) {
  const auto n = static_cast<std::uint32_t>(values.size());
  const std::uint32_t ps = w.pointer_size(), elem = pointers ? ps : 4;
  if (ps == 8 && !w.v10_64()) w.put_word(at, n);
  else w.put_u32(at, n);
  const std::uint32_t data = n == 0 ? 0 : w.alloc(pool, n * elem, ps);
  for (std::uint32_t i = 0; i < n; ++i) pointers ? w.set_pointer(data + elem * i, values[i]) : w.put_u32(data + 4 * i, values[i]);
  put_memory(w, at + ps, n * elem, data);
}

inline std::uint32_t put_vertex_format(Writer& w, std::uint32_t pool, std::uint32_t type, const ModelSpec& s,
                                       const FixtureFields& at) {
  const std::uint32_t vf = w.add_object(pool, type);
  w.put_u32(vf + at.vf_vertex_size, s.stride);
  std::vector<VertexElement> els = s.elements;
  els.push_back(VertexElement{.type = vertex_type::kUnused});
  ByteBuffer bytes;
  for (const VertexElement& e : els) {
    const ByteBuffer b = element_bytes(e, s.endian);
    bytes.insert(bytes.end(), b.begin(), b.end());
  }
  const auto size = static_cast<std::uint32_t>(bytes.size());
  const std::uint32_t data = w.alloc(pool, size, 4);
  put_bytes(w, data, bytes);
  put_memory(w, vf + at.vf_elements, size, data);
  return vf;
}

// A buffer's _data in the Vertex pool: behind a TMHN memory handle set on `field` (RMHN), or with
// `in_place` an igMemory in the object.
inline void put_buffer_data(Writer& w, std::uint32_t vertex_pool, std::uint32_t field, const ByteBuffer& bytes, bool in_place) {
  const auto size = static_cast<std::uint32_t>(bytes.size());
  const std::uint32_t data = w.alloc(vertex_pool, (size + 15) & ~15u, 16);
  put_bytes(w, data, bytes);
  if (in_place) return put_memory(w, field, size, data);
  w.set_memory_handle(field, w.add_memory_handle(w.memory_word(size), data));
}

inline Layout writer_layout(const ModelSpec& s) {
  switch (s.layout) {
    case FixtureLayout::v9_64: return Layout{9, s.endian, 8, 8};
    case FixtureLayout::nst: return Layout{10, s.endian, 6};
    case FixtureLayout::ctr: return Layout{.version = 10, .endian = s.endian, .platform = 6, .ctr = true};
    default: return Layout{9, s.endian, 9};
  }
}

// An EXID reference (REXT): bit 31 of the word, on version 10 bit 63 (a CTR Switch reader finds
// the u32 at the field + 4 with bit 31 set; see image64_fixture.h).
inline void put_external(Writer& w, std::uint32_t field, std::uint32_t name_hash, std::uint32_t namespace_hash) {
  const std::uint32_t exid = w.add_external_id(name_hash, namespace_hash);
  w.set_external(field, exid);
  if (w.v10_64()) w.put_word(field, std::uint64_t{1} << 63 | exid);
}

struct ModelTypes {
  std::uint32_t list, info, data, draw, gvb, vb, vf, gib, ib, xf;
};
inline ModelTypes add_model_types(Writer& w, const FixtureFields& at) {
  ModelTypes t{};
  t.list = w.add_type("igObjectList", w.data_list_size());
  t.info = w.add_type("igModelInfo", at.info_size), t.data = w.add_type("igModelData", at.data_size);
  t.draw = w.add_type("igModelDrawCallData", at.draw_size);
  t.gvb = w.add_type("igGraphicsVertexBuffer", at.gvb_size), t.vb = w.add_type("igVertexBuffer", at.vb_size);
  t.vf = w.add_type("igVertexFormat", at.vf_size);
  t.gib = w.add_type("igGraphicsIndexBuffer", at.gib_size), t.ib = w.add_type("igIndexBuffer", at.ib_size);
  t.xf = w.add_type("igAnimatedTransform", at.xf_size);
  return t;
}

// An igIndexBuffer of the spec's 16-bit indices, its _format the EXID "indexformats"::index_format.
inline std::uint32_t put_index_object(Writer& w, const ModelSpec& s, const FixtureFields& at, std::uint32_t ib_type,
                                      std::uint32_t def, std::uint32_t vtx) {
  const std::uint32_t ib = w.add_object(def, ib_type);
  w.put_u32(ib + at.buffer_count, static_cast<std::uint32_t>(s.indices->size()));
  ByteBuffer idx(s.indices->size() * 2);
  for (std::size_t i = 0; i < s.indices->size(); ++i) store<std::uint16_t>(idx.data() + 2 * i, (*s.indices)[i], s.endian);
  put_buffer_data(w, vtx, ib + at.buffer_data, idx, w.v10_64() && !s.data_handle);
  put_external(w, ib + at.buffer_format, fnv1a32(s.index_format, true), fnv1a32("indexformats", true));
  w.put_u32(ib + at.buffer_primitive, s.primitive_type);
  return ib;
}

inline void put_index_buffer(Writer& w, const ModelSpec& s, const FixtureFields& at, const ModelTypes& t,
                             std::uint32_t def, std::uint32_t vtx, std::uint32_t draw) {
  const std::uint32_t gib = w.add_object(def, t.gib);
  w.set_pointer(draw + at.draw_gib, gib);
  w.set_pointer(gib + at.graphics_buffer, put_index_object(w, s, at, t.ib, def, vtx));
}

inline void put_draw_call(Writer& w, const ModelSpec& s, const FixtureFields& at, const ModelTypes& t,
                          std::uint32_t def, std::uint32_t vtx, std::uint32_t draw) {
  w.set_string(draw + at.name, "fixture_draw");
  put_vec4(w, draw + at.draw_min, s.min);
  put_vec4(w, draw + at.draw_max, s.max);
  const std::uint32_t gvb = w.add_object(def, t.gvb), vb = w.add_object(def, t.vb);
  w.set_pointer(draw + at.draw_gvb, gvb);
  w.put_u32(draw + at.draw_count, static_cast<std::uint32_t>(s.primitive_count));
  w.put_u32(draw + at.draw_properties, s.properties);
  w.set_pointer(gvb + at.graphics_buffer, vb);
  w.put_u32(vb + at.buffer_count, s.vertex_count);
  put_buffer_data(w, vtx, vb + at.buffer_data, s.vertex_bytes, w.v10_64() && !s.data_handle);
  w.set_pointer(vb + at.buffer_format, put_vertex_format(w, def, t.vf, s, at));
  w.put_u32(vb + at.buffer_primitive, s.primitive_type);
  if (s.indices) put_index_buffer(w, s, at, t, def, vtx, draw);
}

struct SkinFields {
  std::uint32_t info_size, info_skeleton, info_skin, skeleton_size, skeleton_bones, skeleton_inverse, bone_size,
      bone_parent, bone_blend, bone_translation, draw_blend;
};
inline SkinFields skin_fields(FixtureLayout l) {
  if (l == FixtureLayout::v32) return {0x3C, 0x14, 0x18, 0x18, 0x0C, 0x10, 0x20, 0x0C, 0x10, 0x14, 0x40};
  return {96, 40, 48, 48, 24, 32, 48, 24, 28, 32, 96};
}

// The skeleton objects; returns the CGraphicsSkinInfo (for the root list).
inline std::uint32_t put_skin(Writer& w, const ModelSpec& s, std::uint32_t def, std::uint32_t md, std::uint32_t draw,
                              const FixtureFields& at) {
  const SkinSpec& k = *s.skin;
  const SkinFields f = skin_fields(s.layout);
  const std::uint32_t info_t = w.add_type("CGraphicsSkinInfo", f.info_size), skel_t = w.add_type("igSkeleton2", f.skeleton_size);
  const std::uint32_t bone_t = w.add_type("igSkeletonBone", f.bone_size);
  const std::uint32_t list_t = w.add_type("igSkeletonBoneList", w.data_list_size());
  const std::uint32_t info = w.add_object(def, info_t), skel = w.add_object(def, skel_t);
  w.set_pointer(info + f.info_skeleton, skel);
  w.set_pointer(info + f.info_skin, md);
  w.set_string(skel + at.name, "fixture_skeleton");
  std::vector<std::uint32_t> bones;
  for (const SkinBone& b : k.bones) {
    const std::uint32_t o = w.add_object(def, bone_t);
    w.set_string(o + at.name, b.name);
    w.put_u32(o + f.bone_parent, static_cast<std::uint32_t>(b.parent));
    w.put_u32(o + f.bone_blend, static_cast<std::uint32_t>(b.blend_matrix));
    for (unsigned c = 0; c < 3; ++c) w.put_u32(o + f.bone_translation + 4 * c, std::bit_cast<std::uint32_t>(b.translation[c]));
    bones.push_back(o);
  }
  w.set_pointer(skel + f.skeleton_bones, w.add_object_list(def, list_t, bones));
  const auto bytes = static_cast<std::uint32_t>(k.inverse_joints.size() * 64);
  const std::uint32_t mats = w.alloc(def, bytes, 16);
  for (std::size_t i = 0; i < k.inverse_joints.size(); ++i)
    for (unsigned c = 0; c < 16; ++c) w.put_u32(mats + static_cast<std::uint32_t>(64 * i + 4 * c), std::bit_cast<std::uint32_t>(k.inverse_joints[i][c]));
  put_memory(w, skel + f.skeleton_inverse, bytes, mats);
  put_vector(w, def, md + at.data_blend, k.blend_matrix_indices, false);
  w.put_u32(draw + f.draw_blend, s.endian == Endian::little ? std::uint32_t{k.blend_count} << 16 | k.blend_offset
                                                             : std::uint32_t{k.blend_offset} << 16 | k.blend_count);
  return info;
}

inline Result<ByteBuffer> build_model_igz(const ModelSpec& s) {
  Writer w(writer_layout(s));
  const FixtureFields at = fixture_fields(s.layout);
  const ModelTypes t = add_model_types(w, at);
  const std::uint32_t def = w.add_pool("Default", 16), vtx = w.add_pool("Vertex", 16);

  const std::uint32_t root = w.add_object(def, t.list);  // first, at Default + 0, as in the sample
  const std::uint32_t info = w.add_object(def, t.info), md = w.add_object(def, t.data), draw = w.add_object(def, t.draw);
  w.set_string(info + at.name, "fixture_model");
  w.set_pointer(info + at.info_data, md);
  put_vec4(w, md + at.data_min, s.model_min);
  put_vec4(w, md + at.data_max, s.model_max);
  std::vector<std::uint32_t> transforms;
  if (s.transform) {
    const std::uint32_t xf = w.add_object(def, t.xf);
    for (unsigned k = 0; k < 16; ++k) w.put_u32(xf + at.xf_matrix + 4 * k, std::bit_cast<std::uint32_t>((*s.transform)[k]));
    transforms.push_back(xf);
  }
  put_vector(w, def, md + at.data_transforms, transforms, true);
  put_vector(w, def, md + at.data_draws, {draw}, true);
  put_vector(w, def, md + at.data_indices, {s.transform ? 0u : 0xFFFFFFFFu}, false);
  put_draw_call(w, s, at, t, def, vtx, draw);
  std::vector<std::uint32_t> listed = {info};
  if (s.skin) listed.push_back(put_skin(w, s, def, md, draw, at));
  const auto n = static_cast<std::uint32_t>(listed.size()), ps = w.pointer_size();
  const std::uint32_t elements = w.alloc(def, n * ps, ps);
  for (std::uint32_t i = 0; i < n; ++i) w.set_pointer(elements + i * ps, listed[i]);
  w.set_data_list(root, n, elements, ps);
  w.set_root(root);
  return w.finish();
}

// FLOAT3 positions (12 bytes a vertex) in the given byte order.
inline ByteBuffer float3_bytes(const std::vector<model::Vec3>& ps, Endian endian) {
  ByteBuffer b(ps.size() * 12);
  for (std::size_t i = 0; i < ps.size(); ++i)
    for (unsigned k = 0; k < 3; ++k) store<std::uint32_t>(b.data() + 12 * i + 4 * k, std::bit_cast<std::uint32_t>(ps[i][k]), endian);
  return b;
}

// One triangle (0, 1, 2) of FLOAT3 positions whose stored bounds and count are right.
inline ModelSpec triangle_spec(Endian endian) {
  ModelSpec s;
  s.endian = endian;
  s.elements = {VertexElement{.type = vertex_type::kFloat3, .usage = vertex_usage::kPosition}};
  s.vertex_bytes = float3_bytes({{1, 2, 3}, {-4, 5, 6}, {7, -8, 0.5f}}, endian);
  s.indices = std::vector<std::uint16_t>{0, 1, 2};
  s.min = {-4, -8, 0.5f, 0}, s.max = {7, 5, 6, 1};
  s.model_min = s.min, s.model_max = s.max;
  return s;
}

// The triangle skinned to a three-bone skeleton: root (no blend matrix), hip (blend matrix 0, bind
// pose at (0, 1, 0)) and leg (blend matrix 1, at (0, 0.5, 0)); vertices FLOAT3 + UBYTE4 BLENDINDICES
// (+12) + UBYTE4N BLENDWEIGHTS (+16), 20 bytes. The draw call's slots map through
// _blendMatrixIndices {1, 0}: vertex 0 holds index 0 -> matrix 1 (leg); vertex 1 index 1 -> matrix 0
// (hip); vertex 2 indices 0 and 1 weighted 128 and 127 (/ 255).
inline ModelSpec skinned_spec(Endian endian, FixtureLayout layout) {
  ModelSpec s = triangle_spec(endian);
  s.layout = layout;
  s.stride = 20;
  s.elements = {VertexElement{.type = vertex_type::kFloat3, .usage = vertex_usage::kPosition},
                VertexElement{.type = 23 /*UBYTE4*/, .usage = vertex_usage::kBlendIndices, .offset = 12},
                VertexElement{.type = 26 /*UBYTE4N*/, .usage = vertex_usage::kBlendWeights, .offset = 16}};
  const ByteBuffer pos = float3_bytes({{1, 2, 3}, {-4, 5, 6}, {7, -8, 0.5f}}, endian);
  const std::uint32_t idx[3] = {0x00000000, 0x00000001, 0x00000100};  // x the low byte (UBYTE4)
  const std::uint32_t wgt[3] = {0x000000FF, 0x000000FF, 0x00007F80};
  s.vertex_bytes.assign(60, 0);
  for (unsigned v = 0; v < 3; ++v) {
    std::copy(pos.begin() + 12 * v, pos.begin() + 12 * v + 12, s.vertex_bytes.begin() + 20 * v);
    store<std::uint32_t>(s.vertex_bytes.data() + 20 * v + 12, idx[v], endian);
    store<std::uint32_t>(s.vertex_bytes.data() + 20 * v + 16, wgt[v], endian);
  }
  SkinSpec k;
  k.bones = {{"root", -1, -1, {0, 0, 0}}, {"hip", 0, 0, {0, 1, 0}}, {"leg", 1, 1, {0, -0.5f, 0}}};
  k.inverse_joints = {model::Mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1},
                      model::Mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -0.5f, 0, 1}};
  k.blend_matrix_indices = {1, 0};
  k.blend_count = 2;
  s.skin = k;
  return s;
}

// Every byte of `b` set to 0x00, 0xFF and flipped (but the zero padding between the header and the
// fixups at 0x800), and every 7th truncation: opening, listing, model() and verify must never crash
// (errors are fine). `mutate` false: the truncations only.
inline void sweep_model_file(const ByteBuffer& b, bool mutate = true) {
  auto exercise = [](ByteBuffer bytes) {
    auto c = open(Input::from_buffer("sweep.igz", std::move(bytes)));
    if (!c) return;
    for (const Entry& e : (*c)->entries())
      if (e.kind == EntryKind::model) (void)(*c)->model(e);
    Diagnostics d;
    (*c)->verify(d);
  };
  const std::uint8_t values[] = {0x00, 0xFF, 0x80};
  for (std::size_t i = 0; mutate && i < b.size(); ++i)
    for (std::uint8_t v : values) {
      if (i >= 0x100 && i < 0x800 && b[i] == 0) continue;  // padding nothing reads
      ByteBuffer m = b;
      m[i] = v == 0x80 ? static_cast<std::uint8_t>(m[i] ^ 0x80) : v;
      exercise(std::move(m));
    }
  for (std::size_t n = 0; n < b.size(); n += 7) exercise(ByteBuffer(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(n)));
}

}  // namespace assay::igz::fixtures
