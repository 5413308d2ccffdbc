// PS2 native geometry: each mesh's DMA packet run through the VIF interpreter; at each
// microprogram call the batch's vertices are read from VU memory where the pipeline puts them
// (attribute slot s of vertex v at TOP + s + v * CL, CL from the STCYCL of the upload; ITOP =
// the vertex count), as librw's src/ps2/ps2.cpp MatPipeline::instance lays them out.
// Layouts: librw's default and skin pipelines (ps2.cpp, ps2skin.cpp, pds.cpp); GTA SA's
// CustomCar, CustomSkinPed and CustomBuilding PDS pipelines (librwgta src/rsps2.cpp).
#include <fmt/format.h>

#include <bit>

#include "codes.h"
#include "native_geometry.h"
#include "native_vif.h"

namespace assay::rw::native {

namespace {

Error ps2_error(std::uint64_t at, std::string m) {
  return rw_error("PS2 Native Data", at, std::move(m), "renderware.native-geometry");
}

enum class Field : std::uint8_t { position, uv, uv2, color, day_night, normal, weights };

// UNPACK formats as vn << 2 | vl, 0x20 = unsigned (USN).
constexpr std::uint32_t kV2_32 = 0x04, kV3_32 = 0x08, kV4_32 = 0x0C, kV2_16 = 0x05, kV4_16 = 0x0D, kV3_8 = 0x0A,
                        kV4_8 = 0x0E, kUnsigned = 0x20;

struct Slot {
  Field field;
  std::uint32_t slot, format, alt = 0xFF;  // alt: a second accepted format
};

struct Layout {
  std::string_view name;
  std::vector<Slot> slots;
  float position_scale = 1, uv_scale = 1, normal_scale = 128;
  bool integer = false;  // positions and UVs as integers (scaled), not float bits
};

// librw ps2.cpp attribXYZ (V3-32, or XYZW V4-32 with the ADC flag in w), attribUV V2-32
// (attribUV2 V4-32), attribRGBA V4-8 unsigned, attribNormal V3-8 (read as /128), skin
// attribWeights V4-32 in slot 4.
Layout librw_layout(bool uv2, bool skinned) {
  Layout l{"librw default", {}, 1, 1, 128, false};
  l.slots = {{Field::position, 0, kV3_32, kV4_32},
             {uv2 ? Field::uv2 : Field::uv, 1, uv2 ? kV4_32 : kV2_32},
             {Field::color, 2, kV4_8 | kUnsigned},
             {Field::normal, 3, kV3_8}};
  if (skinned) l.slots.push_back({Field::weights, 4, kV4_32}), l.name = "librw skin";
  return l;
}

// librwgta rsps2.cpp: saXYZADC V4-16 (/1024 for cars and peds, ADC in w), saUV V2-16 (/4096;
// saUV2 V4-16), saNormal V4-8 (/127), saWeights V4-32; normals in slot 3 (cars) or 2 (peds).
Layout sa_layout(std::string_view name, bool uv2, bool ped) {
  Layout l{name, {}, 1.0f / 1024, 1.0f / 4096, 127, true};
  l.slots = {{Field::position, 0, kV4_16}, {uv2 ? Field::uv2 : Field::uv, 1, uv2 ? kV4_16 : kV2_16}};
  if (ped) l.slots.push_back({Field::normal, 2, kV4_8}), l.slots.push_back({Field::weights, 3, kV4_32});
  else l.slots.push_back({Field::normal, 3, kV4_8});
  return l;
}

// librwgta rsps2.cpp registerPS2BuildingPipes: saXYZADC V4-16 (/128 for buildings), saUV V2-16
// (/4096), then saRGBA V4-8 unsigned or, for the day/night (DN) pipelines, saRGBA2 V4-16 unsigned
// (each 16 bits: the day component low, the night one high) in slot 2; the EnvMap pipelines add
// saNormal V4-8 (/127) in slot 3; UVA ones are laid out as the plain ones.
Layout sa_building_layout(std::string_view name, bool day_night, bool normals) {
  Layout l{name, {}, 1.0f / 128, 1.0f / 4096, 127, true};
  l.slots = {{Field::position, 0, kV4_16}, {Field::uv, 1, kV2_16},
             day_night ? Slot{Field::day_night, 2, kV4_16 | kUnsigned} : Slot{Field::color, 2, kV4_8 | kUnsigned}};
  if (normals) l.slots.push_back({Field::normal, 3, kV4_8});
  return l;
}

// librw pds.cpp, RenderWare's world pipelines rwPDS_G3xd_A4D(Skin)_MatPipeID: attribXYZW V4-32
// in slot 0, attribUV V2-32, attribNormal V3-8 (/128) in slot 2, the skin's weights in slot 3.
Layout a4d_layout(bool skinned) {
  Layout l{skinned ? "RenderWare G3xd A4D skin" : "RenderWare G3xd A4D", {}, 1, 1, 128, false};
  l.slots = {{Field::position, 0, kV4_32}, {Field::uv, 1, kV2_32}, {Field::normal, 2, kV3_8}};
  if (skinned) l.slots.push_back({Field::weights, 3, kV4_32});
  return l;
}

// The material's PDS pipeline id to a layout (MAKEPIPEID(VEND_ROCKSTAR 0x253F2, n) for SA).
std::optional<Layout> layout_for(std::uint32_t id, bool skinned) {
  switch (id) {
    case 0: case 0x11001: case 0x1100B: return librw_layout(false, skinned);
    case 0x1100C: return librw_layout(true, skinned);
    case 0x5002F: return a4d_layout(false);
    case 0x5003E: return a4d_layout(true);
    case 0x53F20085: return sa_layout("GTA SA CustomCar", false, false);
    case 0x53F20087: return sa_layout("GTA SA CustomCarEnvMap", false, false);
    case 0x53F2008B: return sa_layout("GTA SA CustomCarEnvMapUV2", true, false);
    case 0x53F20089: return sa_layout("GTA SA CustomSkinPed", false, true);
    case 0x53F20081: return sa_building_layout("GTA SA CustomBuilding", false, false);
    case 0x53F20083: return sa_building_layout("GTA SA CustomBuildingDN", true, false);
    case 0x53F2008D: return sa_building_layout("GTA SA CustomBuildingEnvMap", false, true);
    case 0x53F2008F: return sa_building_layout("GTA SA CustomBuildingDNEnvMap", true, true);
    case 0x53F20091: return sa_building_layout("GTA SA CustomBuildingUVA", false, false);
    case 0x53F20093: return sa_building_layout("GTA SA CustomBuildingDNUVA", true, false);
    default: return std::nullopt;
  }
}

float as_float(std::uint32_t w) { return std::bit_cast<float>(w); }
float as_int(std::uint32_t w, float scale) { return static_cast<float>(static_cast<std::int32_t>(w)) * scale; }

struct MeshState {
  const BinMeshEntry* mesh;
  const Layout* layout;
  std::uint64_t strip_base = 0, corners = 0, batches = 0;
};

class Ps2Decoder {
 public:
  Ps2Decoder(const NativeSource& s, ModelGeometry& g) : s_(s), g_(g) {}

  // Per mesh: u32 packet size, u32 "no ref tags" (librw ps2.cpp unfixDmaOffsets; a hint, not
  // needed here), the packet; ref ADDRs are qwords from the packet start.
  Result<void> run(std::uint64_t at) {
    for (std::size_t i = 0; i < s_.meshes.size(); ++i) {
      if (!range_ok(at, 8, s_.body.size()))
        return ps2_error(s_.offset + at, fmt::format("mesh {} of {}: no room for its size and flag", i, s_.meshes.size()));
      const std::uint32_t size = load<std::uint32_t>(s_.body.data() + at, Endian::little);
      if (!range_ok(at + 8, size, s_.body.size()))
        return ps2_error(s_.offset + at, fmt::format("mesh {}: a {}-byte packet in {} bytes left", i, size,
                                                     s_.body.size() - at - 8));
      ASSAY_CHECK(mesh(s_.meshes[i], s_.body.subspan(at + 8, size), s_.offset + at + 8));
      at += 8 + std::uint64_t{size};
    }
    finish();
    return {};
  }

 private:
  Result<void> mesh(const BinMeshEntry& m, ByteView block, std::uint64_t off) {
    const std::uint32_t id = m.material < s_.pipelines.size() ? s_.pipelines[m.material] : 0;
    const auto layout = layout_for(id, g_.skin.has_value());
    if (!layout)
      return rw_error("PS2 Native Data", off, fmt::format("material {}'s pipeline 0x{:08X} has no known layout", m.material, id),
                      "renderware.native-pipeline");
    ASSAY_TRY(VifStream st, dma_chain(block, off));
    MeshState ms{&m, &*layout};
    VifMachine vm;
    ASSAY_CHECK(vm.run(st, [&](const VifMachine& v, std::uint64_t at) { return batch(v, at, ms); }));
    const std::uint64_t want = m.indices;
    if (ms.corners != want)
      return ps2_error(off, fmt::format("the {} pipeline's {} batches give {} corners; the Bin Mesh says {}",
                                        layout->name, ms.batches, ms.corners, want));
    return {};
  }

  Result<void> batch(const VifMachine& v, std::uint64_t at, MeshState& ms) {
    const std::uint32_t n = v.itop();
    if (n == 0) return {};
    const std::uint32_t stride = (v.format(v.top()) >> 8) & 0xFF;
    if (!v.written(v.top()) || stride == 0 || std::uint64_t{n} * stride > VifMachine::kQwords)
      return ps2_error(at, fmt::format("batch of {} vertices at VU address {}: no position upload with a usable "
                                       "stride ({}) before the microprogram call", n, v.top(), stride));
    std::vector<std::uint16_t> idx(n);
    std::vector<bool> adc(n);
    for (std::uint32_t i = 0; i < n; ++i) {
      Corner c;
      bool flag = false;
      for (const Slot& sl : ms.layout->slots) ASSAY_CHECK(read(v, at, *ms.layout, sl, v.top() + sl.slot + i * stride, c, flag));
      ASSAY_TRY(idx[i], corners_.add(c, at));
      adc[i] = flag;
    }
    triangles(ms, idx, adc);
    ms.corners += ms.batches == 0 || !s_.tristrip ? n : n - 2;
    ++ms.batches;
    return {};
  }

  // One attribute of one vertex, after checking the UNPACK that put it there.
  Result<void> read(const VifMachine& v, std::uint64_t at, const Layout& l, const Slot& sl, std::uint32_t addr, Corner& c,
                    bool& adc) {
    if (sl.field == Field::weights && !g_.skin) return {};
    const std::uint32_t f = v.format(addr) & 0x2F;
    if (!v.written(addr))
      return ps2_error(at, fmt::format("the {} pipeline reads slot {} at VU address {}, which no UNPACK wrote in this batch",
                                       l.name, sl.slot, addr % VifMachine::kQwords));
    if (f != sl.format && f != sl.alt)
      return ps2_error(v.unpacked_at(addr),
                       fmt::format("the {} pipeline wants {}{} in slot {}; this UNPACK wrote {}{}", l.name,
                                   unpack_name(sl.format), sl.format & kUnsigned ? " unsigned" : "", sl.slot,
                                   unpack_name(f), f & kUnsigned ? " unsigned" : ""));
    const auto& q = v.qword(addr);
    switch (sl.field) {
      case Field::position:
        for (int k = 0; k < 3; ++k) c.position[k] = l.integer ? as_int(q[k], l.position_scale) : as_float(q[k]);
        adc = (f & 0x0C) == 0x0C && (q[3] & 0x8000) != 0;  // a V4's w: bit 15 is the ADC flag
        break;
      case Field::uv:
      case Field::uv2:
        for (int k = 0; k < (sl.field == Field::uv2 ? 4 : 2); ++k)
          c.uv[k / 2][k % 2] = l.integer ? as_int(q[k], l.uv_scale) : as_float(q[k]);
        break;
      case Field::color:
        for (int k = 0; k < 4; ++k) c.color[k] = static_cast<std::uint8_t>(q[k]);
        break;
      case Field::day_night:
        for (int k = 0; k < 4; ++k) c.color[k] = static_cast<std::uint8_t>(q[k]), c.night[k] = static_cast<std::uint8_t>(q[k] >> 8);
        night_ = true;
        break;
      case Field::normal:
        for (int k = 0; k < 3; ++k) c.normal[k] = as_int(q[k], 1.0f / l.normal_scale);
        break;
      case Field::weights:  // a float weight whose low 10 bits hold (bone + 1) << 2 (ps2skin.cpp)
        for (int k = 0; k < 4; ++k) {
          c.weights[k] = as_float(q[k] & ~0x3FFu);
          const std::uint32_t b = (q[k] & 0x3FF) >> 2;
          c.bones[k] = c.weights[k] == 0.0f || b == 0 ? 0 : static_cast<std::uint8_t>(b - 1);
        }
        break;
    }
    return {};
  }

  // A list: every three corners. A strip (librw geometry.cpp generateTriangles): triangle j
  // of the mesh is corners j, j+1, j+2 with odd j's first two swapped; a corner with the ADC
  // flag starts a new strip (no triangle ends on it). Batches overlap by two corners.
  void triangles(MeshState& ms, const std::vector<std::uint16_t>& idx, const std::vector<bool>& adc) {
    const auto mat = static_cast<std::uint16_t>(ms.mesh->material);
    if (!s_.tristrip) {
      for (std::size_t k = 0; k + 2 < idx.size(); k += 3) push({idx[k], idx[k + 1], idx[k + 2]}, mat);
      return;
    }
    if (idx.size() < 3) return;
    for (std::size_t k = 2; k < idx.size(); ++k) {
      const std::uint64_t j = ms.strip_base + k - 2;
      if (adc[k]) continue;
      const std::size_t odd = j % 2;
      push({idx[k - 2], idx[k - 1 + odd], idx[k - odd]}, mat);
    }
    ms.strip_base += idx.size() - 2;
  }

  void push(std::array<std::uint16_t, 3> v, std::uint16_t mat) {
    if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2]) return;  // librw's isDegenerate
    g_.triangles.push_back({v, mat});
  }

  void finish() {
    std::uint32_t sets = (g_.flags >> 16) & 0xFF;
    if (sets == 0) sets = (g_.flags & 0x80) ? 2 : (g_.flags & 0x04) ? 1 : 0;
    corners_.emit(g_, (g_.flags & 0x10) != 0, std::min<std::uint32_t>(sets, 2), (g_.flags & 0x08) != 0, night_);
  }

  const NativeSource& s_;
  ModelGeometry& g_;
  CornerSet corners_;
  bool night_ = false;  // a day/night pipeline gave night colours
};

}  // namespace

Result<void> decode_ps2(const NativeSource& s, std::uint64_t at, ModelGeometry& g) {
  g.triangles.clear();
  return Ps2Decoder(s, g).run(at);
}

}  // namespace assay::rw::native
