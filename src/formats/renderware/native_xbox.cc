// Xbox native geometry (platform 5), as librw's src/d3d/xbox.cpp readNativeData and
// uninstance read it: a header block (its size counts itself; index buffer offsets count from
// 0x18 bytes before it, the resource entry header the game keeps there), then the vertex
// buffer. The vertex layout is the Vertex Format PLG's word (xboxvfmt.cpp): bits 0-3 position,
// 4-7 normal (4 = packed 11:11:10, 5 = three floats), 8-23 four texture sets (5 = two floats),
// 0x1000000 a B,G,R,A colour. Skin (xboxskin.cpp): per vertex N weights as bytes (/255) then N
// u16 indices (3 x the used-bone slot, mapped through the first 256-entry table).
#include <fmt/format.h>

#include <bit>

#include "codes.h"
#include "native_geometry.h"

namespace assay::rw::native {

namespace {

Error xbox_error(std::uint64_t at, std::string m) {
  return rw_error("Xbox Native Data", at, std::move(m), "renderware.native-geometry");
}

struct XboxLayout {
  std::uint32_t normal = 0, sets = 0, size = 0;
  bool color = false;
  std::uint32_t normal_at = 0, color_at = 0, uv_at = 0;
};

Result<XboxLayout> xbox_layout(std::uint32_t fmt, std::uint64_t at) {
  XboxLayout l;
  if ((fmt & 0xF) != 5) return xbox_error(at, fmt::format("vertex format 0x{:08X}: positions are not three floats", fmt));
  l.size = 12;
  l.normal = (fmt >> 4) & 0xF;
  if (l.normal != 0 && l.normal != 4 && l.normal != 5)
    return xbox_error(at, fmt::format("vertex format 0x{:08X}: normal type {} is not decoded", fmt, l.normal));
  l.normal_at = l.size;
  l.size += l.normal == 4 ? 4 : l.normal == 5 ? 12 : 0;
  l.color = (fmt & 0x1000000) != 0;
  l.color_at = l.size;
  l.size += l.color ? 4 : 0;
  l.uv_at = l.size;
  for (; l.sets < 4 && ((fmt >> (8 + 4 * l.sets)) & 0xF) != 0; ++l.sets)
    if (((fmt >> (8 + 4 * l.sets)) & 0xF) != 5)
      return xbox_error(at, fmt::format("vertex format 0x{:08X}: texture set {} is not two floats", fmt, l.sets));
  l.size += 8 * l.sets;
  if (fmt & 0xE000000) return xbox_error(at, fmt::format("vertex format 0x{:08X}: extra (tangent) data", fmt));
  return l;
}

float f32(const std::uint8_t* p) { return std::bit_cast<float>(load<std::uint32_t>(p, Endian::little)); }

// Packed normal: x, y 11 bits (/1023), z 10 bits (/511), each signed.
std::array<float, 3> compnorm(std::uint32_t n) {
  auto sx = [](std::uint32_t v, unsigned bits) {
    const std::uint32_t sign = 1u << (bits - 1);
    return static_cast<std::int32_t>((v ^ sign) - sign);
  };
  return {sx(n & 0x7FF, 11) / 1023.0f, sx((n >> 11) & 0x7FF, 11) / 1023.0f, sx((n >> 22) & 0x3FF, 10) / 511.0f};
}

class XboxDecoder {
 public:
  XboxDecoder(const NativeSource& s, ModelGeometry& g) : s_(s), g_(g) {}

  Result<void> run(std::uint64_t at) {
    const ByteView b = s_.body;
    if (!range_ok(at, 36, b.size())) return xbox_error(s_.offset + at, "no room for the header block");
    const std::uint32_t size = u32(at);
    meshes_ = load<std::uint16_t>(b.data() + at + 6, Endian::little);
    prim_ = u32(at + 8), vertices_ = u32(at + 12), stride_ = u32(at + 16);
    if (size < 36 || !range_ok(at, size, b.size()) || std::uint64_t{meshes_} * 24 > size - 36)
      return xbox_error(s_.offset + at, fmt::format("a {}-byte header block for {} meshes in {} bytes", size, meshes_,
                                                    b.size() - at));
    std::uint64_t vb_size = 0;
    if (!mul_ok(vertices_, stride_, vb_size) || !range_ok(at + size, vb_size, b.size()))
      return xbox_error(s_.offset + at + 12, fmt::format("{} vertices of {} bytes run past the section", vertices_, stride_));
    if (!s_.xbox_vertex_format) return xbox_error(s_.offset, "the geometry has no Vertex Format PLG (0x511)");
    ASSAY_TRY(layout_, xbox_layout(*s_.xbox_vertex_format, s_.offset));
    if (layout_.size > stride_)
      return xbox_error(s_.offset + at + 16, fmt::format("stride {} is less than the format's {} bytes", stride_, layout_.size));
    ASSAY_CHECK(skin());
    ASSAY_CHECK(vertices(at + size));
    for (std::uint32_t i = 0; i < meshes_; ++i) ASSAY_CHECK(mesh(i, at, at + 36 + 24ull * i));
    std::uint32_t sets = (g_.flags >> 16) & 0xFF;
    if (sets == 0) sets = (g_.flags & 0x80) ? 2 : (g_.flags & 0x04) ? 1 : 0;
    corners_.emit(g_, layout_.normal != 0, std::min({sets, layout_.sets, 2u}), layout_.color);
    return {};
  }

 private:
  std::uint32_t u32(std::uint64_t at) const { return load<std::uint32_t>(s_.body.data() + at, Endian::little); }

  Result<void> vertices(std::uint64_t vb) {
    map_.resize(vertices_);
    for (std::uint32_t v = 0; v < vertices_; ++v) {
      const std::uint8_t* p = s_.body.data() + vb + std::uint64_t{v} * stride_;
      Corner c;
      for (int k = 0; k < 3; ++k) c.position[k] = f32(p + 4 * k);
      if (layout_.normal == 4) c.normal = compnorm(load<std::uint32_t>(p + layout_.normal_at, Endian::little));
      if (layout_.normal == 5)
        for (int k = 0; k < 3; ++k) c.normal[k] = f32(p + layout_.normal_at + 4 * k);
      if (layout_.color) c.color = {p[layout_.color_at + 2], p[layout_.color_at + 1], p[layout_.color_at], p[layout_.color_at + 3]};
      for (std::uint32_t t = 0; t < std::min(layout_.sets, 2u); ++t)
        c.uv[t] = {f32(p + layout_.uv_at + 8 * t), f32(p + layout_.uv_at + 8 * t + 4)};
      if (!skin_w_.empty()) c.weights = skin_w_[v], c.bones = skin_i_[v];
      ASSAY_TRY(map_[v], corners_.add(c, s_.offset + vb));
    }
    return {};
  }

  // Mesh entry: min vertex, vertex count, index count, index buffer offset, material, shader.
  Result<void> mesh(std::uint32_t i, std::uint64_t block, std::uint64_t e) {
    const std::uint32_t count = u32(e + 8), off = u32(e + 12);
    const std::uint64_t at = block + off - 0x18;
    if (off < 0x18 || !range_ok(at, std::uint64_t{count} * 2, s_.body.size()))
      return xbox_error(s_.offset + e, fmt::format("mesh {}: {} indices at offset {} run past the section", i, count, off));
    if (i >= s_.meshes.size()) return xbox_error(s_.offset + e, fmt::format("mesh {} has no Bin Mesh entry", i));
    const auto mat = static_cast<std::uint16_t>(s_.meshes[i].material);
    // librw writes its D3D9 values (4 list, 5 strip); the Xbox's own are 5 list, 6 strip
    const bool strip = prim_ == 6 || (prim_ == 5 && s_.tristrip);
    std::vector<std::uint16_t> idx(count);
    for (std::uint32_t k = 0; k < count; ++k) {
      const std::uint16_t v = load<std::uint16_t>(s_.body.data() + at + 2ull * k, Endian::little);
      if (v >= vertices_) return xbox_error(s_.offset + at + 2ull * k, fmt::format("index {} of {} vertices", v, vertices_));
      idx[k] = map_[v];
    }
    for (std::size_t k = 0; k + 2 < idx.size(); k += strip ? 1 : 3) {
      const std::size_t odd = strip ? k % 2 : 0;
      push({idx[k], idx[k + 1 + odd], idx[k + 2 - odd]}, mat);
    }
    return {};
  }

  void push(std::array<std::uint16_t, 3> v, std::uint16_t mat) {
    if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2]) return;
    g_.triangles.push_back({v, mat});
  }

  // The native Skin PLG's per-vertex weights (see the file comment).
  Result<void> skin() {
    if (!g_.skin || s_.skin.empty()) return {};
    const ByteView b = s_.skin;
    const std::uint32_t weights = g_.skin->max_weights, stride = load<std::uint32_t>(b.data() + 2080, Endian::little);
    std::uint64_t n = 0;
    if (stride < 3 * weights || !mul_ok(vertices_, stride, n) || !range_ok(2084, n, b.size()))
      return xbox_error(s_.skin_offset + 2080, fmt::format("skin: {} vertices of {} bytes ({} weights) in {} bytes",
                                                           vertices_, stride, weights, b.size()));
    skin_w_.resize(vertices_), skin_i_.resize(vertices_);
    for (std::uint32_t v = 0; v < vertices_; ++v) {
      const std::uint8_t* p = b.data() + 2084 + std::uint64_t{v} * stride;
      for (std::uint32_t k = 0; k < weights; ++k) {
        skin_w_[v][k] = p[k] / 255.0f;
        const std::uint32_t slot = load<std::uint16_t>(p + weights + 2 * k, Endian::little) / 3;
        const std::uint32_t bone = slot < 256 ? load<std::uint32_t>(b.data() + 20 + 4 * slot, Endian::little) : 256;
        if (bone > 255) return xbox_error(s_.skin_offset + 2084 + std::uint64_t{v} * stride, fmt::format("skin: vertex {} names bone slot {}", v, slot));
        skin_i_[v][k] = skin_w_[v][k] == 0.0f ? 0 : static_cast<std::uint8_t>(bone);
      }
    }
    const std::uint64_t mats = 2084 + n;
    std::uint64_t msize = 0;
    if (!mul_ok(g_.skin->bones, 64, msize) || !range_ok(mats, msize, b.size()))
      return xbox_error(s_.skin_offset + mats, fmt::format("skin: {} matrices run past the section", g_.skin->bones));
    for (std::uint32_t i = 0; i < g_.skin->bones; ++i) {
      std::array<float, 16> m{};
      for (int k = 0; k < 16; ++k) m[k] = f32(b.data() + mats + 64ull * i + 4 * k);
      g_.skin->inverse_bind.push_back(m);
    }
    return {};
  }

  const NativeSource& s_;
  ModelGeometry& g_;
  CornerSet corners_;
  XboxLayout layout_;
  std::uint32_t meshes_ = 0, prim_ = 0, vertices_ = 0, stride_ = 0;
  std::vector<std::uint16_t> map_;
  std::vector<std::array<float, 4>> skin_w_;
  std::vector<std::array<std::uint8_t, 4>> skin_i_;
};

}  // namespace

Result<void> decode_xbox(const NativeSource& s, std::uint64_t at, ModelGeometry& g) {
  g.triangles.clear();
  return XboxDecoder(s, g).run(at);
}

}  // namespace assay::rw::native
