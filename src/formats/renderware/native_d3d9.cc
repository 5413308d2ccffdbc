// D3D9 native geometry (platform 9), as librw's src/d3d/d3d9.cpp readNativeData and
// uninstance read it. After the Struct header and the platform word:
//   i32 size, then `size` bytes: a 64-byte header {u32 serial, u32 meshes, u32 index buffer
//   (ignored), u32 primitive type (4 list, 5 strip), 2 x 16 bytes of vertex streams (repeated
//   below), u32 useOffsets, u32 declaration (ignored), u32 total indices, u32 total vertices},
//   then per mesh 36 bytes {numIndex, minVert, material, vertexAlpha, vertexShader, baseIndex,
//   numVertices, startIndex, numPrimitives};
//   u32 element count, that many 8-byte D3DVERTEXELEMENT9 (librw counts the end marker);
//   total indices x u16 (each mesh's are relative to its minVert);
//   two streams: 16 bytes {u32 buffer (non-zero: data follows), u32 offset, u32 stride, u16
//   geometry flags, u8 managed, u8 dynamic lock}, then stride x total vertices bytes.
// The vertex buffer is the whole geometry's; attributes are found in the declaration by usage.
#include <fmt/format.h>

#include "codes.h"
#include "native_d3d.h"

namespace assay::rw::native {

namespace {

constexpr std::uint32_t kHeader = 64, kMesh = 36, kMaxElements = 65;  // MAXD3DDECLLENGTH + end

Error d3d9_error(std::uint64_t at, std::string m) {
  return rw_error("D3D9 Native Data", at, std::move(m), "renderware.native-geometry");
}

bool three_components(std::uint8_t t) { return t == 2 || t == 3 || t == 7 || t == 10 || t == 12 || t == 13 || t == 14 || t == 16; }

class D3d9Decoder {
 public:
  D3d9Decoder(const NativeSource& s, ModelGeometry& g) : s_(s), g_(g) {}

  Result<void> run(std::uint64_t at) {
    if (!range_ok(at, 4, b().size())) return err(at, "no room for the header size");
    const std::uint32_t size = u32(at);
    blob_ = at + 4;
    if (size < kHeader || !range_ok(blob_, size, b().size()))
      return err(at, fmt::format("a {}-byte header in {} bytes (at least {})", size, b().size() - blob_, kHeader));
    meshes_ = u32(blob_ + 4), prim_ = u32(blob_ + 12), indices_ = u32(blob_ + 56), vertices_ = u32(blob_ + 60);
    std::uint64_t mesh_bytes = 0;
    if (!mul_ok(meshes_, kMesh, mesh_bytes) || mesh_bytes > size - kHeader)
      return err(blob_ + 4, fmt::format("{} meshes of {} bytes do not fit a {}-byte header", meshes_, kMesh, size));
    if (prim_ != kPrimTriangleList && prim_ != kPrimTriangleStrip)
      return err(blob_ + 12, fmt::format("primitive type {} (only 4, triangle list, and 5, strip, are decoded)", prim_));
    std::uint64_t p = blob_ + size;
    ASSAY_CHECK(declaration(p));
    index_at_ = p;
    if (!range_ok(p, std::uint64_t{indices_} * 2, b().size()))
      return err(blob_ + 56, fmt::format("{} indices run past the section", indices_));
    p += std::uint64_t{indices_} * 2;
    for (int k = 0; k < 2; ++k) ASSAY_CHECK(stream(k, p));
    ASSAY_CHECK(check_elements());
    ASSAY_CHECK(decode_vertices());
    for (std::uint32_t i = 0; i < meshes_; ++i) ASSAY_CHECK(mesh(i, blob_ + kHeader + std::uint64_t{kMesh} * i));
    corners_.emit(g_, layout_.normal.has_value(), layout_.uv_sets, layout_.color.has_value());
    return {};
  }

 private:
  ByteView b() const { return s_.body; }
  std::uint32_t u32(std::uint64_t at) const { return load<std::uint32_t>(b().data() + at, Endian::little); }
  Error err(std::uint64_t at, std::string m) const { return d3d9_error(s_.offset + at, std::move(m)); }

  // The vertex declaration: the elements assay keeps (native_d3d.h D3dLayout).
  Result<void> declaration(std::uint64_t& p) {
    if (!range_ok(p, 4, b().size())) return err(p, "no room for the vertex declaration's element count");
    const std::uint32_t n = u32(p);
    if (n > kMaxElements || !range_ok(p + 4, std::uint64_t{n} * 8, b().size()))
      return err(p, fmt::format("{} vertex elements (at most {}) in {} bytes", n, kMaxElements, b().size() - p - 4));
    const std::uint64_t first = p + 4;
    p = first + std::uint64_t{n} * 8;
    std::array<std::optional<D3dElement>, 8> uv;
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint8_t* e = b().data() + first + 8ull * i;
      D3dElement el{load<std::uint16_t>(e, Endian::little), load<std::uint16_t>(e + 2, Endian::little), e[4], e[5], e[6], e[7]};
      if (el.stream == 0xFF) break;  // D3DDECL_END
      if (el.stream > 1) continue;   // librw's constant-buffer fallbacks (stream 2)
      const std::uint64_t at = first + 8ull * i;
      if (d3d_type_size(el.type) == 0) return err(at + 4, fmt::format("vertex element {}: unknown type {}", i, el.type));
      if (el.usage > kUsageLast) return err(at + 6, fmt::format("vertex element {}: unknown usage {}", i, el.usage));
      if (el.usage == kUsagePosition && el.usage_index == 0) layout_.position = el;
      if (el.usage == kUsageNormal && el.usage_index == 0) layout_.normal = el;
      if (el.usage == kUsageColor && el.usage_index == 0) layout_.color = el;
      if (el.usage == kUsageTexcoord && el.usage_index < uv.size()) uv[el.usage_index] = el;
      elements_.push_back({el, at});
    }
    if (!layout_.position) return err(first, "the vertex declaration has no POSITION element on stream 0 or 1");
    if (!three_components(layout_.position->type))
      return err(first, fmt::format("POSITION has type {}, not three components", layout_.position->type));
    if (layout_.normal && !three_components(layout_.normal->type))
      return err(first, fmt::format("NORMAL has type {}, not three components", layout_.normal->type));
    // What the geometry flags select (librw's uninstance reads by them).
    if (!(g_.flags & 0x10)) layout_.normal.reset();
    if (!(g_.flags & 0x08)) layout_.color.reset();
    const std::uint32_t want = std::min(flag_uv_sets(g_.flags), 2u);
    while (layout_.uv_sets < want && uv[layout_.uv_sets]) layout_.uv[layout_.uv_sets] = uv[layout_.uv_sets], ++layout_.uv_sets;
    return {};
  }

  Result<void> stream(int k, std::uint64_t& p) {
    if (!range_ok(p, 16, b().size())) return err(p, fmt::format("no room for vertex stream {}'s header", k));
    const bool present = u32(p) != 0;
    stride_[k] = u32(p + 8);
    std::uint64_t n = 0;
    if (!present) {
      p += 16;
      return {};
    }
    if (!mul_ok(stride_[k], vertices_, n) || !range_ok(p + 16, n, b().size()))
      return err(p + 8, fmt::format("stream {}: {} vertices of {} bytes run past the section", k, vertices_, stride_[k]));
    data_[k] = p + 16;
    p += 16 + n;
    return {};
  }

  bool used(const D3dElement& e) const {
    if (e.usage_index != 0 && e.usage != kUsageTexcoord) return false;
    return e.usage == kUsagePosition || (e.usage == kUsageNormal && layout_.normal) ||
           (e.usage == kUsageColor && layout_.color) || (e.usage == kUsageTexcoord && e.usage_index < layout_.uv_sets);
  }

  // Every element read lies inside its stream's stride, in a stream that is present.
  Result<void> check_elements() {
    for (const auto& [e, at] : elements_) {
      if (!used(e)) continue;
      if (!data_[e.stream])
        return err(at, fmt::format("vertex element on stream {}, which holds no vertices", e.stream));
      if (std::uint64_t{e.offset} + d3d_type_size(e.type) > stride_[e.stream])
        return err(at + 2, fmt::format("vertex element at offset {} ({} bytes) past stream {}'s stride {}", e.offset,
                                       d3d_type_size(e.type), e.stream, stride_[e.stream]));
    }
    return {};
  }

  Result<void> decode_vertices() {
    map_.resize(vertices_);
    for (std::uint32_t v = 0; v < vertices_; ++v) {
      std::array<const std::uint8_t*, 2> at{};
      for (int k = 0; k < 2; ++k)
        if (data_[k]) at[k] = b().data() + *data_[k] + std::uint64_t{v} * stride_[k];
      ASSAY_TRY(map_[v], corners_.add(d3d_corner(layout_, at), s_.offset + (data_[0] ? *data_[0] : 0)));
    }
    return {};
  }

  Result<void> mesh(std::uint32_t i, std::uint64_t e) {
    const std::uint32_t count = u32(e), min_vert = u32(e + 4), material = u32(e + 8), start = u32(e + 28);
    if (material >= g_.materials.size())
      return err(e + 8, fmt::format("mesh {} names material {} of {}", i, material, g_.materials.size()));
    if (!range_ok(start, count, indices_))
      return err(e, fmt::format("mesh {}: indices {}..{} of {}", i, start, std::uint64_t{start} + count, indices_));
    std::vector<std::uint16_t> idx(count);
    for (std::uint32_t k = 0; k < count; ++k) {
      const std::uint64_t at = index_at_ + 2ull * (std::uint64_t{start} + k);
      const std::uint64_t v = std::uint64_t{load<std::uint16_t>(b().data() + at, Endian::little)} + min_vert;
      if (v >= vertices_) return err(at, fmt::format("mesh {}: index {} (+ minVert {}) of {} vertices", i, v - min_vert, min_vert, vertices_));
      idx[k] = map_[v];
    }
    d3d_triangles(idx, prim_ == kPrimTriangleStrip, static_cast<std::uint16_t>(material), g_);
    return {};
  }

  const NativeSource& s_;
  ModelGeometry& g_;
  CornerSet corners_;
  D3dLayout layout_;
  std::vector<std::pair<D3dElement, std::uint64_t>> elements_;  // stream 0/1 elements and their offsets
  std::uint64_t blob_ = 0, index_at_ = 0;
  std::uint32_t meshes_ = 0, prim_ = 0, indices_ = 0, vertices_ = 0;
  std::array<std::uint32_t, 2> stride_{};
  std::array<std::optional<std::uint64_t>, 2> data_;
  std::vector<std::uint16_t> map_;
};

}  // namespace

Result<void> decode_d3d9(const NativeSource& s, std::uint64_t at, ModelGeometry& g) {
  g.triangles.clear();
  return D3d9Decoder(s, g).run(at);
}

}  // namespace assay::rw::native
