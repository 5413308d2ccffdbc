// RenderWare clump (0x10) summary: frames, geometries, atomics, materials, texture names and
// plugins (spec: renderware.md#rw-7). Works on any in-memory view (a game's chunk handlers call it
// on a chunk's bytes).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "assay/core/diag.h"
#include "assay/formats/renderware/profile.h"
#include "assay/formats/renderware/section.h"

namespace assay::rw {

struct FrameSummary {
  std::int32_t parent = -1;
  std::uint32_t flags = 0;
  float position[3] = {0, 0, 0};
  std::string_view node_name;  // Rockstar node name 0x0253F2FE, when present
};

struct MaterialSummary {
  std::uint8_t color[4] = {0, 0, 0, 0};
  bool textured = false;
  std::string_view texture, mask;  // Texture section's name and mask strings
  std::uint32_t filter_addressing = 0;
};

struct GeometrySummary {
  std::uint64_t offset = 0;  // absolute offset of the 0x0F section
  std::uint32_t format_flags = 0;
  std::uint32_t triangles = 0, vertices = 0, morph_targets = 0;
  bool native = false;  // flag 0x01000000: data in Native Data 0x510 (not decoded)
  std::uint32_t uv_sets = 0;
  std::vector<MaterialSummary> materials;  // resolved material list (reused entries repeated)
  std::vector<std::uint32_t> extensions;   // plugin ids in the geometry extension
  // Bin Mesh (0x50E), when present
  bool has_bin_mesh = false;
  std::uint32_t mesh_flags = 0, mesh_count = 0, mesh_indices = 0;
};

struct AtomicSummary {
  std::uint32_t frame_index = 0, geometry_index = 0, flags = 0;
  bool own_geometry = false;  // standalone atomic holding its own Geometry
  std::vector<std::uint32_t> extensions;
};

struct ClumpSummary {
  std::uint64_t offset = 0;  // absolute offset of the 0x10 section
  std::uint32_t stamp = 0;
  // Clump struct: 4 bytes (atomics only) or 12 (atomics, lights, cameras) (spec: #rw-7-1)
  std::uint32_t struct_atomic_count = 0, light_count = 0, camera_count = 0;
  std::vector<FrameSummary> frames;
  std::vector<GeometrySummary> geometries;
  std::vector<AtomicSummary> atomics;   // the Atomic sections found (== struct count when valid)
  std::vector<std::string_view> texture_names;  // unique, in first-seen order
  std::vector<std::uint32_t> plugins;   // every extension child id seen, unique, ascending
  std::uint32_t material_count = 0;     // Material sections
  [[nodiscard]] std::uint64_t total_triangles() const;
  [[nodiscard]] std::uint64_t total_vertices() const;
  [[nodiscard]] std::size_t atomic_count() const { return atomics.size(); }
};

struct ClumpOptions {
  const Profile* profile = nullptr;  // the game's reader profile (no clump rule uses it yet)
};

// `bytes` must start with a Clump section (0x10); bytes after it are ignored. Structural errors
// (R1, R2, R19, R20, R21) fail; warnings go to `diag`.
Result<ClumpSummary> summarize_clump(ByteView bytes, std::uint64_t base = 0,
                                     const DiagSink& diag = {}, const ClumpOptions& options = {});
// The summary views its buffer (names): a temporary buffer would dangle.
Result<ClumpSummary> summarize_clump(const ByteBuffer&& bytes, std::uint64_t base = 0, const DiagSink& diag = {},
                                     const ClumpOptions& options = {}) = delete;

}  // namespace assay::rw
