// The renderware family's JSON (docs/cli.md "### renderware"; spec: renderware.md#rw-real).
#include "json.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "assay/container.h"
#include "formats/serialise.h"
#include "formats/ops_json.h"

namespace assay::rw::detail {

namespace {

Json version_json(std::uint32_t stamp) {
  const Version v = decode_stamp_raw(stamp);
  return Json{{"stamp", stamp}, {"version", v.str()}};
}

Json header_json(const SectionHeader& top) {
  Json j;
  j["top_id"] = top.type;
  j["top_name"] = std::string(section_name(top.type));
  j["top_size"] = top.size;
  j.update(version_json(top.stamp));
  j["stamp_hex"] = fmt::format("0x{:08X}", top.stamp);
  return j;
}

// The textures a geometry's materials name.
Json material_textures(const GeometrySummary& g) {
  Json tex = Json::array();
  for (const auto& m : g.materials)
    if (m.textured && !m.texture.empty()) tex.push_back(std::string(m.texture));
  return tex;
}

Json geometry_json(const GeometrySummary& g) {
  Json j{{"offset", g.offset},         {"format_flags", g.format_flags}, {"triangles", g.triangles},
         {"vertices", g.vertices},     {"morph_targets", g.morph_targets}, {"native", g.native},
         {"materials", g.materials.size()}};
  j["textures"] = material_textures(g);
  if (g.has_bin_mesh) j["bin_mesh"] = {{"flags", g.mesh_flags}, {"meshes", g.mesh_count}, {"indices", g.mesh_indices}};
  return j;
}

// One clump, or the totals of several (spec: #rw-real): counts summed, names in first-seen order.
Json clump_json(const std::vector<ClumpSummary>& cs) {
  std::uint64_t atomics = 0, lights = 0, cameras = 0, frames = 0, geometries = 0, triangles = 0, vertices = 0,
                materials = 0;
  Json tex = Json::array(), nodes = Json::array();
  std::set<std::string_view> seen_tex;
  std::set<std::uint32_t> plugins;
  for (const ClumpSummary& c : cs) {
    atomics += c.struct_atomic_count, lights += c.light_count, cameras += c.camera_count;
    frames += c.frames.size(), geometries += c.geometries.size(), materials += c.material_count;
    triangles += c.total_triangles(), vertices += c.total_vertices();
    for (auto n : c.texture_names)
      if (seen_tex.insert(n).second) tex.push_back(std::string(n));
    for (const auto& f : c.frames)
      if (!f.node_name.empty()) nodes.push_back(std::string(f.node_name));
    plugins.insert(c.plugins.begin(), c.plugins.end());
  }
  Json j;
  j["kind"] = "clump";
  j["clump_count"] = cs.size();
  j["atomic_count"] = atomics;
  j["light_count"] = lights;
  j["camera_count"] = cameras;
  j["frames"] = frames;
  j["geometries"] = geometries;
  j["triangles"] = triangles;
  j["vertices"] = vertices;
  j["materials"] = materials;
  j["textures"] = tex;
  j["node_names"] = nodes;
  j["plugins"] = Json(std::vector<std::uint32_t>(plugins.begin(), plugins.end()));
  if (cs.size() > 1) {
    Json per = Json::array();
    for (std::size_t i = 0; i < cs.size(); ++i)
      per.push_back({{"index", i},
                     {"offset", cs[i].offset},
                     {"atomics", cs[i].struct_atomic_count},
                     {"frames", cs[i].frames.size()},
                     {"geometries", cs[i].geometries.size()},
                     {"triangles", cs[i].total_triangles()},
                     {"name", cs[i].frames.empty() ? std::string() : std::string(cs[i].frames[0].node_name)}});
    j["clumps"] = per;
  }
  return j;
}

}  // namespace

Json cut_fields(const CutDictionary& c) {
  const CutSection& d = c.where.deepest();
  Json t = {{"structure", c.where.header_cut ? Json(nullptr) : Json(std::string(section_name(d.type)))},
            {"offset", d.offset},
            {"needs", d.needs},
            {"file_size", c.where.file_end},
            {"missing", c.where.missing()},
            {"textures_declared", c.declared()},
            {"textures_intact", c.intact()},
            {"cut_texture", c.cut_name.empty() ? Json(nullptr) : Json(c.cut_name)},
            {"message", c.where.message()}};
  return {{"truncated", std::move(t)}, {"problems", Json::array({problem_json(c.diagnostic())})}};
}

Json info_fields(const Stream& s) {
  if (s.cut) {  // what its header says, what is intact and where it is cut
    Json j = header_json(s.cut->header);
    j["kind"] = "texture_dictionary";
    j["textures"] = s.cut->declared();
    j["device_id"] = s.cut->dict.device_id();
    j["device"] = std::string(device_name(s.cut->dict.device_id()));
    j.update(cut_fields(*s.cut));
    return j;
  }
  const Section& top = s.top.first();
  Json j = header_json(top.header);
  j["top_sections"] = s.top.top.size();
  j["sections"] = s.top.summary.sections;
  j["max_depth"] = s.top.summary.max_depth;
  j["stream_end"] = s.top.summary.stream_end;
  j["padding"] = s.top.summary.padding;
  if (s.dict) {
    j["kind"] = "texture_dictionary";
    j["textures"] = s.dict->texture_count();
    j["device_id"] = s.dict->device_id();
    j["device"] = std::string(device_name(s.dict->device_id()));
    std::size_t bad = 0;
    for (const auto& tex : s.dict->textures()) bad += !tex.error.empty();
    if (bad) j["unreadable_textures"] = bad;
  } else if (top.header.type == id::kClump) {
    j.update(clump_json(s.clumps));
  }
  return j;
}

Json list_fields(const Stream& s) {
  Json j;
  if (const TextureDictionary* d = s.dictionary()) {
    j["kind"] = "texture_dictionary";
    j["device_id"] = d->device_id();
    if (s.cut) j.update(cut_fields(*s.cut));
  } else if (s.top_type() == id::kClump) {
    j.update(clump_json(s.clumps));
    Json geos = Json::array();
    for (std::size_t ci = 0; ci < s.clumps.size(); ++ci)
      for (const auto& g : s.clumps[ci].geometries) {
        Json gj = geometry_json(g);
        gj["clump"] = ci;
        geos.push_back(std::move(gj));
      }
    j["geometry_list"] = geos;
  } else {
    j["kind"] = "stream";
  }
  return j;
}

Json texture_details(const TextureNative& t) {
  Json e;
  e["mask"] = std::string(t.mask);
  e["platform"] = platform_name(t.platform).empty() ? Json(t.platform) : Json(platform_name(t.platform));
  e["width"] = t.width;
  e["height"] = t.height;
  e["depth"] = t.depth;
  e["format"] = t.format_name();
  e["mips"] = t.levels.empty() ? t.mip_count : static_cast<std::uint32_t>(t.levels.size());
  e["raster_format"] = t.raster_format;
  e["palette"] = t.palette_entries;
  e["filter"] = t.filter_addressing & 0xFF;
  e["addressing"] = (t.filter_addressing >> 8) & 0xFF;
  e["filter_addressing"] = t.filter_addressing;
  if (t.platform == kPlatformD3D9) e["d3d_format"] = t.d3d_format;
  if (t.platform != kPlatformPS2 && t.platform != kPlatformGameCube) e["d3d_flags"] = t.d3d_flags;
  if (t.platform == kPlatformPS2) {
    e["layout_version"] = t.ps2.layout_version;
    e["tex0"] = t.ps2.tex0;
    e["psm"] = t.ps2.psm();
    e["pixel_size"] = t.ps2.pixel_size;
    e["palette_size"] = t.ps2.palette_size;
  }
  e["decodable"] = t.unsupported.empty();
  if (!t.unsupported.empty()) e["unsupported"] = t.unsupported;
  if (!t.error.empty()) e["error"] = t.error;
  e["pixel_format"] = t.format_name();
  return e;
}

Json atomic_details(const ClumpSummary& c, std::size_t ci, const AtomicSummary& a) {
  Json e;
  e["clump"] = ci;
  e["frame"] = a.frame_index;
  e["geometry"] = a.geometry_index;
  e["flags"] = a.flags;
  if (a.geometry_index < c.geometries.size()) {
    const GeometrySummary& g = c.geometries[a.geometry_index];
    e["triangles"] = g.triangles;
    e["vertices"] = g.vertices;
    e["materials"] = g.materials.size();
    e["textures"] = material_textures(g);
    e["native"] = g.native;
    e["morph_targets"] = g.morph_targets;
    e["texcoord_sets"] = g.uv_sets;
    e["skinned"] = std::find(g.extensions.begin(), g.extensions.end(), id::kSkin) != g.extensions.end();
  }
  return e;
}

Json model_details(const ClumpSummary& c, std::size_t ci) {
  return Json{{"clump", ci},
              {"atomics", c.atomics.size()},
              {"frames", c.frames.size()},
              {"geometries", c.geometries.size()},
              {"triangles", c.total_triangles()},
              {"vertices", c.total_vertices()},
              {"textures", c.texture_names}};
}

Json section_details(const Section& s) { return Json{{"id", s.header.type}}; }

}  // namespace assay::rw::detail

namespace assay::rw {

Json dictionary_edit_json(const DictionaryEditReport& r) {
  Json list = Json::array();
  for (const TextureEditLine& t : r.changes) {
    Json c{{"op", t.op}, {"name", t.name}};
    if (t.encoded) {
      c["platform"] = t.platform;
      c["pixel_format"] = t.pixel_format;  // the texel format ("format" is the family)
      c["width"] = t.width;
      c["height"] = t.height;
      c["mips"] = t.mips;
      c["native_bytes"] = t.native_bytes;
      c["exact"] = std::isinf(t.psnr_db);
      if (!std::isinf(t.psnr_db)) c["psnr_db"] = std::round(t.psnr_db * 100) / 100;
      if (!t.note.empty()) c["note"] = t.note;
    }
    list.push_back(std::move(c));
  }
  return Json{{"textures", r.textures}, {"changes", std::move(list)}};
}

}  // namespace assay::rw

namespace assay {

Json rw_section_json(const rw::Section& s) {
  const std::string_view name = rw::section_name(s.header.type);
  return {{"offset", s.offset},
          {"id", s.header.type},
          {"name", name.empty() ? Json(nullptr) : Json(std::string(name))},  // null: an id assay does not know
          {"size", s.header.size},
          {"stamp", s.header.stamp},
          {"version", rw::decode_stamp_raw(s.header.stamp).str()},
          {"depth", s.depth},
          {"parent", s.parent < 0 ? Json(nullptr) : Json(s.parent)},
          {"container", s.container},
          {"children", s.child_count}};
}

Json walk_error_json(const Error& e) {
  return {{"message", e.structure.empty() ? e.message : e.structure + ": " + e.message},
          {"offset", e.offset == kNoOffset ? Json(nullptr) : Json(e.offset)}};
}

// Core's dump (docs/cli.md#escaping: a string that is not UTF-8 gets a "<key>_bytes" sibling).
RwTreeJsonStream::RwTreeJsonStream(std::ostream& out, std::string_view file) : out_(out) {
  std::string head = dump_json(normalise_json(Json{{"format", "renderware"}, {"file", file}}));
  head.pop_back();  // {"format":...,"file":...[,"file_bytes"]
  out_ << head << ", \"sections\": [";
}

void RwTreeJsonStream::section(const rw::Section& s) {
  out_ << (first_ ? "\n  " : ",\n  ") << dump_json(normalise_json(rw_section_json(s)));
  first_ = false;
}

void RwTreeJsonStream::problem(const Diagnostic& d) { problems_.push_back(problem_json(d)); }

void RwTreeJsonStream::finish(const Result<rw::WalkSummary>& w) {
  out_ << "\n]";
  if (w) out_ << fmt::format(", \"stream_end\": {}, \"padding\": {}, \"max_depth\": {}", w->stream_end, w->padding, w->max_depth);
  else out_ << ", \"error\": " << dump_json(normalise_json(walk_error_json(w.error())));
  out_ << ", \"problems\": " << dump_json(problems_) << "}\n";
}

}  // namespace assay
