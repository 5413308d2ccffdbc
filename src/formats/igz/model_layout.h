// Internal: where the model graph's fields sit, one table per layout (model_layout.cc cites the
// sources of each offset).
#pragma once

#include <cstdint>
#include <string_view>

#include "assay/formats/igz/graph.h"

namespace assay::igz {

// igVertexBuffer / igIndexBuffer: _vertexCount or _indexCount, _data, _format, _primitiveType.
struct BufferFields {
  std::uint32_t count, data, format, primitive_type;
};

struct ModelFields {
  std::string_view name;    // "32-bit", "64-bit version 9", "64-bit NST", "64-bit CTR"
  std::string_view source;  // where the offsets come from
  bool seen = false;        // a real file has shown this layout
  // _data: a memory handle (RMHN, a pointer-sized TMHN index); when set, also an igMemory in place
  // (version 10: igMemoryRef {u32 size, u32 flags, u64 pointer}).
  bool data_in_place = false;
  std::uint32_t named_name;                                  // igNamedObject::_name
  std::uint32_t info_model_data;                             // igModelInfo::_modelData
  std::uint32_t data_min, data_max, data_transforms, data_draw_calls, data_transform_indices,
      data_blend_matrix_indices;                             // igModelData
  std::uint32_t transform_matrix;                            // igAnimatedTransform::_matrix
  std::uint32_t draw_min, draw_max, draw_material, draw_vertex_buffer, draw_index_buffer, draw_blend_offset,
      draw_blend_count, draw_primitive_count, draw_properties;  // igModelDrawCallData
  std::uint32_t graphics_buffer;                             // igGraphicsVertexBuffer / igGraphicsIndexBuffer
  BufferFields vertex_buffer, index_buffer;
  std::uint32_t format_size, format_elements;                // igVertexFormat::_vertexSize, _elements
  std::uint32_t skin_skeleton, skin_model;                   // CGraphicsSkinInfo::_skeleton, _skin
  std::uint32_t skeleton_bones, skeleton_inverse_joints;     // igSkeleton2::_boneList, _inverseJointArray
  std::uint32_t bone_parent, bone_blend_matrix, bone_translation;  // igSkeletonBone
  std::uint32_t list_count, list_memory;                     // igDataList::_count, _data (spec C4)
};

// The table for the file: by pointer size, version and (version 10) the igDataList layout the
// graph was read with (CTR's count at 0x0C, else NST's).
const ModelFields& model_fields(const IgzFile& f, const Graph& g);

// Bytes an igMemory size word gives: {u32 size, u32 flags} on 64-bit version 10 (spec C4), else
// the pointer-sized word of spec #igz-objects.
std::uint64_t memory_bytes(const IgzFile& f, std::uint64_t word);

}  // namespace assay::igz
