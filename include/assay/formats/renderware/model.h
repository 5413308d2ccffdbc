// A RenderWare clump decoded whole, as the engine holds it after reading (spec:
// renderware.md#rw-7): frames with their matrices, HAnim hierarchy, geometries with every
// array (prelit colours, texture-coordinate sets, triangles, morph targets), materials, skins.
// summarize_clump (clump.h) is the cheap pass that list and info use; this one is for exporting.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "assay/core/diag.h"
#include "assay/formats/renderware/section.h"

namespace assay::rw {

struct HAnimNode {
  std::int32_t id = 0, index = 0;
  std::uint32_t flags = 0;  // 1 = POP, 2 = PUSH (the hierarchy's shape, depth first)
};

struct ModelFrame {
  std::array<float, 9> rotation{1, 0, 0, 0, 1, 0, 0, 0, 1};  // right, up, at
  std::array<float, 3> position{};
  std::int32_t parent = -1;
  std::string name;                    // node name extension 0x0253F2FE
  std::optional<std::int32_t> hanim_id;  // HAnim PLG 0x11E
  std::vector<HAnimNode> hierarchy;    // the HAnim hierarchy this frame roots, when it has one
};

// The Material Effects plugin's data (extension 0x120; layout as librw's readMaterialMatFX):
// the effects word, then two slots.
struct MatFxEffect {
  std::uint32_t type = 0;            // 1 bump map, 2 environment map, 4 dual pass, 5 UV transform
  float coefficient = 0;             // bump, environment
  std::uint32_t fb_alpha = 0;        // environment: use the frame buffer's alpha
  std::uint32_t src_blend = 0, dst_blend = 0;  // dual pass
  std::string texture;               // environment, dual pass; bump: the bump map
  std::string bumped_texture;        // bump: the texture bumped
};
struct MatFx {
  std::uint32_t effects = 0;  // 1-6 as the slots' types combine (3 bump + environment, 6 dual + UV)
  std::vector<MatFxEffect> slots;  // those that are not 0 (null)
};

struct ModelMaterial {
  std::array<std::uint8_t, 4> color{255, 255, 255, 255};
  std::string texture, mask;
  std::uint32_t filter_addressing = 0;
  std::optional<std::array<float, 3>> surface;  // ambient, specular, diffuse
  std::vector<std::uint32_t> plugins;          // extension ids (MatFX 0x120, ...)
  std::optional<MatFx> matfx;
};

// The MatFX material data in `body` (the extension's body at absolute offset `at`).
Result<MatFx> decode_matfx(ByteView body, std::uint64_t at);

struct ModelTriangle {
  std::array<std::uint16_t, 3> v{};
  std::uint16_t material = 0;
};

struct ModelMorphTarget {
  std::array<float, 4> sphere{};  // x, y, z, radius
  std::vector<std::array<float, 3>> positions, normals;
};

// Skin PLG 0x116 (generic geometry): per vertex four bone indices and weights, one inverse bind
// matrix per bone (RwMatrix order: right, up, at, pos, each with a fourth float that is garbage).
struct ModelSkin {
  std::uint32_t bones = 0, used_bones = 0, max_weights = 0;
  std::vector<std::array<std::uint8_t, 4>> indices;
  std::vector<std::array<float, 4>> weights;
  std::vector<std::array<float, 16>> inverse_bind;
};

// One entry of Rockstar's 2d Effect plugin (geometry extension 0x0253F2F8, GTA SA; layout as
// gtamods.com "2d Effect (RW Section)"): position in object space, type, and for a light (type 0,
// 76 or 80 bytes of data) its colour, ranges and corona and shadow textures.
struct Model2dEffect {
  std::array<float, 3> position{0, 0, 0};
  std::uint32_t type = 0;  // 0 light, 1 particle, ... (other types kept by type only)
  std::array<std::uint8_t, 4> color{0, 0, 0, 0};
  float corona_far_clip = 0, pointlight_range = 0, corona_size = 0, shadow_size = 0;
  std::string corona_texture, shadow_texture;
};

struct ModelGeometry {
  std::uint64_t offset = 0;  // of the 0x0F section
  std::uint32_t flags = 0;
  std::uint32_t vertices = 0;
  bool native = false;  // arrays in Native Data 0x510 not decoded (platform or pipeline unknown)
  std::vector<std::array<std::uint8_t, 4>> prelit;
  std::vector<std::vector<std::array<float, 2>>> texcoords;
  std::vector<ModelTriangle> triangles;
  std::vector<ModelMorphTarget> morph_targets;
  std::vector<ModelMaterial> materials;  // resolved list (a reused material repeated)
  std::optional<ModelSkin> skin;
  std::vector<std::array<std::uint8_t, 4>> night_colors;  // Extra Vert Colour 0x0253F2F9
  std::vector<Model2dEffect> effects;                      // 2d Effect 0x0253F2F8
};

struct ModelAtomic {
  std::uint32_t frame = 0, geometry = 0;
};

// Rockstar's collision plugin (clump extension 0x0253F2FA): GTA's COL data, kept as facts only.
struct ModelCollision {
  std::uint32_t size = 0;  // bytes of the plugin's body
  std::string fourcc;      // "COLL", "COL2", "COL3", "COL4" when the body starts with a COL header
  std::string name;        // the COL header's model name (22 bytes at +8)
};

struct ClumpModel {
  std::uint64_t offset = 0;
  std::uint32_t stamp = 0;
  std::vector<ModelFrame> frames;
  std::vector<ModelGeometry> geometries;  // the Geometry List's, then standalone atomics' own
  std::vector<ModelAtomic> atomics;
  std::optional<ModelCollision> collision;
};

// `bytes` must start with a Clump section (0x10). Every count is checked against the bytes
// before anything is read; errors name the section and offset (base + offset in `bytes`).
Result<ClumpModel> decode_clump(ByteView bytes, std::uint64_t base = 0, const DiagSink& diag = {});

}  // namespace assay::rw
