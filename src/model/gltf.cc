// glTF 2.0 writer (spec: https://registry.khronos.org/glTF/specs/2.0/glTF-2.0.html): one
// bufferView per accessor, each 4-byte aligned; POSITION (and every morph target's) with the
// exact min/max the validator recomputes; non-finite floats written as 0.
#include "assay/model/gltf.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

namespace assay::model {

namespace {

using Json = nlohmann::ordered_json;

constexpr int kByte = 5121, kShort = 5123, kUint = 5125, kFloat = 5126;
constexpr int kArrayBuffer = 34962, kElementArrayBuffer = 34963;

float finite(float v) { return std::isfinite(v) ? v : 0.0f; }

Json extras_json(const Extras& extras) {
  Json j = Json::object();
  for (const auto& [k, v] : extras) std::visit([&](const auto& x) { j[k] = x; }, v);
  return j;
}

// One bufferView per accessor. Both tables are numbers only: kept as structs and written with
// fmt (json_tables), not as JSON values (most of a model's JSON is these two tables).
struct View {
  std::size_t offset = 0, length = 0;
  int target = 0;
};
struct Accessor {
  std::size_t view = 0, count = 0;
  int component = 0;
  std::string_view type;
  bool normalized = false;
  std::vector<float> min, max;
};

class Builder {
 public:
  Json root = Json::object();
  ByteBuffer bin;
  std::vector<View> views;
  std::vector<Accessor> accessors;

  // The bytes as a new bufferView (4-byte aligned); its index.
  std::size_t view(ByteView bytes, int target) {
    while (bin.size() % 4) bin.push_back(0);
    views.push_back({bin.size(), bytes.size(), target});
    bin.insert(bin.end(), bytes.begin(), bytes.end());
    return views.size() - 1;
  }

  std::size_t accessor(ByteView bytes, std::size_t count, int component, std::string_view type, int target,
                       bool normalized = false, std::vector<float> min = {}, std::vector<float> max = {}) {
    accessors.push_back({view(bytes, target), count, component, type, normalized, std::move(min), std::move(max)});
    return accessors.size() - 1;
  }

  template <std::size_t N>
  std::size_t floats(const std::vector<std::array<float, N>>& v, std::string_view type, int target,
                     bool bounds = false) {
    std::vector<float> flat;
    flat.reserve(v.size() * N);
    std::array<float, N> lo, hi;
    lo.fill(std::numeric_limits<float>::max());
    hi.fill(std::numeric_limits<float>::lowest());
    for (const auto& e : v)
      for (std::size_t k = 0; k < N; ++k) {
        const float x = finite(e[k]);
        flat.push_back(x);
        lo[k] = std::min(lo[k], x), hi[k] = std::max(hi[k], x);
      }
    const ByteView bytes(reinterpret_cast<const std::uint8_t*>(flat.data()), flat.size() * sizeof(float));
    if (!bounds || v.empty()) return accessor(bytes, v.size(), kFloat, type, target);
    return accessor(bytes, v.size(), kFloat, type, target, false, {lo.begin(), lo.end()}, {hi.begin(), hi.end()});
  }

  std::size_t bytes4(const std::vector<Rgba8>& v) {
    const ByteView bytes(reinterpret_cast<const std::uint8_t*>(v.data()), v.size() * 4);
    return accessor(bytes, v.size(), kByte, "VEC4", kArrayBuffer, true);
  }

  std::size_t joints(const std::vector<std::array<std::uint16_t, 4>>& v, std::size_t joint_count) {
    if (joint_count <= 256) {
      std::vector<std::uint8_t> b;
      b.reserve(v.size() * 4);
      for (const auto& j : v) b.insert(b.end(), j.begin(), j.end());
      return accessor(b, v.size(), kByte, "VEC4", kArrayBuffer);
    }
    const ByteView bytes(reinterpret_cast<const std::uint8_t*>(v.data()), v.size() * 8);
    return accessor(bytes, v.size(), kShort, "VEC4", kArrayBuffer);
  }

  std::size_t indices(const std::vector<std::uint32_t>& idx, std::size_t vertices) {
    if (vertices <= 0xFFFF) {
      std::vector<std::uint16_t> s(idx.begin(), idx.end());
      const ByteView bytes(reinterpret_cast<const std::uint8_t*>(s.data()), s.size() * 2);
      return accessor(bytes, s.size(), kShort, "SCALAR", kElementArrayBuffer);
    }
    const ByteView bytes(reinterpret_cast<const std::uint8_t*>(idx.data()), idx.size() * 4);
    return accessor(bytes, idx.size(), kUint, "SCALAR", kElementArrayBuffer);
  }
};

// Displacements of a morph target from the base (glTF stores targets as differences).
std::vector<Vec3> deltas(const std::vector<Vec3>& target, const std::vector<Vec3>& base) {
  std::vector<Vec3> d(target.size());
  for (std::size_t i = 0; i < target.size() && i < base.size(); ++i)
    for (int k = 0; k < 3; ++k) d[i][k] = finite(target[i][k]) - finite(base[i][k]);
  return d;
}

Result<void> check_counts(const Mesh& m) {
  const std::size_t n = m.positions.size();
  auto bad = [&](std::size_t got) { return got != 0 && got != n; };
  bool wrong = bad(m.normals.size()) || bad(m.colors.size()) || bad(m.night_colors.size()) ||
               bad(m.joints.size()) || m.joints.size() != m.weights.size();
  for (const auto& t : m.texcoords) wrong = wrong || t.size() != n;
  for (const auto& t : m.targets) wrong = wrong || t.positions.size() != n || bad(t.normals.size());
  for (const auto& p : m.primitives)
    for (std::uint32_t i : p.indices) wrong = wrong || i >= n;
  if (wrong) return make_error("gltf", fmt::format("mesh '{}'", m.name), kNoOffset, "attribute counts disagree");
  return {};
}

Result<Json> mesh_json(Builder& b, const Mesh& m, std::size_t joint_count) {
  ASSAY_CHECK(check_counts(m));
  Json attr = Json::object();
  attr["POSITION"] = b.floats(m.positions, "VEC3", kArrayBuffer, true);
  if (!m.normals.empty()) attr["NORMAL"] = b.floats(m.normals, "VEC3", kArrayBuffer);
  for (std::size_t k = 0; k < m.texcoords.size(); ++k)
    attr[fmt::format("TEXCOORD_{}", k)] = b.floats(m.texcoords[k], "VEC2", kArrayBuffer);
  if (!m.colors.empty()) attr["COLOR_0"] = b.bytes4(m.colors);
  if (!m.night_colors.empty()) attr["_NIGHT_COLOR"] = b.bytes4(m.night_colors);
  if (!m.joints.empty()) {
    attr["JOINTS_0"] = b.joints(m.joints, joint_count);
    attr["WEIGHTS_0"] = b.floats(m.weights, "VEC4", kArrayBuffer);
  }
  Json targets = Json::array();
  for (const MorphTarget& t : m.targets) {
    Json tj = {{"POSITION", b.floats(deltas(t.positions, m.positions), "VEC3", kArrayBuffer, true)}};
    if (!t.normals.empty() && !m.normals.empty()) tj["NORMAL"] = b.floats(deltas(t.normals, m.normals), "VEC3", kArrayBuffer);
    targets.push_back(std::move(tj));
  }
  Json prims = Json::array();
  for (const Primitive& p : m.primitives) {
    if (p.indices.empty()) continue;
    Json pj = {{"attributes", attr}, {"indices", b.indices(p.indices, m.positions.size())}};
    if (p.material) pj["material"] = *p.material;
    if (!targets.empty()) pj["targets"] = targets;
    prims.push_back(std::move(pj));
  }
  if (prims.empty()) prims.push_back({{"attributes", attr}, {"mode", 0}});  // points: no triangle
  Json j = {{"primitives", std::move(prims)}};
  if (!m.name.empty()) j["name"] = m.name;
  if (!m.targets.empty()) j["weights"] = std::vector<float>(m.targets.size(), 0.0f);
  if (!m.extras.empty()) j["extras"] = extras_json(m.extras);
  return j;
}

Json material_json(const Material& m, std::size_t texture) {
  Json pbr = {{"baseColorFactor", m.base_color}, {"metallicFactor", 0.0}, {"roughnessFactor", 1.0}};
  if (m.texture) pbr["baseColorTexture"] = {{"index", texture}, {"texCoord", m.texture->texcoord}};
  Json j = Json::object();
  if (!m.name.empty()) j["name"] = m.name;
  j["pbrMetallicRoughness"] = std::move(pbr);
  if (m.alpha == AlphaMode::mask) j["alphaMode"] = "MASK";
  if (m.alpha == AlphaMode::blend) j["alphaMode"] = "BLEND";
  if (m.double_sided) j["doubleSided"] = true;
  if (!m.extras.empty()) j["extras"] = extras_json(m.extras);
  return j;
}

// Materials, textures and samplers (one texture per distinct image and sampler).
void materials_json(Json& root, const Scene& s) {
  std::vector<std::pair<std::uint32_t, Sampler>> textures;
  std::vector<Sampler> samplers;
  for (const Material& m : s.materials) {
    std::size_t t = 0;
    if (m.texture) {
      const std::pair key{m.texture->image, m.texture->sampler};
      t = std::find(textures.begin(), textures.end(), key) - textures.begin();
      if (t == textures.size()) textures.push_back(key);
    }
    root["materials"].push_back(material_json(m, t));
  }
  for (const auto& [image, sampler] : textures) {
    std::size_t k = std::find(samplers.begin(), samplers.end(), sampler) - samplers.begin();
    if (k == samplers.size()) samplers.push_back(sampler);
    root["textures"].push_back({{"sampler", k}, {"source", image}});
  }
  for (const Sampler& sm : samplers) {
    Json j = {{"wrapS", sm.wrap_s}, {"wrapT", sm.wrap_t}};
    if (sm.mag_filter) j["magFilter"] = sm.mag_filter;
    if (sm.min_filter) j["minFilter"] = sm.min_filter;
    root["samplers"].push_back(std::move(j));
  }
}

Json node_json(const Node& n, const std::vector<std::vector<std::uint32_t>>& children, std::size_t i) {
  Json j = Json::object();
  if (!n.name.empty()) j["name"] = n.name;
  if (!children[i].empty()) j["children"] = children[i];
  auto f = [](const auto& a) {
    std::vector<float> v;
    for (float x : a) v.push_back(finite(x));
    return v;
  };
  if (n.translation != Vec3{0, 0, 0}) j["translation"] = f(n.translation);
  if (n.rotation != Vec4{0, 0, 0, 1}) j["rotation"] = f(n.rotation);
  if (n.scale != Vec3{1, 1, 1}) j["scale"] = f(n.scale);
  if (n.mesh) j["mesh"] = *n.mesh;
  if (n.skin) j["skin"] = *n.skin;
  if (n.light) j["extensions"] = {{"KHR_lights_punctual", {{"light", *n.light}}}};
  if (!n.extras.empty()) j["extras"] = extras_json(n.extras);
  return j;
}

Result<void> nodes_json(Json& root, const Scene& s) {
  std::vector<std::vector<std::uint32_t>> children(s.nodes.size());
  std::vector<std::uint32_t> roots;
  for (std::uint32_t i = 0; i < s.nodes.size(); ++i) {
    const auto& p = s.nodes[i].parent;
    if (p && *p >= s.nodes.size())
      return make_error("gltf", fmt::format("node {}", i), kNoOffset, "parent out of range");
    (p ? children[*p] : roots).push_back(i);
  }
  for (std::size_t i = 0; i < s.nodes.size(); ++i) root["nodes"].push_back(node_json(s.nodes[i], children, i));
  Json scene = {{"nodes", roots}};
  if (!s.name.empty()) scene["name"] = s.name;
  root["scenes"] = Json::array({scene});
  root["scene"] = 0;
  return {};
}

void skins_json(Builder& b, const Scene& s) {
  for (const Skin& sk : s.skins) {
    std::vector<float> m;
    for (Mat4 x : sk.inverse_bind) {
      for (float& v : x) v = finite(v);
      x[3] = x[7] = x[11] = 0, x[15] = 1;
      m.insert(m.end(), x.begin(), x.end());
    }
    const ByteView bytes(reinterpret_cast<const std::uint8_t*>(m.data()), m.size() * 4);
    Json j = {{"inverseBindMatrices", b.accessor(bytes, sk.inverse_bind.size(), kFloat, "MAT4", 0)},
              {"joints", sk.joints}};
    if (sk.skeleton) j["skeleton"] = *sk.skeleton;
    if (!sk.name.empty()) j["name"] = sk.name;
    b.root["skins"].push_back(std::move(j));
  }
}

void lights_json(Json& root, const Scene& s) {
  if (s.lights.empty()) return;
  Json lights = Json::array();
  for (const Light& l : s.lights) {
    static constexpr const char* kType[] = {"point", "spot", "directional"};
    Json j = {{"type", kType[static_cast<int>(l.type)]}, {"color", l.color}, {"intensity", l.intensity}};
    if (l.type == Light::Type::spot) j["spot"] = Json::object();
    if (l.range && l.type != Light::Type::directional) j["range"] = *l.range;
    if (!l.name.empty()) j["name"] = l.name;
    lights.push_back(std::move(j));
  }
  root["extensionsUsed"] = {"KHR_lights_punctual"};
  root["extensions"] = {{"KHR_lights_punctual", {{"lights", std::move(lights)}}}};
}

// Everything but the images and the buffer entry.
Result<Builder> build(const Scene& s) {
  Builder b;
  b.root["asset"] = {{"version", "2.0"}, {"generator", "assay"}};
  lights_json(b.root, s);
  ASSAY_CHECK(nodes_json(b.root, s));
  std::size_t joint_count = 0;
  for (const Skin& sk : s.skins) joint_count = std::max(joint_count, sk.joints.size());
  for (const Mesh& m : s.meshes) {
    ASSAY_TRY(Json j, mesh_json(b, m, joint_count));
    b.root["meshes"].push_back(std::move(j));
  }
  skins_json(b, s);
  materials_json(b.root, s);
  if (!s.extras.empty()) b.root["extras"] = extras_json(s.extras);
  return b;
}

// ,"accessors":[...],"bufferViews":[...] (floats as the shortest text of their exact double).
std::string json_tables(const Builder& b) {
  std::string out;
  auto numbers = [&](const std::vector<float>& v) {
    out += '[';
    for (std::size_t i = 0; i < v.size(); ++i) fmt::format_to(std::back_inserter(out), "{}{}", i ? "," : "", double{v[i]});
    out += ']';
  };
  if (!b.accessors.empty()) out += ",\"accessors\":[";
  for (std::size_t i = 0; i < b.accessors.size(); ++i) {
    const Accessor& a = b.accessors[i];
    fmt::format_to(std::back_inserter(out), "{}{{\"bufferView\":{},\"componentType\":{},\"count\":{},\"type\":\"{}\"",
                   i ? "," : "", a.view, a.component, a.count, a.type);
    if (a.normalized) out += ",\"normalized\":true";
    if (!a.min.empty()) out += ",\"min\":", numbers(a.min), out += ",\"max\":", numbers(a.max);
    out += '}';
  }
  if (!b.accessors.empty()) out += ']';
  if (!b.views.empty()) out += ",\"bufferViews\":[";
  for (std::size_t i = 0; i < b.views.size(); ++i) {
    const View& v = b.views[i];
    fmt::format_to(std::back_inserter(out), "{}{{\"buffer\":0,\"byteOffset\":{},\"byteLength\":{}", i ? "," : "",
                   v.offset, v.length);
    if (v.target) fmt::format_to(std::back_inserter(out), ",\"target\":{}", v.target);
    out += '}';
  }
  if (!b.views.empty()) out += ']';
  return out;
}

// Names come from the game's files in no known encoding: bytes that are not UTF-8 become U+FFFD.
// The document with the builder's accessor and bufferView tables after its other members.
std::string dump(const Builder& b, int indent) {
  std::string text = b.root.dump(indent, ' ', false, Json::error_handler_t::replace);
  const std::size_t close = text.rfind('}');
  text.insert(close, json_tables(b));
  return text;
}

void put_u32(ByteBuffer& out, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) out.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
}

// A name safe as a file name: letters, digits, '-', '_' and '.'; others become '_'.
std::string file_safe(std::string_view n) {
  std::string s;
  for (char c : n) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : '_';
  while (!s.empty() && s.front() == '.') s.erase(s.begin());
  return s.empty() ? "image" : s;
}

}  // namespace

Result<ByteBuffer> write_glb(const Scene& scene) {
  ASSAY_TRY(Builder b, build(scene));
  for (const Image& im : scene.images) {
    Json j = {{"bufferView", b.view(im.png, 0)}, {"mimeType", "image/png"}};
    if (!im.name.empty()) j["name"] = im.name;
    b.root["images"].push_back(std::move(j));
  }
  while (b.bin.size() % 4) b.bin.push_back(0);
  if (!b.bin.empty()) b.root["buffers"] = Json::array({{{"byteLength", b.bin.size()}}});
  std::string json = dump(b, -1);
  while (json.size() % 4) json += ' ';
  ByteBuffer out;
  const std::size_t total = 12 + 8 + json.size() + (b.bin.empty() ? 0 : 8 + b.bin.size());
  if (total > 0xFFFFFFFFu) return make_error("gltf", "GLB", kNoOffset, "the model needs more than 4 GiB");
  out.reserve(total);
  put_u32(out, 0x46546C67);  // "glTF"
  put_u32(out, 2);
  put_u32(out, static_cast<std::uint32_t>(total));
  put_u32(out, static_cast<std::uint32_t>(json.size()));
  put_u32(out, 0x4E4F534A);  // "JSON"
  out.insert(out.end(), json.begin(), json.end());
  if (!b.bin.empty()) {
    put_u32(out, static_cast<std::uint32_t>(b.bin.size()));
    put_u32(out, 0x004E4942);  // "BIN\0"
    out.insert(out.end(), b.bin.begin(), b.bin.end());
  }
  return out;
}

Result<std::vector<GltfFile>> write_gltf(const Scene& scene, std::string_view stem) {
  ASSAY_TRY(Builder b, build(scene));
  std::vector<GltfFile> files;
  std::set<std::string> used;
  const std::string safe = file_safe(stem);  // the .bin and images are URIs: no character to escape
  for (const Image& im : scene.images) {
    std::string name = fmt::format("{}_{}.png", safe, file_safe(im.name));
    for (int k = 1; !used.insert(name).second; ++k) name = fmt::format("{}_{}.{}.png", safe, file_safe(im.name), k);
    Json j = {{"uri", name}, {"mimeType", "image/png"}};
    if (!im.name.empty()) j["name"] = im.name;
    b.root["images"].push_back(std::move(j));
    files.push_back({name, im.png});
  }
  const std::string bin_name = fmt::format("{}.bin", safe);
  if (!b.bin.empty()) b.root["buffers"] = Json::array({{{"byteLength", b.bin.size()}, {"uri", bin_name}}});
  const std::string json = dump(b, 1);
  files.insert(files.begin(), {fmt::format("{}.gltf", stem), ByteBuffer(json.begin(), json.end())});
  if (!b.bin.empty()) files.insert(files.begin() + 1, GltfFile{bin_name, std::move(b.bin)});
  return files;
}

}  // namespace assay::model
