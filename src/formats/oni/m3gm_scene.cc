// Oni M3GM geometry as a glTF scene (model/scene.h) and GLB, and its verify checks.
// Axes: Oni is Y-up and right-handed like glTF (OniSplit's DAE export of the shared M3GMs says
// up_axis Y_UP and keeps the stored points unchanged; goldens oni/models/json "onisplit_dae"), so
// points and normals are kept as stored. Units: kept as stored (OniSplit's DAE labels them
// decimetres; its OBJ, like this export, writes them unscaled).
#include <cmath>

#include <fmt/format.h>

#include "assay/formats/oni/m3gm.h"
#include "assay/formats/oni/oni.h"
#include "assay/image/png.h"
#include "assay/model/gltf.h"

namespace assay::oni {

namespace {

// Unit normals as glTF requires; none when a stored normal has no direction.
std::vector<model::Vec3> unit_normals(const std::vector<model::Vec3>& in) {
  std::vector<model::Vec3> out(in.size());
  for (std::size_t k = 0; k < in.size(); ++k) {
    const auto& n = in[k];
    const float len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(len > 1e-6f) || !std::isfinite(len)) return {};
    out[k] = {n[0] / len, n[1] / len, n[2] / len};
  }
  return out;
}

// The TXMP's data: in f itself, or by name in `texture_file` (level 0 for a placeholder).
std::optional<std::pair<const LoadedFile*, std::uint32_t>> texture_source(const LoadedFile& f, const M3gmGeometry& g,
                                                                          const LoadedFile* texture_file) {
  if (!g.texture) return std::nullopt;
  if (f.has_data[*g.texture]) return std::pair{&f, *g.texture};
  if (texture_file == nullptr || texture_file == &f || g.texture_name.empty()) return std::nullopt;
  const auto i = texture_file->file.find(g.texture_name);
  if (!i || !texture_file->has_data[*i]) return std::nullopt;
  return std::pair{texture_file, *i};
}

std::optional<M3gmTextureCache::Png> encode(const LoadedFile& f, std::uint32_t i) {
  auto img = decode_txmp_instance(f, i, 0);
  if (!img) return std::nullopt;
  bool alpha = false;
  for (std::size_t k = 3; k < img->pixels.size(); k += 4) alpha |= img->pixels[k] != 255;
  auto png = image::encode_png(image::Rgba{img->width, img->height, std::move(img->pixels)});
  if (!png) return std::nullopt;
  return M3gmTextureCache::Png{std::move(*png), alpha};
}

// The material, with the TXMP as PNG when its pixels decode; a texture that will not decode
// leaves the material untextured (its name stays in extras).
Result<model::Material> material(const LoadedFile& f, const M3gmGeometry& g, const LoadedFile* texture_file, M3gmTextureCache* cache,
                                 model::Scene& s) {
  model::Material m;
  m.name = g.texture_name.empty() ? g.name : g.texture_name;
  m.double_sided = false;  // one winding, fixed by the face normals
  if (!g.texture_name.empty()) m.extras["texture"] = g.texture_name;
  const auto src = texture_source(f, g, texture_file);
  if (!src) return m;
  auto png = cache ? cache->get(*src->first, src->second) : encode(*src->first, src->second);
  if (!png) return m;
  s.images.push_back({g.texture_name, std::move(png->bytes)});
  m.texture = model::TextureRef{static_cast<std::uint32_t>(s.images.size() - 1), {}, 0};
  if (png->alpha) m.alpha = model::AlphaMode::blend;
  return m;
}

// The mesh; its positions moved out of g when g is an rvalue (m3gm_scene) or copied.
template <class G>
model::Mesh mesh(G&& g) {
  model::Mesh m;
  m.name = g.name;
  m.normals = unit_normals(g.normals);
  std::vector<model::Vec2> uv(g.uvs.size());
  for (std::size_t k = 0; k < uv.size(); ++k) uv[k] = {g.uvs[k][0], 1.0f - g.uvs[k][1]};  // stored V is 1 - V
  m.texcoords.push_back(std::move(uv));
  model::Primitive p;
  p.indices.resize(g.triangles.size() * 3);
  std::uint32_t* out = p.indices.data();
  for (const auto& t : g.triangles)
    if (t[0] != t[1] && t[1] != t[2] && t[0] != t[2]) *out++ = t[0], *out++ = t[1], *out++ = t[2];  // no degenerate
  p.indices.resize(static_cast<std::size_t>(out - p.indices.data()));
  p.material = 0;
  m.primitives.push_back(std::move(p));
  m.extras["winding_flips"] = static_cast<double>(g.winding_flips);
  m.extras["strips"] = static_cast<double>(g.strips.size());
  m.positions = std::forward<G>(g).points;
  return m;
}

bool inside_box(const model::Vec3& p, const M3gmGeometry& g) {
  for (int k = 0; k < 3; ++k) {
    const float slack = 1e-4f * std::max(1.0f, std::fabs(p[k]));
    if (p[k] < g.bbox_min[k] - slack || p[k] > g.bbox_max[k] + slack) return false;
  }
  return true;
}

bool inside_sphere(const model::Vec3& p, const M3gmGeometry& g) {
  const double dx = p[0] - g.sphere_center[0], dy = p[1] - g.sphere_center[1], dz = p[2] - g.sphere_center[2];
  return std::sqrt(dx * dx + dy * dy + dz * dz) <= g.sphere_radius * (1 + 1e-4) + 1e-4;
}

}  // namespace

std::optional<M3gmTextureCache::Png> M3gmTextureCache::get(const LoadedFile& f, std::uint32_t i) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = pngs_.find({&f, i}); it != pngs_.end()) return it->second;
  }
  auto png = encode(f, i);  // outside the lock: two threads may encode the same one once each
  std::lock_guard<std::mutex> lock(mu_);
  return pngs_.emplace(std::pair{&f, i}, std::move(png)).first->second;
}

model::Mesh m3gm_mesh(const M3gmGeometry& g) { return mesh(g); }

Result<model::Scene> m3gm_scene(const LoadedFile& f, std::uint32_t i, const LoadedFile* texture_file, M3gmTextureCache* cache) {
  ASSAY_TRY(M3gmGeometry g, decode_m3gm(f, i));
  model::Scene s;
  s.name = std::string(f.names[i]);
  ASSAY_TRY(model::Material mat, material(f, g, texture_file, cache, s));
  s.materials.push_back(std::move(mat));
  s.meshes.push_back(mesh(std::move(g)));  // only its points are moved: g's other fields stay
  model::Node n;
  n.name = s.name.empty() ? g.name : s.name;
  n.mesh = 0;
  s.nodes.push_back(std::move(n));
  s.extras["oni_instance"] = g.name;
  return s;
}

Result<ByteBuffer> export_m3gm_glb(const LoadedFile& f, std::uint32_t i, const LoadedFile* texture_file, M3gmTextureCache* cache) {
  ASSAY_TRY(const model::Scene s, m3gm_scene(f, i, texture_file, cache));
  return model::write_glb(s);
}

// Strip indices are checked by decode_m3gm (an error there is a warning here); the PNTA's stored
// bounds must hold every point (OBD:PNTA: bounding box and sphere of the points).
void verify_m3gm(const InstanceFile& f, std::uint32_t i, Diagnostics& out) {
  auto g = decode_m3gm(f, i);
  if (!g) {
    out.warning(g.error());
    return;
  }
  const std::uint64_t at = f.instance_file_offset(f.descriptor(i));
  std::size_t box = 0, sphere = 0;
  for (const auto& p : g->points) box += !inside_box(p, *g), sphere += !inside_sphere(p, *g);
  if (box) out.warning(f.error(g->name, at, fmt::format("{} of {} points outside the PNTA's stored bounding box", box, g->points.size())).with_code("oni.m3gm-bounds"));
  if (sphere) out.warning(f.error(g->name, at, fmt::format("{} of {} points outside the PNTA's stored bounding sphere", sphere, g->points.size())).with_code("oni.m3gm-bounds"));
}

}  // namespace assay::oni
