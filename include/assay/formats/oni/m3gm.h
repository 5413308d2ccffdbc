// Oni M3GM geometry (Oni wiki OBD:M3GM, PNTA, VCRA, TXCA, IDXA): one instance with its linked
// arrays decoded into typed geometry, and its export as glTF 2.0 (GLB) through model/scene.h.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "assay/core/diag.h"
#include "assay/formats/oni/level_set.h"
#include "assay/model/scene.h"

namespace assay::oni {

// The M3GM's fields, instance header included (OBD:M3GM; the same offsets in the shared
// samples' M3GMcube): 0x08 padding, then links.
struct M3gmLinks {
  static constexpr std::uint32_t kPoints = 0x0C, kVertexNormals = 0x10, kFaceNormals = 0x14, kTexCoords = 0x18,
                                 kStrips = 0x1C, kFaceNormalIndices = 0x20, kTexture = 0x24, kSize = 0x28;
};

struct M3gmGeometry {
  std::string name;                            // the instance label
  std::vector<model::Vec3> points;             // PNTA
  std::vector<model::Vec3> normals;            // VCRA (vertex normals), one per point
  std::vector<model::Vec2> uvs;                // TXCA as stored (V is 1 - V)
  std::vector<model::Vec3> face_normals;       // VCRA (face normals), may be empty
  std::vector<std::uint32_t> face_normal_indices;  // IDXA, one per strip triangle, may be empty
  std::vector<std::vector<std::uint32_t>> strips;  // IDXA, split where the high bit is set
  std::vector<std::array<std::uint32_t, 3>> triangles;  // strip order, engine winding applied
  std::uint32_t winding_flips = 0;             // triangles the face-normal rule turned
  model::Vec3 bbox_min{}, bbox_max{}, sphere_center{};  // PNTA's stored bounds
  float sphere_radius = 0;
  std::optional<std::uint32_t> texture;        // the TXMP descriptor (this file), if linked
  std::string texture_name;                    // its name ("" unnamed or none)
};

// M3GM instance i of a loaded file with its PNTA/VCRA/TXCA/IDXA: every link, count and strip index
// checked; errors name the instance and its absolute offset (code "oni.m3gm").
// Needs no walk: links are read at their fixed offsets and checked here.
Result<M3gmGeometry> decode_m3gm(const InstanceFile& f, std::uint32_t i);
Result<M3gmGeometry> decode_m3gm(const LoadedFile& f, std::uint32_t i);

// What `list` shows of an M3GM without decoding it (links and array counts checked as decode_m3gm
// does; strip indices not): points, strip triangles, the texture's name.
struct M3gmCounts {
  std::uint32_t vertices = 0, triangles = 0;
  std::string texture;
};
Result<M3gmCounts> m3gm_counts(const InstanceFile& f, std::uint32_t i);

// verify: strip indices inside the point array (oni.m3gm-strip) and every point inside PNTA's stored
// bounding box and sphere (oni.m3gm-bounds), as warnings in `out`.
void verify_m3gm(const InstanceFile& f, std::uint32_t i, Diagnostics& out);

// TXMPs as PNG, encoded once for all the M3GMs that share them (extract of a whole level); thread-safe.
class M3gmTextureCache {
 public:
  struct Png {
    ByteBuffer bytes;
    bool alpha = false;  // some texel is not opaque
  };
  // The PNG of TXMP i of f (nullopt: its pixels do not decode).
  std::optional<Png> get(const LoadedFile& f, std::uint32_t i);

 private:
  std::mutex mu_;
  std::map<std::pair<const LoadedFile*, std::uint32_t>, std::optional<Png>> pngs_;
};

// The geometry's mesh as m3gm_scene makes it (unit normals, V flipped back, degenerate triangles
// dropped), its one primitive using material 0.
model::Mesh m3gm_mesh(const M3gmGeometry& g);

// The geometry as a Scene: one root node and mesh, the TXMP embedded as PNG when `texture_file`
// (the file holding the texture's data: f itself, or level 0 for a placeholder) has it.
Result<model::Scene> m3gm_scene(const LoadedFile& f, std::uint32_t i, const LoadedFile* texture_file = nullptr,
                                M3gmTextureCache* cache = nullptr);
Result<ByteBuffer> export_m3gm_glb(const LoadedFile& f, std::uint32_t i, const LoadedFile* texture_file = nullptr,
                                   M3gmTextureCache* cache = nullptr);

}  // namespace assay::oni
