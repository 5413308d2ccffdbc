// Clump decoded whole for export. spec: renderware.md#rw-7 (tree, frame, geometry, material,
// atomic); Skin PLG 0x116, HAnim PLG 0x11E and Extra Vert Colour 0x0253F2F9 as librw and
// librwgta read them (the spec summarises clumps only). Counts are proven against the struct
// before any array is read.
#include "assay/formats/renderware/model.h"

#include <fmt/format.h>

#include <cstring>

#include "children.h"
#include "native_geometry.h"
#include "records.h"

namespace assay::rw {

using detail::Child;
using detail::describe;

namespace {

constexpr std::uint32_t kExtraVertColour = 0x0253F2F9;
constexpr std::uint32_t kXboxVertexFormat = 0x511;  // librw src/d3d/xboxvfmt.cpp
// Right To Render 0x1F: plugin id, data; for the PDS plugin 0x131 the data is the material's
// pipeline id (librw src/ps2/pds.cpp materialPDSRights).
constexpr std::uint32_t kRightToRender = 0x1F, kPds = 0x131, kMatFx = 0x120, kCollision = 0x0253F2FA,
                        k2dEffect = 0x0253F2F8;
constexpr std::uint32_t kFlagPrelit = 0x08, kFlagTextured = 0x04, kFlagTextured2 = 0x80, kFlagNative = 0x01000000;

// Reads fixed-size fields and arrays from one struct body, checking room before each read.
class BodyCursor {
 public:
  BodyCursor(const Child& st, std::uint64_t base, std::string structure)
      : b_(st.body), at_(base + st.body_offset()), structure_(std::move(structure)) {}

  [[nodiscard]] std::uint64_t left() const { return b_.size() - pos_; }
  [[nodiscard]] std::uint64_t pos() const { return pos_; }
  // The file offset of the cursor and the structure it names, for errors made outside need().
  [[nodiscard]] std::uint64_t at() const { return at_ + pos_; }
  [[nodiscard]] const std::string& structure() const { return structure_; }

  // Room for count items of `each` bytes, or an error naming what they are.
  Result<void> need(std::uint64_t count, std::uint64_t each, std::string_view what) const {
    std::uint64_t n = 0;
    if (!mul_ok(count, each, n) || n > left())
      return rw_error(structure_, at_ + pos_,
                      fmt::format("{} {} need {} bytes but {} are left", count, what, count * each, left()),
                      "renderware.geometry");
    return {};
  }
  std::uint32_t u32() { return take<std::uint32_t>(); }
  float f32() { return std::bit_cast<float>(take<std::uint32_t>()); }
  std::uint16_t u16() { return take<std::uint16_t>(); }
  std::uint8_t u8() { return b_[pos_++]; }
  void skip(std::uint64_t n) { pos_ += n; }
  void seek(std::uint64_t p) { pos_ = p; }
  // n bytes (checked by the caller) as text up to the first NUL.
  std::string text(std::uint64_t n) {
    const char* p = reinterpret_cast<const char*>(b_.data() + pos_);
    pos_ += n;
    return std::string(p, strnlen(p, n));
  }

  template <std::size_t N>
  Result<std::vector<std::array<float, N>>> floats(std::uint64_t count, std::string_view what) {
    ASSAY_CHECK(need(count, 4 * N, what));
    std::vector<std::array<float, N>> v(count);
    for (auto& e : v)
      for (float& x : e) x = f32();
    return v;
  }
  template <std::size_t N>
  Result<std::vector<std::array<std::uint8_t, N>>> bytes(std::uint64_t count, std::string_view what) {
    ASSAY_CHECK(need(count, N, what));
    std::vector<std::array<std::uint8_t, N>> v(count);
    for (auto& e : v)
      for (auto& x : e) x = u8();
    return v;
  }

 private:
  template <class T>
  T take() {  // callers checked the room with need()
    const T v = load<T>(b_.data() + pos_, Endian::little);
    pos_ += sizeof(T);
    return v;
  }
  ByteView b_;
  std::uint64_t at_;
  std::string structure_;
  std::uint64_t pos_ = 0;
};

class ModelReader : detail::ClumpWalk {
 public:
  ModelReader(ByteView b, std::uint64_t base, const DiagSink& diag) : ClumpWalk(b, base), diag_(diag) {}

  Result<ClumpModel> run() {
    ASSAY_TRY(Child self, detail::read_one(b_, 0, base_));
    if (self.h.type != id::kClump) return err(describe(self.h.type), 0, "expected a Clump (0x10)");
    ASSAY_TRY(Version v, decode_stamp(self.h.stamp));
    version_ = v.version;
    m_.offset = base_;
    m_.stamp = self.h.stamp;
    ASSAY_TRY(auto kids, detail::read_children(b_, 0, base_));
    for (const Child& c : kids) {
      if (c.h.type == id::kFrameList) ASSAY_CHECK(frame_list(c));
      else if (c.h.type == id::kGeometryList) ASSAY_CHECK(geometry_list(c));
      else if (c.h.type == id::kAtomic) ASSAY_CHECK(atomic(c));
      else if (c.h.type == id::kExtension) ASSAY_CHECK(clump_extension(c));
    }
    for (const ModelAtomic& a : m_.atomics)
      if (a.frame >= m_.frames.size() || a.geometry >= m_.geometries.size())
        return err("Atomic", 0, fmt::format("frame {} / geometry {} out of range ({} frames, {} geometries) (R20)",
                                            a.frame, a.geometry, m_.frames.size(), m_.geometries.size()));
    return std::move(m_);
  }

 private:
  Result<std::vector<Child>> children(const Child& c) const { return detail::read_children(b_, c.offset, base_); }

  Result<void> frame_list(const Child& fl) {  // spec: #rw-7-1
    ASSAY_TRY(auto kids, children(fl));
    ASSAY_TRY(Child st, first_struct(kids, fl, 4));
    BodyCursor c(st, base_, "Frame List struct");
    const std::uint32_t n = c.u32();
    ASSAY_CHECK(c.need(n, records::Frame::kSize, "frames"));
    m_.frames.resize(n);
    for (ModelFrame& f : m_.frames) {
      for (float& r : f.rotation) r = c.f32();
      for (float& p : f.position) p = c.f32();
      f.parent = static_cast<std::int32_t>(c.u32());
      c.skip(4);  // flags
    }
    std::size_t fi = 0;
    for (std::size_t i = 1; i < kids.size(); ++i)
      if (kids[i].h.type == id::kExtension && fi < n) ASSAY_CHECK(frame_extension(kids[i], m_.frames[fi++]));
    return {};
  }

  Result<void> frame_extension(const Child& ext, ModelFrame& f) {
    ASSAY_TRY(auto kids, children(ext));
    for (const Child& k : kids) {
      if (k.h.type == id::kNodeName) f.name.assign(reinterpret_cast<const char*>(k.body.data()), k.body.size());
      if (k.h.type == id::kHAnim) ASSAY_CHECK(hanim(k, f));
    }
    return {};
  }

  // HAnim PLG: version 0x100, id, node count; with nodes: flags, key size, then {id, index, flags}.
  Result<void> hanim(const Child& k, ModelFrame& f) {
    BodyCursor c(k, base_, "HAnim PLG");
    ASSAY_CHECK(c.need(3, 4, "HAnim header words"));
    c.skip(4);
    f.hanim_id = static_cast<std::int32_t>(c.u32());
    const std::uint32_t n = c.u32();
    if (n == 0) return {};
    ASSAY_CHECK(c.need(2, 4, "HAnim hierarchy words"));
    c.skip(8);
    ASSAY_CHECK(c.need(n, 12, "HAnim nodes"));
    f.hierarchy.resize(n);
    for (HAnimNode& h : f.hierarchy) {
      h.id = static_cast<std::int32_t>(c.u32());
      h.index = static_cast<std::int32_t>(c.u32());
      h.flags = c.u32();
    }
    return {};
  }

  Result<void> geometry_list(const Child& gl) {
    ASSAY_TRY(auto kids, children(gl));
    for (std::size_t i = 1; i < kids.size(); ++i)
      if (kids[i].h.type == id::kGeometry) ASSAY_CHECK(geometry(kids[i]));
    return {};
  }

  Result<void> atomic(const Child& ac) {  // spec: #rw-7-3
    ASSAY_TRY(auto kids, children(ac));
    ASSAY_TRY(Child st, first_struct(kids, ac, 8));
    BodyCursor c(st, base_, fmt::format("Atomic {} struct", m_.atomics.size()));
    ModelAtomic a{c.u32(), c.u32()};
    for (std::size_t i = 1; i < kids.size(); ++i)
      if (kids[i].h.type == id::kGeometry) {  // a standalone atomic's own geometry
        a.geometry = static_cast<std::uint32_t>(m_.geometries.size());
        ASSAY_CHECK(geometry(kids[i]));
      }
    m_.atomics.push_back(a);
    return {};
  }

  // spec: #rw-7-2 (struct arrays in the order prelit, texcoords, triangles, morph targets)
  Result<void> geometry(const Child& gc) {
    ASSAY_TRY(auto kids, children(gc));
    ASSAY_TRY(Child st, first_struct(kids, gc, records::GeometryStruct::kSize));
    ModelGeometry g;
    g.offset = base_ + gc.offset;
    BodyCursor c(st, base_, fmt::format("Geometry {} struct", m_.geometries.size()));
    g.flags = c.u32();
    const std::uint32_t triangles = c.u32();
    g.vertices = c.u32();
    const std::uint32_t morphs = c.u32();
    g.native = (g.flags & kFlagNative) != 0;
    if (version_ < 0x34000) {
      ASSAY_CHECK(c.need(3, 4, "surface properties"));
      c.skip(12);
    }
    if (!g.native) ASSAY_CHECK(geometry_arrays(c, g, triangles, morphs));
    else ASSAY_CHECK(morph_targets(c, g, morphs));
    for (std::size_t i = 1; i < kids.size(); ++i) {
      if (kids[i].h.type == id::kMaterialList) ASSAY_CHECK(material_list(kids[i], g));
      if (kids[i].h.type == id::kExtension) ASSAY_CHECK(geometry_extension(kids[i], g));
    }
    m_.geometries.push_back(std::move(g));
    return {};
  }

  Result<void> geometry_arrays(BodyCursor& c, ModelGeometry& g, std::uint32_t triangles, std::uint32_t morphs) {
    std::uint32_t sets = (g.flags >> 16) & 0xFF;
    if (sets == 0) sets = (g.flags & kFlagTextured2) ? 2 : (g.flags & kFlagTextured) ? 1 : 0;
    const std::uint64_t v = g.vertices;
    if (g.flags & kFlagPrelit) {
      ASSAY_TRY(g.prelit, c.bytes<4>(v, "prelit colours"));
    }
    for (std::uint32_t s = 0; s < sets; ++s) {
      ASSAY_TRY(auto uv, c.floats<2>(v, "texture coordinates"));
      g.texcoords.push_back(std::move(uv));
    }
    ASSAY_CHECK(c.need(triangles, 8, "triangles"));
    g.triangles.resize(triangles);
    for (ModelTriangle& t : g.triangles) {  // v1, v0, material, v2
      t.v[1] = c.u16(), t.v[0] = c.u16(), t.material = c.u16(), t.v[2] = c.u16();
      for (std::uint16_t x : t.v)
        if (x >= v)
          return rw_error(c.structure(), c.at() - 8, fmt::format("triangle vertex {} of {} vertices", x, v),
                          "renderware.geometry");
    }
    return morph_targets(c, g, morphs);
  }

  // Each morph target's bounding sphere and, when flagged, its positions and normals (librw
  // geometry.cpp streamRead reads them for native geometry too, whose flags are then 0).
  Result<void> morph_targets(BodyCursor& c, ModelGeometry& g, std::uint32_t morphs) {
    const std::uint64_t v = g.vertices;
    ASSAY_CHECK(c.need(morphs, records::MorphTarget::kSize, "morph targets"));
    for (std::uint32_t m = 0; m < morphs; ++m) {
      ModelMorphTarget t;
      ASSAY_CHECK(c.need(1, records::MorphTarget::kSize, "morph target head"));
      for (float& s : t.sphere) s = c.f32();
      const bool has_v = c.u32() != 0, has_n = c.u32() != 0;
      if (has_v) {
        ASSAY_TRY(t.positions, c.floats<3>(v, "morph target positions"));
      }
      if (has_n) {
        ASSAY_TRY(t.normals, c.floats<3>(v, "morph target normals"));
      }
      g.morph_targets.push_back(std::move(t));
    }
    return {};
  }

  Result<void> material_list(const Child& ml, ModelGeometry& g) {  // spec: #rw-7-2, R19
    ASSAY_TRY(auto kids, children(ml));
    ASSAY_TRY(Child st, first_struct(kids, ml, 4));
    BodyCursor c(st, base_, "Material List struct");
    const std::uint32_t n = c.u32();
    ASSAY_CHECK(c.need(n, 4, "material indices"));
    std::vector<const Child*> sections;
    for (std::size_t i = 1; i < kids.size(); ++i)
      if (kids[i].h.type == id::kMaterial) sections.push_back(&kids[i]);
    std::size_t next = 0;
    pipes_.clear();
    for (std::uint32_t i = 0; i < n; ++i) {
      const auto idx = static_cast<std::int32_t>(c.u32());
      if (idx >= 0 && static_cast<std::uint32_t>(idx) < i) {
        g.materials.push_back(g.materials[static_cast<std::size_t>(idx)]);
        pipes_.push_back(pipes_[static_cast<std::size_t>(idx)]);
        continue;
      }
      if (idx >= 0 || next >= sections.size())
        return err("Material List", ml.offset, fmt::format("entry {} names no material (R19)", i));
      ASSAY_TRY(ModelMaterial m, material(*sections[next++]));
      g.materials.push_back(std::move(m));
      pipes_.push_back(last_pipe_);
    }
    return {};
  }

  Result<ModelMaterial> material(const Child& mc) {
    ASSAY_TRY(auto kids, children(mc));
    ASSAY_TRY(Child st, first_struct(kids, mc, records::MaterialStruct::kSize));
    ModelMaterial m;
    last_pipe_ = 0;
    const auto ms = records::decode_at<records::MaterialStruct>(st.body, 0);
    m.color = ms.colour;
    if (st.body.size() >= 28) {
      BodyCursor c(st, base_, "Material struct");
      c.skip(16);
      m.surface = std::array<float, 3>{c.f32(), c.f32(), c.f32()};
    }
    for (std::size_t i = 1; i < kids.size(); ++i) {
      if (kids[i].h.type == id::kTexture && ms.textured) ASSAY_CHECK(texture(kids[i], m));
      if (kids[i].h.type == id::kExtension) {
        ASSAY_TRY(auto ext, children(kids[i]));
        for (const Child& e : ext) {
          m.plugins.push_back(e.h.type);
          if (e.h.type == kMatFx) matfx(e, m);
          if (e.h.type == kRightToRender && e.body.size() >= 8 && records::u32_at(e.body, 0) == kPds)
            last_pipe_ = records::u32_at(e.body, 4);
        }
      }
    }
    return m;
  }

  // Rockstar's collision plugin: its size and, when it starts with a COL header (fourcc "COL?",
  // u32 size, char name[22], u16 model id), the version and name.
  Result<void> clump_extension(const Child& ext) {
    ASSAY_TRY(auto kids, children(ext));
    for (const Child& k : kids) {
      if (k.h.type != kCollision) continue;
      ModelCollision col;
      col.size = k.h.size;
      const ByteView b = k.body;
      if (b.size() >= 32 && b[0] == 'C' && b[1] == 'O' && b[2] == 'L') {
        col.fourcc.assign(reinterpret_cast<const char*>(b.data()), 4);
        const char* n = reinterpret_cast<const char*>(b.data() + 8);
        col.name.assign(n, strnlen(n, 22));
      }
      m_.collision = std::move(col);
    }
    return {};
  }

  // u32 count, then per entry float[3] position, u32 type, u32 data size and the data.
  Result<void> effects_2d(const Child& k, ModelGeometry& g) {
    BodyCursor c(k, base_, "2d Effect");
    ASSAY_CHECK(c.need(1, 4, "the entry count"));
    const std::uint32_t n = c.u32();
    ASSAY_CHECK(c.need(n, 20, "entry headers"));
    for (std::uint32_t i = 0; i < n; ++i) {
      Model2dEffect e;
      ASSAY_CHECK(c.need(1, 20, "an entry header"));
      for (float& x : e.position) x = c.f32();
      e.type = c.u32();
      const std::uint32_t size = c.u32();
      ASSAY_CHECK(c.need(size, 1, "entry data"));
      const std::uint64_t end = c.pos() + size;
      if (e.type == 0 && size >= 76) {  // light: RGBA, 4 floats, 5 bytes, char[24] x 2, ...
        for (auto& b : e.color) b = c.u8();
        e.corona_far_clip = c.f32(), e.pointlight_range = c.f32(), e.corona_size = c.f32(), e.shadow_size = c.f32();
        c.skip(5);
        e.corona_texture = c.text(24);
        e.shadow_texture = c.text(24);
      }
      c.seek(end);
      g.effects.push_back(std::move(e));
    }
    return {};
  }

  // MatFX data that does not read is a warning: the material keeps what it has without it.
  void matfx(const Child& e, ModelMaterial& m) {
    auto fx = decode_matfx(e.body, base_ + e.body_offset());
    if (fx) m.matfx = std::move(*fx);
    else if (diag_) diag_({Severity::warning, fx.error()});
  }

  Result<void> texture(const Child& tc, ModelMaterial& m) {
    ASSAY_TRY(auto tk, children(tc));
    ASSAY_TRY(Child st, first_struct(tk, tc, 4));
    m.filter_addressing = records::u32_at(st.body, 0);
    if (tk.size() >= 3 && tk[1].h.type == id::kString && tk[2].h.type == id::kString) {
      m.texture = std::string(detail::string_body(tk[1], base_, diag_));
      m.mask = std::string(detail::string_body(tk[2], base_, diag_));
    }
    return {};
  }

  Result<void> geometry_extension(const Child& ext, ModelGeometry& g) {
    ASSAY_TRY(auto kids, children(ext));
    const Child *bin = nullptr, *data = nullptr, *native_skin = nullptr;
    xbox_format_.reset();
    for (const Child& k : kids) {
      if (k.h.type == id::kSkin && !g.native) ASSAY_CHECK(skin(k, g));
      if (k.h.type == kExtraVertColour && !g.native) ASSAY_CHECK(night_colours(k, g));
      if (k.h.type == k2dEffect) ASSAY_CHECK(effects_2d(k, g));
      if (k.h.type == id::kSkin) native_skin = &k;
      if (k.h.type == id::kBinMesh) bin = &k;
      if (k.h.type == id::kNativeData) data = &k;
      if (k.h.type == kXboxVertexFormat && k.body.size() >= 4) xbox_format_ = records::u32_at(k.body, 0);
    }
    if (g.native && bin && data) ASSAY_CHECK(native_geometry(*bin, *data, native_skin, g));
    return {};
  }

  // Native geometry: the Bin Mesh's meshes (counts and materials only) select the blocks of
  // the Native Data. A platform or pipeline without a known layout leaves the geometry native
  // (a warning); anything else wrong in the data is an error.
  Result<void> native_geometry(const Child& bin, const Child& data, const Child* sk, ModelGeometry& g) {
    native::NativeSource s;
    s.body = data.body;
    s.offset = base_ + data.body_offset();
    s.pipelines = pipes_;
    s.xbox_vertex_format = xbox_format_;
    BodyCursor c(bin, base_, "Bin Mesh PLG");
    ASSAY_CHECK(c.need(3, 4, "Bin Mesh header words"));
    s.tristrip = (c.u32() & 1) != 0;
    const std::uint32_t n = c.u32();
    c.skip(4);
    ASSAY_CHECK(c.need(n, 8, "Bin Mesh entries"));
    for (std::uint32_t i = 0; i < n; ++i) {
      native::BinMeshEntry e;
      e.indices = c.u32(), e.material = c.u32();
      if (e.material >= g.materials.size())
        return err("Bin Mesh PLG", bin.offset, fmt::format("mesh {} names material {} of {}", i, e.material, g.materials.size()));
      s.meshes.push_back(e);
    }
    if (sk) s.skin = sk->body, s.skin_offset = base_ + sk->body_offset();
    const Result<void> r = [&]() -> Result<void> {
      if (sk) {
        ASSAY_TRY(g.skin, native::decode_native_skin(s.skin, s.skin_offset));
      }
      return native::decode_native(s, g);
    }();
    if (r) {
      g.native = false;
      return {};
    }
    if (r.error().code != "renderware.native-platform" && r.error().code != "renderware.native-pipeline") return r;
    if (diag_) diag_({Severity::warning, r.error()});
    g.skin.reset(), g.triangles.clear(), g.morph_targets.clear(), g.texcoords.clear(), g.prelit.clear();
    return {};
  }

  // Skin PLG: u8 bones, usedBones, maxWeights, pad; usedBones bytes (absent when usedBones is 0:
  // the old form, whose matrices each follow a 4-byte marker); indices, weights, matrices.
  Result<void> skin(const Child& k, ModelGeometry& g) {
    BodyCursor c(k, base_, "Skin PLG");
    ASSAY_CHECK(c.need(1, 4, "skin header"));
    ModelSkin s;
    s.bones = c.u8(), s.used_bones = c.u8(), s.max_weights = c.u8();
    c.skip(1);
    const bool old_form = s.used_bones == 0;
    ASSAY_CHECK(c.need(s.used_bones, 1, "used bones"));
    c.skip(s.used_bones);
    ASSAY_TRY(s.indices, c.bytes<4>(g.vertices, "vertex bone indices"));
    ASSAY_TRY(s.weights, c.floats<4>(g.vertices, "vertex weights"));
    for (std::uint32_t b = 0; b < s.bones; ++b) {
      if (old_form) {
        ASSAY_CHECK(c.need(1, 4, "matrix marker"));
        c.skip(4);
      }
      ASSAY_TRY(auto m, c.floats<16>(1, "inverse bind matrices"));
      s.inverse_bind.push_back(m[0]);
    }
    g.skin = std::move(s);
    return {};
  }

  Result<void> night_colours(const Child& k, ModelGeometry& g) {  // u32 has colours, then RGBA each
    BodyCursor c(k, base_, "Extra Vert Colour");
    ASSAY_CHECK(c.need(1, 4, "flag"));
    if (c.u32() == 0) return {};
    ASSAY_TRY(g.night_colors, c.bytes<4>(g.vertices, "night colours"));
    return {};
  }

  const DiagSink& diag_;
  std::uint32_t version_ = 0;
  ClumpModel m_;
  std::vector<std::uint32_t> pipes_;  // the current geometry's materials' PDS pipeline ids
  std::uint32_t last_pipe_ = 0;
  std::optional<std::uint32_t> xbox_format_;  // the current geometry's Vertex Format PLG
};

}  // namespace

Result<ClumpModel> decode_clump(ByteView bytes, std::uint64_t base, const DiagSink& diag) {
  return ModelReader(bytes, base, diag).run();
}

}  // namespace assay::rw
