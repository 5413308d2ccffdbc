// Oni object animations: OBAN keys (Oni wiki OBD:OBAN, XML:OBAN; OniSplit 0.9.99.2
// Oni.Physics/ObjectDatReader.ReadAnimation) and the objects of a level's OBOA ("Starting Object
// Array", OBD:OBOA; OniSplit InstanceMetadata "OBOAObject") that play them on their M3GA geometry,
// exported as glTF 2.0 (GLB) with one named animation.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "assay/container.h"
#include "assay/core/diag.h"
#include "assay/formats/oni/level_set.h"
#include "assay/formats/oni/m3gm.h"
#include "assay/model/scene.h"

namespace assay::oni {

// OBAN (0x80 fixed bytes, instance header included; data/oni/templates.txt OBAN: 02 02, 12 bytes
// of padding, flags, two 4x3 matrices, three u16, a u16 key count, 32-byte keys).
struct ObanFields {
  static constexpr std::uint32_t kFlags = 0x14, kInitial = 0x18, kBase = 0x48, kTicks = 0x78, kFrames = 0x7A,
                                 kHalfStop = 0x7C, kKeyCount = 0x7E, kKeys = 0x80, kKeySize = 0x20, kSize = 0x80;
  // Key: rotation quaternion (4 floats) at +0x00, translation (3 floats) at +0x10, frame (u32) at +0x1C.
  static constexpr std::uint32_t kKeyRotation = 0x00, kKeyTranslation = 0x10, kKeyFrame = 0x1C;
  // Flags (OBD:OBAN; OniSplit ObjectAnimationFlags): loop, back-to-back loop, random start frame,
  // autostart, local (OniSplit's XML calls it ZAxisUp).
  static constexpr std::uint32_t kLoop = 0x1, kPingPong = 0x2, kRandomStart = 0x4, kAutoStart = 0x8, kLocal = 0x10;
};

// OBOA (0x20 fixed bytes): a u16 object count at 0x1E, 240-byte objects from 0x20: M3GA link
// (+0x00), OBAN link (+0x04), ENVP link (+0x08), flags (+0x0C, 0x200 in use), ..., the origin
// matrix (+0x40), the object's name (+0x70, 64 bytes).
struct OboaFields {
  static constexpr std::uint32_t kCount = 0x1E, kFirst = 0x20, kElement = 0xF0;
  static constexpr std::uint32_t kGeometry = 0x00, kAnimation = 0x04, kFlags = 0x0C, kOrigin = 0x40, kName = 0x70, kNameSize = 64;
};

// The classes that name an OBAN (data/oni/templates.txt; OniSplit InstanceMetadata DOORInstance,
// TRIGInstance, TRGEInstance, OFGAInstance, OBDCElement; the Oni wiki OBD:DOOR, OBD:TRIG, OBD:OBDC):
// DOOR (0x6C, a door class): two OFGA links (0x08; the wiki: the second is never used), its OBAN
// (0x10). OFGA (0x20 fixed bytes): u32 count at 0x1C, 12-byte elements from 0x20: gunk flags, M3GM
// (+0x04), OBLS. TRIG (0x74, a trigger class): the rail M3GM (0x18), its TRGE emitter (0x24) and
// the OBAN the emitter moves along the rail by (0x28). TRGE (0x28): the emitter's M3GM at 0x20.
// OBDC (0x20 fixed bytes): u16 count at 0x1E, 24-byte elements from 0x20 with an OBAN at +0x04 and
// no geometry. TURR and CONS name no OBAN.
struct DoorFields {
  static constexpr std::uint32_t kGeometry = 0x08, kGeometryCount = 2, kAnimation = 0x10, kSize = 0x6C;
};
struct OfgaFields {
  static constexpr std::uint32_t kCount = 0x1C, kFirst = 0x20, kElement = 0x0C, kGeometry = 0x04;
};
struct TrigFields {
  static constexpr std::uint32_t kRail = 0x18, kEmitter = 0x24, kAnimation = 0x28, kSize = 0x74;
};
struct TrgeFields {
  static constexpr std::uint32_t kGeometry = 0x20, kSize = 0x28;
};
struct ObdcFields {
  static constexpr std::uint32_t kCount = 0x1E, kFirst = 0x20, kElement = 0x18, kAnimation = 0x04;
};

// One instance (or array element) whose OBAN link is a given OBAN: tag OBOA (element = the object),
// DOOR or TRIG (element 0), OBDC (element = the door class entry).
struct ObanPlayer {
  std::uint32_t tag = 0, instance = 0, element = 0;
  bool operator==(const ObanPlayer&) const = default;
};
// Who names `oban` in f, in instance order then element order, from the bytes alone (no walk;
// instances too short for the field, arrays whose count overruns them, are skipped: verify and the
// walk report those).
std::vector<ObanPlayer> oban_players(const InstanceFile& f, std::uint32_t oban);
// Every OBAN of f with what names it, in one pass over f (for `list`): OBAN index -> players.
std::map<std::uint32_t, std::vector<ObanPlayer>> oban_player_index(const InstanceFile& f);
// list details: oboa_objects, door_classes, trigger_classes, door_class_entries (counts).
void print_oban_players(FieldPrinter& p, const std::vector<ObanPlayer>& players);

// A 4x3 matrix as stored: the images of x, y and z, then the translation (the wiki: "composed of 3
// vectors ... and a 4th vector defining a translation"; OniSplit ReadMatrix4x3, rows M11..M43).
using Matrix4x3 = std::array<float, 12>;
model::Mat4 to_mat4(const Matrix4x3& m);  // the same, column-major 4x4

struct ObanKey {
  model::Vec4 stored{};              // the quaternion as stored: x, y, z, w
  model::Vec3 translation{};         // as stored
  std::uint32_t frame = 0;           // as stored: the frame the key is at
  // The stored quaternion as glTF's x, y, z, w: (x, y, z, -w), normalised (OniSplit's
  // BinaryReader.ReadQuaternion negates w: the engine's quaternions turn the other way round, see
  // oban.cc). Identity when the stored one has no length or is not finite (verify says so).
  [[nodiscard]] model::Vec4 rotation() const;
};

struct ObanAnimation {
  std::string name;                  // the instance label
  std::uint32_t flags = 0;
  Matrix4x3 initial{}, base{};       // the initial placement; the fixed transform (a scale in retail data)
  std::uint16_t ticks = 0;           // 0x78: "ticks per frame; does not work" (OniSplit writes 1)
  std::uint16_t frames = 0;          // 0x7A: animation length in frames
  std::uint16_t half_stop = 0;       // 0x7C: stop frame of the first half (doors)
  std::vector<ObanKey> keys;
};

// OBAN instance i: its size and key count checked against its bytes (code "oni.oban").
Result<ObanAnimation> decode_oban(const InstanceFile& f, std::uint32_t i);

// What `list` shows of an OBAN entry (kind "animation", from the instance alone): keys, frames,
// animation_flags (0x14), half_stop_frame and ticks_per_frame; nothing when the fixed part is short.
void print_oban_details(FieldPrinter& p, ByteView inst);

// verify (warnings): oni.oban (the instance: size, key count), oni.oban-keys (no key),
// oni.oban-time (a key's frame not after the previous key's), oni.oban-frames (a key at or past
// the frame count), oni.oban-rotation (a quaternion not of unit length, or not finite),
// oni.oban-translation (a translation not finite).
void verify_oban(const InstanceFile& f, std::uint32_t i, Diagnostics& out);

// The OBOA objects of f whose OBAN link is `oban`: (OBOA descriptor, object index).
std::vector<std::pair<std::uint32_t, std::uint32_t>> oban_objects(const LoadedFile& f, std::uint32_t oban);

// The animation as a Scene: for each OBOA object that plays it, a root node named after the object
// with its key-0 placement, animated (translation and rotation, LINEAR, frame / 60 s), and under it
// one node per M3GM of the object's M3GA with the OBAN's fixed transform and the M3GM's mesh and
// material (as m3gm_scene makes them). No object: the same for the first DOOR or TRIG class that
// names it and has geometry (a door's OFGA M3GMs, a trigger's emitter M3GM), the node named after
// the class, extras "oni_class"/"class_instance", the scene's "geometry_from". Nothing with
// geometry: one empty node named after the OBAN (OniSplit's "null node"). Flag 0x10 (local): an
// object's origin matrix as the animated node's parent; without an object, a parent turning Z-up
// to Y-up. The scene's extras count the players (oboa_objects, door_classes, trigger_classes,
// door_class_entries). Refused with the verify code when the keys cannot be a glTF animation (none,
// times not increasing, a rotation or translation not finite or of no length).
Result<model::Scene> oban_scene(const LoadedFile& f, std::uint32_t oban, const LoadedFile* level0 = nullptr,
                                M3gmTextureCache* cache = nullptr);
Result<ByteBuffer> export_oban_glb(const LoadedFile& f, std::uint32_t oban, const LoadedFile* level0 = nullptr,
                                   M3gmTextureCache* cache = nullptr);

}  // namespace assay::oni
