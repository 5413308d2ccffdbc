// tinygltf's implementation lives in this file alone (no image decoding: the tests check PNGs
// with their own reader).
#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>

#include "gltf_reader.h"

namespace assay::testing {

namespace {

// Element i, component k of an accessor, as a double (normalized integers scaled to 0..1).
double component(const tinygltf::Model& m, const tinygltf::Accessor& a, std::size_t i, std::size_t k) {
  const tinygltf::BufferView& v = m.bufferViews[static_cast<std::size_t>(a.bufferView)];
  const auto& data = m.buffers[static_cast<std::size_t>(v.buffer)].data;
  const int size = tinygltf::GetComponentSizeInBytes(static_cast<std::uint32_t>(a.componentType));
  const int n = tinygltf::GetNumComponentsInType(static_cast<std::uint32_t>(a.type));
  const std::size_t stride = v.byteStride ? v.byteStride : static_cast<std::size_t>(size * n);
  const unsigned char* p = data.data() + v.byteOffset + a.byteOffset + i * stride + k * static_cast<std::size_t>(size);
  switch (a.componentType) {
    case TINYGLTF_COMPONENT_TYPE_FLOAT: { float f; std::memcpy(&f, p, 4); return f; }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return a.normalized ? *p / 255.0 : *p;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: { std::uint16_t s; std::memcpy(&s, p, 2); return a.normalized ? s / 65535.0 : s; }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: { std::uint32_t u; std::memcpy(&u, p, 4); return u; }
    default: return 0;
  }
}

template <class T, std::size_t N>
std::vector<std::array<T, N>> read(const tinygltf::Model& m, int index, double scale = 1) {
  std::vector<std::array<T, N>> out;
  if (index < 0) return out;
  const tinygltf::Accessor& a = m.accessors[static_cast<std::size_t>(index)];
  out.resize(a.count);
  for (std::size_t i = 0; i < a.count; ++i)
    for (std::size_t k = 0; k < N; ++k) out[i][k] = static_cast<T>(component(m, a, i, k) * scale + (scale > 1 ? 0.5 : 0));
  return out;
}

int attribute(const tinygltf::Primitive& p, const std::string& name) {
  auto it = p.attributes.find(name);
  return it == p.attributes.end() ? -1 : it->second;
}

ReadMesh mesh_of(const tinygltf::Model& m, const tinygltf::Node& node) {
  ReadMesh r;
  r.node = node.name;
  r.skin = node.skin;
  const tinygltf::Mesh& mesh = m.meshes[static_cast<std::size_t>(node.mesh)];
  const tinygltf::Primitive& first = mesh.primitives.at(0);
  r.positions = read<float, 3>(m, attribute(first, "POSITION"));
  r.normals = read<float, 3>(m, attribute(first, "NORMAL"));
  for (int k = 0; attribute(first, "TEXCOORD_" + std::to_string(k)) >= 0; ++k)
    r.texcoords.push_back(read<float, 2>(m, attribute(first, "TEXCOORD_" + std::to_string(k))));
  r.colors = read<std::uint8_t, 4>(m, attribute(first, "COLOR_0"), 255);
  r.joints = read<std::uint32_t, 4>(m, attribute(first, "JOINTS_0"));
  r.weights = read<float, 4>(m, attribute(first, "WEIGHTS_0"));
  r.morph_targets = first.targets.size();
  for (const tinygltf::Primitive& p : mesh.primitives) {
    if (p.indices < 0) continue;
    auto idx = read<std::uint32_t, 1>(m, p.indices);
    for (std::size_t i = 0; i + 2 < idx.size(); i += 3) r.triangles.push_back({idx[i][0], idx[i + 1][0], idx[i + 2][0]});
  }
  return r;
}

using M4 = std::array<double, 16>;  // column-major

M4 mul(const M4& a, const M4& b) {
  M4 r{};
  for (int c = 0; c < 4; ++c)
    for (int row = 0; row < 4; ++row)
      for (int k = 0; k < 4; ++k) r[c * 4 + row] += a[k * 4 + row] * b[c * 4 + k];
  return r;
}

// The node's local matrix: its matrix, or T * R * S (glTF 2.0, 5.25).
M4 local_matrix(const tinygltf::Node& n) {
  if (n.matrix.size() == 16) {
    M4 m;
    std::copy(n.matrix.begin(), n.matrix.end(), m.begin());
    return m;
  }
  const double x = n.rotation.size() == 4 ? n.rotation[0] : 0, y = n.rotation.size() == 4 ? n.rotation[1] : 0,
               z = n.rotation.size() == 4 ? n.rotation[2] : 0, w = n.rotation.size() == 4 ? n.rotation[3] : 1;
  const double sx = n.scale.size() == 3 ? n.scale[0] : 1, sy = n.scale.size() == 3 ? n.scale[1] : 1,
               sz = n.scale.size() == 3 ? n.scale[2] : 1;
  M4 m{1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0,
       2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0,
       2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), 0,
       0, 0, 0, 1};
  for (int k = 0; k < 3; ++k) m[k] *= sx, m[4 + k] *= sy, m[8 + k] *= sz;
  if (n.translation.size() == 3) m[12] = n.translation[0], m[13] = n.translation[1], m[14] = n.translation[2];
  return m;
}

// World matrices of every node, from the scene's parent links.
std::vector<M4> world_matrices(const tinygltf::Model& m) {
  std::vector<int> parent(m.nodes.size(), -1);
  for (std::size_t i = 0; i < m.nodes.size(); ++i)
    for (int c : m.nodes[i].children) parent[static_cast<std::size_t>(c)] = static_cast<int>(i);
  std::vector<M4> out(m.nodes.size());
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    M4 w = local_matrix(m.nodes[i]);
    for (int p = parent[i]; p >= 0; p = parent[static_cast<std::size_t>(p)]) w = mul(local_matrix(m.nodes[static_cast<std::size_t>(p)]), w);
    out[i] = w;
  }
  return out;
}

ReadAnimation animation_of(const tinygltf::Model& m, const tinygltf::Animation& a) {
  ReadAnimation r;
  r.name = a.name;
  for (const tinygltf::AnimationChannel& c : a.channels) {
    ReadChannel ch;
    ch.node = c.target_node;
    ch.path = c.target_path;
    const tinygltf::AnimationSampler& s = a.samplers.at(static_cast<std::size_t>(c.sampler));
    ch.interpolation = s.interpolation;
    for (const auto& t : read<float, 1>(m, s.input)) ch.times.push_back(t[0]);
    const tinygltf::Accessor& in = m.accessors.at(static_cast<std::size_t>(s.input));
    ch.input_min = in.minValues, ch.input_max = in.maxValues;
    const tinygltf::Accessor& out = m.accessors.at(static_cast<std::size_t>(s.output));
    if (out.type == TINYGLTF_TYPE_VEC4) ch.values = read<float, 4>(m, s.output);
    else
      for (const auto& v : read<float, 3>(m, s.output)) ch.values.push_back({v[0], v[1], v[2], 0});
    r.channels.push_back(std::move(ch));
  }
  return r;
}

std::vector<unsigned char> image_bytes(const tinygltf::Model& m, const tinygltf::Image& im) {
  if (im.bufferView < 0) return {};
  const tinygltf::BufferView& v = m.bufferViews.at(static_cast<std::size_t>(im.bufferView));
  const auto& data = m.buffers.at(static_cast<std::size_t>(v.buffer)).data;
  return {data.begin() + static_cast<std::ptrdiff_t>(v.byteOffset), data.begin() + static_cast<std::ptrdiff_t>(v.byteOffset + v.byteLength)};
}

}  // namespace

ReadModel read_gltf(const std::filesystem::path& file) {
  tinygltf::TinyGLTF loader;
  loader.SetImageLoader([](tinygltf::Image*, const int, std::string*, std::string*, int, int, const unsigned char*, int,
                           void*) { return true; },
                        nullptr);
  tinygltf::Model m;
  std::string err, warn;
  ReadModel out;
  const bool ok = file.extension() == ".glb" ? loader.LoadBinaryFromFile(&m, &err, &warn, file.string())
                                             : loader.LoadASCIIFromFile(&m, &err, &warn, file.string());
  if (!ok) {
    out.error = err.empty() ? "not loaded" : err;
    return out;
  }
  for (const tinygltf::Node& n : m.nodes)
    if (n.mesh >= 0) out.meshes.push_back(mesh_of(m, n));
  const std::vector<M4> world = world_matrices(m);
  for (const tinygltf::Skin& s : m.skins) {
    out.inverse_bind.push_back(read<float, 16>(m, s.inverseBindMatrices));
    auto& jw = out.joint_world.emplace_back();
    for (int j : s.joints) jw.push_back(world.at(static_cast<std::size_t>(j)));
  }
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    const tinygltf::Node& n = m.nodes[i];
    out.node_list.push_back({n.name, -1, n.translation, n.rotation, n.mesh});
  }
  for (std::size_t i = 0; i < m.nodes.size(); ++i)
    for (int c : m.nodes[i].children) out.node_list.at(static_cast<std::size_t>(c)).parent = static_cast<int>(i);
  for (const tinygltf::Animation& a : m.animations) out.animations.push_back(animation_of(m, a));
  out.images = m.images.size();
  for (const tinygltf::Image& im : m.images) out.image_data.push_back(image_bytes(m, im));
  for (const tinygltf::Material& mat : m.materials) {
    const int t = mat.pbrMetallicRoughness.baseColorTexture.index;
    const tinygltf::Texture* tex = t >= 0 ? &m.textures.at(static_cast<std::size_t>(t)) : nullptr;
    out.base_color_image.push_back(tex ? tex->source : -1);
    const tinygltf::Sampler* smp = tex && tex->sampler >= 0 ? &m.samplers.at(static_cast<std::size_t>(tex->sampler)) : nullptr;
    out.base_color_sampler.push_back(smp ? std::array<int, 4>{smp->magFilter, smp->minFilter, smp->wrapS, smp->wrapT}
                                         : std::array<int, 4>{-1, -1, -1, -1});
  }
  out.materials = m.materials.size();
  out.nodes = m.nodes.size();
  return out;
}

}  // namespace assay::testing
