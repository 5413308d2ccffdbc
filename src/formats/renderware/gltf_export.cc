// Clump to glTF scene (gltf_export.h). RenderWare matrices are right, up, at, pos: the columns
// of a glTF column-major matrix. Skins follow librw's reading: bone i of the Skin PLG is node i of
// the HAnim hierarchy, whose node ids name frames by their HAnim PLG id.
#include "assay/formats/renderware/gltf_export.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "assay/core/ascii.h"
#include "assay/image/png.h"

namespace assay::rw {

namespace {

using model::Vec3;

constexpr float kHalfSqrt2 = 0.70710678f;

model::Mat4 frame_matrix(const ModelFrame& f) {
  const auto& r = f.rotation;
  const auto& p = f.position;
  return {r[0], r[1], r[2], 0, r[3], r[4], r[5], 0, r[6], r[7], r[8], 0, p[0], p[1], p[2], 1};
}

// glTF wants a tree: a parent that is out of range or makes a cycle becomes the root.
std::optional<std::uint32_t> frame_parent(const ClumpModel& c, std::size_t i) {
  std::int32_t p = c.frames[i].parent;
  for (std::size_t steps = 0; p >= 0 && static_cast<std::size_t>(p) < c.frames.size(); ++steps) {
    if (static_cast<std::size_t>(p) == i || steps > c.frames.size()) return std::nullopt;
    p = c.frames[static_cast<std::size_t>(p)].parent;
  }
  const std::int32_t own = c.frames[i].parent;
  if (own < 0 || static_cast<std::size_t>(own) >= c.frames.size()) return std::nullopt;
  return static_cast<std::uint32_t>(own);
}

class SceneBuilder {
 public:
  SceneBuilder(ClumpModel& c, const TextureSources& t, ExportNotes& n) : c_(c), textures_(t), notes_(n) {}

  Result<model::Scene> run(const std::string& name) {
    s_.name = name;
    model::Node root;
    root.name = name;
    root.rotation = {-kHalfSqrt2, 0, 0, kHalfSqrt2};  // Z-up to Y-up: -90 degrees about X
    s_.nodes.push_back(std::move(root));
    for (std::size_t i = 0; i < c_.frames.size(); ++i) s_.nodes.push_back(frame_node(i));
    for (std::size_t a = 0; a < c_.atomics.size(); ++a) ASSAY_CHECK(atomic(a));
    if (c_.collision) {  // glTF has no collision: its facts on the root node
      model::Extras& x = s_.nodes[0].extras;
      x["rockstar_collision_bytes"] = static_cast<double>(c_.collision->size);
      if (!c_.collision->fourcc.empty()) x["rockstar_collision_version"] = c_.collision->fourcc;
      if (!c_.collision->name.empty()) x["rockstar_collision_name"] = c_.collision->name;
    }
    return std::move(s_);
  }

 private:
  static constexpr std::uint32_t node_of(std::size_t frame) { return static_cast<std::uint32_t>(frame + 1); }

  model::Node frame_node(std::size_t i) {
    const ModelFrame& f = c_.frames[i];
    model::Node n;
    n.name = f.name.empty() ? fmt::format("frame_{}", i) : f.name;
    const auto p = frame_parent(c_, i);
    n.parent = p ? node_of(*p) : 0;
    const model::Trs t = model::decompose(frame_matrix(f));
    n.translation = t.translation, n.rotation = t.rotation, n.scale = t.scale;
    if (f.hanim_id) n.extras["hanim_id"] = static_cast<double>(*f.hanim_id);
    return n;
  }

  Result<void> atomic(std::size_t a) {
    const ModelAtomic& at = c_.atomics[a];
    const ModelGeometry& g = c_.geometries[at.geometry];
    const std::string name = fmt::format("{}_atomic{}", s_.nodes[node_of(at.frame)].name, a);
    if (g.native) {
      notes_.skipped.push_back(fmt::format("{}: native geometry of an unknown platform or pipeline is not decoded", name));
      return {};
    }
    if (!meshes_.count(at.geometry) && (g.morph_targets.empty() || g.morph_targets[0].positions.size() != g.vertices)) {
      notes_.skipped.push_back(fmt::format("{}: the geometry stores no positions", name));
      return {};
    }
    model::Node n;
    n.name = name;
    ASSAY_TRY(const std::uint32_t mesh, mesh_of(at.geometry));
    n.mesh = mesh;
    if (!s_.meshes[mesh].joints.empty()) {
      n.skin = skins_.at(at.geometry);
      n.parent = std::nullopt;  // glTF: a skinned mesh's own transform is ignored; keep it a root
    } else {
      n.parent = node_of(at.frame);
    }
    s_.nodes.push_back(std::move(n));
    effects(g, node_of(at.frame), name);
    return {};
  }

  // 2d Effect lights as KHR_lights_punctual point lights at their positions in the atomic's
  // frame (colour, range; corona and shadow in extras); other effect types listed by type on the
  // frame's node (glTF has nothing for particles, ped attractors, ...).
  void effects(const ModelGeometry& g, std::uint32_t frame_node, const std::string& name) {
    std::vector<double> others;
    for (const Model2dEffect& e : g.effects) {
      if (e.type != 0) {
        others.push_back(e.type);
        continue;
      }
      model::Light l;
      l.name = e.corona_texture;
      l.color = {e.color[0] / 255.0f, e.color[1] / 255.0f, e.color[2] / 255.0f};
      if (e.pointlight_range > 0 && std::isfinite(e.pointlight_range)) l.range = e.pointlight_range;
      s_.lights.push_back(std::move(l));
      model::Node n;
      n.name = fmt::format("{}_light{}", name, s_.lights.size() - 1);
      n.parent = frame_node;
      n.translation = {e.position[0], e.position[1], e.position[2]};
      n.light = static_cast<std::uint32_t>(s_.lights.size() - 1);
      n.extras["corona_size"] = static_cast<double>(e.corona_size);
      n.extras["corona_far_clip"] = static_cast<double>(e.corona_far_clip);
      if (!e.shadow_texture.empty()) n.extras["shadow_texture"] = e.shadow_texture;
      s_.nodes.push_back(std::move(n));
    }
    if (!others.empty()) s_.nodes[frame_node].extras["rockstar_2d_effect_types"] = std::move(others);
  }

  Result<std::uint32_t> mesh_of(std::uint32_t gi) {
    if (auto it = meshes_.find(gi); it != meshes_.end()) return it->second;
    ModelGeometry& g = c_.geometries[gi];  // its arrays move into the mesh (made once per geometry)
    model::Mesh m;
    m.name = fmt::format("geometry{}", gi);
    ModelMorphTarget& base = g.morph_targets[0];
    if (base.normals.size() == g.vertices) m.normals = unit_normals(base.normals);
    m.texcoords = std::move(g.texcoords);
    m.colors = std::move(g.prelit);
    m.night_colors = std::move(g.night_colors);
    for (std::size_t k = 1; k < g.morph_targets.size(); ++k) {
      const ModelMorphTarget& t = g.morph_targets[k];
      model::MorphTarget mt;
      mt.positions = t.positions.size() == g.vertices ? t.positions : base.positions;
      if (!m.normals.empty() && t.normals.size() == g.vertices) mt.normals = unit_normals(t.normals);
      m.targets.push_back(std::move(mt));
    }
    m.positions = std::move(base.positions);
    primitives(g, m);
    if (g.skin) skin_weights(gi, *g.skin, m);
    const auto index = static_cast<std::uint32_t>(s_.meshes.size());
    s_.meshes.push_back(std::move(m));
    meshes_[gi] = index;
    return index;
  }

  std::vector<Vec3> unit_normals(const std::vector<std::array<float, 3>>& in) {
    std::vector<Vec3> out(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
      const double x = in[i][0], y = in[i][1], z = in[i][2], len = std::sqrt(x * x + y * y + z * z);
      if (!std::isfinite(len) || len < 1e-12) {
        out[i] = {0, 0, 1};
        ++notes_.unit_normals;
        continue;
      }
      if (std::abs(len - 1) > 1e-3) ++notes_.unit_normals;
      out[i] = {static_cast<float>(x / len), static_cast<float>(y / len), static_cast<float>(z / len)};
    }
    return out;
  }

  // One primitive per material, in material order; triangles with a repeated vertex dropped.
  void primitives(const ModelGeometry& g, model::Mesh& m) {
    std::map<std::uint32_t, model::Primitive> by_material;
    for (const ModelTriangle& t : g.triangles) {
      if (t.v[0] == t.v[1] || t.v[1] == t.v[2] || t.v[0] == t.v[2]) {
        ++notes_.degenerate_triangles;
        continue;
      }
      auto& p = by_material[t.material];
      p.indices.insert(p.indices.end(), {t.v[0], t.v[1], t.v[2]});
    }
    for (auto& [mat, p] : by_material) {
      if (mat < g.materials.size()) p.material = material_of(g.materials[mat], m.texcoords.empty());
      m.primitives.push_back(std::move(p));
    }
  }

  // The Skin PLG's weights as glTF's: at most four joints per vertex, no joint twice, weights
  // summing to 1; an influence naming no bone is dropped.
  void skin_weights(std::uint32_t gi, const ModelSkin& sk, model::Mesh& m) {
    const std::optional<std::uint32_t> skin = skin_for(gi, sk);
    if (!skin) return;
    skins_[gi] = *skin;
    const std::size_t joints = s_.skins[*skin].joints.size();
    m.joints.resize(m.positions.size());
    m.weights.resize(m.positions.size());
    for (std::size_t v = 0; v < m.positions.size(); ++v) {
      std::array<std::uint16_t, 4> j{};
      std::array<double, 4> w{};
      std::size_t used = 0;
      bool changed = false;
      for (int k = 0; k < 4; ++k) {
        const double x = sk.weights[v][k];
        const std::uint8_t b = sk.indices[v][k];
        if (!(x > 0) || !std::isfinite(x)) continue;
        if (b >= joints) { changed = true; continue; }
        std::size_t slot = std::find(j.begin(), j.begin() + used, b) - j.begin();
        if (slot == used) j[used++] = b;
        w[slot] += x;
      }
      double sum = 0;
      for (double x : w) sum += x;
      if (used == 0) w[0] = 1, sum = 1, changed = true;  // no influence: the first joint holds it
      if (std::abs(sum - 1) > 1e-4) changed = true;
      std::array<float, 4> f{};
      float fsum = 0;
      for (int k = 0; k < 4; ++k) fsum += f[k] = static_cast<float>(w[k] / sum);
      f[0] += 1.0f - fsum;  // the float rounding left over goes to the first (largest share rarely matters)
      notes_.reweighted_vertices += changed;
      m.joints[v] = j;
      m.weights[v] = f;
    }
  }

  // The skin for geometry gi: joints in HAnim order. None (and a note) when the clump has no
  // hierarchy or a hierarchy node names no frame.
  std::optional<std::uint32_t> skin_for(std::uint32_t gi, const ModelSkin& sk) {
    const ModelFrame* root = nullptr;
    for (const ModelFrame& f : c_.frames)
      if (!f.hierarchy.empty()) root = &f;
    auto skip = [&](std::string why) -> std::optional<std::uint32_t> {
      notes_.skipped.push_back(fmt::format("geometry{} skin: {}", gi, why));
      return std::nullopt;
    };
    if (root == nullptr) return skip("no HAnim hierarchy in the clump");
    if (sk.bones != root->hierarchy.size() || sk.inverse_bind.size() != sk.bones)
      return skip(fmt::format("{} bones but {} HAnim nodes", sk.bones, root->hierarchy.size()));
    model::Skin s;
    s.name = fmt::format("skin{}", gi);
    for (std::size_t b = 0; b < sk.bones; ++b) {
      const std::int32_t id = root->hierarchy[b].id;
      const auto f = std::find_if(c_.frames.begin(), c_.frames.end(), [&](const ModelFrame& x) { return x.hanim_id == id; });
      if (f == c_.frames.end()) return skip(fmt::format("HAnim node {} (id {}) names no frame", b, id));
      const auto node = node_of(static_cast<std::size_t>(f - c_.frames.begin()));
      if (std::find(s.joints.begin(), s.joints.end(), node) != s.joints.end())
        return skip(fmt::format("two HAnim nodes name frame {}", node - 1));
      s.joints.push_back(node);
      model::Mat4 m = sk.inverse_bind[b];
      m[3] = m[7] = m[11] = 0, m[15] = 1;  // RenderWare leaves garbage in the fourth column
      s.inverse_bind.push_back(m);
    }
    align_bind_pose(s);
    s_.skins.push_back(std::move(s));
    return static_cast<std::uint32_t>(s_.skins.size() - 1);
  }

  // The frame's matrix in the clump's space (its parents' matrices applied).
  model::Mat4 frame_ltm(std::size_t i) const {
    model::Mat4 m = frame_matrix(c_.frames[i]);
    for (auto p = frame_parent(c_, i); p; p = frame_parent(c_, *p)) m = model::multiply(frame_matrix(c_.frames[*p]), m);
    return m;
  }

  // Bone LTM x inverse bind matrix should be the identity at rest. GTA's peds store inverse bind
  // matrices without the "Normal" root frame's rotation (wuzimu: every bone gives the same
  // 90-degree turn), so the mesh would lie on its side. When every bone gives the same C, the
  // first joint's frame (all others below it) is turned by C^-1 so the skeleton matches the mesh;
  // the stored inverse bind matrices are kept.
  void align_bind_pose(const model::Skin& s) {
    if (bind_aligned_ || s.joints.empty()) return;
    std::optional<model::Mat4> common;
    for (std::size_t b = 0; b < s.joints.size(); ++b) {
      const model::Mat4 c = model::multiply(frame_ltm(s.joints[b] - 1), s.inverse_bind[b]);
      if (!common) common = c;
      else if (!near(*common, c, 1e-3f)) return;  // bones disagree: a posed bind, keep as stored
    }
    static constexpr model::Mat4 kIdentity{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    if (near(*common, kIdentity, 1e-4f)) return;
    const std::size_t root = s.joints[0] - 1;
    for (std::size_t b = 1; b < s.joints.size(); ++b)
      if (!descends(s.joints[b] - 1, root)) return;
    const auto c_inv = model::inverse_affine(*common);
    const auto parent = frame_parent(c_, root);
    const auto parent_inv = parent ? model::inverse_affine(frame_ltm(*parent)) : std::optional<model::Mat4>(kIdentity);
    if (!c_inv || !parent_inv) return;
    const model::Trs t = model::decompose(model::multiply(*parent_inv, model::multiply(*c_inv, frame_ltm(root))));
    model::Node& n = s_.nodes[node_of(root)];
    n.translation = t.translation, n.rotation = t.rotation, n.scale = t.scale;
    n.extras["bind_pose_aligned"] = 1.0;
    bind_aligned_ = true;
  }

  bool descends(std::size_t frame, std::size_t ancestor) const {
    for (auto p = frame_parent(c_, frame); p; p = frame_parent(c_, *p))
      if (*p == ancestor) return true;
    return false;
  }

  static bool near(const model::Mat4& a, const model::Mat4& b, float tol) {
    for (std::size_t k = 0; k < 16; ++k)
      if (!(std::fabs(a[k] - b[k]) <= tol * std::max(1.0f, std::fabs(b[k])))) return false;
    return true;
  }

  std::uint32_t material_of(const ModelMaterial& mat, bool no_texcoords) {
    model::Material m;
    m.name = mat.texture.empty() ? fmt::format("material{}", s_.materials.size()) : mat.texture;
    for (int k = 0; k < 4; ++k) m.base_color[k] = mat.color[k] / 255.0f;
    if (mat.color[3] < 255) m.alpha = model::AlphaMode::blend;
    if (!mat.texture.empty()) {
      m.extras["texture"] = mat.texture;
      if (!mat.mask.empty()) m.extras["mask"] = mat.mask;
      const auto image = no_texcoords ? std::nullopt : image_of(mat.texture);
      if (image) {
        m.texture = model::TextureRef{image->first, sampler(mat.filter_addressing), 0};
        if (image->second) m.alpha = model::AlphaMode::blend;
      }
    }
    if (mat.surface) m.extras["surface_properties"] = std::vector<double>(mat.surface->begin(), mat.surface->end());
    if (mat.matfx) matfx_extras(*mat.matfx, m.extras);
    s_.materials.push_back(std::move(m));
    return static_cast<std::uint32_t>(s_.materials.size() - 1);
  }

  // MatFX in extras: "matfx_effects" and per effect its values (glTF has no such effects).
  static void matfx_extras(const MatFx& fx, model::Extras& x) {
    x["matfx_effects"] = static_cast<double>(fx.effects);
    for (const MatFxEffect& e : fx.slots) {
      auto texture = [&](const std::string& key, const std::string& name) {
        if (!name.empty()) x[key] = name;
      };
      if (e.type == 1) {
        x["matfx_bump_coefficient"] = static_cast<double>(e.coefficient);
        texture("matfx_bump_texture", e.texture);
        texture("matfx_bumped_texture", e.bumped_texture);
      } else if (e.type == 2) {
        x["matfx_env_coefficient"] = static_cast<double>(e.coefficient);
        x["matfx_env_fb_alpha"] = static_cast<double>(e.fb_alpha);
        texture("matfx_env_texture", e.texture);
      } else if (e.type == 4) {
        x["matfx_dual_blend"] = std::vector<double>{static_cast<double>(e.src_blend), static_cast<double>(e.dst_blend)};
        texture("matfx_dual_texture", e.texture);
      } else if (e.type == 5) {
        x["matfx_uv_transform"] = 1.0;
      }
    }
  }

  // filterAddressing (spec: #rw-5-2): filter in bits 0-7, U addressing 8-11, V 12-15.
  static model::Sampler sampler(std::uint32_t fa) {
    static constexpr int kMin[] = {0, 9728, 9729, 9984, 9985, 9986, 9987};
    static constexpr int kWrap[] = {10497, 10497, 33648, 33071, 33071};
    model::Sampler s;
    const std::uint32_t f = fa & 0xFF, u = (fa >> 8) & 0xF, v = (fa >> 12) & 0xF;
    if (f >= 1 && f <= 6) s.min_filter = kMin[f], s.mag_filter = (f == 1 || f == 3 || f == 5) ? 9728 : 9729;
    s.wrap_s = u < 5 ? kWrap[u] : 10497;
    s.wrap_t = v < 5 ? kWrap[v] : 10497;
    return s;
  }

  // The image for texture `name` (decoded once) and whether it has alpha below 255.
  std::optional<std::pair<std::uint32_t, bool>> image_of(const std::string& name) {
    if (auto it = images_.find(name); it != images_.end()) return it->second;
    std::optional<std::pair<std::uint32_t, bool>> found;
    for (const TextureDictionary* d : textures_.dictionaries) {
      for (std::size_t i = 0; i < d->textures().size() && !found; ++i) {
        if (!ascii_iequals(d->textures()[i].name, name)) continue;
        auto rgba = d->decode(i, 0);
        if (!rgba) continue;
        auto png = image::encode_png(*rgba);
        if (!png) continue;
        bool alpha = false;
        for (std::size_t p = 3; p < rgba->pixels.size() && !alpha; p += 4) alpha = rgba->pixels[p] < 255;
        s_.images.push_back({name, std::move(*png)});
        found = std::pair{static_cast<std::uint32_t>(s_.images.size() - 1), alpha};
      }
      if (found) break;
    }
    if (!found && std::find(notes_.missing_textures.begin(), notes_.missing_textures.end(), name) ==
                      notes_.missing_textures.end())
      notes_.missing_textures.push_back(name);
    images_[name] = found;
    return found;
  }

  ClumpModel& c_;
  const TextureSources& textures_;
  ExportNotes& notes_;
  model::Scene s_;
  std::map<std::uint32_t, std::uint32_t> meshes_, skins_;  // by geometry
  bool bind_aligned_ = false;
  std::map<std::string, std::optional<std::pair<std::uint32_t, bool>>> images_;
};

}  // namespace

Result<model::Scene> clump_scene(ClumpModel clump, const std::string& name, const TextureSources& textures,
                                 ExportNotes& notes) {
  return SceneBuilder(clump, textures, notes).run(name);
}

std::string clump_name(const ClumpModel& clump) {
  for (const ModelFrame& f : clump.frames)
    if (f.parent < 0 && !f.name.empty()) return f.name;
  for (const ModelAtomic& a : clump.atomics)
    if (a.frame < clump.frames.size() && !clump.frames[a.frame].name.empty()) return clump.frames[a.frame].name;
  return "";
}

}  // namespace assay::rw
