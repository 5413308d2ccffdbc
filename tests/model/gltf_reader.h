// An independent glTF reader for the tests (tinygltf, Debian's libtinygltf-dev): what a GLB
// holds, read without any of assay's code.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace assay::testing {

struct ReadMesh {
  std::string node;  // the node that draws it
  std::vector<std::array<float, 3>> positions, normals;
  std::vector<std::vector<std::array<float, 2>>> texcoords;
  std::vector<std::array<std::uint8_t, 4>> colors;
  std::vector<std::array<std::uint32_t, 4>> joints;
  std::vector<std::array<float, 4>> weights;
  std::vector<std::array<std::uint32_t, 3>> triangles;  // every primitive's, in order
  std::size_t morph_targets = 0;
  int skin = -1;
};

struct ReadNode {
  std::string name;
  int parent = -1;
  std::vector<double> translation, rotation;  // as written (empty when not given)
  int mesh = -1;
};

struct ReadChannel {
  int node = -1;
  std::string path, interpolation;
  std::vector<float> times;                    // the sampler's input
  std::vector<std::array<float, 4>> values;    // its output (VEC3: w 0)
  std::vector<double> input_min, input_max;    // the input accessor's min/max
};

struct ReadAnimation {
  std::string name;
  std::vector<ReadChannel> channels;
};

struct ReadModel {
  std::string error;  // tinygltf's, when it could not load the file
  std::vector<ReadNode> node_list;             // every node, in order
  std::vector<ReadAnimation> animations;
  std::vector<ReadMesh> meshes;  // one per node with a mesh, in node order
  std::vector<std::vector<std::array<float, 16>>> inverse_bind;  // per skin
  std::vector<std::vector<std::array<double, 16>>> joint_world;  // per skin: each joint's world matrix (column-major)
  std::size_t images = 0, materials = 0, nodes = 0;
  std::vector<std::vector<unsigned char>> image_data;  // each image's bytes as stored (a GLB's buffer view; empty for a URI)
  std::vector<int> base_color_image;                    // per material: its baseColorTexture's image, -1 for none
  std::vector<std::array<int, 4>> base_color_sampler;   // per material: magFilter, minFilter, wrapS, wrapT (-1 when not given)
};

ReadModel read_gltf(const std::filesystem::path& file);

}  // namespace assay::testing
