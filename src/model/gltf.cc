// glTF 2.0 writer (spec: https://registry.khronos.org/glTF/specs/2.0/glTF-2.0.html): one
// bufferView per accessor, each 4-byte aligned; POSITION (and every morph target's) with the
// exact min/max the validator recomputes; non-finite floats written as 0. The JSON is written
// front to back (json_writer.h): meshes as their accessors are made, the accessor and bufferView
// tables last.
#include "assay/model/gltf.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <span>

#include "json_writer.h"

namespace assay::model {

namespace {

constexpr int kByte = 5121, kShort = 5123, kUint = 5125, kFloat = 5126;
constexpr int kArrayBuffer = 34962, kElementArrayBuffer = 34963;

float finite(float v) { return std::isfinite(v) ? v : 0.0f; }

void write_extras(JsonWriter& w, const Extras& extras) {
  if (extras.empty()) return;
  w.key("extras").begin_object();
  for (const auto& [k, v] : extras) {
    w.key(k);
    if (const auto* d = std::get_if<double>(&v)) w.number(*d);
    else if (const auto* t = std::get_if<std::string>(&v)) w.string(*t);
    else w.numbers(std::get<std::vector<double>>(v));
  }
  w.end_object();
}

// No inf or NaN among the n floats at `f` (exponent bits all ones). Two floats per 64-bit word:
// t = the clear exponent bits of each 32-bit half (at most 0x7F800000, 0 for a non-finite float);
// t + 0x7FFFFFFF sets a half's top bit unless that half is 0, and never carries out of the half.
bool all_finite(const float* f, std::size_t n) {
  constexpr std::uint64_t kExp = 0x7F8000007F800000ull, kAdd = 0x7FFFFFFF7FFFFFFFull, kTop = 0x8000000080000000ull;
  std::uint64_t bad = 0;
  std::size_t i = 0;
  for (; i + 2 <= n; i += 2) {
    std::uint64_t w;
    std::memcpy(&w, f + i, sizeof w);
    bad |= ~((~w & kExp) + kAdd) & kTop;
  }
  for (; i < n; ++i) bad |= !std::isfinite(f[i]);
  return bad == 0;
}

// One bufferView per accessor; both tables are written after everything that makes them.
struct View {
  std::size_t offset = 0, length = 0;
  int target = 0;
};
struct Accessor {
  std::size_t view = 0, count = 0;
  int component = 0;
  std::string_view type;
  bool normalized = false;
  std::array<float, 4> min{}, max{};  // POSITION's and animation inputs' bounds: the first `bounds`
  std::size_t bounds = 0;
};

class Builder {
 public:
  explicit Builder(int indent) : w(indent) {}
  JsonWriter w;
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
                       bool normalized = false) {
    accessors.push_back({view(bytes, target), count, component, type, normalized, {}, {}, 0});
    return accessors.size() - 1;
  }

  // Finite floats straight into the binary chunk, with the bounds POSITION needs: copied whole,
  // then any non-finite one rewritten as 0 (rare: one pass finds whether there is any).
  template <std::size_t N>
  std::size_t floats(const std::vector<std::array<float, N>>& v, std::string_view type, int target,
                     bool bounds = false) {
    static_assert(sizeof(std::array<float, N>) == N * sizeof(float));
    while (bin.size() % 4) bin.push_back(0);
    const std::size_t at = bin.size(), n = v.size() * N, length = n * sizeof(float);
    bin.resize(at + length);
    std::uint8_t* out = bin.data() + at;
    const float* src = v.empty() ? nullptr : v.front().data();
    if (n) std::memcpy(out, src, length);
    if (!all_finite(src, n))
      for (std::size_t i = 0; i < n; ++i) {
        const float x = finite(src[i]);
        std::memcpy(out + i * sizeof(float), &x, sizeof x);
      }
    views.push_back({at, length, target});
    static_assert(N <= 4);
    Accessor a{views.size() - 1, v.size(), kFloat, type, false, {}, {}, 0};
    if (bounds && !v.empty()) {
      std::array<float, N> lo, hi;
      lo.fill(std::numeric_limits<float>::max());
      hi.fill(std::numeric_limits<float>::lowest());
      for (const auto& e : v)
        for (std::size_t k = 0; k < N; ++k) {
          const float x = finite(e[k]);
          lo[k] = std::min(lo[k], x), hi[k] = std::max(hi[k], x);
        }
      std::copy(lo.begin(), lo.end(), a.min.begin()), std::copy(hi.begin(), hi.end(), a.max.begin()), a.bounds = N;
    }
    accessors.push_back(std::move(a));
    return accessors.size() - 1;
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
    if (vertices <= 0xFFFF) {  // as 16 bits, written straight into the binary chunk
      while (bin.size() % 4) bin.push_back(0);
      const std::size_t at = bin.size();
      bin.resize(at + idx.size() * 2);
      std::uint8_t* out = bin.data() + at;
      for (std::uint32_t i : idx) {
        const auto v = static_cast<std::uint16_t>(i);
        std::memcpy(out, &v, 2), out += 2;
      }
      views.push_back({at, idx.size() * 2, kElementArrayBuffer});
      accessors.push_back({views.size() - 1, idx.size(), kShort, "SCALAR", false, {}, {}, 0});
      return accessors.size() - 1;
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
  for (const auto& p : m.primitives) {
    std::uint32_t top = 0;  // the largest index (a plain reduction: no branch per index)
    for (std::uint32_t i : p.indices) top = std::max(top, i);
    wrong = wrong || (!p.indices.empty() && top >= n);
  }
  if (wrong) return make_error("gltf", fmt::format("mesh '{}'", m.name), kNoOffset, "attribute counts disagree");
  return {};
}

Result<void> write_mesh(Builder& b, const Mesh& m, std::size_t joint_count) {
  ASSAY_CHECK(check_counts(m));
  std::vector<std::pair<std::string, std::size_t>> attr;
  attr.emplace_back("POSITION", b.floats(m.positions, "VEC3", kArrayBuffer, true));
  if (!m.normals.empty()) attr.emplace_back("NORMAL", b.floats(m.normals, "VEC3", kArrayBuffer));
  for (std::size_t k = 0; k < m.texcoords.size(); ++k)
    attr.emplace_back(fmt::format("TEXCOORD_{}", k), b.floats(m.texcoords[k], "VEC2", kArrayBuffer));
  if (!m.colors.empty()) attr.emplace_back("COLOR_0", b.bytes4(m.colors));
  if (!m.night_colors.empty()) attr.emplace_back("_NIGHT_COLOR", b.bytes4(m.night_colors));
  if (!m.joints.empty()) {
    attr.emplace_back("JOINTS_0", b.joints(m.joints, joint_count));
    attr.emplace_back("WEIGHTS_0", b.floats(m.weights, "VEC4", kArrayBuffer));
  }
  std::vector<std::pair<std::size_t, std::optional<std::size_t>>> targets;  // POSITION, NORMAL
  for (const MorphTarget& t : m.targets) {
    const std::size_t pos = b.floats(deltas(t.positions, m.positions), "VEC3", kArrayBuffer, true);
    std::optional<std::size_t> nrm;
    if (!t.normals.empty() && !m.normals.empty()) nrm = b.floats(deltas(t.normals, m.normals), "VEC3", kArrayBuffer);
    targets.emplace_back(pos, nrm);
  }
  std::vector<std::pair<std::size_t, const Primitive*>> prims;  // indices accessor
  for (const Primitive& p : m.primitives)
    if (!p.indices.empty()) prims.emplace_back(b.indices(p.indices, m.positions.size()), &p);
  JsonWriter& w = b.w;
  auto primitive = [&](const Primitive* p, std::optional<std::size_t> indices) {
    w.begin_object();
    w.key("attributes").begin_object();
    for (const auto& [name, acc] : attr) w.key(name).number(acc);
    w.end_object();
    if (indices) w.key("indices").number(*indices);
    else w.key("mode").number(0);  // points: no triangle
    if (p && p->material) w.key("material").number(*p->material);
    if (!targets.empty()) {
      w.key("targets").begin_array();
      for (const auto& [pos, nrm] : targets) {
        w.begin_object();
        w.key("POSITION").number(pos);
        if (nrm) w.key("NORMAL").number(*nrm);
        w.end_object();
      }
      w.end_array();
    }
    w.end_object();
  };
  w.begin_object();
  w.key("primitives").begin_array();
  for (const auto& [indices, p] : prims) primitive(p, indices);
  if (prims.empty()) primitive(nullptr, std::nullopt);
  w.end_array();
  if (!m.name.empty()) w.key("name").string(m.name);
  if (!m.targets.empty()) w.key("weights").numbers(std::vector<double>(m.targets.size(), 0.0));
  write_extras(w, m.extras);
  w.end_object();
  return {};
}

void write_material(JsonWriter& w, const Material& m, std::size_t texture) {
  w.begin_object();
  if (!m.name.empty()) w.key("name").string(m.name);
  w.key("pbrMetallicRoughness").begin_object();
  w.key("baseColorFactor").numbers(m.base_color);
  w.key("metallicFactor").number(0.0);
  w.key("roughnessFactor").number(1.0);
  if (m.texture) {
    w.key("baseColorTexture").begin_object();
    w.key("index").number(texture);
    w.key("texCoord").number(m.texture->texcoord);
    w.end_object();
  }
  w.end_object();
  if (m.alpha == AlphaMode::mask) w.key("alphaMode").string("MASK");
  if (m.alpha == AlphaMode::blend) w.key("alphaMode").string("BLEND");
  if (m.double_sided) w.key("doubleSided").boolean(true);
  write_extras(w, m.extras);
  w.end_object();
}

// Materials, textures and samplers (one texture per distinct image and sampler).
void write_materials(JsonWriter& w, const Scene& s) {
  if (s.materials.empty()) return;
  std::vector<std::pair<std::uint32_t, Sampler>> textures;
  std::vector<Sampler> samplers;
  w.key("materials").begin_array();
  for (const Material& m : s.materials) {
    std::size_t t = 0;
    if (m.texture) {
      const std::pair key{m.texture->image, m.texture->sampler};
      t = static_cast<std::size_t>(std::find(textures.begin(), textures.end(), key) - textures.begin());
      if (t == textures.size()) textures.push_back(key);
    }
    write_material(w, m, t);
  }
  w.end_array();
  if (textures.empty()) return;
  w.key("textures").begin_array();
  for (const auto& [image, sampler] : textures) {
    std::size_t k = static_cast<std::size_t>(std::find(samplers.begin(), samplers.end(), sampler) - samplers.begin());
    if (k == samplers.size()) samplers.push_back(sampler);
    w.begin_object();
    w.key("sampler").number(k);
    w.key("source").number(image);
    w.end_object();
  }
  w.end_array();
  w.key("samplers").begin_array();
  for (const Sampler& sm : samplers) {
    w.begin_object();
    w.key("wrapS").number(sm.wrap_s);
    w.key("wrapT").number(sm.wrap_t);
    if (sm.mag_filter) w.key("magFilter").number(sm.mag_filter);
    if (sm.min_filter) w.key("minFilter").number(sm.min_filter);
    w.end_object();
  }
  w.end_array();
}

template <std::size_t N>
void finite_numbers(JsonWriter& w, const std::array<float, N>& a) {
  w.begin_array();
  for (float x : a) w.number(static_cast<double>(finite(x)));
  w.end_array();
}

void write_node(JsonWriter& w, const Node& n, const std::vector<std::uint32_t>& children) {
  w.begin_object();
  if (!n.name.empty()) w.key("name").string(n.name);
  if (!children.empty()) w.key("children").numbers(children);
  if (n.translation != Vec3{0, 0, 0}) finite_numbers(w.key("translation"), n.translation);
  if (n.rotation != Vec4{0, 0, 0, 1}) finite_numbers(w.key("rotation"), n.rotation);
  if (n.scale != Vec3{1, 1, 1}) finite_numbers(w.key("scale"), n.scale);
  if (n.mesh) w.key("mesh").number(*n.mesh);
  if (n.skin) w.key("skin").number(*n.skin);
  if (n.light) {
    w.key("extensions").begin_object();
    w.key("KHR_lights_punctual").begin_object();
    w.key("light").number(*n.light);
    w.end_object();
    w.end_object();
  }
  write_extras(w, n.extras);
  w.end_object();
}

Result<void> write_nodes(JsonWriter& w, const Scene& s) {
  std::vector<std::vector<std::uint32_t>> children(s.nodes.size());
  std::vector<std::uint32_t> roots;
  for (std::uint32_t i = 0; i < s.nodes.size(); ++i) {
    const auto& p = s.nodes[i].parent;
    if (p && *p >= s.nodes.size())
      return make_error("gltf", fmt::format("node {}", i), kNoOffset, "parent out of range");
    (p ? children[*p] : roots).push_back(i);
  }
  if (!s.nodes.empty()) {
    w.key("nodes").begin_array();
    for (std::size_t i = 0; i < s.nodes.size(); ++i) write_node(w, s.nodes[i], children[i]);
    w.end_array();
  }
  w.key("scenes").begin_array();
  w.begin_object();
  w.key("nodes").numbers(roots);
  if (!s.name.empty()) w.key("name").string(s.name);
  w.end_object();
  w.end_array();
  w.key("scene").number(0);
  return {};
}

void write_skins(Builder& b, const Scene& s) {
  std::vector<std::size_t> accessors;
  for (const Skin& sk : s.skins) {
    std::vector<float> m;
    for (Mat4 x : sk.inverse_bind) {
      for (float& v : x) v = finite(v);
      x[3] = x[7] = x[11] = 0, x[15] = 1;
      m.insert(m.end(), x.begin(), x.end());
    }
    const ByteView bytes(reinterpret_cast<const std::uint8_t*>(m.data()), m.size() * 4);
    accessors.push_back(b.accessor(bytes, sk.inverse_bind.size(), kFloat, "MAT4", 0));
  }
  if (s.skins.empty()) return;
  JsonWriter& w = b.w;
  w.key("skins").begin_array();
  for (std::size_t i = 0; i < s.skins.size(); ++i) {
    const Skin& sk = s.skins[i];
    w.begin_object();
    w.key("inverseBindMatrices").number(accessors[i]);
    w.key("joints").numbers(sk.joints);
    if (sk.skeleton) w.key("skeleton").number(*sk.skeleton);
    if (!sk.name.empty()) w.key("name").string(sk.name);
    w.end_object();
  }
  w.end_array();
}

Result<void> check_channel(const Scene& s, const Animation& a, const AnimationChannel& c) {
  const auto bad = [&](std::string_view why) { return make_error("gltf", fmt::format("animation '{}'", a.name), kNoOffset, std::string(why)); };
  if (c.node >= s.nodes.size()) return bad("channel node out of range");
  if (c.times.empty() || c.times.size() != c.values.size()) return bad("a channel needs one value per time, and a time");
  for (std::size_t k = 0; k < c.times.size(); ++k)
    if (!std::isfinite(c.times[k]) || c.times[k] < 0 || (k > 0 && !(c.times[k] > c.times[k - 1])))
      return bad("channel times must be finite, non-negative and increasing");
  return {};
}

// "animations": one sampler per channel (LINEAR); the input accessor with min/max (glTF 2.0
// 3.11: sampler inputs need them), shared by the channels of an animation with the same times.
Result<void> write_animations(Builder& b, const Scene& s) {
  struct ChannelAccessors {
    std::size_t input = 0, output = 0;
  };
  std::vector<std::vector<ChannelAccessors>> samplers;
  for (const Animation& a : s.animations) {
    std::map<std::vector<float>, std::size_t> inputs;
    auto& out = samplers.emplace_back();
    for (const AnimationChannel& c : a.channels) {
      ASSAY_CHECK(check_channel(s, a, c));
      auto [it, fresh] = inputs.try_emplace(c.times, 0);
      if (fresh) {
        std::vector<std::array<float, 1>> t(c.times.size());
        for (std::size_t k = 0; k < t.size(); ++k) t[k][0] = c.times[k];
        it->second = b.floats(t, "SCALAR", 0, true);
      }
      std::size_t output = 0;
      if (c.path == AnimationChannel::Path::rotation) output = b.floats(c.values, "VEC4", 0);
      else {
        std::vector<Vec3> v(c.values.size());
        for (std::size_t k = 0; k < v.size(); ++k) v[k] = {c.values[k][0], c.values[k][1], c.values[k][2]};
        output = b.floats(v, "VEC3", 0);
      }
      out.push_back({it->second, output});
    }
  }
  if (s.animations.empty()) return {};
  static constexpr const char* kPath[] = {"translation", "rotation", "scale"};
  JsonWriter& w = b.w;
  w.key("animations").begin_array();
  for (std::size_t i = 0; i < s.animations.size(); ++i) {
    const Animation& a = s.animations[i];
    w.begin_object();
    if (!a.name.empty()) w.key("name").string(a.name);
    w.key("channels").begin_array();
    for (std::size_t k = 0; k < a.channels.size(); ++k) {
      w.begin_object();
      w.key("sampler").number(k);
      w.key("target").begin_object();
      w.key("node").number(a.channels[k].node);
      w.key("path").string(kPath[static_cast<int>(a.channels[k].path)]);
      w.end_object();
      w.end_object();
    }
    w.end_array();
    w.key("samplers").begin_array();
    for (const ChannelAccessors& sm : samplers[i]) {
      w.begin_object();
      w.key("input").number(sm.input);
      w.key("interpolation").string("LINEAR");
      w.key("output").number(sm.output);
      w.end_object();
    }
    w.end_array();
    write_extras(w, a.extras);
    w.end_object();
  }
  w.end_array();
  return {};
}

void write_lights(JsonWriter& w, const Scene& s) {
  if (s.lights.empty()) return;
  w.key("extensionsUsed").begin_array();
  w.string("KHR_lights_punctual");
  w.end_array();
  w.key("extensions").begin_object();
  w.key("KHR_lights_punctual").begin_object();
  w.key("lights").begin_array();
  for (const Light& l : s.lights) {
    static constexpr const char* kType[] = {"point", "spot", "directional"};
    w.begin_object();
    w.key("type").string(kType[static_cast<int>(l.type)]);
    w.key("color").numbers(l.color);
    w.key("intensity").number(static_cast<double>(l.intensity));
    if (l.type == Light::Type::spot) w.key("spot").begin_object(), w.end_object();
    if (l.range && l.type != Light::Type::directional) w.key("range").number(static_cast<double>(*l.range));
    if (!l.name.empty()) w.key("name").string(l.name);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  w.end_object();
}

// "accessors" and "bufferViews" (floats as the shortest text of their exact double).
void write_tables(Builder& b) {
  JsonWriter& w = b.w;
  if (!b.accessors.empty()) {
    w.key("accessors").begin_array();
    for (const Accessor& a : b.accessors) {
      w.begin_object();
      w.key("bufferView").number(a.view);
      w.key("componentType").number(a.component);
      w.key("count").number(a.count);
      w.key("type").string(a.type);
      if (a.normalized) w.key("normalized").boolean(true);
      if (a.bounds) w.key("min").numbers(std::span(a.min.data(), a.bounds)), w.key("max").numbers(std::span(a.max.data(), a.bounds));
      w.end_object();
    }
    w.end_array();
  }
  if (b.views.empty()) return;
  w.key("bufferViews").begin_array();
  for (const View& v : b.views) {
    w.begin_object();
    w.key("buffer").number(0);
    w.key("byteOffset").number(v.offset);
    w.key("byteLength").number(v.length);
    if (v.target) w.key("target").number(v.target);
    w.end_object();
  }
  w.end_array();
}

// Everything up to the images (the document stays open).
// The binary chunk's size, near enough to allocate it once.
std::size_t bin_estimate(const Scene& s) {
  std::size_t n = 0;
  for (const Mesh& m : s.meshes) {
    const std::size_t v = m.positions.size();
    n += v * (12 + 8 * m.texcoords.size()) + 12 * m.normals.size() + 4 * (m.colors.size() + m.night_colors.size());
    n += m.joints.size() * 24 + m.targets.size() * v * 24;
    for (const Primitive& p : m.primitives) n += p.indices.size() * 4 + 4;
    n += 64;
  }
  for (const Skin& sk : s.skins) n += sk.inverse_bind.size() * 64;
  for (const Animation& a : s.animations)
    for (const AnimationChannel& c : a.channels) n += c.times.size() * 20 + 8;
  for (const Image& im : s.images) n += im.png.size() + 4;
  return n;
}

Result<void> build(Builder& b, const Scene& s) {
  b.bin.reserve(bin_estimate(s));
  JsonWriter& w = b.w;
  w.begin_object();
  w.key("asset").begin_object();
  w.key("version").string("2.0");
  w.key("generator").string("assay");
  w.end_object();
  write_lights(w, s);
  ASSAY_CHECK(write_nodes(w, s));
  std::size_t joint_count = 0;
  for (const Skin& sk : s.skins) joint_count = std::max(joint_count, sk.joints.size());
  if (!s.meshes.empty()) {
    w.key("meshes").begin_array();
    for (const Mesh& m : s.meshes) ASSAY_CHECK(write_mesh(b, m, joint_count));
    w.end_array();
  }
  write_skins(b, s);
  ASSAY_CHECK(write_animations(b, s));
  write_materials(w, s);
  write_extras(w, s.extras);
  return {};
}

// "buffers" (one, with its URI when it is a file), the tables, and the document's close.
std::string finish(Builder& b, std::string_view bin_uri) {
  JsonWriter& w = b.w;
  if (!b.bin.empty()) {
    w.key("buffers").begin_array();
    w.begin_object();
    w.key("byteLength").number(b.bin.size());
    if (!bin_uri.empty()) w.key("uri").string(bin_uri);
    w.end_object();
    w.end_array();
  }
  write_tables(b);
  w.end_object();
  return std::move(w.text());
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
  Builder b(-1);
  ASSAY_CHECK(build(b, scene));
  if (!scene.images.empty()) {
    std::vector<std::size_t> views;
    for (const Image& im : scene.images) views.push_back(b.view(im.png, 0));
    b.w.key("images").begin_array();
    for (std::size_t i = 0; i < scene.images.size(); ++i) {
      b.w.begin_object();
      b.w.key("bufferView").number(views[i]);
      b.w.key("mimeType").string("image/png");
      if (!scene.images[i].name.empty()) b.w.key("name").string(scene.images[i].name);
      b.w.end_object();
    }
    b.w.end_array();
  }
  while (b.bin.size() % 4) b.bin.push_back(0);
  std::string json = finish(b, "");
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
  const auto* text = reinterpret_cast<const std::uint8_t*>(json.data());
  out.insert(out.end(), text, text + json.size());  // same element type: one memcpy
  if (!b.bin.empty()) {
    put_u32(out, static_cast<std::uint32_t>(b.bin.size()));
    put_u32(out, 0x004E4942);  // "BIN\0"
    out.insert(out.end(), b.bin.begin(), b.bin.end());
  }
  return out;
}

Result<std::vector<GltfFile>> write_gltf(const Scene& scene, std::string_view stem) {
  Builder b(1);
  ASSAY_CHECK(build(b, scene));
  std::vector<GltfFile> files;
  std::set<std::string> used;
  const std::string safe = file_safe(stem);  // the .bin and images are URIs: no character to escape
  if (!scene.images.empty()) b.w.key("images").begin_array();
  for (const Image& im : scene.images) {
    std::string name = fmt::format("{}_{}.png", safe, file_safe(im.name));
    for (int k = 1; !used.insert(name).second; ++k) name = fmt::format("{}_{}.{}.png", safe, file_safe(im.name), k);
    b.w.begin_object();
    b.w.key("uri").string(name);
    b.w.key("mimeType").string("image/png");
    if (!im.name.empty()) b.w.key("name").string(im.name);
    b.w.end_object();
    files.push_back({name, im.png});
  }
  if (!scene.images.empty()) b.w.end_array();
  const std::string bin_name = fmt::format("{}.bin", safe);
  const std::string json = finish(b, bin_name);
  files.insert(files.begin(), {fmt::format("{}.gltf", stem), ByteBuffer(json.begin(), json.end())});
  if (!b.bin.empty()) files.insert(files.begin() + 1, GltfFile{bin_name, std::move(b.bin)});
  return files;
}

}  // namespace assay::model
