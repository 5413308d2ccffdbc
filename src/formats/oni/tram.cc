// TRAM animations (Oni wiki OBD:TRAM, OBD:TRAM/raw0x34; OniSplit Oni.Totoro/AnimationDatReader.cs).
// The rotation block in the .raw: one u16 offset per bone (from the block's start), then per bone
// its keys: the rotation (6 bytes: three s16 angles, 360/65535 degrees a unit, as OniSplit reads
// them: 0x4000 is 90.00137 degrees; the wiki's table gives 0x4000 as 90; or 16 bytes: four floats),
// then a u8 duration in frames, except for the key at the last frame. Durations sum to the frame
// count. Heights: a float per frame; velocities: x, z floats per frame (root motion).
#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "assay/formats/oni/names.h"
#include "character_parts.h"

namespace assay::oni {

namespace {

using character_detail::le16;
using character_detail::le32;
using character_detail::lef32;

constexpr double kUnitDegrees = 360.0 / 65535.0;  // OniSplit: s16 * 180 / 32767.5

struct TramSource {
  ByteView inst, raw;
  std::string_view label;
  std::uint64_t at;
  [[nodiscard]] Error field(std::uint32_t field, std::string msg) const {
    return make_error(kFormat, label, at + field, std::move(msg)).with_code("oni.tram");
  }
  [[nodiscard]] Error in_raw(std::uint64_t raw_at, std::string msg) const {
    return make_error(kFormat, fmt::format("{} .raw data", label), raw_at, std::move(msg)).with_code("oni.tram");
  }
};

// `count` elements of `elem` bytes at the .raw offset stored at `field` (none when it is 0).
Result<ByteView> tram_raw_array(const TramSource& s, std::uint32_t field, std::uint64_t count, std::uint64_t elem) {
  const std::uint32_t off = le32(s.inst, field);
  if (off == 0) return ByteView{};
  if (!range_ok(off, count * elem, s.raw.size()))
    return s.field(field, fmt::format("{} x {} bytes at .raw offset 0x{:x} pass the .raw's end (0x{:x} bytes)", count, elem, off, s.raw.size()));
  return s.raw.subspan(off, count * elem);
}

// Quaternion product a * b (x, y, z, w; Hamilton).
std::array<double, 4> qmul(const std::array<double, 4>& a, const std::array<double, 4>& b) {
  return {a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1], a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
          a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3], a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
}

std::array<double, 4> axis_turn(int axis, double deg) {
  const double h = deg * (std::numbers::pi / 360.0);  // half the angle in radians
  std::array<double, 4> q{0, 0, 0, std::cos(h)};
  q[static_cast<std::size_t>(axis)] = std::sin(h);
  return q;
}

// One key: its rotation as stored, and as a glTF quaternion. A 16-byte key holds the engine's
// quaternion with w negated (OniSplit's BinaryReader.ReadQuaternion reads x, y, z, -w).
Result<TramKey> read_key(const TramSource& s, std::uint64_t at, std::uint16_t size) {
  TramKey k;
  if (size == 6) {
    for (int c = 0; c < 3; ++c) k.stored[c] = static_cast<float>(static_cast<std::int16_t>(le16(s.raw, at + 2 * c)) * kUnitDegrees);
    k.rotation = euler_quaternion(k.stored[0], k.stored[1], k.stored[2]);
    return k;
  }
  for (int c = 0; c < 4; ++c) k.stored[c] = lef32(s.raw, at + 4 * c);
  const double x = k.stored[0], y = k.stored[1], z = k.stored[2], w = -static_cast<double>(k.stored[3]);
  const double len = std::sqrt(x * x + y * y + z * z + w * w);
  if (!std::isfinite(len) || len < 1e-6) return s.in_raw(at, "a quaternion key of no length (or not finite)");
  k.rotation = {static_cast<float>(x / len), static_cast<float>(y / len), static_cast<float>(z / len), static_cast<float>(w / len)};
  return k;
}

// Bone b's keys from `at`: a key, then its duration, until the key at the last frame.
Result<std::vector<TramKey>> read_track(const TramSource& s, std::uint64_t at, std::uint16_t size, std::uint16_t frames, std::uint16_t b) {
  std::vector<TramKey> keys;
  for (std::uint32_t frame = 0; frame < frames;) {
    if (!range_ok(at, size, s.raw.size())) return s.in_raw(at, fmt::format("bone {}'s key at frame {} passes the .raw's end", b, frame));
    ASSAY_TRY(TramKey k, read_key(s, at, size));
    at += size;
    k.frame = frame;
    std::uint32_t duration = 1;
    if (frame != frames - 1u) {
      if (at >= s.raw.size()) return s.in_raw(at, fmt::format("bone {}'s duration at frame {} passes the .raw's end", b, frame));
      duration = s.raw[at++];
      if (duration == 0) return s.in_raw(at - 1, fmt::format("bone {}'s key at frame {} lasts 0 frames", b, frame));
      if (frame + duration > frames) return s.in_raw(at - 1, fmt::format("bone {}'s key durations pass the {} frames", b, frames));
    }
    // One hemisphere along the track, so that interpolating turns the short way.
    if (!keys.empty()) {
      const auto& p = keys.back().rotation;
      if (p[0] * k.rotation[0] + p[1] * k.rotation[1] + p[2] * k.rotation[2] + p[3] * k.rotation[3] < 0)
        for (float& c : k.rotation) c = -c;
    }
    keys.push_back(k);
    frame += duration;
  }
  return keys;
}

Result<void> read_tracks(const TramSource& s, TramAnimation& a) {
  const std::uint32_t off = le32(s.inst, TramFields::kRotations);
  if (off == 0) return s.field(TramFields::kRotations, "no rotation data (.raw offset 0)");
  if (!range_ok(off, 2ull * a.bones, s.raw.size()))
    return s.field(TramFields::kRotations, fmt::format("{} bone offsets at .raw offset 0x{:x} pass the .raw's end (0x{:x} bytes)", a.bones, off, s.raw.size()));
  a.tracks.reserve(a.bones);
  for (std::uint16_t b = 0; b < a.bones; ++b) {
    ASSAY_TRY(auto keys, read_track(s, std::uint64_t{off} + le16(s.raw, off + 2ull * b), a.frame_size, a.frames, b));
    a.tracks.push_back(std::move(keys));
  }
  return {};
}

}  // namespace

model::Vec4 euler_quaternion(double x_deg, double y_deg, double z_deg) {
  const auto q = qmul(qmul(axis_turn(0, x_deg), axis_turn(1, y_deg)), axis_turn(2, z_deg));
  return {static_cast<float>(q[0]), static_cast<float>(q[1]), static_cast<float>(q[2]), static_cast<float>(q[3])};
}

Result<TramAnimation> read_tram(ByteView inst, ByteView raw, std::string_view label, std::uint64_t at) {
  const TramSource s{inst, raw, label, at};
  if (inst.size() < TramFields::kSize)
    return s.field(0, fmt::format("TRAM instance of 0x{:x} bytes, smaller than 0x{:x}", inst.size(), TramFields::kSize));
  TramAnimation a;
  a.name = std::string(label);
  a.flags = le32(inst, TramFields::kFlags);
  a.used_bones = le32(inst, TramFields::kUsedBones);
  a.replaced_bones = le32(inst, TramFields::kReplacedBones);
  a.fps = le16(inst, TramFields::kFps);
  a.frame_size = le16(inst, TramFields::kFrameSize);
  a.bones = le16(inst, TramFields::kBones);
  a.frames = le16(inst, TramFields::kFrames);
  if (a.frame_size != 6 && a.frame_size != 16) return s.field(TramFields::kFrameSize, fmt::format("frame size {} (6 or 16)", a.frame_size));
  if (a.bones == 0) return s.field(TramFields::kBones, "no bones");
  if (a.frames == 0) return s.field(TramFields::kFrames, "no frames");
  ASSAY_TRY(const ByteView h, tram_raw_array(s, TramFields::kHeights, a.frames, 4));
  ASSAY_TRY(const ByteView v, tram_raw_array(s, TramFields::kVelocities, a.frames, 8));
  for (std::size_t k = 0; k < h.size() / 4; ++k) a.heights.push_back(lef32(h, 4 * k));
  for (std::size_t k = 0; k < v.size() / 8; ++k) a.velocities.push_back({lef32(v, 8 * k), lef32(v, 8 * k + 4)});
  ASSAY_CHECK(read_tracks(s, a));
  return a;
}

Result<TramAnimation> decode_tram(const LoadedFile& f, std::uint32_t i) {
  if (i >= f.has_data.size() || !f.has_data[i] || f.file.descriptor(i).tag != make_tag("TRAM"))
    return make_error(kFormat, "TRAM", kNoOffset, fmt::format("instance {} is not a TRAM with data", i)).with_code("oni.tram");
  ASSAY_TRY(const ByteView b, f.file.instance_bytes(i));
  auto a = read_tram(b, f.raw, character_detail::label_of(f, i), character_detail::offset_of(f, i));
  if (!a) return a.error().in_file(f.display);
  if (!f.names[i].empty()) a->name = std::string(f.names[i]);
  return a;
}

}  // namespace assay::oni
