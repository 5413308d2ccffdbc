// ONCC characters as glTF scenes (character.h): the body's parts as nodes, the TRAC collection's
// TRAMs as animations. Channels (issue 27): each bone's keys as rotation keyframes at
// frame / 60 s (LINEAR, slerp between keys as the engine interpolates; OBD:TRAM/raw0x34); the
// pelvis (part 0) translation at every frame 0..frames: its TRTA translation plus the summed
// velocities before that frame (x, z) and that frame's height (y; the last height again at
// `frames`), as OniSplit's DAE export bakes it (goldens oni/characters/json "checks"). Overlay and
// RealWorld animations have no root motion (OniSplit AnimationDaeWriter.cs); an overlay animates
// only the bones its used/replaced masks name.
#include <fmt/format.h>

#include <map>
#include <set>

#include "assay/formats/oni/names.h"
#include "assay/model/gltf.h"
#include "character_parts.h"

namespace assay::oni {

namespace {

using namespace character_detail;

Result<void> oncc_check(const LoadedFile& f, std::uint32_t oncc) {
  if (oncc >= f.has_data.size() || !f.has_data[oncc] || f.file.descriptor(oncc).tag != make_tag("ONCC"))
    return make_error(kFormat, "ONCC", kNoOffset, fmt::format("instance {} is not an ONCC with data", oncc)).with_code("oni.character");
  ASSAY_CHECK(sized_bytes({&f, oncc}, OnccFields::kSize));
  return {};
}

// The TRAMs of one TRAC, appended once each.
Result<void> collection_anims(const InstanceRef& trac, const LoadedFile* level0, std::set<std::pair<const LoadedFile*, std::uint32_t>>& seen,
                              std::vector<InstanceRef>& out) {
  ASSAY_TRY(const std::uint32_t n, array_count(trac, TracFields::kElement));
  for (std::uint32_t k = 0; k < n; ++k) {
    const std::uint32_t field = TracFields::kFirst + TracFields::kElement * k + TracFields::kAnimation;
    ASSAY_TRY(const auto tram, resolved_link(*trac.file, trac.index, field, make_tag("TRAM"), level0));
    if (tram && seen.insert({tram->file, tram->index}).second) out.push_back(*tram);
  }
  return {};
}

std::vector<InstanceRef> same_bone_trams(const LoadedFile& f, std::uint32_t bones) {
  std::vector<InstanceRef> out;
  for (std::uint32_t i = 0; i < f.file.instance_count() && i < f.has_data.size(); ++i) {
    if (!f.has_data[i] || f.file.descriptor(i).tag != make_tag("TRAM")) continue;
    const auto b = f.file.instance_bytes(i);
    if (b && b->size() >= TramFields::kSize && le16(*b, TramFields::kBones) == bones) out.push_back({&f, i});
  }
  return out;
}

// Part k's material: the texture as PNG (each image once in the scene), untextured without one.
model::Material part_material(const BodyPart& p, M3gmTextureCache& cache, std::map<std::pair<const LoadedFile*, std::uint32_t>, std::uint32_t>& images,
                              model::Scene& s) {
  model::Material m;
  m.name = p.name;
  m.double_sided = false;  // one winding, fixed by the face normals (m3gm.h)
  if (!p.texture) return m;
  const auto key = std::pair{p.texture->file, p.texture->index};
  auto it = images.find(key);
  if (it == images.end()) {
    auto png = cache.get(*p.texture->file, p.texture->index);
    if (!png) return m;
    s.images.push_back({std::string(p.texture->file->names[p.texture->index]), std::move(png->bytes)});
    it = images.emplace(key, static_cast<std::uint32_t>(s.images.size() - 1)).first;
  }
  m.name = s.images[it->second].name;
  m.extras["texture"] = s.images[it->second].name;
  m.texture = model::TextureRef{it->second, {}, 0};
  return m;
}

void add_body(const Body& body, M3gmTextureCache& cache, model::Scene& s) {
  std::map<std::pair<const LoadedFile*, std::uint32_t>, std::uint32_t> images;
  for (std::size_t k = 0; k < body.parts.size(); ++k) {
    const BodyPart& p = body.parts[k];
    model::Material mat = part_material(p, cache, images, s);
    s.materials.push_back(std::move(mat));
    model::Mesh mesh = m3gm_mesh(p.geometry);
    mesh.name = p.name;
    for (auto& prim : mesh.primitives) prim.material = static_cast<std::uint32_t>(k);
    s.meshes.push_back(std::move(mesh));
    model::Node n;
    n.name = p.name;
    n.parent = p.parent;
    n.translation = p.translation;
    n.mesh = static_cast<std::uint32_t>(k);
    s.nodes.push_back(std::move(n));
  }
}

model::AnimationChannel rotation_channel(std::uint32_t node, const std::vector<TramKey>& keys) {
  model::AnimationChannel c;
  c.node = node;
  c.path = model::AnimationChannel::Path::rotation;
  for (const TramKey& k : keys) c.times.push_back(frame_time(k.frame)), c.values.push_back(k.rotation);
  return c;
}

// The pelvis at frames 0..frames (see the file comment).
model::AnimationChannel root_channel(const TramAnimation& a, const model::Vec3& rest) {
  model::AnimationChannel c;
  c.path = model::AnimationChannel::Path::translation;
  double x = 0, z = 0;
  for (std::uint32_t k = 0; k <= a.frames; ++k) {
    const float h = a.heights.empty() ? 0.0f : a.heights[std::min<std::size_t>(k, a.heights.size() - 1)];
    c.times.push_back(frame_time(k));
    c.values.push_back({static_cast<float>(rest[0] + x), rest[1] + h, static_cast<float>(rest[2] + z), 0});
    if (k < a.velocities.size()) x += a.velocities[k][0], z += a.velocities[k][1];
  }
  return c;
}

model::Animation animation_of(const TramAnimation& a, const Body& body) {
  model::Animation out;
  out.name = a.name;
  const std::uint32_t mask = a.used_bones | a.replaced_bones;
  for (std::uint32_t b = 0; b < a.tracks.size(); ++b)
    if (!a.overlay() || (b < 32 && (mask >> b & 1))) out.channels.push_back(rotation_channel(b, a.tracks[b]));
  if (!a.overlay() && !(a.flags & TramFields::kRealWorld)) out.channels.push_back(root_channel(a, body.parts[0].translation));
  out.extras["frames"] = static_cast<double>(a.frames);
  out.extras["frame_size"] = static_cast<double>(a.frame_size);
  out.extras["flags"] = static_cast<double>(a.flags);
  return out;
}

std::string join(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

Result<Body> character_body(const LoadedFile& f, std::uint32_t oncc, const LoadedFile* level0) {
  ASSAY_CHECK(oncc_check(f, oncc));
  ASSAY_TRY(const auto trbs, resolved_link(f, oncc, OnccFields::kBody, make_tag("TRBS"), level0));
  if (!trbs) return field_error(f, oncc, OnccFields::kBody, "a character class without a body (TRBS)");
  auto trma = resolved_link(f, oncc, OnccFields::kTextures, make_tag("TRMA"), level0);  // textures are optional
  return decode_body(*trbs->file, trbs->index, level0, trma ? *trma : std::nullopt);
}

}  // namespace

Result<std::vector<InstanceRef>> character_animations(const LoadedFile& f, std::uint32_t oncc, std::uint32_t bones, const LoadedFile* level0) {
  ASSAY_CHECK(oncc_check(f, oncc));
  ASSAY_TRY(auto trac, resolved_link(f, oncc, OnccFields::kAnimations, make_tag("TRAC"), level0));
  if (!trac) return same_bone_trams(f, bones);
  std::vector<InstanceRef> out;
  std::set<std::pair<const LoadedFile*, std::uint32_t>> seen, collections;
  while (trac && collections.insert({trac->file, trac->index}).second) {  // a parent loop ends here
    ASSAY_CHECK(collection_anims(*trac, level0, seen, out));
    ASSAY_TRY(trac, resolved_link(*trac->file, trac->index, TracFields::kParent, make_tag("TRAC"), level0));
  }
  return out;
}

Result<model::Scene> character_scene(const LoadedFile& f, std::uint32_t oncc, const LoadedFile* level0, M3gmTextureCache* cache) {
  ASSAY_TRY(const Body body, character_body(f, oncc, level0));
  ASSAY_TRY(const auto trams, character_animations(f, oncc, static_cast<std::uint32_t>(body.parts.size()), level0));
  M3gmTextureCache own;
  model::Scene s;
  s.name = std::string(f.names[oncc]);
  add_body(body, cache ? *cache : own, s);
  std::vector<std::string> skipped;
  for (const InstanceRef& r : trams) {
    auto a = decode_tram(*r.file, r.index);
    if (!a || a->bones != body.parts.size()) {
      skipped.push_back(a ? a->name : label_of(*r.file, r.index));
      continue;
    }
    model::Animation anim = animation_of(*a, body);
    if (anim.channels.empty()) skipped.push_back(a->name);
    else s.animations.push_back(std::move(anim));
  }
  s.extras["oni_instance"] = label_of(f, oncc);
  s.extras["body"] = body.name;
  if (!skipped.empty()) s.extras["skipped"] = join(skipped);
  return s;
}

Result<ByteBuffer> export_character_glb(const LoadedFile& f, std::uint32_t oncc, const LoadedFile* level0, M3gmTextureCache* cache) {
  ASSAY_TRY(const model::Scene s, character_scene(f, oncc, level0, cache));
  return model::write_glb(s);
}

void verify_character(const LoadedFile& f, std::uint32_t oncc, const LoadedFile* level0, Diagnostics& out) {
  auto body = character_body(f, oncc, level0);
  if (!body) return out.warning(body.error());
  auto trams = character_animations(f, oncc, static_cast<std::uint32_t>(body->parts.size()), level0);
  if (!trams) return out.warning(trams.error());
  for (const InstanceRef& r : *trams) {
    auto a = decode_tram(*r.file, r.index);
    if (!a) out.warning(a.error());
    else if (a->bones != body->parts.size())
      out.warning(field_error(f, oncc, OnccFields::kAnimations,
                              fmt::format("animation {} moves {} bones, the body has {} parts", a->name, a->bones, body->parts.size()),
                              "oni.character-bones"));
  }
}

void verify_tram(const LoadedFile& f, std::uint32_t i, Diagnostics& out) {
  auto a = decode_tram(f, i);
  if (!a) return out.warning(a.error());
  if (a->fps != kFramesPerSecond)
    out.warning(field_error(f, i, TramFields::kFps, fmt::format("{} frames per second (the engine plays 60)", a->fps), "oni.tram-fps"));
}

}  // namespace assay::oni
