// Oni characters (issue 27): an ONCC's TRBS body (TRCM with its TRGA geometries, TRTA
// translations and TRIA hierarchy) as a node hierarchy of M3GM parts, and the TRAM animations of
// its TRAC collection, exported together as one glTF 2.0 GLB. Layouts: the Oni wiki's OBD pages
// (ONCC, TRBS, TRCM, TRGA, TRTA, TRIA, TRMA, TRAC, TRAM) and OniSplit 0.9.99.2's readers
// (Oni.Totoro/BodyDatReader.cs, AnimationDatReader.cs, Oni.Game/CharacterClass.cs); every offset
// below includes the 8-byte instance header and is checked against the BFW template layouts in the
// tests (../shared/specs/oni-templates.txt).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "assay/core/diag.h"
#include "assay/formats/oni/level_set.h"
#include "assay/formats/oni/m3gm.h"
#include "assay/model/scene.h"

namespace assay::oni {

// ONCC (0xC98 bytes): TRBS body set, TRMA body textures, TRAC animation collection.
struct OnccFields {
  static constexpr std::uint32_t kBody = 0xC3C, kTextures = 0xC40, kAnimations = 0xC88, kSize = 0xC98;
};
// TRBS (0x1C): five TRCM links from 0x08, one per level of detail; OniSplit exports the last.
struct TrbsFields {
  static constexpr std::uint32_t kFirstBody = 0x08, kBodies = 5, kSize = 0x1C;
};
// TRCM (0x68): part count, then TRGA (M3GM per part), TRTA (translation per part), TRIA (hierarchy).
struct TrcmFields {
  static constexpr std::uint32_t kPartCount = 0x0C, kGeometry = 0x5C, kTranslations = 0x60, kHierarchy = 0x64, kSize = 0x68;
};
// TRGA, TRTA, TRIA, TRMA: a u16 count at 0x1E, elements from 0x20 (4, 12, 4 and 4 bytes).
// TRAC (0x20): parent TRAC at 0x18, u16 count at 0x1E, 12-byte elements from 0x20 (weight, 6
// unused bytes, the TRAM link at +8).
struct TracFields {
  static constexpr std::uint32_t kParent = 0x18, kCount = 0x1E, kFirst = 0x20, kElement = 12, kAnimation = 8;
};
// TRAM (0x188): .raw offsets of heights (0x0C), velocities (0x10) and rotations (0x34); flags
// 0x3C; overlay bone masks 0x48, 0x4C; frames per second 0x15E (60), frame size 0x160 (6: three
// s16 Euler angles, 16: a float quaternion), bones 0x16A, frames 0x16C.
struct TramFields {
  static constexpr std::uint32_t kHeights = 0x0C, kVelocities = 0x10, kRotations = 0x34, kFlags = 0x3C, kUsedBones = 0x48,
                                 kReplacedBones = 0x4C, kFps = 0x15E, kFrameSize = 0x160, kBones = 0x16A, kFrames = 0x16C,
                                 kSize = 0x188;
  static constexpr std::uint32_t kOverlay = 0x2000, kRealWorld = 0x20000;  // OniSplit AnimationFlags
};

// A descriptor with data: in the file itself, or in level 0 for a placeholder (spec: oni.md#oni-7-1).
struct InstanceRef {
  const LoadedFile* file = nullptr;
  std::uint32_t index = 0;
};

struct BodyPart {
  std::string name;                      // OniSplit's part name (BodyNode.Names), "part<k>" past 19
  std::optional<std::uint32_t> parent;   // from TRIA's first-child and sibling indices
  model::Vec3 translation{};             // TRTA: in the parent's frame
  M3gmGeometry geometry;
  std::optional<InstanceRef> texture;    // the ONCC's TRMA texture of this part, else the M3GM's
};

struct Body {
  std::string name;  // the TRBS's
  std::vector<BodyPart> parts;
};

// TRBS `trbs` of f with its most detailed TRCM; `textures` (a TRMA) names a texture per part.
// Every count is read, never assumed (retail bodies have 19 parts).
Result<Body> decode_body(const LoadedFile& f, std::uint32_t trbs, const LoadedFile* level0 = nullptr,
                         std::optional<InstanceRef> textures = std::nullopt);

struct TramKey {
  std::uint32_t frame = 0;          // the frame the key is at
  model::Vec4 stored{};             // as stored: degrees x, y, z (6-byte frames) or x, y, z, w (16-byte)
  model::Vec4 rotation{0, 0, 0, 1};  // the same rotation as a glTF unit quaternion x, y, z, w
};

struct TramAnimation {
  std::string name;
  std::uint32_t flags = 0, used_bones = 0, replaced_bones = 0;
  std::uint16_t fps = 0, frame_size = 0, bones = 0, frames = 0;
  std::vector<float> heights;                      // per frame, empty when the offset is 0
  std::vector<std::array<float, 2>> velocities;    // per frame x, z, empty when the offset is 0
  std::vector<std::vector<TramKey>> tracks;        // one per bone; keys' durations sum to `frames`
  [[nodiscard]] bool overlay() const { return (flags & TramFields::kOverlay) != 0; }
};

// A TRAM instance (its bytes from the 8-byte header on, `at` its file offset for errors) with the
// .raw (or .oni raw block) its offsets point into. Errors: code "oni.tram".
Result<TramAnimation> read_tram(ByteView inst, ByteView raw, std::string_view label, std::uint64_t at);
Result<TramAnimation> decode_tram(const LoadedFile& f, std::uint32_t i);

// Stored Euler angles (degrees) as a glTF quaternion: the engine turns a part about z, then y, then
// x (Oni wiki OBD:TRCM), so q = qx * qy * qz (OniSplit's Quaternion.CreateFromEulerXYZ).
model::Vec4 euler_quaternion(double x_deg, double y_deg, double z_deg);

// The TRAMs a character plays: those of its TRAC and of each parent TRAC in turn, each once
// (OniSplit's CharacterClass order). Without a TRAC: every TRAM with data in f whose bone count is
// `bones` (the golden's ONCC names no TRAC).
Result<std::vector<InstanceRef>> character_animations(const LoadedFile& f, std::uint32_t oncc, std::uint32_t bones,
                                                      const LoadedFile* level0 = nullptr);

// The character as a Scene: one node per part (parent links, TRTA translations), each with its
// mesh and material; one named animation per TRAM (see docs/cli.md "--models" for the channels).
// A TRAM whose bone count is not the body's is left out, named in the scene's extras "skipped".
Result<model::Scene> character_scene(const LoadedFile& f, std::uint32_t oncc, const LoadedFile* level0 = nullptr,
                                     M3gmTextureCache* cache = nullptr);
Result<ByteBuffer> export_character_glb(const LoadedFile& f, std::uint32_t oncc, const LoadedFile* level0 = nullptr,
                                        M3gmTextureCache* cache = nullptr);

// What `list` shows without a walk (this file only): parts, animations and their total frames.
struct CharacterCounts {
  std::uint32_t bones = 0, animations = 0, frames = 0;
};
Result<CharacterCounts> character_counts(const InstanceFile& f, std::uint32_t oncc);

// verify: the body decodes (oni.character), each animation decodes (oni.tram) with the body's bone
// count (oni.character-bones, a warning); a TRAM alone: its key durations sum to its frame count,
// 60 frames per second (oni.tram-fps, a warning). Problems are warnings in `out`.
void verify_character(const LoadedFile& f, std::uint32_t oncc, const LoadedFile* level0, Diagnostics& out);
void verify_tram(const LoadedFile& f, std::uint32_t i, Diagnostics& out);

}  // namespace assay::oni
