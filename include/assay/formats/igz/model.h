// Alchemy models in an igz: igModelInfo -> igModelData -> igModelDrawCallData -> vertex and index
// buffers, decoded from their igVertexFormat elements into a model::Scene (glTF 2.0).
//
// Field order and types: igRewrite8 igLibrary/Render/igModelData.cs, igModelDrawCallData.cs,
// igLibrary/Gfx/igVertexFormat.cs, igVertexBuffer.cs, igIndexBuffer.cs, igVertexElement.cs;
// 32-bit offsets from its metadata dump (Resources/metaobjects.txt), the same in igRewrite7's
// version 9 field table; 64-bit offsets (version 9, and version 10 Crash NST / CTR) from igRewrite7,
// the Noesis igz plugin and the Crash NST level editor's metadata (src/formats/igz/model_layout.cc).
// Enums: igRewrite8 Resources/ArkCore/EV_SkylandersSuperchargers/metaenums.xml (IG_VERTEX_TYPE,
// IG_VERTEX_USAGE, IG_INDEX_TYPE, IG_GFX_DRAW). Every pointer field is checked to be a ROFS
// pointer to an object of the type the metadata names before it is followed.
//
// The older scene graph's PS3 EDGE geometry (igSceneInfo -> igGeometry -> igPS3EdgeGeometry) is
// in edge.h.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/core/diag.h"
#include "assay/options.h"
#include "assay/formats/igz/fixups.h"
#include "assay/formats/igz/graph.h"
#include "assay/model/scene.h"

namespace assay::igz {

// ---- igVertexElement (12 bytes, igRewrite8 igVertexElement.cs; metafields.xml size 0x0C) ----------
struct VertexElement {
  std::uint8_t type = 0;    // IG_VERTEX_TYPE
  std::uint8_t stream = 0;
  std::uint8_t map_to_element = 0;
  std::uint8_t count = 0;
  std::uint8_t usage = 0;   // IG_VERTEX_USAGE
  std::uint8_t usage_index = 0;
  std::uint8_t pack_data_offset = 0;
  std::uint8_t pack_type_and_frac_hint = 0;
  std::uint16_t offset = 0;  // inside the vertex
  std::uint16_t freq = 0;
};
inline constexpr std::uint32_t kVertexElementSize = 12;
// The element at `bytes` (at least 12 bytes) in the file's byte order.
VertexElement parse_vertex_element(ByteView bytes, Endian endian);

// IG_VERTEX_TYPE values used by name here.
namespace vertex_type {
inline constexpr std::uint8_t kFloat3 = 2, kShort4N = 35, kDec3N = 40, kHalf2 = 42, kUnused = 44;
}
// IG_VERTEX_USAGE
namespace vertex_usage {
inline constexpr std::uint8_t kPosition = 0, kNormal = 1, kTangent = 2, kBinormal = 3, kColor = 4,
                              kTexcoord = 5, kBlendWeights = 6, kBlendIndices = 8;
}
// "FLOAT3", "DEC3N", ... (IG_VERTEX_TYPE_ left off); "" for a value outside the enum.
std::string_view vertex_type_name(std::uint8_t type);
// "POSITION", "TEXCOORD", ...; "" outside the enum.
std::string_view vertex_usage_name(std::uint8_t usage);
// Components of a value of the type (FLOAT3: 3); 0 when this reader does not decode the type.
unsigned vertex_type_components(std::uint8_t type);
// Bytes one value of the type takes; 0 when this reader does not decode the type.
unsigned vertex_type_size(std::uint8_t type);
// One value as (x, y, z, w), missing components 0, 0, 1 (w 1); `bytes` holds at least
// vertex_type_size(type) bytes. Unsupported error for a type that is not decoded.
Result<model::Vec4> decode_vertex_value(std::uint8_t type, ByteView bytes, Endian endian);
// IEEE 754 binary16 to float.
float half_to_float(std::uint16_t h);

// ---- the model graph ------------------------------------------------------------------------------

// An igMemory's bytes: absolute file position and size.
struct MemorySpan {
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
};

struct VertexBufferInfo {
  std::size_t object = kNoObject;         // igVertexBuffer
  std::size_t format_object = kNoObject;  // igVertexFormat
  std::uint32_t count = 0;                // _vertexCount
  std::uint32_t stride = 0;               // igVertexFormat::_vertexSize
  std::uint32_t primitive_type = 0;       // IG_GFX_DRAW
  std::vector<VertexElement> elements;    // up to the UNUSED terminator
  MemorySpan data;
};

struct IndexBufferInfo {
  std::size_t object = kNoObject;  // igIndexBuffer
  std::uint32_t count = 0;         // _indexCount
  std::uint32_t primitive_type = 0;
  std::string format;              // igIndexFormat name ("i16_cafe"), or "namespace::name" hashes
  unsigned index_size = 0;         // 1, 2 or 4 from the format's name; 0 when unknown
  MemorySpan data;
};

struct DrawCall {
  std::size_t object = kNoObject;  // igModelDrawCallData
  std::uint64_t position = 0;      // its absolute file position
  std::optional<std::string> name;
  model::Vec4 min{}, max{};        // _min, _max as stored
  std::int32_t primitive_count = 0;
  std::uint32_t properties = 0;    // _propertiesBitField: _indexBufferType bits 0-2, _primitiveType 3-5,
                                   // _lod 6-13, _enabled 14
  std::string material;            // the _materialHandle's name ("namespace::name"), "" when none
  std::optional<std::uint32_t> transform;  // index into Model::transforms
  std::uint16_t blend_offset = 0, blend_count = 0;  // _blendVectorOffset, _blendVectorCount: the draw
                                   // call's BLENDINDICES index Model::blend_matrix_indices from here
  std::uint32_t min_field = 0x10, primitive_count_field = 0x48, properties_field = 0x4C;  // offsets in the object
  std::string_view source = "igModelDrawCallData";  // the type of `object` ("igGeometryAttr" for the older graphs)
  bool stored_bounds = true;      // _min/_max hold the file's bounds (an igGeometryAttr: its igGeometry's igAABox, when found)
  bool stored_properties = true;  // _propertiesBitField is the file's (an igGeometryAttr has none)
  VertexBufferInfo vertices;
  IndexBufferInfo indices;
  [[nodiscard]] unsigned index_type() const { return properties & 7; }
  [[nodiscard]] unsigned draw_type() const { return (properties >> 3) & 7; }
  [[nodiscard]] unsigned lod() const { return (properties >> 6) & 0xFF; }
  [[nodiscard]] bool enabled() const { return ((properties >> 14) & 1) != 0; }
};

// igSkeletonBone (igRewrite8 metaobjects.txt; the Noesis plugin's sscIgzFile.process_igSkeletonBone).
struct SkeletonBone {
  std::string name;
  std::int32_t parent = -1;        // _parentIndex: the parent's index in the bone list, -1 for a root
  std::int32_t blend_matrix = -1;  // _blendMatrixIndex: its _inverseJointArray matrix, -1 for none
  model::Vec3 translation{};       // _translation
};

// The skeleton a CGraphicsSkinInfo pairs with the model (its _skin): igSkeleton2 with its
// igSkeletonBoneList and _inverseJointArray.
struct Skeleton {
  std::size_t skin_info = kNoObject;  // CGraphicsSkinInfo
  std::size_t object = kNoObject;     // igSkeleton2
  std::string name;
  std::vector<SkeletonBone> bones;
  std::vector<model::Mat4> inverse_joints;  // by blend matrix index, as glTF's column-major matrices
};

struct Model {
  std::size_t object = kNoObject;       // the entry's object: igModelInfo (or a lone igModelData)
  std::size_t data_object = kNoObject;  // igModelData
  std::string name;                     // the igModelInfo's (else igModelData's) _name, or its type
  model::Vec4 min{}, max{};             // igModelData::_min, _max
  bool stored_bounds = true;            // false for an igGeometryAttr entry (no igModelData)
  std::vector<std::optional<model::Mat4>> transforms;  // igAnimatedTransform::_matrix per _transforms
  std::vector<DrawCall> draws;
  std::vector<std::int32_t> blend_matrix_indices;  // igModelData::_blendMatrixIndices
  std::optional<Skeleton> skeleton;                // when a CGraphicsSkinInfo names this igModelData
  std::string layout;              // the field table read with: "32-bit", "64-bit NST", ...
  std::string layout_assumption;   // where its offsets come from when no real file has shown them
  std::vector<std::string> notes;  // fields left out and why (check_model reports them as notes)
};

// The older scene graphs' geometry (Skylanders on other platforms than the PS3): an igGeometry
// (an igAttrSet: _bound igAABox 0x0C, _attributes igAttrList 0x24) draws each igGeometryAttr of its
// list: _vertexBuffer igVertexBuffer 0x10, _indexBuffer igIndexBuffer 0x14, _offset 0x18,
// _primitiveCount 0x1C (32-bit; igRewrite8's Trap Team metaobjects.xml, the Noesis plugin's
// ssfIgzFile.process_igGeometryAttr), the buffers as igModelData's. Every igGeometryAttr is a model
// entry of one draw call; its bounds, material and skin come from the scene graph (edge.h's
// EdgeSceneIndex). 64-bit files are not decoded (no source gives the offsets).
std::vector<std::size_t> find_geometry_attrs(const Graph& g);

// The entry objects: every igModelInfo, and every igModelData no igModelInfo points at.
std::vector<std::size_t> find_models(const IgzFile& f, const Graph& g);
// The model graph of one igModelInfo or igModelData, every field checked, with the field offsets
// of the file's layout (32-bit; 64-bit version 9; 64-bit version 10 NST or CTR: model_layout.cc).
Result<Model> read_model(const IgzFile& f, const Fixups& fx, const Graph& g, std::size_t object);

// One draw call's decoded geometry (vertex space, before the draw call's transform).
struct DrawGeometry {
  std::vector<model::Vec3> positions;
  std::vector<model::Vec3> normals;                 // unit length, or empty
  std::vector<std::vector<model::Vec2>> texcoords;  // by usage index
  std::vector<model::Rgba8> colors;
  std::vector<std::array<std::uint16_t, 4>> blend_indices;  // BLENDINDICES 0 as stored (per draw call)
  std::vector<model::Vec4> blend_weights;           // BLENDWEIGHTS 0 (fewer than 4: the last 1 - the others)
  std::vector<std::uint32_t> triangles;             // three per triangle
  std::vector<std::string> notes;                   // elements left out and why
};
Result<DrawGeometry> decode_draw(const IgzFile& f, const DrawCall& d);

// The model as a glTF scene: a root node named after the model, one child node per draw call
// (its transform when the draw call has one), one mesh per draw call, one material per distinct
// material handle (named after it; the container adds its texture: model_materials.h). With a
// skeleton: one node per bone under the root and a skin; a draw call whose BLENDINDICES lead to
// its joints is a skinned mesh (its node a scene root), else it is left unskinned.
Result<model::Scene> model_scene(const IgzFile& f, const Model& m);

// Checks the stored figures against the decoded data (spec: issue #28 item 3): each draw call's
// _min/_max against its positions' bounds, _primitiveCount against its triangles, the
// _indexBufferType against the index buffer's format, and the model's _min/_max against the union
// of the draw calls' bounds. Differences are warnings; a draw call that cannot be decoded is an
// error.
void check_model(const IgzFile& f, const Model& m, const DiagSink& sink);

}  // namespace assay::igz
