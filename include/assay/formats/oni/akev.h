// Oni AKEV level geometry (Oni wiki OBD:AKEV, OBD:AGQG, OBD:AGQR, OBD:TXMA; issue 27): the
// environment's render quads as views over the level's bytes, and their export as glTF 2.0 (GLB)
// with one mesh per TXMA texture. BSP trees, collision (AGQC, PLEA), rooms (AKVA...), the octree
// (AKOT), debug names (AGDB) and script indices (IDXA) are not read.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "assay/core/diag.h"
#include "assay/formats/oni/level_set.h"
#include "assay/formats/oni/m3gm.h"
#include "assay/model/scene.h"

namespace assay::oni {

// AKEV's link fields, instance header included (data/oni/templates.txt AKEV: 02 02, then 17 links
// in this order, then 13 plain fields to 0x80; OniSplit AkiraDatReader.Read reads the same order).
struct AkevLinks {
  static constexpr std::uint32_t kPoints = 0x08, kPlanes = 0x0C, kTexCoords = 0x10, kQuads = 0x14, kQuadRender = 0x18,
                                 kQuadCollision = 0x1C, kQuadDebug = 0x20, kTextures = 0x24, kSize = 0x80;
};

// One AGQG element (0x38 bytes, templates.txt: 4 u32 point indices, 4 u32 texture coordinate
// indices, 4 u32 colours, u32 flags, u32 object id) with its AGQR texture slot.
struct AkevQuad {
  static constexpr std::uint32_t kSize = 0x38;
  static constexpr std::uint32_t kGhost = 0x2, kStairsUp = 0x4, kStairsDown = 0x8;  // OniSplit GunkFlags
  static constexpr std::uint32_t kTriangle = 0x40, kTwoSided = 0x200;
  std::array<std::uint32_t, 4> points{}, uvs{};
  std::array<std::uint32_t, 4> colors{};  // A8R8G8B8 (OniSplit BinaryReader.ReadColor)
  std::uint32_t flags = 0, object = 0;
  std::uint16_t texture = 0;              // AGQR: the element's low 16 bits, a TXMA slot
  [[nodiscard]] bool triangle() const { return (flags & kTriangle) != 0; }
  // Ghost and stair quads are invisible volumes (OniSplit puts them apart from the polygons).
  [[nodiscard]] bool ghost() const { return (flags & (kGhost | kStairsUp | kStairsDown)) != 0; }
  // The corners (0..3) of the triangles drawn: (0,1,2) and, for a quad, (0,2,3), in stored order
  // (the quad's plane is (p1 - p0) x (p2 - p0): stored order is counter-clockwise from the front,
  // OniSplit Polygon.GetPlane); a triangle whose corners share a point is dropped; a two-sided quad
  // (flag 0x200) adds each triangle turned. Returns how many of `out` it filled.
  std::size_t triangles(std::array<std::array<std::uint8_t, 3>, 4>& out) const;
};

// An AKEV decoded without copying its arrays: spans over the linked instances' elements, every
// count checked against its instance, every quad's indices inside PNTA/TXCA and texture slot inside
// TXMA checked by decode_akev.
struct AkevGeometry {
  std::string name;                              // the instance label
  ByteView points, uvs, quads, render;           // PNTA, TXCA, AGQG, AGQR elements
  std::uint32_t point_count = 0, uv_count = 0, quad_count = 0;
  std::vector<std::optional<std::uint32_t>> textures;  // TXMA: the TXMP descriptor per slot (none: 0 link)
  std::vector<std::string> texture_names;        // per slot ("" unnamed or none)

  [[nodiscard]] model::Vec3 point(std::uint32_t k) const;
  [[nodiscard]] model::Vec2 uv(std::uint32_t k) const;  // as stored (V is 1 - V)
  [[nodiscard]] AkevQuad quad(std::uint32_t k) const;
};

// AKEV instance i with its PNTA/TXCA/AGQG/AGQR/TXMA: errors name the instance and absolute
// offset: "oni.akev" (links, counts), "oni.akev-quad" (a point or texture coordinate index outside
// PNTA/TXCA), "oni.akev-texture" (a texture slot outside TXMA).
Result<AkevGeometry> decode_akev(const InstanceFile& f, std::uint32_t i);
Result<AkevGeometry> decode_akev(const LoadedFile& f, std::uint32_t i);

// What `list` shows: PNTA points, triangles drawn (ghosts left out), TXMA slots.
struct AkevCounts {
  std::uint32_t vertices = 0, triangles = 0, textures = 0;
};
Result<AkevCounts> akev_counts(const InstanceFile& f, std::uint32_t i);

// verify: every bad quad index (oni.akev-quad) and texture slot (oni.akev-texture) counted, as
// warnings; other problems as decode_akev's error, a warning.
void verify_akev(const InstanceFile& f, std::uint32_t i, Diagnostics& out);

// The level geometry as a Scene: one node and mesh (one primitive) per TXMA slot that some drawn
// quad uses, in slot order; vertices are the distinct (point, texture coordinate, colour) corners of
// that slot's quads; COLOR_0 is the quads' RGB (alpha 255); the TXMP embedded as PNG when
// `texture_file` (f or level 0) has its pixels.
Result<model::Scene> akev_scene(const LoadedFile& f, std::uint32_t i, const LoadedFile* texture_file = nullptr,
                                M3gmTextureCache* cache = nullptr);
Result<ByteBuffer> export_akev_glb(const LoadedFile& f, std::uint32_t i, const LoadedFile* texture_file = nullptr,
                                   M3gmTextureCache* cache = nullptr);

}  // namespace assay::oni
