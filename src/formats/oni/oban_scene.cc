// OBAN object animations on their geometry as glTF scenes (oban.h). The geometry comes from the
// OBOA objects that link the OBAN (their M3GA's M3GMs); when none does, from the first DOOR class
// (its OFGA's M3GMs) or TRIG class (its TRGE emitter's M3GM) that names it, in instance order
// (OBD:DOOR: "the door animation is used in-game", the door's geometry is also copied to an OBOA
// object, whose link to the OBAN is empty: OBD:OBOA). The keys place the object at each key frame.
// OniSplit: its DAE export of an OBAN translates, then turns by the key's rotation, at frame / 60 s,
// LINEAR, the geometry scaled by the fixed matrix's scale (Oni/DaeExporter.cs; ObjectDatReader
// keeps only the fixed matrix's .Scale); its OBAN writer stores key 0's scale * rotation *
// translation (row vectors) as the initial matrix and the scale as the fixed one
// (Oni.Physics/ObjectDatWriter.cs). So a point p of an M3GM is, at a key, T(translation)
// R(rotation) B p, with B the OBAN's fixed transform: the animated node carries T and R, each M3GM
// node under it carries B (the whole matrix as TRS; OniSplit keeps only its scale, the same for
// the pure scales the wiki's retail example and OniSplit's writer hold).
// Flag 0x10, "local" (OBD:OBAN: "this animation does not contain world positioning information,
// the object position is determined by the origin matrix in OBOA; local animations also use a Z-up
// coordinate system"): an OBOA object's origin matrix (+0x40; the wiki's OBD:OBOA example turns
// Z-up to Y-up and moves to the object's position) becomes the animated node's parent; without an
// object, a parent node turns Z-up to Y-up (-90 degrees about x, as OniSplit's door import turns a
// door class's geometry: LevelImporter.ImportDoor). Other animations hold world positions, so the
// origin matrix is not applied to them.
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

// The name a class instance's node takes: its name, else its label.
std::string instance_name(const LoadedFile& f, std::uint32_t i) {
  if (i < f.names.size() && !f.names[i].empty()) return std::string(f.names[i]);
  return label_of(f, i);
}

// One node under `parent` per M3GM in `geometry`, each with the OBAN's fixed transform and its mesh.
Result<void> add_geometry(const std::vector<InstanceRef>& geometry, std::uint32_t parent, const ObanAnimation& a,
                          const LoadedFile* level0, M3gmTextureCache* cache, model::Scene& s) {
  const model::Trs base = model::decompose(to_mat4(a.base));
  for (const InstanceRef& g : geometry) {
    ASSAY_TRY(const std::uint32_t mesh, append_m3gm(g, level0, cache, s));
    model::Node part;
    part.name = instance_name(*g.file, g.index);
    part.parent = parent;
    part.translation = base.translation, part.rotation = base.rotation, part.scale = base.scale;
    part.mesh = mesh;
    s.nodes.push_back(std::move(part));
  }
  return {};
}

// The M3GMs of M3GA `m3ga` (u32 count at 0x1C, M3GM links from 0x20: templates.txt M3GA).
Result<void> m3ga_geometry(const InstanceRef& m3ga, const LoadedFile* level0, std::vector<InstanceRef>& out) {
  std::uint32_t n = 0;
  ASSAY_CHECK(detail::array_part(m3ga.file->file, m3ga.index, 0x1C, 4, n, kObanSceneCode));
  for (std::uint32_t j = 0; j < n; ++j) {
    auto g = character_detail::resolved_link(*m3ga.file, m3ga.index, 0x20 + 4 * j, make_tag("M3GM"), level0);
    if (!g) return recoded(g.error());
    if (*g) out.push_back(**g);
  }
  return {};
}

// The geometry a DOOR or TRIG class gives its OBAN: a door class's OFGA elements' M3GMs (both OFGA
// links); a trigger class's emitter (TRGE) M3GM, which the animation moves along the rail (the
// rail itself stays in place: OBD:TRIG, and is not exported here).
Result<std::vector<InstanceRef>> class_geometry(const LoadedFile& f, const ObanPlayer& p, const LoadedFile* level0) {
  std::vector<InstanceRef> out;
  const auto link = [&](const LoadedFile& in, std::uint32_t i, std::uint32_t field, std::uint32_t tag) -> Result<std::optional<InstanceRef>> {
    auto r = character_detail::resolved_link(in, i, field, tag, level0);
    if (!r) return recoded(r.error());
    return *r;
  };
  if (p.tag == make_tag("DOOR")) {
    for (std::uint32_t k = 0; k < DoorFields::kGeometryCount; ++k) {
      ASSAY_TRY(const auto ofga, link(f, p.instance, DoorFields::kGeometry + 4 * k, make_tag("OFGA")));
      if (!ofga) continue;
      std::uint32_t n = 0;
      ASSAY_CHECK(detail::array_part(ofga->file->file, ofga->index, OfgaFields::kCount, OfgaFields::kElement, n, kObanSceneCode));
      for (std::uint32_t j = 0; j < n; ++j) {
        ASSAY_TRY(const auto g, link(*ofga->file, ofga->index, OfgaFields::kFirst + OfgaFields::kElement * j + OfgaFields::kGeometry, make_tag("M3GM")));
        if (g) out.push_back(*g);
      }
    }
  } else if (p.tag == make_tag("TRIG")) {
    ASSAY_TRY(const auto trge, link(f, p.instance, TrigFields::kEmitter, make_tag("TRGE")));
    if (trge) {
      ASSAY_TRY(const auto g, link(*trge->file, trge->index, TrgeFields::kGeometry, make_tag("M3GM")));
      if (g) out.push_back(*g);
    }
  }
  return out;
}

// A stored 4x3 matrix usable as a node's transform: finite, its 3x3 part not singular.
bool placeable(const Matrix4x3& m) {
  for (float v : m)
    if (!std::isfinite(v)) return false;
  const double det = double{m[0]} * (double{m[4]} * m[8] - double{m[5]} * m[7]) - double{m[3]} * (double{m[1]} * m[8] - double{m[2]} * m[7]) +
                     double{m[6]} * (double{m[1]} * m[5] - double{m[2]} * m[4]);
  return std::fabs(det) > 1e-12;
}

model::Node from_matrix(std::string name, const Matrix4x3& m) {
  const model::Trs t = model::decompose(to_mat4(m));
  model::Node n;
  n.name = std::move(name);
  n.translation = t.translation, n.rotation = t.rotation, n.scale = t.scale;
  return n;
}

// OBOA object k of `oboa`: its node (key 0's placement), and one child per M3GM of its M3GA. A
// local animation (flag 0x10) is placed by the object's origin matrix (OBD:OBAN: "the object
// position is determined by the origin matrix in OBOA"): a parent node with that matrix.
Result<std::uint32_t> add_object(const LoadedFile& f, std::uint32_t oboa, std::uint32_t k, const ObanAnimation& a,
                                 const LoadedFile* level0, M3gmTextureCache* cache, model::Scene& s) {
  const ByteView b = *f.file.instance_bytes(oboa);  // oban_objects sized it
  const std::uint32_t elem = OboaFields::kFirst + OboaFields::kElement * k;
  std::string name = object_name(b, elem + OboaFields::kName);
  if (name.empty()) name = fmt::format("{} object {}", label_of(f, oboa), k);
  std::optional<std::uint32_t> origin;
  std::string origin_note;
  if (a.flags & ObanFields::kLocal) {
    Matrix4x3 m;
    for (std::size_t c = 0; c < m.size(); ++c) m[c] = detail::f32_at(b, elem + OboaFields::kOrigin + 4 * c);
    if (placeable(m)) {
      origin = static_cast<std::uint32_t>(s.nodes.size());
      s.nodes.push_back(from_matrix(name + " origin", m));
      s.nodes.back().extras["oboa_origin"] = std::vector<double>(m.begin(), m.end());
    } else {
      origin_note = "local animation: the object's origin matrix is singular or not finite, not applied";
    }
  }
  const auto root = static_cast<std::uint32_t>(s.nodes.size());
  s.nodes.push_back(placed(name, a.keys.front()));
  s.nodes.back().parent = origin;
  s.nodes.back().extras["oboa_object"] = static_cast<double>(k);
  if (!origin_note.empty()) s.nodes.back().extras["note"] = origin_note;
  auto m3ga = character_detail::resolved_link(f, oboa, elem + OboaFields::kGeometry, make_tag("M3GA"), level0);
  if (!m3ga) return recoded(m3ga.error());
  if (!*m3ga) return root;
  std::vector<InstanceRef> geometry;
  ASSAY_CHECK(m3ga_geometry(**m3ga, level0, geometry));
  ASSAY_CHECK(add_geometry(geometry, root, a, level0, cache, s));
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
  using namespace oban_scene_detail;
  ASSAY_TRY(const ObanAnimation a, decode_oban(f.file, oban));
  ASSAY_CHECK(exportable(f.file, oban, a));
  model::Scene s;
  const std::string name = f.names[oban].empty() ? a.name : std::string(f.names[oban]);
  s.name = name;
  M3gmTextureCache own;
  if (!cache) cache = &own;
  const bool local = (a.flags & ObanFields::kLocal) != 0;
  const std::vector<ObanPlayer> players = oban_players(f.file, oban);
  std::vector<std::uint32_t> animated;
  for (const auto& [oboa, k] : oban_objects(f, oban)) {
    ASSAY_TRY(const std::uint32_t root, add_object(f, oboa, k, a, level0, cache, s));
    animated.push_back(root);
  }
  // No object plays it here: a local animation's keys are Z-up (OBD:OBAN flag 0x10; OBD:DOOR: door
  // animations hold no position), turned to glTF's Y-up by -90 degrees about x as OniSplit's door
  // import turns door classes (LevelImporter.ImportDoor: CreateRotationX(-pi/2)).
  std::optional<std::uint32_t> zup;
  if (animated.empty() && local) {
    zup = static_cast<std::uint32_t>(s.nodes.size());
    model::Node n;
    n.name = name + " Z-up";
    n.rotation = {-0.70710678f, 0, 0, 0.70710678f};
    n.extras["note"] = std::string("local animation (flag 0x10): keys in Z-up space, turned to Y-up; no placement");
    s.nodes.push_back(std::move(n));
  }
  // Else the first DOOR or TRIG class (in instance order) that names it and has geometry.
  for (std::size_t k = 0; animated.empty() && k < players.size(); ++k) {
    const ObanPlayer& p = players[k];
    if (p.tag != make_tag("DOOR") && p.tag != make_tag("TRIG")) continue;
    ASSAY_TRY(const std::vector<InstanceRef> geometry, class_geometry(f, p, level0));
    if (geometry.empty()) continue;
    const auto root = static_cast<std::uint32_t>(s.nodes.size());
    s.nodes.push_back(placed(instance_name(f, p.instance), a.keys.front()));
    s.nodes.back().parent = zup;
    s.nodes.back().extras["oni_class"] = tag_string(p.tag);
    s.nodes.back().extras["class_instance"] = static_cast<double>(p.instance);
    ASSAY_CHECK(add_geometry(geometry, root, a, level0, cache, s));
    animated.push_back(root);
    s.extras["geometry_from"] = fmt::format("{} {} (instance {})", tag_string(p.tag), instance_name(f, p.instance), p.instance);
  }
  if (animated.empty()) {  // nothing with geometry plays it: an empty node (a camera path)
    animated.push_back(static_cast<std::uint32_t>(s.nodes.size()));
    s.nodes.push_back(placed(name, a.keys.front()));
    s.nodes.back().parent = zup;
  } else if (!s.extras.contains("geometry_from")) {
    s.extras["geometry_from"] = std::string("OBOA");
  }
  s.animations.push_back(animation_of(a, name, animated));
  s.extras["oni_instance"] = a.name;
  s.extras["initial_transform"] = as_doubles(a.initial);
  s.extras["fixed_transform"] = as_doubles(a.base);
  std::array<double, 4> counts{};
  for (const ObanPlayer& p : players)
    ++counts[p.tag == make_tag("OBOA") ? 0 : p.tag == make_tag("DOOR") ? 1 : p.tag == make_tag("TRIG") ? 2 : 3];
  s.extras["oboa_objects"] = counts[0], s.extras["door_classes"] = counts[1], s.extras["trigger_classes"] = counts[2];
  s.extras["door_class_entries"] = counts[3];
  return s;
}

Result<ByteBuffer> export_oban_glb(const LoadedFile& f, std::uint32_t oban, const LoadedFile* level0, M3gmTextureCache* cache) {
  ASSAY_TRY(const model::Scene s, oban_scene(f, oban, level0, cache));
  return model::write_glb(s);
}

}  // namespace assay::oni
