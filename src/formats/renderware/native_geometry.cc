// Native geometry dispatch and the corner merge (native_geometry.h). The Native Data body is a
// Struct whose first word names the platform (librw src/ps2/ps2.cpp, src/d3d/xbox.cpp
// readNativeData); its size field is ignored (the spec's R17).
#include "native_geometry.h"

#include <fmt/format.h>

#include <bit>
#include <cstring>

#include "codes.h"

namespace assay::rw::native {

namespace {

std::array<std::uint32_t, 23> key_of(const Corner& c) {
  std::array<std::uint32_t, 23> k{};
  std::size_t i = 0;
  for (float f : c.position) k[i++] = std::bit_cast<std::uint32_t>(f);
  for (float f : c.normal) k[i++] = std::bit_cast<std::uint32_t>(f);
  for (const auto& uv : c.uv)
    for (float f : uv) k[i++] = std::bit_cast<std::uint32_t>(f);
  std::memcpy(&k[i++], c.color.data(), 4);
  std::memcpy(&k[i++], c.night.data(), 4);
  std::memcpy(&k[i++], c.bones.data(), 4);
  for (float f : c.weights) k[i++] = std::bit_cast<std::uint32_t>(f);
  return k;
}

}  // namespace

Result<std::uint16_t> CornerSet::add(const Corner& c, std::uint64_t at) {
  const auto k = key_of(c);
  if (auto it = index_.find(k); it != index_.end()) return it->second;
  if (corners_.size() >= 0x10000)
    return rw_error("Native Data", at, "more than 65,536 distinct vertices (triangles index with 16 bits)",
                    "renderware.native-geometry");
  const auto i = static_cast<std::uint16_t>(corners_.size());
  corners_.push_back(c);
  index_.emplace(k, i);
  return i;
}

void CornerSet::emit(ModelGeometry& g, bool normals, std::uint32_t uv_sets, bool colors, bool night) {
  const std::size_t n = corners_.size();
  g.vertices = static_cast<std::uint32_t>(n);
  ModelMorphTarget t;
  if (!g.morph_targets.empty()) t.sphere = g.morph_targets[0].sphere;  // the Geometry struct's, as stored
  t.positions.reserve(n);
  for (const Corner& c : corners_) t.positions.push_back(c.position);
  if (normals)
    for (const Corner& c : corners_) t.normals.push_back(c.normal);
  g.morph_targets.assign(1, std::move(t));
  g.texcoords.assign(uv_sets, {});
  for (std::uint32_t s = 0; s < uv_sets; ++s)
    for (const Corner& c : corners_) g.texcoords[s].push_back(c.uv[s]);
  g.prelit.clear();
  if (colors)
    for (const Corner& c : corners_) g.prelit.push_back(c.color);
  if (night) {
    g.night_colors.clear();
    for (const Corner& c : corners_) g.night_colors.push_back(c.night);
  }
  if (g.skin) {
    g.skin->indices.clear(), g.skin->weights.clear();
    for (const Corner& c : corners_) g.skin->indices.push_back(c.bones), g.skin->weights.push_back(c.weights);
  }
}

namespace {

Error skin_error(std::uint64_t at, std::string m) {
  return rw_error("native Skin PLG", at, std::move(m), "renderware.native-geometry");
}

// PS2: u8 bones, used bones, max weights, pad; used bone list (absent in the old form, used
// bones 0); bones * 64 bytes of matrices.
Result<ModelSkin> ps2_skin(ByteView b, std::uint64_t off) {
  if (b.size() < 20) return skin_error(off, "no room for the skin header");
  ModelSkin s;
  s.bones = b[16], s.used_bones = b[17], s.max_weights = b[18];
  std::uint64_t at = 20 + s.used_bones;
  std::uint64_t n = 0;
  if (!mul_ok(s.bones, 64, n) || !range_ok(at, n, b.size()))
    return skin_error(off + at, fmt::format("{} matrices need {} bytes; {} are left", s.bones, std::uint64_t{s.bones} * 64,
                                            b.size() - std::min<std::uint64_t>(at, b.size())));
  for (std::uint32_t i = 0; i < s.bones; ++i, at += 64) {
    std::array<float, 16> m{};
    for (int k = 0; k < 16; ++k) m[k] = std::bit_cast<float>(load<std::uint32_t>(b.data() + at + 4 * k, Endian::little));
    s.inverse_bind.push_back(m);
  }
  return s;
}

// Xbox: i32 bones, two 256-entry i32 tables, used bones, max weights, a pointer, the vertex
// stride; vertices * stride bytes (read by decode_xbox), then the matrices.
Result<ModelSkin> xbox_skin(ByteView b, std::uint64_t off) {
  constexpr std::uint64_t kHead = 16 + 4 + 2 * 1024 + 16;
  if (b.size() < kHead) return skin_error(off, "no room for the Xbox skin header");
  ModelSkin s;
  s.bones = load<std::uint32_t>(b.data() + 16, Endian::little);
  s.used_bones = load<std::uint32_t>(b.data() + 16 + 4 + 2048, Endian::little);
  s.max_weights = load<std::uint32_t>(b.data() + 16 + 8 + 2048, Endian::little);
  if (s.bones > 256 || s.max_weights > 4) return skin_error(off + 16, fmt::format("{} bones, {} weights a vertex", s.bones, s.max_weights));
  return s;
}

}  // namespace

Result<ModelSkin> decode_native_skin(ByteView b, std::uint64_t off) {
  if (b.size() < 16 || load<std::uint32_t>(b.data(), Endian::little) != 1)
    return skin_error(off, "does not start with a Struct and a platform word");
  const std::uint32_t platform = load<std::uint32_t>(b.data() + 12, Endian::little);
  if (platform == kPlatformPs2) return ps2_skin(b, off);
  if (platform == kPlatformXbox) return xbox_skin(b, off);
  if (platform == kPlatformD3d8 || platform == kPlatformD3d9)  // librw reads none (skin.cpp asserts)
    return rw_error("native Skin PLG", off + 12,
                    fmt::format("a D3D{} native skin has no known layout (PS2 and Xbox skins are decoded)", platform),
                    "renderware.native-pipeline");
  return rw_error("native Skin PLG", off + 12, fmt::format("platform {} is not decoded (PS2 4 and Xbox 5 are)", platform),
                  "renderware.native-platform");
}

Result<void> decode_native(const NativeSource& s, ModelGeometry& g) {
  // Struct header (type, size, stamp), then the platform.
  if (s.body.size() < 16 || load<std::uint32_t>(s.body.data(), Endian::little) != 1)
    return rw_error("Native Data", s.offset, "does not start with a Struct and a platform word",
                    "renderware.native-geometry");
  const std::uint32_t platform = load<std::uint32_t>(s.body.data() + 12, Endian::little);
  if (platform == kPlatformPs2) return decode_ps2(s, 16, g);
  if (platform == kPlatformXbox) return decode_xbox(s, 16, g);
  if (platform == kPlatformD3d8) return decode_d3d8(s, 16, g);
  if (platform == kPlatformD3d9) return decode_d3d9(s, 16, g);
  return rw_error("Native Data", s.offset + 12,
                  fmt::format("platform {} is not decoded (PS2 4, Xbox 5, D3D8 8 and D3D9 9 are)", platform),
                  "renderware.native-platform");
}

}  // namespace assay::rw::native
