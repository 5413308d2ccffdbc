// A model as glTF 2.0 sees it, in no family's terms: nodes, meshes, materials, images, skins
// and lights. A family's exporter fills one Scene; model/gltf.h writes it (spec: the glTF 2.0
// specification, https://registry.khronos.org/glTF/specs/2.0/glTF-2.0.html).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "assay/core/bytes.h"

namespace assay::model {

using Vec2 = std::array<float, 2>;
using Vec3 = std::array<float, 3>;
using Vec4 = std::array<float, 4>;
using Rgba8 = std::array<std::uint8_t, 4>;
using Mat4 = std::array<float, 16>;  // column-major, as glTF stores it

// Free-form facts kept in a glTF "extras" object (a number, a text or a list of numbers).
using Extra = std::variant<double, std::string, std::vector<double>>;
using Extras = std::map<std::string, Extra>;

// Texture sampling, as glTF's sampler (0 = not given, the viewer chooses).
struct Sampler {
  int mag_filter = 0, min_filter = 0;
  int wrap_s = 10497, wrap_t = 10497;  // REPEAT
  auto operator<=>(const Sampler&) const = default;
};

struct Image {
  std::string name;
  ByteBuffer png;
};

struct TextureRef {
  std::uint32_t image = 0;
  Sampler sampler;
  std::uint32_t texcoord = 0;  // which TEXCOORD_n
};

enum class AlphaMode { opaque, mask, blend };

struct Material {
  std::string name;
  Vec4 base_color{1, 1, 1, 1};
  std::optional<TextureRef> texture;
  AlphaMode alpha = AlphaMode::opaque;
  bool double_sided = true;
  Extras extras;
};

// One morph target: absolute positions (and normals), as the source stores them; the writer
// stores them as glTF's displacements from the base.
struct MorphTarget {
  std::vector<Vec3> positions, normals;
};

// Triangles of one material over the mesh's shared vertices.
struct Primitive {
  std::vector<std::uint32_t> indices;  // three per triangle
  std::optional<std::uint32_t> material;
};

struct Mesh {
  std::string name;
  std::vector<Vec3> positions;
  std::vector<Vec3> normals;                 // unit length, or empty
  std::vector<std::vector<Vec2>> texcoords;  // TEXCOORD_0, _1, ...
  std::vector<Rgba8> colors;                 // COLOR_0, or empty
  std::vector<Rgba8> night_colors;           // _NIGHT_COLOR, or empty
  std::vector<std::array<std::uint16_t, 4>> joints;  // JOINTS_0 (with weights), or empty
  std::vector<Vec4> weights;                 // WEIGHTS_0: each sums to 1
  std::vector<MorphTarget> targets;
  std::vector<Primitive> primitives;
  Extras extras;
};

struct Node {
  std::string name;
  std::optional<std::uint32_t> parent;  // index of an earlier or later node; none = a scene root
  Vec3 translation{0, 0, 0};
  Vec4 rotation{0, 0, 0, 1};  // quaternion x, y, z, w
  Vec3 scale{1, 1, 1};
  std::optional<std::uint32_t> mesh, skin, light;
  Extras extras;
};

struct Skin {
  std::string name;
  std::vector<std::uint32_t> joints;   // node indices
  std::vector<Mat4> inverse_bind;      // one per joint; the last row is 0, 0, 0, 1
  std::optional<std::uint32_t> skeleton;
};

// KHR_lights_punctual
struct Light {
  enum class Type { point, spot, directional } type = Type::point;
  std::string name;
  Vec3 color{1, 1, 1};
  float intensity = 1;
  std::optional<float> range;
};

// One animated property of one node: a glTF channel with its sampler, LINEAR interpolation.
struct AnimationChannel {
  enum class Path : std::uint8_t { translation, rotation, scale };
  std::uint32_t node = 0;
  Path path = Path::rotation;
  std::vector<float> times;  // seconds, strictly increasing, at least one
  std::vector<Vec4> values;  // one per time: x, y, z (translation, scale; w unused) or a unit quaternion x, y, z, w
};

struct Animation {
  std::string name;
  std::vector<AnimationChannel> channels;
  Extras extras;
};

struct Scene {
  std::string name;
  std::vector<Node> nodes;
  std::vector<Mesh> meshes;
  std::vector<Material> materials;
  std::vector<Image> images;
  std::vector<Skin> skins;
  std::vector<Light> lights;
  std::vector<Animation> animations;
  Extras extras;
};

// A rigid transform with scale (x' = T R S x), from a 4x4 column-major matrix whose last row is
// 0, 0, 0, 1: scale from the axes' lengths (negative when the axes are mirrored), rotation from
// the axes made orthonormal. Exact for a rotation-scale matrix; closest such for a sheared one.
struct Trs {
  Vec3 translation{0, 0, 0};
  Vec4 rotation{0, 0, 0, 1};
  Vec3 scale{1, 1, 1};
};
Trs decompose(const Mat4& m);

// a * b for column-major 4x4 matrices (b applied first).
Mat4 multiply(const Mat4& a, const Mat4& b);
// The inverse of an affine matrix (last row 0, 0, 0, 1); nullopt when its 3x3 part is singular.
std::optional<Mat4> inverse_affine(const Mat4& m);

}  // namespace assay::model
