// OBAN object animations: decoding, list details and verify (oban.h). Layout: data/oni/templates.txt
// OBAN (BFW#48) and the Oni wiki OBD:OBAN; OniSplit's ObjectDatReader.ReadAnimation reads the same
// fields (from 0x14: flags, skips the initial matrix, takes the fixed matrix's scale, skips 0x78,
// frames, half stop frame, key count, then each key's quaternion, translation and frame).
//
// The quaternion: OniSplit reads x, y, z, -w (BinaryReader.ReadQuaternion), and the wiki's retail
// example (OBD:OBAN, 00134-Blackvan_FB) agrees: its key 0 stores (-0.7071068, ~0, ~0, -0.7071067)
// while its initial matrix, with the fixed scale 1.82, takes y to -z and z to y: a turn of -90
// degrees about x, whose quaternion in the usual (Hamilton, glTF) convention is (-0.7071, 0, 0,
// +0.7071) = (x, y, z, -w) of the stored one. tests/model/oni_oban_test.cc checks that example.
#include "assay/formats/oni/oban.h"

#include <fmt/format.h>

#include <cmath>

#include "assay/formats/oni/names.h"
#include "linked_parts.h"

namespace assay::oni {

namespace oban_detail {  // named: the unity build joins these files

using detail::f32_at;
using detail::Part;
using detail::u32_at;

constexpr const char* kObanCode = "oni.oban";

std::uint16_t u16_at(ByteView b, std::uint64_t at) { return load<std::uint16_t>(b.data() + at, Endian::little); }

Matrix4x3 matrix_at(ByteView b, std::uint64_t at) {
  Matrix4x3 m;
  for (std::size_t k = 0; k < m.size(); ++k) m[k] = f32_at(b, at + 4 * k);
  return m;
}

double length(const model::Vec4& q) { return std::sqrt(double{q[0]} * q[0] + double{q[1]} * q[1] + double{q[2]} * q[2] + double{q[3]} * q[3]); }

bool finite3(const model::Vec3& v) { return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]); }

Error key_error(const InstanceFile& f, const Part& p, std::size_t k, std::uint32_t field, std::string msg, const char* code) {
  return detail::part_error(f, p, ObanFields::kKeys + ObanFields::kKeySize * k + field, std::move(msg), code);
}

// The keys the data proves wrong, each kind once (its count and first key) as a warning.
void check_keys(const InstanceFile& f, const Part& p, const ObanAnimation& a, Diagnostics& out) {
  if (a.keys.empty()) return out.warning(detail::part_error(f, p, ObanFields::kKeyCount, "an object animation without keys", "oni.oban-keys"));
  std::size_t late = 0, first_late = 0, bad_rotation = 0, first_rotation = 0, bad_translation = 0, first_translation = 0;
  for (std::size_t k = 0; k < a.keys.size(); ++k) {
    const ObanKey& key = a.keys[k];
    if (k > 0 && key.frame <= a.keys[k - 1].frame && late++ == 0) first_late = k;
    const double len = length(key.stored);
    if (!(std::fabs(len - 1) <= 1e-3) && bad_rotation++ == 0) first_rotation = k;
    if (!finite3(key.translation) && bad_translation++ == 0) first_translation = k;
  }
  if (late)
    out.warning(key_error(f, p, first_late, ObanFields::kKeyFrame,
                          fmt::format("{} keys not after the previous key (first: key {} at frame {}, after frame {})", late, first_late,
                                      a.keys[first_late].frame, a.keys[first_late - 1].frame),
                          "oni.oban-time"));
  const ObanKey& last = a.keys.back();
  if (last.frame >= a.frames)
    out.warning(key_error(f, p, a.keys.size() - 1, ObanFields::kKeyFrame,
                          fmt::format("key {} at frame {}, past the animation's {} frames (0 to {})", a.keys.size() - 1, last.frame, a.frames,
                                      static_cast<int>(a.frames) - 1),
                          "oni.oban-frames"));
  if (bad_rotation)
    out.warning(key_error(f, p, first_rotation, ObanFields::kKeyRotation,
                          fmt::format("{} key rotations are not unit quaternions (first: key {}, length {})", bad_rotation, first_rotation,
                                      length(a.keys[first_rotation].stored)),
                          "oni.oban-rotation"));
  if (bad_translation)
    out.warning(key_error(f, p, first_translation, ObanFields::kKeyTranslation,
                          fmt::format("{} key translations are not finite (first: key {})", bad_translation, first_translation),
                          "oni.oban-translation"));
}

Result<Part> oban_part(const InstanceFile& f, std::uint32_t i) {
  if (i >= f.instance_count() || f.descriptor(i).tag != make_tag("OBAN") || !detail::has_data(f, i))
    return make_error(kFormat, "OBAN", kNoOffset, fmt::format("instance {} is not an OBAN with data", i)).with_code(kObanCode);
  ASSAY_TRY(const ByteView b, f.instance_bytes(i));
  Part p = detail::part_of(f, i, b);
  if (b.size() < ObanFields::kSize)
    return detail::part_error(f, p, 0, fmt::format("OBAN instance of 0x{:x} bytes, smaller than 0x{:x}", b.size(), ObanFields::kSize), kObanCode);
  const std::uint32_t n = u16_at(b, ObanFields::kKeyCount);
  if (n > (b.size() - ObanFields::kKeys) / ObanFields::kKeySize)
    return detail::part_error(f, p, ObanFields::kKeyCount,
                              fmt::format("{} keys of {} bytes do not fit the 0x{:x}-byte instance", n, ObanFields::kKeySize, b.size()), kObanCode);
  return p;
}

}  // namespace oban_detail


model::Mat4 to_mat4(const Matrix4x3& m) {
  return {m[0], m[1], m[2], 0, m[3], m[4], m[5], 0, m[6], m[7], m[8], 0, m[9], m[10], m[11], 1};
}

model::Vec4 ObanKey::rotation() const {
  const model::Vec4 q{stored[0], stored[1], stored[2], -stored[3]};
  const double len = oban_detail::length(q);
  if (!std::isfinite(len) || len < 1e-6) return {0, 0, 0, 1};
  return {static_cast<float>(q[0] / len), static_cast<float>(q[1] / len), static_cast<float>(q[2] / len), static_cast<float>(q[3] / len)};
}

Result<ObanAnimation> decode_oban(const InstanceFile& f, std::uint32_t i) {
  ASSAY_TRY(const detail::Part p, oban_detail::oban_part(f, i));
  const ByteView b = p.bytes;
  ObanAnimation a;
  a.name = p.label();
  a.flags = detail::u32_at(b, ObanFields::kFlags);
  a.initial = oban_detail::matrix_at(b, ObanFields::kInitial);
  a.base = oban_detail::matrix_at(b, ObanFields::kBase);
  a.ticks = oban_detail::u16_at(b, ObanFields::kTicks);
  a.frames = oban_detail::u16_at(b, ObanFields::kFrames);
  a.half_stop = oban_detail::u16_at(b, ObanFields::kHalfStop);
  a.keys.resize(oban_detail::u16_at(b, ObanFields::kKeyCount));  // checked by oban_part
  for (std::size_t k = 0; k < a.keys.size(); ++k) {
    const std::uint64_t at = ObanFields::kKeys + ObanFields::kKeySize * k;
    ObanKey& key = a.keys[k];
    for (int c = 0; c < 4; ++c) key.stored[c] = detail::f32_at(b, at + ObanFields::kKeyRotation + 4 * c);
    for (int c = 0; c < 3; ++c) key.translation[c] = detail::f32_at(b, at + ObanFields::kKeyTranslation + 4 * c);
    key.frame = detail::u32_at(b, at + ObanFields::kKeyFrame);
  }
  return a;
}

void print_oban_details(FieldPrinter& p, ByteView inst) {
  if (inst.size() < ObanFields::kSize) return;
  p.field("keys", oban_detail::u16_at(inst, ObanFields::kKeyCount));
  p.field("frames", oban_detail::u16_at(inst, ObanFields::kFrames));
  p.field("animation_flags", detail::u32_at(inst, ObanFields::kFlags));  // "flags" is the descriptor's
  p.field("half_stop_frame", oban_detail::u16_at(inst, ObanFields::kHalfStop));
  p.field("ticks_per_frame", oban_detail::u16_at(inst, ObanFields::kTicks));
}

void verify_oban(const InstanceFile& f, std::uint32_t i, Diagnostics& out) {
  auto p = oban_detail::oban_part(f, i);
  if (!p) return out.warning(p.error());
  auto a = decode_oban(f, i);
  if (!a) return out.warning(a.error());
  oban_detail::check_keys(f, *p, *a, out);
}

}  // namespace assay::oni
