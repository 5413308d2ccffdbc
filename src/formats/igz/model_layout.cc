// The model graph's field offsets per layout. What each source gives:
//
// 32-bit (versions 7-9; the Wii U sample igModelTool_model.igz reads with it): igRewrite8
//   Resources/metaobjects.txt (hYdos/igRewrite8): igNamedObject _name 0x08; igModelInfo _modelData
//   0x14; igModelData _min 0x10, _max 0x20, _transforms 0x30, _drawCalls 0x48,
//   _drawCallTransformIndices 0x54, _blendMatrixIndices 0x6C (igVector {u32 count, igMemory});
//   igAnimatedTransform _matrix 0x10; igModelDrawCallData _min 0x10, _max 0x20, _materialHandle 0x30,
//   _graphicsVertexBuffer 0x34, _graphicsIndexBuffer 0x38, _blendVectorOffset 0x40 (u16),
//   _blendVectorCount 0x42, _primitiveCount 0x48, _propertiesBitField 0x4C; igGraphicsVertexBuffer
//   _vertexBuffer 0x0C, igGraphicsIndexBuffer _indexBuffer 0x0C; igVertexBuffer / igIndexBuffer
//   count 0x08, _data 0x14 (igMemoryRefHandle: RMHN), _format 0x18, _primitiveType 0x1C;
//   igVertexFormat _vertexSize 0x08, _elements 0x0C; CGraphicsSkinInfo _skeleton 0x14, _skin 0x18;
//   igSkeleton2 _boneList 0x0C, _inverseJointArray 0x10; igSkeletonBone _parentIndex 0x0C,
//   _blendMatrixIndex 0x10.
// 64-bit version 9 (Skylanders SuperChargers / Imaginators on 64-bit platforms; no real file seen):
//   the 32-bit field order laid out with 8-byte pointers, fields from 0x0C after {u64 vtable, u32
//   reference count}; the offsets agree with NefariousTechSupport/igRewrite7
//   igLibrary/Render/igModelDrawCallData.cs and igModelData.cs (64-bit column: 0x20 0x30 0x40 0x48
//   0x50 0x60 0x62 0x68 0x6C; _transforms 0x40, _drawCalls 0x70, _drawCallTransformIndices 0x88,
//   _blendMatrixIndices 0xB8) and with NefariousTechSupport/NoesisPlugins fmt_alchemy_igz.py
//   (sscIgzFile, bitAwareSeek 64-bit column: _modelData 0x28, igGraphics*Buffer 0x10, igVertexBuffer
//   / igIndexBuffer count 0x0C and _data 0x20 a u64 TMHN index then _format, igIndexBuffer
//   _primitiveType 0x30, igVertexFormat _vertexSize 0x0C and _elements 0x10, _name 0x10,
//   CGraphicsSkinInfo 0x28/0x30, igSkeleton2 0x18/0x20, igSkeletonBone 0x18/0x1C; its igVector is
//   {u64 count, u64 size word, u64 pointer}). igVertexBuffer _primitiveType 0x30 follows the order.
// 64-bit version 10 (Crash N. Sane Trilogy, CTR Nitro-Fueled; no real file with a model seen):
//   kishimisu/Crash-NST-Level-Editor src/Alchemy/igObject/Autogen (FieldAttr nst:, ctr:):
//   igModelInfo _modelData 40; igModelData _min 32, _max 48, _transforms 64, _drawCalls 112,
//   _drawCallTransformIndices 136, _blendMatrixIndices 184 (igVectorMetaField: count +0, igMemoryRef
//   +8, 24 bytes); igAnimatedTransform _matrix 32; igModelDrawCallData 32 48 64 72 80, 96 98, 104
//   108; igGraphicsVertexBuffer / igGraphicsIndexBuffer 32; igVertexBuffer / igIndexBuffer NST 16,
//   _data 40 (igMemoryRef {u32 size, u32 flags, raw ref (ROFS) at +8}), _format 56, _primitiveType 64;
//   CTR 12, 32, 48, 56; igVertexFormat NST 16, 24, CTR 12, 16; igNamedObject _name 16;
//   CGraphicsSkinInfo 40/48; igSkeleton2 24/32; igSkeletonBone 24/28, _translation 32. CTR's igObject
//   fields start at 0x0C as its igDataList's count does (spec: alchemy.md#corrections C4).
// igDataList (igSkeletonBoneList is an igObjectList): count 0x08 / igMemory 0x10 on 32-bit, 0x0C (NST
//   0x10) / 0x18 on 64-bit (spec: alchemy.md#igz-objects, #corrections C4). igSkeletonBone _translation:
//   metaobjects.txt 0x14; the Noesis plugin 0x20 on 64-bit.
#include "model_layout.h"

#include <algorithm>

namespace assay::igz {

namespace {

constexpr ModelFields kFields32{
    .name = "32-bit",
    .source = "igRewrite8 metaobjects.txt",
    .seen = true,
    .named_name = 0x08,
    .info_model_data = 0x14,
    .data_min = 0x10, .data_max = 0x20, .data_transforms = 0x30, .data_draw_calls = 0x48,
    .data_transform_indices = 0x54, .data_blend_matrix_indices = 0x6C,
    .transform_matrix = 0x10,
    .draw_min = 0x10, .draw_max = 0x20, .draw_material = 0x30, .draw_vertex_buffer = 0x34, .draw_index_buffer = 0x38,
    .draw_blend_offset = 0x40, .draw_blend_count = 0x42, .draw_primitive_count = 0x48, .draw_properties = 0x4C,
    .graphics_buffer = 0x0C,
    .vertex_buffer = {0x08, 0x14, 0x18, 0x1C},
    .index_buffer = {0x08, 0x14, 0x18, 0x1C},
    .format_size = 0x08, .format_elements = 0x0C,
    .skin_skeleton = 0x14, .skin_model = 0x18,
    .skeleton_bones = 0x0C, .skeleton_inverse_joints = 0x10,
    .bone_parent = 0x0C, .bone_blend_matrix = 0x10, .bone_translation = 0x14,
    .list_count = 0x08, .list_memory = 0x10,
};

constexpr ModelFields kFields64v9{
    .name = "64-bit version 9",
    .source = "igRewrite7's and the Noesis igz plugin's 64-bit offsets",
    .named_name = 0x10,
    .info_model_data = 0x28,
    .data_min = 0x20, .data_max = 0x30, .data_transforms = 0x40, .data_draw_calls = 0x70,
    .data_transform_indices = 0x88, .data_blend_matrix_indices = 0xB8,
    .transform_matrix = 0x20,
    .draw_min = 0x20, .draw_max = 0x30, .draw_material = 0x40, .draw_vertex_buffer = 0x48, .draw_index_buffer = 0x50,
    .draw_blend_offset = 0x60, .draw_blend_count = 0x62, .draw_primitive_count = 0x68, .draw_properties = 0x6C,
    .graphics_buffer = 0x10,
    .vertex_buffer = {0x0C, 0x20, 0x28, 0x30},
    .index_buffer = {0x0C, 0x20, 0x28, 0x30},
    .format_size = 0x0C, .format_elements = 0x10,
    .skin_skeleton = 0x28, .skin_model = 0x30,
    .skeleton_bones = 0x18, .skeleton_inverse_joints = 0x20,
    .bone_parent = 0x18, .bone_blend_matrix = 0x1C, .bone_translation = 0x20,
    .list_count = 0x0C, .list_memory = 0x18,
};

// Crash NST: the igNamedObject-derived objects as version 9 64-bit; the igObject-derived buffers
// and formats after a 16-byte header, _data a 16-byte igMemoryRef, igGraphicsObject 8 bytes longer.
constexpr ModelFields nst_fields() {
  ModelFields c = kFields64v9;
  c.name = "64-bit NST";
  c.source = "the Crash NST level editor's metadata (nst), vertex types numbered as version 9's (no version 10 IG_VERTEX_TYPE at hand)";
  c.data_in_place = true;
  c.graphics_buffer = 0x20;
  c.vertex_buffer = c.index_buffer = {0x10, 0x28, 0x38, 0x40};
  c.format_size = 0x10, c.format_elements = 0x18;
  c.list_count = 0x10;
  return c;
}
constexpr ModelFields kFieldsNst = nst_fields();

// CTR: as NST with the igObject-derived fields from 0x0C.
constexpr ModelFields ctr_fields() {
  ModelFields c = kFieldsNst;
  c.name = "64-bit CTR";
  c.source = "the Crash NST level editor's metadata (ctr), vertex types numbered as version 9's (no version 10 IG_VERTEX_TYPE at hand)";
  c.vertex_buffer = c.index_buffer = {0x0C, 0x20, 0x30, 0x38};
  c.format_size = 0x0C, c.format_elements = 0x10;
  c.list_count = 0x0C;
  return c;
}
constexpr ModelFields kFieldsCtr = ctr_fields();

// Version 10: CTR or NST from the MTSZ size of an igVertexBuffer, igIndexBuffer or igVertexFormat
// (the editor's ObjectAttr sizes: NST 104, 96, 136; CTR 96, 88, 128), else from the igDataList
// layout the graph was read with.
bool ctr_file(const Graph& g) {
  static constexpr struct {
    std::string_view type;
    std::uint32_t nst, ctr;
  } kSizes[] = {{"igVertexBuffer", 104, 96}, {"igIndexBuffer", 96, 88}, {"igVertexFormat", 136, 128}};
  for (const Object& o : g.objects)
    for (const auto& k : kSizes)
      if (o.type_name == k.type && (o.size == k.nst || o.size == k.ctr)) return o.size == k.ctr;
  return std::find(g.list_layouts.begin(), g.list_layouts.end(), ListLayout::ctr64) != g.list_layouts.end();
}

}  // namespace

const ModelFields& model_fields(const IgzFile& f, const Graph& g) {
  if (f.header().pointer_size != 8) return kFields32;
  if (!nst_layout(f.header())) return kFields64v9;
  return ctr_file(g) ? kFieldsCtr : kFieldsNst;
}

std::uint64_t memory_bytes(const IgzFile& f, std::uint64_t word) {
  if (nst_layout(f.header())) return split_memory_v10(word, f.header().endian).size;
  return decode_memory_word(word, f.header().pointer_size).size;
}

}  // namespace assay::igz
