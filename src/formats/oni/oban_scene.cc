// OBAN object animations on their geometry as glTF scenes (oban.h). The OBOA objects that link the
// OBAN give the geometry (their M3GA's M3GMs); the keys place the object in the level at each key
// frame. OniSplit: its DAE export of an OBAN translates, then turns by the key's rotation, at
// frame / 60 s, LINEAR, the geometry scaled by the fixed matrix's scale (Oni/DaeExporter.cs); its
// OBAN writer stores key 0's scale * rotation * translation (row vectors) as the initial matrix and
// the scale as the fixed one (Oni.Physics/ObjectDatWriter.cs), its level import writes the keys in
// level space. So a point p of an M3GM is, at a key, T(translation) R(rotation) B p, with B the
// OBAN's fixed transform: the object node carries T and R (animated), each M3GM node under it
// carries B. The OBOA object's own origin matrix is not applied, nor is flag 0x10 (the wiki's
// "local" animation placed by the OBOA matrix, "Z-up"): OniSplit's export applies neither, and no
// sample shows what the engine does (docs/cli.md).
#include <fmt/format.h>

#include <cmath>

#include "assay/formats/oni/names.h"
#include "assay/formats/oni/oban.h"
#include "assay/model/gltf.h"
#include "character_parts.h"
#include "linked_parts.h"

namespace assay::oni {

namespace oban_scene_detail {  // named: the unity build joins these files

using character_detail::frame_time;
using character_detail::label_of;

constexpr const char* kObanSceneCode = "oni.oban";

Error recoded(Error e) {
  e.code = kObanSceneCode;
  return e;
}

// The first problem that stops the keys being a glTF animation (verify_oban names them all).
Result<void> exportable(const InstanceFile& f, std::uint32_t i, const ObanAnimation& a) {
  const detail::Part p = detail::part_of(f, i, *f.instance_bytes(i));  // decode_oban read them
  const auto at = [&](std::size_t k, std::uint32_t field, std::string msg, const char* code) {
    return detail::part_error(f, p, ObanFields::kKeys + ObanFields::kKeySize * k + field, std::move(msg), code);
  };
  if (a.keys.empty()) return detail::part_error(f, p, ObanFields::kKeyCount, "an object animation without keys", "oni.oban-keys");
  for (std::size_t k = 0; k < a.keys.size(); ++k) {
    const ObanKey& key = a.keys[k];
    if (k > 0 && !(frame_time(key.frame) > frame_time(a.keys[k - 1].frame)))  // in float seconds, as glTF stores them
      return at(k, ObanFields::kKeyFrame, fmt::format("key {} at frame {}, not after frame {}", k, key.frame, a.keys[k - 1].frame),
                "oni.oban-time");
    const auto& q = key.stored;
    const double len = std::sqrt(double{q[0]} * q[0] + double{q[1]} * q[1] + double{q[2]} * q[2] + double{q[3]} * q[3]);
    if (!std::isfinite(len) || len < 1e-6) return at(k, ObanFields::kKeyRotation, fmt::format("key {}: a rotation of no length (or not finite)", k), "oni.oban-rotation");
    for (float v : key.translation)
      if (!std::isfinite(v)) return at(k, ObanFields::kKeyTranslation, fmt::format("key {}: a translation not finite", k), "oni.oban-translation");
  }
  return {};
}

// The object's name as stored (64 bytes, up to the first NUL; other than printable ASCII as '?').
std::string object_name(ByteView b, std::uint64_t at) {
  std::string s;
  for (std::uint32_t k = 0; k < OboaFields::kNameSize && b[at + k] != 0; ++k) {
    const char c = static_cast<char>(b[at + k]);
    s += (c >= 0x20 && c < 0x7F) ? c : '?';
  }
  return s;
}

// M3GM `g` appended to s (its mesh, its material, its image unless s has the same one); returns its mesh.
Result<std::uint32_t> append_m3gm(const InstanceRef& g, const LoadedFile* level0, M3gmTextureCache* cache, model::Scene& s) {
  ASSAY_TRY(model::Scene one, m3gm_scene(*g.file, g.index, level0 ? level0 : g.file, cache));
  model::Material m = std::move(one.materials.at(0));
  if (m.texture) {
    model::Image& img = one.images.at(m.texture->image);
    std::uint32_t k = 0;
    while (k < s.images.size() && (s.images[k].name != img.name || s.images[k].png != img.png)) ++k;
    if (k == s.images.size()) s.images.push_back(std::move(img));
    m.texture->image = k;
  }
  s.materials.push_back(std::move(m));
  model::Mesh mesh = std::move(one.meshes.at(0));
  for (auto& prim : mesh.primitives) prim.material = static_cast<std::uint32_t>(s.materials.size() - 1);
  s.meshes.push_back(std::move(mesh));
  return static_cast<std::uint32_t>(s.meshes.size() - 1);
}

model::Node placed(std::string name, const ObanKey& key) {
  model::Node n;
  n.name = std::move(name);
  n.translation = key.translation;
  n.rotation = key.rotation();
  return n;
}

// OBOA object k of `oboa`: its node (key 0's placement), and one child per M3GM of its M3GA.
Result<std::uint32_t> add_object(const LoadedFile& f, std::uint32_t oboa, std::uint32_t k, const ObanAnimation& a,
                                 const LoadedFile* level0, M3gmTextureCache* cache, model::Scene& s) {
  const ByteView b = *f.file.instance_bytes(oboa);  // oban_objects sized it
  const std::uint32_t elem = OboaFields::kFirst + OboaFields::kElement * k;
  std::string name = object_name(b, elem + OboaFields::kName);
  if (name.empty()) name = fmt::format("{} object {}", label_of(f, oboa), k);
  const auto root = static_cast<std::uint32_t>(s.nodes.size());
  s.nodes.push_back(placed(name, a.keys.front()));
  s.nodes.back().extras["oboa_object"] = static_cast<double>(k);
  auto m3ga = character_detail::resolved_link(f, oboa, elem + OboaFields::kGeometry, make_tag("M3GA"), level0);
  if (!m3ga) return recoded(m3ga.error());
  if (!*m3ga) return root;
  std::uint32_t n = 0;  // M3GA: u32 count at 0x1C, M3GM links from 0x20 (templates.txt M3GA)
  ASSAY_CHECK(detail::array_part((*m3ga)->file->file, (*m3ga)->index, 0x1C, 4, n, kObanSceneCode));
  const model::Trs base = model::decompose(to_mat4(a.base));
  for (std::uint32_t j = 0; j < n; ++j) {
    auto g = character_detail::resolved_link(*(*m3ga)->file, (*m3ga)->index, 0x20 + 4 * j, make_tag("M3GM"), level0);
    if (!g) return recoded(g.error());
    if (!*g) continue;
    ASSAY_TRY(const std::uint32_t mesh, append_m3gm(**g, level0, cache, s));
    model::Node part;
    part.name = label_of(*(*g)->file, (*g)->index);
    if (const auto& nm = (*g)->file->names[(*g)->index]; !nm.empty()) part.name = std::string(nm);
    part.parent = root;
    part.translation = base.translation, part.rotation = base.rotation, part.scale = base.scale;
    part.mesh = mesh;
    s.nodes.push_back(std::move(part));
  }
  return root;
}

model::Animation animation_of(const ObanAnimation& a, const std::string& name, const std::vector<std::uint32_t>& nodes) {
  model::Animation out;
  out.name = name;
  std::vector<float> times;
  std::vector<model::Vec4> translations, rotations;
  for (const ObanKey& k : a.keys) {
    times.push_back(frame_time(k.frame));
    translations.push_back({k.translation[0], k.translation[1], k.translation[2], 0});
    rotations.push_back(k.rotation());
  }
  for (std::uint32_t n : nodes) {
    out.channels.push_back({n, model::AnimationChannel::Path::translation, times, translations});
    out.channels.push_back({n, model::AnimationChannel::Path::rotation, times, rotations});
  }
  out.extras["frames"] = static_cast<double>(a.frames);
  out.extras["flags"] = static_cast<double>(a.flags);
  out.extras["half_stop_frame"] = static_cast<double>(a.half_stop);
  return out;
}

std::vector<double> as_doubles(const Matrix4x3& m) { return {m.begin(), m.end()}; }

}  // namespace oban_scene_detail

std::vector<std::pair<std::uint32_t, std::uint32_t>> oban_objects(const LoadedFile& f, std::uint32_t oban) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  const std::uint32_t link = oban << 8 | 1;  // spec: oni.md#oni-3-7
  for (std::uint32_t i = 0; i < f.file.instance_count() && i < f.has_data.size(); ++i) {
    if (!f.has_data[i] || f.file.descriptor(i).tag != make_tag("OBOA")) continue;
    auto n = character_detail::array_count({&f, i}, OboaFields::kElement);
    if (!n) continue;  // verify reports the walk's findings about it
    const ByteView b = *f.file.instance_bytes(i);
    for (std::uint32_t k = 0; k < *n; ++k)
      if (detail::u32_at(b, OboaFields::kFirst + OboaFields::kElement * k + OboaFields::kAnimation) == link) out.emplace_back(i, k);
  }
  return out;
}

Result<model::Scene> oban_scene(const LoadedFile& f, std::uint32_t oban, const LoadedFile* level0, M3gmTextureCache* cache) {
  ASSAY_TRY(const ObanAnimation a, decode_oban(f.file, oban));
  ASSAY_CHECK(oban_scene_detail::exportable(f.file, oban, a));
  model::Scene s;
  const std::string name = f.names[oban].empty() ? a.name : std::string(f.names[oban]);
  s.name = name;
  M3gmTextureCache own;
  std::vector<std::uint32_t> animated;
  for (const auto& [oboa, k] : oban_objects(f, oban)) {
    ASSAY_TRY(const std::uint32_t root, oban_scene_detail::add_object(f, oboa, k, a, level0, cache ? cache : &own, s));
    animated.push_back(root);
  }
  if (animated.empty()) {  // no object plays it here: an empty node (a camera path, a door's motion)
    s.nodes.push_back(oban_scene_detail::placed(name, a.keys.front()));
    animated.push_back(0);
  }
  s.animations.push_back(oban_scene_detail::animation_of(a, name, animated));
  s.extras["oni_instance"] = a.name;
  s.extras["initial_transform"] = oban_scene_detail::as_doubles(a.initial);
  s.extras["fixed_transform"] = oban_scene_detail::as_doubles(a.base);
  return s;
}

Result<ByteBuffer> export_oban_glb(const LoadedFile& f, std::uint32_t oban, const LoadedFile* level0, M3gmTextureCache* cache) {
  ASSAY_TRY(const model::Scene s, oban_scene(f, oban, level0, cache));
  return model::write_glb(s);
}

}  // namespace assay::oni
