// Internal: native geometry (flag 0x01000000) decoded from its Native Data PLG (0x510) into
// ModelGeometry's arrays: PS2 (platform 4) through the DMA/VIF interpreter and the pipeline
// layouts of librw and GTA SA (librwgta), Xbox (platform 5) vertex and index buffers, D3D8
// (platform 8: per-mesh FVF vertex buffers) and D3D9 (platform 9: a vertex declaration and
// shared streams), as librw's src/d3d/d3d8.cpp and d3d9.cpp read them.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "assay/formats/renderware/model.h"

namespace assay::rw::native {

struct BinMeshEntry {
  std::uint32_t material = 0, indices = 0;
};

// What the geometry section says about its native data.
struct NativeSource {
  ByteView body;                          // the Native Data (0x510) body
  std::uint64_t offset = 0;               // its file offset
  bool tristrip = false;                  // Bin Mesh flags bit 0
  std::vector<BinMeshEntry> meshes;       // Bin Mesh, one native block per entry
  std::vector<std::uint32_t> pipelines;   // PDS pipeline id per material (0 = none)
  ByteView skin;                          // the native Skin PLG body (empty when unskinned)
  std::uint64_t skin_offset = 0;
  std::optional<std::uint32_t> xbox_vertex_format;  // Xbox Vertex Format PLG 0x511
};

constexpr std::uint32_t kPlatformPs2 = 4, kPlatformXbox = 5, kPlatformD3d8 = 8, kPlatformD3d9 = 9;

// One decoded corner: every attribute a pipeline can carry.
struct Corner {
  std::array<float, 3> position{}, normal{};
  std::array<std::array<float, 2>, 2> uv{};
  std::array<std::uint8_t, 4> color{255, 255, 255, 255};
  std::array<std::uint8_t, 4> night{};  // night colour (GTA SA's day/night building pipelines)
  std::array<std::uint8_t, 4> bones{};
  std::array<float, 4> weights{};
};

// Corners merged where every attribute is equal (as librw's uninstance does), giving the
// geometry's vertex arrays.
class CornerSet {
 public:
  Result<std::uint16_t> add(const Corner& c, std::uint64_t at);
  // Moves the vertices into g: positions/normals (morph target 0), `uv_sets` texture sets,
  // prelit when `colors`, skin indices/weights when g.skin is set.
  // Night colours when `night` (a pipeline that carries them).
  void emit(ModelGeometry& g, bool normals, std::uint32_t uv_sets, bool colors, bool night = false);
  [[nodiscard]] std::size_t size() const { return corners_.size(); }

 private:
  std::vector<Corner> corners_;
  std::map<std::array<std::uint32_t, 23>, std::uint16_t> index_;
};

// Fills g's vertices, morph_targets[0], normals, texcoords, prelit, triangles and skin.
Result<void> decode_native(const NativeSource& s, ModelGeometry& g);

// The native Skin PLG (0x116 body): a Struct, the platform, then bones, used bones and inverse
// bind matrices (PS2: librw ps2skin.cpp readNativeSkin; Xbox: xboxskin.cpp, whose per-vertex
// weights decode_xbox reads). Weights and indices come with the vertices.
Result<ModelSkin> decode_native_skin(ByteView body, std::uint64_t offset);

// Internal parts, one per platform.
Result<void> decode_ps2(const NativeSource& s, std::uint64_t at, ModelGeometry& g);
Result<void> decode_xbox(const NativeSource& s, std::uint64_t at, ModelGeometry& g);
Result<void> decode_d3d8(const NativeSource& s, std::uint64_t at, ModelGeometry& g);
Result<void> decode_d3d9(const NativeSource& s, std::uint64_t at, ModelGeometry& g);

}  // namespace assay::rw::native
