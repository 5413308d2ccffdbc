// PS3 EDGE geometry in an igz (igPS3EdgeGeometry, an igObjectList of igPS3EdgeGeometrySegment):
// the segments' compressed triangle lists, SPU position streams and RSX-only attribute streams,
// decoded into the same DrawGeometry as the igModelData draw calls (model.h).
//
// Sources (facts only): igRewrite8 Resources/metaobjects.txt for the segment's 32-bit field
// offsets; the EDGE index compression as SoulsFormats (JKAnderson/SoulsFormats,
// Util/EdgeGeom.cs) describes it; the Noesis plugin fmt_alchemy_igz.py for the SPU config info
// and the stream description. What zap.pak's models show, and the reader follows: SPU input
// format 0 is three big-endian floats per vertex (their bounds equal the igGeometry's igAABox
// exactly), indexes flavour 3 decodes to triangles wound counter-clockwise (216 of zapwave's 218
// face normals agree with its vertex normals), X11Y11Z10N normals are unit length with x in bits
// 0-10, y in 11-21, z in 22-31.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/core/diag.h"
#include "assay/formats/igz/fixups.h"
#include "assay/formats/igz/model.h"

namespace assay::igz {

// The triangle list of one EDGE compressed index stream (big-endian header {u16 unique index
// count, u16 base delta, u16 1-bit stream bytes, u8 bits per index, u8 0}, then the 1-bit
// "new index is not the next sequential one" stream, the 2-bit triangle configurations, and the
// n-bit delta-coded unique indexes), `index_count` indices (a multiple of 3). Errors name the
// stream and the byte where the data runs out.
Result<std::vector<std::uint32_t>> decompress_edge_indexes(ByteView bytes, std::uint32_t index_count);

struct EdgeSegment {
  std::size_t object = kNoObject;  // igPS3EdgeGeometrySegment
  std::uint64_t position = 0;      // its absolute file position
  // _spuConfigInfo (16 bytes): flags, input formats, index flavour, counts.
  std::uint8_t flags = 0, input_format = 0, secondary_input_format = 0, indexes_flavor = 0, skinning_flavor = 0;
  std::uint16_t vertex_count = 0, index_count = 0;
  std::optional<MemorySpan> indexes, spu_vertexes0, spu_vertexes1, rsx_vertexes;
  // Stream descriptions: the SPU streams' when their input format is 0xFF (custom), the RSX-only one's.
  std::optional<MemorySpan> spu_stream_desc0, spu_stream_desc1, rsx_stream_desc;
  std::optional<MemorySpan> skin_weights;  // 0x50: per vertex four {u8 weight, u8 palette index}
};

// The skin of skinned EDGE geometry (zap.pak's actor): the igBlendMatrixSelect above it in the scene
// graph (_blendMatrixIndices igIntList at 0xB4: palette index -> blend matrix) and the file's
// igSkeleton2 (read as model.h's Skeleton; offsets: igRewrite8 Resources/metaobjects.txt).
struct EdgeSkin {
  std::size_t select = kNoObject;  // igBlendMatrixSelect
  std::vector<std::int32_t> palette;
  Skeleton skeleton;
};

// Where the scene graph puts each igPS3EdgeGeometry (and each igGeometryAttr of the older,
// non-EDGE graphs: model.h find_geometry_attrs), found in one pass over the file (a level holds
// thousands): the igAABox of the igGeometry drawing it, the igBlendMatrixSelect and the
// igFxMaterialNode above it. The material is its node's _material handle (RHND), "namespace::name",
// with the hashes turned back into the TDEP namespace and the node's _name where they match. The
// skins are read once per igBlendMatrixSelect (its palette and the file's igSkeleton2), for the
// selects with EDGE geometry below them; a select whose skin does not read has none.
struct EdgeSceneIndex {
  std::map<std::size_t, std::pair<model::Vec4, model::Vec4>> bounds;  // igPS3EdgeGeometry -> min, max
  std::map<std::size_t, std::size_t> select;                          // igPS3EdgeGeometry -> igBlendMatrixSelect
  std::map<std::size_t, std::string> material;                        // igPS3EdgeGeometry -> material handle
  std::map<std::size_t, EdgeSkin> skins;                              // igBlendMatrixSelect -> its skin
};

struct EdgeGeometry {
  std::size_t object = kNoObject;  // igPS3EdgeGeometry
  std::vector<EdgeSegment> segments;
  std::optional<model::Vec4> min, max;  // the igAABox of the igGeometry that draws it, when found
  std::optional<EdgeSkin> skin;         // when a segment is skinned and its skeleton reads
  std::string material;                 // its igFxMaterialNode's material handle, "" when none
};

// A skinned segment's JOINTS_0 (indices into the skin's joints, as add_skin orders them) and WEIGHTS_0 (summing to 1) per vertex. Error for a
// palette index past the palette or a blend matrix no bone has.
struct SegmentWeights {
  std::vector<std::array<std::uint16_t, 4>> joints;
  std::vector<model::Vec4> weights;
};
Result<SegmentWeights> edge_segment_weights(const IgzFile& f, const EdgeSegment& s, const EdgeSkin& skin);

EdgeSceneIndex index_edge_scene(const IgzFile& f, const Fixups& fx, const Graph& g);

// The igPS3EdgeGeometry `object` with its segments' fields, every pointer checked. Error when
// `object` is not one or its segment list does not read. Without `index`, one is built.
Result<EdgeGeometry> read_edge_geometry(const IgzFile& f, const Graph& g, std::size_t object, const EdgeSceneIndex& index);
Result<EdgeGeometry> read_edge_geometry(const IgzFile& f, const Fixups& fx, const Graph& g, std::size_t object);
// One segment's vertices and triangles: positions, normals, UVs and colours from whichever stream
// holds them (SPU stream 0 in input format 0, three floats, or by its description when the format
// is 0xFF; SPU stream 1 by its description; the RSX-only stream by its description). A skinned
// segment gives its vertices as stored (the bind pose); edge_segment_weights() gives its weights.
// Unsupported error for an input format, index flavour or attribute format not decoded here.
Result<DrawGeometry> decode_edge_segment(const IgzFile& f, const EdgeSegment& s);
// The geometry as a glTF scene: one node and mesh per segment under a root node, one material named
// after the material handle (the container adds its texture: model_materials.h); with a skin,
// the skeleton's bones as nodes in their bind pose and the meshes skinned to them.
Result<model::Scene> edge_scene(const IgzFile& f, const EdgeGeometry& e, const std::string& name);
// Decodes every segment (an error for one that does not) and warns where the igGeometry's igAABox
// differs from the decoded positions' bounds.
void check_edge_geometry(const IgzFile& f, const EdgeGeometry& e, const DiagSink& sink);

}  // namespace assay::igz
