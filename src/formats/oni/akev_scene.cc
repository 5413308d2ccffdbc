// Oni AKEV level geometry as a glTF scene (model/scene.h) and GLB (issue 27).
// Axes and units as stored (Oni is Y-up and right-handed like glTF; m3gm_scene.cc). Each TXMA slot
// that a drawn quad uses becomes one node + mesh + material: the quads are bucketed by slot once
// (one u32 per quad), then each slot's distinct (point, texture coordinate, colour) corners become
// its vertices, so the level's arrays are read in place and never copied whole.
#include <fmt/format.h>

#include <unordered_map>

#include "assay/formats/oni/akev.h"
#include "assay/model/gltf.h"

namespace assay::oni {

namespace {

struct Corner {
  std::uint32_t point, uv, rgb;
  bool operator==(const Corner&) const = default;
};
struct CornerHash {
  std::size_t operator()(const Corner& c) const noexcept {
    std::uint64_t h = c.point * 0x9E3779B97F4A7C15ull;
    h ^= (std::uint64_t{c.uv} << 32 | c.rgb) + 0x7F4A7C15ull + (h << 6) + (h >> 2);
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};

// Quads drawn, grouped by TXMA slot (counting sort): order[first[s] .. first[s + 1]).
struct Buckets {
  std::vector<std::uint32_t> first, order;
};

Buckets bucket(const AkevGeometry& g) {
  Buckets b;
  b.first.assign(g.textures.size() + 1, 0);
  for (std::uint32_t k = 0; k < g.quad_count; ++k)
    if (const AkevQuad q = g.quad(k); !q.ghost()) ++b.first[q.texture + 1];
  for (std::size_t s = 1; s < b.first.size(); ++s) b.first[s] += b.first[s - 1];
  b.order.resize(b.first.back());
  std::vector<std::uint32_t> next(b.first.begin(), b.first.end() - 1);
  for (std::uint32_t k = 0; k < g.quad_count; ++k)
    if (const AkevQuad q = g.quad(k); !q.ghost()) b.order[next[q.texture]++] = k;
  return b;
}

// Slot s's quads as one mesh; V flipped back from the stored 1 - V (as M3GM's TXCA).
model::Mesh slot_mesh(const AkevGeometry& g, const Buckets& b, std::size_t s, const std::string& name) {
  model::Mesh m;
  m.name = name;
  m.texcoords.emplace_back();
  model::Primitive p;
  p.material = 0;  // set by the caller
  std::unordered_map<Corner, std::uint32_t, CornerHash> seen;
  std::array<std::array<std::uint8_t, 3>, 4> tris;
  for (std::uint32_t o = b.first[s]; o < b.first[s + 1]; ++o) {
    const AkevQuad q = g.quad(b.order[o]);
    std::array<std::uint32_t, 4> v{};
    const std::size_t corners = q.triangle() ? 3 : 4;
    for (std::size_t c = 0; c < corners; ++c) {
      const Corner key{q.points[c], q.uvs[c], q.colors[c] & 0xFFFFFFu};
      auto [it, added] = seen.try_emplace(key, static_cast<std::uint32_t>(m.positions.size()));
      if (added) {
        m.positions.push_back(g.point(key.point));
        const model::Vec2 t = g.uv(key.uv);
        m.texcoords[0].push_back({t[0], 1.0f - t[1]});
        m.colors.push_back({static_cast<std::uint8_t>(key.rgb >> 16), static_cast<std::uint8_t>(key.rgb >> 8),
                            static_cast<std::uint8_t>(key.rgb), 255});
      }
      v[c] = it->second;
    }
    const std::size_t n = q.triangles(tris);
    for (std::size_t t = 0; t < n; ++t)
      for (std::uint8_t c : tris[t]) p.indices.push_back(v[c]);
  }
  m.primitives.push_back(std::move(p));
  m.extras["quads"] = static_cast<double>(b.first[s + 1] - b.first[s]);
  return m;
}

// The TXMP's data: in f itself, or by name in `texture_file` (level 0 for a placeholder).
std::optional<std::pair<const LoadedFile*, std::uint32_t>> texture_source(const LoadedFile& f, std::uint32_t tx, const std::string& name,
                                                                          const LoadedFile* texture_file) {
  if (tx < f.has_data.size() && f.has_data[tx]) return std::pair{&f, tx};
  if (texture_file == nullptr || texture_file == &f || name.empty()) return std::nullopt;
  const auto i = texture_file->file.find(name);
  if (!i || *i >= texture_file->has_data.size() || !texture_file->has_data[*i]) return std::nullopt;
  return std::pair{texture_file, *i};
}

// Slot s's material: the TXMP as PNG when its pixels decode, else untextured (name in extras).
model::Material slot_material(const LoadedFile& f, const AkevGeometry& g, std::size_t s, const std::string& name,
                              const LoadedFile* texture_file, M3gmTextureCache& cache, model::Scene& scene) {
  model::Material m;
  m.name = name;
  m.double_sided = false;  // stored order is the front; two-sided quads carry both windings
  if (!g.texture_names[s].empty()) m.extras["texture"] = g.texture_names[s];
  if (!g.textures[s]) return m;
  const auto src = texture_source(f, *g.textures[s], g.texture_names[s], texture_file);
  if (!src) return m;
  auto png = cache.get(*src->first, src->second);
  if (!png) return m;
  scene.images.push_back({g.texture_names[s], std::move(png->bytes)});
  m.texture = model::TextureRef{static_cast<std::uint32_t>(scene.images.size() - 1), {}, 0};
  if (png->alpha) m.alpha = model::AlphaMode::blend;
  return m;
}

}  // namespace

Result<model::Scene> akev_scene(const LoadedFile& f, std::uint32_t i, const LoadedFile* texture_file, M3gmTextureCache* cache) {
  ASSAY_TRY(const AkevGeometry g, decode_akev(f, i));
  M3gmTextureCache local;
  M3gmTextureCache& pngs = cache ? *cache : local;
  const Buckets b = bucket(g);
  model::Scene scene;
  scene.name = i < f.names.size() ? std::string(f.names[i]) : g.name;
  for (std::size_t s = 0; s < g.textures.size(); ++s) {
    if (b.first[s] == b.first[s + 1]) continue;
    const std::string name = g.texture_names[s].empty() ? fmt::format("texture{}", s) : g.texture_names[s];
    model::Mesh mesh = slot_mesh(g, b, s, name);
    if (mesh.primitives[0].indices.empty()) continue;  // only degenerate quads
    mesh.primitives[0].material = static_cast<std::uint32_t>(scene.materials.size());
    scene.materials.push_back(slot_material(f, g, s, name, texture_file, pngs, scene));
    model::Node n;
    n.name = name;
    n.mesh = static_cast<std::uint32_t>(scene.meshes.size());
    n.extras["txma_slot"] = static_cast<double>(s);
    scene.meshes.push_back(std::move(mesh));
    scene.nodes.push_back(std::move(n));
  }
  scene.extras["oni_instance"] = g.name;
  scene.extras["quads"] = static_cast<double>(g.quad_count);
  scene.extras["ghost_quads"] = static_cast<double>(g.quad_count - b.order.size());
  return scene;
}

Result<ByteBuffer> export_akev_glb(const LoadedFile& f, std::uint32_t i, const LoadedFile* texture_file, M3gmTextureCache* cache) {
  ASSAY_TRY(const model::Scene s, akev_scene(f, i, texture_file, cache));
  return model::write_glb(s);
}

}  // namespace assay::oni
