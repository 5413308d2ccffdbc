// Clump summary. spec: renderware.md#rw-7 (tree, geometry, atomic), rules R19-R21 of #rw-9.
#include "assay/formats/renderware/clump.h"

#include <algorithm>
#include <bit>

#include "children.h"
#include "records.h"

namespace assay::rw {

using detail::Child;
using detail::describe;

namespace {

class ClumpReader : detail::ClumpWalk {
 public:
  ClumpReader(ByteView b, std::uint64_t base, const DiagSink& diag) : ClumpWalk(b, base), diag_(diag) {}

  Result<ClumpSummary> run() {
    ASSAY_TRY(Child self, detail::read_one(b_, 0, base_));
    if (self.h.type != id::kClump)
      return err(describe(self.h.type), 0, "expected a Clump (0x10)");
    ASSAY_TRY(Version v, decode_stamp(self.h.stamp));
    version_ = v.version;
    ASSAY_TRY(auto kids, detail::read_children(b_, 0, base_));
    s_.offset = base_;
    s_.stamp = self.h.stamp;
    ASSAY_CHECK(clump_struct(kids));
    for (std::size_t i = 1; i < kids.size(); ++i) {
      const Child& c = kids[i];
      switch (c.h.type) {
        case id::kFrameList: ASSAY_CHECK(frame_list(c)); break;
        case id::kGeometryList: ASSAY_CHECK(geometry_list(c)); break;
        case id::kAtomic: ASSAY_CHECK(atomic(c)); break;
        case id::kExtension: ASSAY_CHECK(extension(c, nullptr)); break;
        case id::kStruct:
        case id::kLight:
        case id::kCamera: break;  // lights and cameras: counted by the struct only
        default:
          detail::report(diag_, Severity::warning, describe(c.h.type), base_ + c.offset, "unexpected child of a Clump");
      }
    }
    // R20
    if (s_.atomics.size() != s_.struct_atomic_count)
      return err("Clump", 0,
                 fmt::format("struct says {} atomics but {} Atomic sections follow (R20)", s_.struct_atomic_count,
                             s_.atomics.size()));
    for (std::size_t i = 0; i < s_.atomics.size(); ++i) {
      const AtomicSummary& a = s_.atomics[i];
      if (a.frame_index >= s_.frames.size() || (!a.own_geometry && a.geometry_index >= s_.geometries.size()))
        return err(fmt::format("Atomic {}", i), atomic_offsets_[i],
                   fmt::format("frame {} / geometry {} out of range ({} frames, {} geometries) (R20)", a.frame_index,
                               a.geometry_index, s_.frames.size(), s_.geometries.size()));
    }
    std::sort(plugins_.begin(), plugins_.end());
    plugins_.erase(std::unique(plugins_.begin(), plugins_.end()), plugins_.end());
    s_.plugins = plugins_;
    return std::move(s_);
  }

 private:
  // A struct's body as a reader whose errors give absolute offsets.
  ByteReader body_reader(const Child& st) const { return records::le_reader(st.body, base_ + st.body_offset()); }

  // The record T that the first child of `parent`, a Struct of at least T::kSize bytes, opens with.
  template <Record T>
  Result<T> head(const std::vector<Child>& kids, const Child& parent, std::string_view structure) const {
    ASSAY_TRY(Child st, first_struct(kids, parent, T::kSize));
    return read_record<T>(body_reader(st), 0, structure);
  }

  // spec: #rw-7-1: the 12-byte struct {atomics, lights, cameras}, or 4 bytes {atomics} in old streams
  Result<void> clump_struct(const std::vector<Child>& kids) {
    const ByteView cs = !kids.empty() && kids[0].h.type == id::kStruct ? kids[0].body : ByteView{};
    if (const auto c = records::leading<records::ClumpStruct>(cs)) {
      s_.struct_atomic_count = c->atomics, s_.light_count = c->lights, s_.camera_count = c->cameras;
    } else if (const auto c1 = records::leading<records::ClumpStructV1>(cs)) {
      s_.struct_atomic_count = c1->atomics;
    } else {
      return err("Clump", 0, "the first child is not a Struct holding the atomic count");
    }
    return {};
  }

  Result<void> extension(const Child& ext, std::vector<std::uint32_t>* ids,
                         std::string_view* node_name = nullptr, GeometrySummary* g = nullptr) {
    ASSAY_TRY(auto kids, detail::read_children(b_, ext.offset, base_));
    for (const Child& k : kids) {
      plugins_.push_back(k.h.type);
      if (ids) ids->push_back(k.h.type);
      if (k.h.type == id::kNodeName && node_name)  // not NUL-terminated: the size is the length
        *node_name = std::string_view(reinterpret_cast<const char*>(k.body.data()), k.body.size());
      const auto m = k.h.type == id::kBinMesh && g ? records::leading<records::BinMeshHeader>(k.body) : std::nullopt;
      if (m) {
        g->has_bin_mesh = true;
        g->mesh_flags = m->flags, g->mesh_count = m->meshes, g->mesh_indices = m->indices;
      }
    }
    return {};
  }

  Result<void> frame_list(const Child& fl) {  // spec: #rw-7-1
    ASSAY_TRY(auto kids, detail::read_children(b_, fl.offset, base_));
    ASSAY_TRY(Child st, first_struct(kids, fl, records::ListCount::kSize));
    ASSAY_TRY(const records::ListCount count, read_record<records::ListCount>(body_reader(st), 0, "Frame List struct"));
    const std::uint32_t n = count.count;
    const auto frames = RecordTable<records::Frame>::open(body_reader(st), 4, n, "Frame List struct");
    if (!frames)
      return err("Frame List struct", st.offset,
                 fmt::format("{} frames need {} bytes but the struct holds {}", n, 4 + 56ull * n, st.body.size()));
    s_.frames.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) {
      const records::Frame fr = (*frames)[i];
      FrameSummary& f = s_.frames[i];
      for (int k = 0; k < 3; ++k) f.position[k] = fr.position[static_cast<std::size_t>(k)];
      f.parent = fr.parent;
      f.flags = fr.flags;
    }
    std::uint32_t fi = 0;
    for (std::size_t i = 1; i < kids.size(); ++i) {
      if (kids[i].h.type != id::kExtension) continue;
      std::string_view name;
      ASSAY_CHECK(extension(kids[i], nullptr, &name));
      if (fi < n) s_.frames[fi].node_name = name;
      ++fi;
    }
    if (fi != n)
      detail::report(diag_, Severity::warning, "Frame List", base_ + fl.offset,
                     fmt::format("{} frames but {} frame extensions", n, fi));
    return {};
  }

  Result<void> geometry_list(const Child& gl) {
    ASSAY_TRY(auto kids, detail::read_children(b_, gl.offset, base_));
    ASSAY_TRY(const records::ListCount count, head<records::ListCount>(kids, gl, "Geometry List struct"));
    const std::uint32_t n = count.count;
    std::uint32_t found = 0;
    for (std::size_t i = 1; i < kids.size(); ++i) {
      if (kids[i].h.type != id::kGeometry) {
        detail::report(diag_, Severity::warning, describe(kids[i].h.type), base_ + kids[i].offset,
                       "unexpected child of a Geometry List");
        continue;
      }
      ASSAY_CHECK(geometry(kids[i]));
      ++found;
    }
    if (found != n)
      return err("Geometry List", gl.offset,
                 fmt::format("struct says {} geometries but {} Geometry sections follow", n, found));
    return {};
  }

  // spec: #rw-7-2, R21
  Result<void> geometry(const Child& gc) {
    ASSAY_TRY(auto kids, detail::read_children(b_, gc.offset, base_));
    ASSAY_TRY(Child st, first_struct(kids, gc, records::GeometryStruct::kSize));
    GeometrySummary g;
    g.offset = base_ + gc.offset;
    ASSAY_TRY(const auto gs, read_record<records::GeometryStruct>(body_reader(st), 0, "Geometry struct"));
    g.format_flags = gs.format_flags;
    g.triangles = gs.triangles;
    g.vertices = gs.vertices;
    g.morph_targets = gs.morph_targets;
    g.native = (g.format_flags & 0x01000000u) != 0;
    g.uv_sets = (g.format_flags >> 16) & 0xFF;
    if (g.uv_sets == 0) g.uv_sets = (g.format_flags & 0x80) ? 2 : (g.format_flags & 0x04) ? 1 : 0;
    if (!g.native) ASSAY_CHECK(check_geometry_struct(st, g));
    for (std::size_t i = 1; i < kids.size(); ++i) {
      const Child& k = kids[i];
      if (k.h.type == id::kMaterialList) ASSAY_CHECK(material_list(k, g));
      else if (k.h.type == id::kExtension) ASSAY_CHECK(extension(k, &g.extensions, nullptr, &g));
    }
    s_.geometries.push_back(std::move(g));
    return {};
  }

  Result<void> check_geometry_struct(const Child& st, const GeometrySummary& g) {
    const std::uint64_t v = g.vertices, t = g.triangles;
    std::uint64_t need = 16 + (version_ < 0x34000 ? 12 : 0);
    auto add = [&](std::uint64_t count, std::uint64_t each) {
      std::uint64_t n = 0;
      if (!mul_ok(count, each, n) || n > ~std::uint64_t{0} / 2) return false;
      need += n;
      return true;
    };
    auto short_struct = [&](std::string what) {
      return err("Geometry struct", st.offset,
                 fmt::format("{} bytes are too few for {} ({} vertices, {} triangles) (R21)", st.body.size(), what,
                             v, t));
    };
    if (!add((g.format_flags & 0x08) ? v : 0, 4) || !add(std::uint64_t{g.uv_sets} * v, 8) || !add(t, 8))
      return short_struct("the counts");
    for (std::uint32_t m = 0; m < g.morph_targets; ++m) {
      const auto mt = read_record<records::MorphTarget>(body_reader(st), need, "Geometry struct");
      if (!mt) return short_struct(fmt::format("morph target {}", m));
      const std::uint32_t has_v = mt->has_vertices, has_n = mt->has_normals;
      need += records::MorphTarget::kSize;
      if (!add(has_v ? v : 0, 12) || !add(has_n ? v : 0, 12)) return short_struct("the morph targets");
      if (need > st.body.size()) return short_struct(fmt::format("morph target {}", m));
    }
    if (need > st.body.size()) return short_struct("the arrays its flags and counts need");
    return {};
  }

  Result<void> material_list(const Child& ml, GeometrySummary& g) {  // spec: #rw-7-2, R19
    ASSAY_TRY(auto kids, detail::read_children(b_, ml.offset, base_));
    ASSAY_TRY(Child st, first_struct(kids, ml, records::ListCount::kSize));
    ASSAY_TRY(const records::ListCount count, read_record<records::ListCount>(body_reader(st), 0, "Material List struct"));
    const std::uint32_t n = count.count;
    ASSAY_TRY(const auto indices, RecordTable<records::MaterialIndex>::open(body_reader(st), 4, n, "Material List struct"));
    std::vector<std::uint32_t> materials;  // child index of each new material
    for (std::size_t i = 1; i < kids.size(); ++i)
      if (kids[i].h.type == id::kMaterial) materials.push_back(static_cast<std::uint32_t>(i));
    std::vector<MaterialSummary> out;
    std::size_t next_new = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::int32_t idx = indices[i].index;
      if (idx < 0) {
        if (next_new >= materials.size())
          return err("Material List", ml.offset,
                     fmt::format("more -1 entries than the {} Material sections (R19)", materials.size()));
        ASSAY_TRY(MaterialSummary m, material(kids[materials[next_new++]]));
        out.push_back(m);
      } else {
        if (static_cast<std::uint32_t>(idx) >= i)
          return err("Material List", ml.offset, fmt::format("entry {} reuses material {} (R19)", i, idx));
        out.push_back(out[static_cast<std::size_t>(idx)]);
      }
    }
    if (next_new != materials.size())
      return err("Material List", ml.offset,
                 fmt::format("{} Material sections but {} -1 entries (R19)", materials.size(), next_new));
    g.materials = std::move(out);
    return {};
  }

  Result<MaterialSummary> material(const Child& mc) {
    ++s_.material_count;
    ASSAY_TRY(auto kids, detail::read_children(b_, mc.offset, base_));
    MaterialSummary m;
    ASSAY_TRY(const auto ms, head<records::MaterialStruct>(kids, mc, "Material struct"));
    std::copy(ms.colour.begin(), ms.colour.end(), m.color);
    m.textured = ms.textured != 0;
    for (std::size_t i = 1; i < kids.size(); ++i) {
      const Child& k = kids[i];
      if (k.h.type == id::kTexture) {
        ASSAY_TRY(auto tk, detail::read_children(b_, k.offset, base_));
        ASSAY_TRY(const auto ts, head<records::TextureStruct>(tk, k, "Texture struct"));
        m.filter_addressing = ts.filter_addressing;
        if (tk.size() >= 3 && tk[1].h.type == id::kString && tk[2].h.type == id::kString) {
          m.texture = detail::string_body(tk[1], base_, diag_);
          m.mask = detail::string_body(tk[2], base_, diag_);
        }
        for (std::size_t j = 3; j < tk.size(); ++j)
          if (tk[j].h.type == id::kExtension) ASSAY_CHECK(extension(tk[j], nullptr));
        if (!m.texture.empty() &&
            std::find(s_.texture_names.begin(), s_.texture_names.end(), m.texture) == s_.texture_names.end())
          s_.texture_names.push_back(m.texture);
      } else if (k.h.type == id::kExtension) {
        ASSAY_CHECK(extension(k, nullptr));
      }
    }
    return m;
  }

  Result<void> atomic(const Child& ac) {  // spec: #rw-7-3
    ASSAY_TRY(auto kids, detail::read_children(b_, ac.offset, base_));
    AtomicSummary a;
    ASSAY_TRY(const auto as, head<records::AtomicStruct>(kids, ac, "Atomic struct"));
    a.frame_index = as.frame_index;
    a.geometry_index = as.geometry_index;
    a.flags = as.flags;
    for (std::size_t i = 1; i < kids.size(); ++i) {
      if (kids[i].h.type == id::kGeometry) {
        a.own_geometry = true;
        ASSAY_CHECK(geometry(kids[i]));
      } else if (kids[i].h.type == id::kExtension) {
        ASSAY_CHECK(extension(kids[i], &a.extensions));
      }
    }
    s_.atomics.push_back(std::move(a));
    atomic_offsets_.push_back(ac.offset);
    return {};
  }

  const DiagSink& diag_;
  std::uint32_t version_ = 0;
  ClumpSummary s_;
  std::vector<std::uint32_t> plugins_;
  std::vector<std::uint64_t> atomic_offsets_;
};

}  // namespace

std::uint64_t ClumpSummary::total_triangles() const {
  std::uint64_t n = 0;
  for (const auto& g : geometries) n += g.triangles;
  return n;
}

std::uint64_t ClumpSummary::total_vertices() const {
  std::uint64_t n = 0;
  for (const auto& g : geometries) n += g.vertices;
  return n;
}

Result<ClumpSummary> summarize_clump(ByteView bytes, std::uint64_t base, const DiagSink& diag,
                                     const ClumpOptions&) {
  return ClumpReader(bytes, base, diag).run();
}

}  // namespace assay::rw
