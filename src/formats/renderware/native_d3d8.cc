// D3D8 native geometry (platform 8), as librw's src/d3d/d3d8.cpp readNativeData and
// uninstance read it. After the Struct header and the platform word:
//   i32 size, then `size` bytes: u16 serial, u16 meshes, then per mesh {u32 minVert, u32 stride,
//   u32 numVertices, u32 numIndices, i32 material, u32 vertexShader (the FVF code), u32
//   primitive type (4 list, 5 strip), u32 index buffer, u32 vertex buffer, u32 baseIndex (the
//   three ignored), u8 vertexAlpha, u8 managed, u8 remapped};
//   then per mesh its numIndices x u16 (relative to its own vertex buffer) and its numVertices x
//   stride bytes of vertices (the geometry's vertices minVert...).
// librw packs the mesh records 43 bytes apart but sizes the block 4 + 44 per mesh (0x2C, the
// in-memory record with its padding byte); a record 44 bytes apart is read when only that
// spacing makes the buffers fill the section exactly (uncertain: no real D3D8 native file was
// available).
// The vertex layout is the FVF (public D3D8 facts: 0x2 XYZ, 0x6-0xE XYZB1-5 with 1-5 blend
// floats, 0x10 NORMAL, 0x20 PSIZE, 0x40 DIFFUSE, 0x80 SPECULAR, bits 8-11 the texture count,
// bits 16+2i the size of set i: 0 two floats, 1 three, 2 four, 3 one); a zero FVF falls back to
// librw's layout from the geometry flags (position, normal, D3DCOLOR prelit, float2 UV sets).
#include <fmt/format.h>

#include "codes.h"
#include "native_d3d.h"

namespace assay::rw::native {

namespace {

constexpr std::uint32_t kFlagPrelit = 0x08, kFlagNormals = 0x10;

Error d3d8_error(std::uint64_t at, std::string m) {
  return rw_error("D3D8 Native Data", at, std::move(m), "renderware.native-geometry");
}

struct Fvf {
  D3dLayout layout;
  std::uint32_t size = 0;  // bytes the layout needs
};

// The FVF's vertex layout; nothing when the code is not a fixed-function vertex format.
Result<Fvf> fvf_layout(std::uint32_t fvf, std::uint32_t flags, std::uint64_t at) {
  Fvf f;
  auto elem = [&](std::uint8_t type, std::uint8_t usage, std::uint8_t index) {
    D3dElement e;
    e.offset = static_cast<std::uint16_t>(f.size), e.type = type, e.usage = usage, e.usage_index = index;
    f.size += d3d_type_size(type);
    return e;
  };
  if (fvf == 0) {  // librw's layout from the geometry flags (d3d8.cpp defaultUninstanceCB)
    f.layout.position = elem(kDeclFloat3, kUsagePosition, 0);
    if (flags & kFlagNormals) f.layout.normal = elem(kDeclFloat3, kUsageNormal, 0);
    if (flags & kFlagPrelit) f.layout.color = elem(kDeclD3dColor, kUsageColor, 0);
    for (std::uint32_t s = 0; s < flag_uv_sets(flags); ++s) {
      const D3dElement e = elem(kDeclFloat2, kUsageTexcoord, static_cast<std::uint8_t>(s));
      if (s < 2) f.layout.uv[s] = e, ++f.layout.uv_sets;
    }
    return f;
  }
  if (fvf & 0xE001) return d3d8_error(at, fmt::format("vertex shader 0x{:08X} is not a fixed-function vertex format", fvf));
  const std::uint32_t pos = fvf & 0xE;
  if (pos == 0 || pos == 0x4)
    return d3d8_error(at, fmt::format("vertex format 0x{:08X}: positions are {}", fvf, pos ? "transformed (XYZRHW)" : "absent"));
  f.layout.position = elem(kDeclFloat3, kUsagePosition, 0);
  f.size += 4 * ((pos - 0x2) / 2);  // XYZB1-5: blend weights follow the position
  const D3dElement normal = elem((fvf & 0x10) ? kDeclFloat3 : kDeclUnused, kUsageNormal, 0);
  if (fvf & 0x10) f.layout.normal = normal;
  if (fvf & 0x20) f.size += 4;  // point size
  const D3dElement color = elem((fvf & 0x40) ? kDeclD3dColor : kDeclUnused, kUsageColor, 0);
  if (fvf & 0x40) f.layout.color = color;
  if (fvf & 0x80) f.size += 4;  // specular
  const std::uint32_t sets = (fvf >> 8) & 0xF;
  if (sets > 8) return d3d8_error(at, fmt::format("vertex format 0x{:08X}: {} texture sets (at most 8)", fvf, sets));
  static constexpr std::array<std::uint8_t, 4> kSetType{kDeclFloat2, kDeclFloat3, kDeclFloat4, kDeclFloat1};
  for (std::uint32_t s = 0; s < sets; ++s) {
    const D3dElement e = elem(kSetType[(fvf >> (16 + 2 * s)) & 3], kUsageTexcoord, static_cast<std::uint8_t>(s));
    if (s < 2) f.layout.uv[s] = e, ++f.layout.uv_sets;
  }
  // What the geometry flags select (librw's uninstance reads by them).
  if (!(flags & kFlagNormals)) f.layout.normal.reset();
  if (!(flags & kFlagPrelit)) f.layout.color.reset();
  f.layout.uv_sets = std::min(f.layout.uv_sets, flag_uv_sets(flags));
  return f;
}

struct Mesh {
  std::uint64_t record = 0;  // offset of its record
  std::uint32_t min_vert = 0, stride = 0, vertices = 0, indices = 0, material = 0, fvf = 0, prim = 0;
};

class D3d8Decoder {
 public:
  D3d8Decoder(const NativeSource& s, ModelGeometry& g) : s_(s), g_(g) {}

  Result<void> run(std::uint64_t at) {
    if (!range_ok(at, 4, b().size())) return err(at, "no room for the header size");
    const std::uint32_t size = u32(at);
    const std::uint64_t blob = at + 4;
    if (size < 4 || !range_ok(blob, size, b().size()))
      return err(at, fmt::format("a {}-byte header in {} bytes", size, b().size() - blob));
    const std::uint32_t n = load<std::uint16_t>(b().data() + blob + 2, Endian::little);
    const std::uint64_t data = blob + size;
    // librw's 43-byte spacing, else 44 when only that fills the section exactly.
    std::uint64_t spacing = 43;
    if (!fills(blob, size, n, 43, data) && fills(blob, size, n, 44, data)) spacing = 44;
    if (4 + std::uint64_t{n} * spacing > size)
      return err(blob + 2, fmt::format("{} mesh records of {} bytes do not fit a {}-byte header", n, spacing, size));
    std::uint64_t p = data;
    bool normals = false, colors = false;
    std::uint32_t sets = 2;
    for (std::uint32_t i = 0; i < n; ++i) {
      const Mesh m = record(blob + 4 + spacing * i);
      ASSAY_TRY(const Fvf f, fvf_layout(m.fvf, g_.flags, s_.offset + m.record + 20));
      normals |= f.layout.normal.has_value(), colors |= f.layout.color.has_value();
      sets = std::min(sets, f.layout.uv_sets);
      ASSAY_CHECK(mesh(i, m, f, p));
    }
    corners_.emit(g_, normals, n ? sets : 0, colors);
    return {};
  }

 private:
  ByteView b() const { return s_.body; }
  std::uint32_t u32(std::uint64_t at) const { return load<std::uint32_t>(b().data() + at, Endian::little); }
  Error err(std::uint64_t at, std::string m) const { return d3d8_error(s_.offset + at, std::move(m)); }

  Mesh record(std::uint64_t r) const {
    Mesh m;
    m.record = r;
    m.min_vert = u32(r), m.stride = u32(r + 4), m.vertices = u32(r + 8), m.indices = u32(r + 12);
    m.material = u32(r + 16), m.fvf = u32(r + 20), m.prim = u32(r + 24);
    return m;
  }

  // The records `spacing` bytes apart fit the header and their buffers end exactly at the
  // section's end.
  bool fills(std::uint64_t blob, std::uint32_t size, std::uint32_t n, std::uint64_t spacing, std::uint64_t data) const {
    if (4 + std::uint64_t{n} * spacing > size) return false;
    std::uint64_t total = data;
    for (std::uint32_t i = 0; i < n; ++i) {
      const Mesh m = record(blob + 4 + spacing * i);
      total += std::uint64_t{m.indices} * 2 + std::uint64_t{m.vertices} * m.stride;
      if (total > b().size()) return false;
    }
    return total == b().size();
  }

  Result<void> mesh(std::uint32_t i, const Mesh& m, const Fvf& f, std::uint64_t& p) {
    if (m.material >= g_.materials.size())
      return err(m.record + 16, fmt::format("mesh {} names material {} of {}", i, m.material, g_.materials.size()));
    if (m.prim != kPrimTriangleList && m.prim != kPrimTriangleStrip)
      return err(m.record + 24, fmt::format("mesh {}: primitive type {} (only 4, triangle list, and 5, strip, are decoded)", i, m.prim));
    if (f.size > m.stride)
      return err(m.record + 4, fmt::format("mesh {}: stride {} is less than vertex format 0x{:08X}'s {} bytes", i, m.stride, m.fvf, f.size));
    const std::uint64_t idx_at = p;
    if (!range_ok(idx_at, std::uint64_t{m.indices} * 2, b().size()))
      return err(m.record + 12, fmt::format("mesh {}: {} indices run past the section", i, m.indices));
    const std::uint64_t vb = idx_at + std::uint64_t{m.indices} * 2;
    std::uint64_t vb_size = 0;
    if (!mul_ok(m.vertices, m.stride, vb_size) || !range_ok(vb, vb_size, b().size()))
      return err(m.record + 8, fmt::format("mesh {}: {} vertices of {} bytes run past the section", i, m.vertices, m.stride));
    p = vb + vb_size;
    std::vector<std::uint16_t> map(m.vertices);
    for (std::uint32_t v = 0; v < m.vertices; ++v) {
      const std::array<const std::uint8_t*, 2> at{b().data() + vb + std::uint64_t{v} * m.stride, nullptr};
      ASSAY_TRY(map[v], corners_.add(d3d_corner(f.layout, at), s_.offset + vb));
    }
    std::vector<std::uint16_t> idx(m.indices);
    for (std::uint32_t k = 0; k < m.indices; ++k) {
      const std::uint16_t v = load<std::uint16_t>(b().data() + idx_at + 2ull * k, Endian::little);
      if (v >= m.vertices) return err(idx_at + 2ull * k, fmt::format("mesh {}: index {} of {} vertices", i, v, m.vertices));
      idx[k] = map[v];
    }
    d3d_triangles(idx, m.prim == kPrimTriangleStrip, static_cast<std::uint16_t>(m.material), g_);
    return {};
  }

  const NativeSource& s_;
  ModelGeometry& g_;
  CornerSet corners_;
};

}  // namespace

Result<void> decode_d3d8(const NativeSource& s, std::uint64_t at, ModelGeometry& g) {
  g.triangles.clear();
  return D3d8Decoder(s, g).run(at);
}

}  // namespace assay::rw::native
