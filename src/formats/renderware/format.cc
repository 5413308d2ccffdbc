// The renderware record for the CLI: identify, info, list, verify, extract, write_samples.
// spec: renderware.md (all); docs/cli.md "### renderware" documents the JSON.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "assay/formats/format.h"
#include "assay/formats/renderware/clump.h"
#include "assay/formats/renderware/edit.h"
#include "assay/formats/renderware/texture.h"
#include "assay/formats/renderware/verify.h"
#include "assay/formats/renderware/walker.h"
#include "assay/formats/renderware/writer.h"
#include "assay/image/dxt.h"
#include "cut_dictionary.h"

namespace assay {

namespace {

using namespace rw;

// spec: #rw-real "Identify by content": the sections a stream starts with.
bool top_level_id(std::uint32_t t) {
  return t == id::kClump || t == id::kTextureDictionary || t == id::kWorld || t == id::kAtomic ||
         t == id::kUvAnimDictionary || t == id::kGeometry || t == id::kTextureNative || t == id::kGeometryList;
}

// A library stamp of a RenderWare 3.0-3.7 stream (spec: #rw-2-2, #rw-real): the new form from
// 3.1.0.1 to 3.7.x, and the old form (no high bits) for every version 3.0-3.7 it unpacks to.
// spec: renderware.md#rw-2-2 says the old form stops at 3.1.0.0 (0x300-0x310): too narrow
// (issue 29 item 7). RenderWare unpacks any stamp without high bits as version = stamp << 8
// (librw rwbase.h libraryIDUnpackVersion), and a shipped Xbox GTA III mod stamps every chunk
// 0x350 (3.5.0.0), which librw reads. So 0x300-0x37F; 0x250 (2.5) or 0x400 (4.0) stay refused.
bool known_stamp(std::uint32_t stamp) {
  const Version v = decode_stamp_raw(stamp);
  if (v.old_form) return v.version >= 0x30000 && v.version <= 0x37FFF;
  return v.version > 0x31000 && v.version <= 0x37FFF;
}

std::string lower_ext(const Input& in) {
  std::string e = in.path.extension().string();
  if (e.empty()) {
    const auto dot = in.name.rfind('.');
    if (dot != std::string::npos) e = in.name.substr(dot);
  }
  std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return std::tolower(c); });
  return e;
}

// A plausible section at `off`: a known stamp and a size that fits.
bool plausible_at(ByteView b, std::uint64_t off, std::uint64_t end) {
  auto h = read_section_header(b, off);
  return h && known_stamp(h->stamp) && h->size <= end - off - SectionHeader::kSize;
}

// By content only (spec: #rw-real): a known top-level id, a known stamp, a size that fits, and a
// container's first child that looks like a section with the same stamp. The extension raises
// the score of a stream that already qualifies; it never makes one (mh2_ps2_DSFE.TXD is Z2HM).
int identify(const Input& in) {
  const ByteView b = in.bytes;
  if (in.is_directory || b.size() < SectionHeader::kSize) return 0;
  // a texture dictionary the end of the file cuts is still one (issue 29 item 4)
  if (rw::detail::cut_dictionary_header(b, known_stamp)) return lower_ext(in) == ".txd" ? 90 : 60;
  if (!plausible_at(b, 0, b.size())) return 0;
  const SectionHeader h = *read_section_header(b, 0);
  if (!top_level_id(h.type)) return 0;
  if (h.size < SectionHeader::kSize) return 0;  // every top-level section above holds children
  auto c = read_section_header(b, SectionHeader::kSize);
  if (!c || c->stamp != h.stamp || !plausible_at(b, SectionHeader::kSize, SectionHeader::kSize + h.size)) return 0;
  const std::string ext = lower_ext(in);
  return ext == ".txd" || ext == ".dff" ? 100 : 80;
}

Json version_json(std::uint32_t stamp) {
  const Version v = decode_stamp_raw(stamp);
  return Json{{"stamp", stamp}, {"version", v.str()}};
}

// The top-level sections only: the walk keeps nothing else, so info and list stay small on a
// stream of hundreds of MB (spec: #rw-real "Memory").
struct TopLevel {
  std::vector<Section> top;
  WalkSummary summary;
  [[nodiscard]] const Section& first() const { return top.front(); }
};

Result<TopLevel> top_level(const Input& in, const DiagSink& d = {}) {
  TopLevel t;
  const SectionVisitor keep = [&t](const Section& s) {
    if (s.depth == 0) t.top.push_back(s);
  };
  ASSAY_TRY(t.summary, walk_each(in.bytes, 0, d, {}, keep));
  return t;
}

// Every top-level clump summarised, in file order (spec: #rw-real "Several top-level clumps").
Result<std::vector<ClumpSummary>> clumps_of(const Input& in, const TopLevel& t) {
  std::vector<ClumpSummary> out;
  for (const Section& s : t.top) {
    if (s.header.type != id::kClump) continue;
    ASSAY_TRY(ByteView v, section_bytes(in.bytes, s.offset));
    ASSAY_TRY(ClumpSummary c, summarize_clump(v, s.offset));
    out.push_back(std::move(c));
  }
  return out;
}

Json texture_json(const TextureNative& t, std::size_t i) {
  Json e;
  e["index"] = i;
  e["name"] = std::string(t.name);
  e["kind"] = "texture";
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
  e["offset"] = t.offset;
  e["decodable"] = t.unsupported.empty();
  if (!t.unsupported.empty()) e["unsupported"] = t.unsupported;
  if (!t.error.empty()) e["error"] = t.error;
  return e;
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

Json geometry_json(const GeometrySummary& g) {
  Json j{{"offset", g.offset},         {"format_flags", g.format_flags}, {"triangles", g.triangles},
         {"vertices", g.vertices},     {"morph_targets", g.morph_targets}, {"native", g.native},
         {"materials", g.materials.size()}};
  Json tex = Json::array();
  for (const auto& m : g.materials)
    if (m.textured && !m.texture.empty()) tex.push_back(std::string(m.texture));
  j["textures"] = tex;
  if (g.has_bin_mesh) j["bin_mesh"] = {{"flags", g.mesh_flags}, {"meshes", g.mesh_count}, {"indices", g.mesh_indices}};
  return j;
}

// info of a cut dictionary: what its header says, what is intact and where it is cut.
Result<Json> cut_info(const Input& in) {
  ASSAY_TRY(rw::detail::CutDictionary c, rw::detail::open_cut_dictionary(in.bytes));
  const SectionHeader top = *read_section_header(in.bytes, 0);  // cut_dictionary_header read it
  Json j;
  j["format"] = "renderware";
  j["top_id"] = top.type;
  j["top_name"] = std::string(section_name(top.type));
  j["top_size"] = top.size;
  j.update(version_json(top.stamp));
  j["stamp_hex"] = fmt::format("0x{:08X}", top.stamp);
  j["kind"] = "texture_dictionary";
  j["textures"] = c.declared();
  j["device_id"] = c.dict.device_id();
  j["device"] = std::string(device_name(c.dict.device_id()));
  j.update(c.fields());
  return j;
}

Result<Json> info(const Input& in, const ReadOptions&) {
  if (rw::detail::cut_dictionary_header(in.bytes, known_stamp)) return cut_info(in);
  ASSAY_TRY(TopLevel t, top_level(in));
  const Section& top = t.first();
  Json j;
  j["format"] = "renderware";
  j["top_id"] = top.header.type;
  j["top_name"] = std::string(section_name(top.header.type));
  j["top_size"] = top.header.size;
  j.update(version_json(top.header.stamp));
  j["stamp_hex"] = fmt::format("0x{:08X}", top.header.stamp);
  j["top_sections"] = t.top.size();
  j["sections"] = t.summary.sections;
  j["max_depth"] = t.summary.max_depth;
  j["stream_end"] = t.summary.stream_end;
  j["padding"] = t.summary.padding;
  if (top.header.type == id::kTextureDictionary) {
    TextureOptions to;
    to.keep_going = true;
    ASSAY_TRY(auto d, TextureDictionary::open(in.bytes, 0, {}, to));
    j["kind"] = "texture_dictionary";
    j["textures"] = d.texture_count();
    j["device_id"] = d.device_id();
    j["device"] = std::string(device_name(d.device_id()));
    std::size_t bad = 0;
    for (const auto& tex : d.textures()) bad += !tex.error.empty();
    if (bad) j["unreadable_textures"] = bad;
  } else if (top.header.type == id::kClump) {
    ASSAY_TRY(auto cs, clumps_of(in, t));
    j.update(clump_json(cs));
  }
  return j;
}

// list of a cut dictionary: the intact textures, then where it is cut (an error: exit 1).
Result<Json> cut_list(const Input& in) {
  ASSAY_TRY(rw::detail::CutDictionary c, rw::detail::open_cut_dictionary(in.bytes));
  Json j;
  j["format"] = "renderware";
  j["kind"] = "texture_dictionary";
  j["device_id"] = c.dict.device_id();
  j.update(c.fields());
  Json entries = Json::array();
  for (std::size_t i = 0; i < c.intact(); ++i) entries.push_back(texture_json(c.dict.textures()[i], i));
  j["entries"] = std::move(entries);
  return j;
}

Result<Json> list(const Input& in, const ReadOptions&) {
  if (rw::detail::cut_dictionary_header(in.bytes, known_stamp)) return cut_list(in);
  ASSAY_TRY(TopLevel t, top_level(in));
  const Section& top = t.first();
  Json j;
  j["format"] = "renderware";
  Json entries = Json::array();
  if (top.header.type == id::kTextureDictionary) {
    TextureOptions to;
    to.keep_going = true;  // a bad texture is listed with its error (spec: #rw-real)
    ASSAY_TRY(auto d, TextureDictionary::open(in.bytes, 0, {}, to));
    j["kind"] = "texture_dictionary";
    j["device_id"] = d.device_id();
    for (std::size_t i = 0; i < d.textures().size(); ++i) entries.push_back(texture_json(d.textures()[i], i));
  } else if (top.header.type == id::kClump) {
    // one entry per atomic of every clump, with its clump, frame and geometry (docs/cli.md)
    ASSAY_TRY(auto cs, clumps_of(in, t));
    j.update(clump_json(cs));
    Json geos = Json::array();
    for (std::size_t ci = 0; ci < cs.size(); ++ci) {
      const ClumpSummary& c = cs[ci];
      for (std::size_t i = 0; i < c.atomics.size(); ++i) {
        const AtomicSummary& a = c.atomics[i];
        Json e;
        e["index"] = entries.size();
        const std::string_view node = a.frame_index < c.frames.size() ? c.frames[a.frame_index].node_name : "";
        e["name"] = node.empty() ? fmt::format("atomic{}", entries.size()) : std::string(node);
        e["kind"] = "atomic";
        e["clump"] = ci;
        e["frame"] = a.frame_index;
        e["geometry"] = a.geometry_index;
        e["flags"] = a.flags;
        if (a.geometry_index < c.geometries.size()) {
          const Json g = geometry_json(c.geometries[a.geometry_index]);
          e["triangles"] = g["triangles"];
          e["vertices"] = g["vertices"];
          e["materials"] = g["materials"];
          e["textures"] = g["textures"];
          e["native"] = g["native"];
        }
        entries.push_back(std::move(e));
      }
      for (const auto& g : c.geometries) {
        Json gj = geometry_json(g);
        gj["clump"] = ci;
        geos.push_back(std::move(gj));
      }
    }
    j["geometry_list"] = geos;
  } else {
    j["kind"] = "stream";
    for (std::size_t i = 0; i < t.top.size(); ++i) {
      const Section& s = t.top[i];
      entries.push_back({{"index", i},
                         {"name", std::string(section_name(s.header.type))},
                         {"kind", "section"},
                         {"id", s.header.type},
                         {"offset", s.offset},
                         {"size", s.header.size}});
    }
  }
  j["entries"] = std::move(entries);
  return j;
}

// A bar over the stream's bytes (core Progress; drawn only when opt.progress).
void verify(const Input& in, const ReadOptions& opt, Diagnostics& out) {
  if (rw::detail::cut_dictionary_header(in.bytes, known_stamp)) {  // where it is cut, then the intact textures
    Diagnostics content;
    auto c = rw::detail::open_cut_dictionary(in.bytes, content.sink());
    out.add(c ? c->diagnostic() : Diagnostic{Severity::error, c.error()});
    out.append(content);
    return;
  }
  Progress bar("verify", in.bytes.size(), opt.progress);
  bar.set_bytes();
  VerifyOptions vo;
  vo.progress = bar.reporter();
  verify_stream(in.bytes, 0, out.sink(), vo);
  bar.finish();
}

std::string texture_file_name(const TextureNative& t, std::size_t i, std::set<std::string>& used) {
  std::string base = t.name.empty() ? fmt::format("texture{}", i) : std::string(t.name);
  if (!used.insert(base).second) {
    base = fmt::format("{}.{}", base, i);
    used.insert(base);
  }
  return base;
}

// The texture dictionary's diagnostics minus the errors of single textures: those are reported
// as failed entries by extract_each (one message per bad texture).
void forward_dictionary_diags(const Diagnostics& from, const TextureDictionary& d, Diagnostics& to) {
  std::set<std::string> texture_errors;
  for (const TextureNative& t : d.textures())
    if (!t.error.empty()) texture_errors.insert(t.error);
  for (const Diagnostic& g : from.items())
    if (g.severity != Severity::error || !texture_errors.count(g.where.str())) to.add(g);
}

// Level k of texture i as a PNG: PAL4/PAL8 as an indexed PNG (PLTE + tRNS), the same RGBA as
// decode() with a quarter of the bytes to compress (issue 29 item 8); others as 8-bit RGBA.
Result<ByteBuffer> level_png(const TextureDictionary& d, std::size_t i, std::uint32_t k) {
  if (is_paletted(d.textures()[i])) {
    ASSAY_TRY(image::Indexed img, d.decode_indexed(i, k));
    return image::encode_png(img);
  }
  ASSAY_TRY(image::Rgba img, d.decode(i, k));
  return image::encode_png(img);
}

// A texture assay lists but does not decode, written as its stored Texture Native section
// (NAME.rws, a RenderWare stream of its own): GameCube natives (issue 29 item 7).
bool stored_as_section(const TextureNative& t) { return t.platform == kPlatformGameCube && t.error.empty(); }

// Texture i as NAME.png (with mips, NAME.mip<k>.png for the further levels); NAME.rws for a
// texture stored_as_section.
Result<ExtractCount> write_texture(ByteView bytes, const TextureDictionary& d, std::size_t i, const std::string& name,
                                   bool mips, const OutputDir& dir) {
  const TextureNative& tex = d.textures()[i];
  if (!tex.error.empty())  // could not be read (spec: #rw-real); open() went on with the next one
    return make_error("", "", kNoOffset, tex.error);  // the reader's message, which names it
  if (stored_as_section(tex)) {
    ASSAY_TRY(ByteView section, section_bytes(bytes, tex.offset));
    ASSAY_CHECK(dir.write(name + ".rws", section));
    return ExtractCount{1, section.size()};
  }
  if (!tex.unsupported.empty())  // listed, not decoded
    return make_error(kFormat, fmt::format("texture native '{}'", tex.name), tex.offset, tex.unsupported);
  ExtractCount n;
  const std::size_t levels = mips ? tex.levels.size() : 1;
  for (std::size_t k = 0; k < levels; ++k) {
    ASSAY_TRY(ByteBuffer png, level_png(d, i, static_cast<std::uint32_t>(k)));
    ASSAY_CHECK(dir.write(k == 0 ? name + ".png" : fmt::format("{}.mip{}.png", name, k), png));
    n.files++;
    n.bytes += png.size();
  }
  return n;
}

Result<ExtractStats> extract(const Input& in, const ReadOptions& ro, const ExtractOptions& x, const OutputDir& dir,
                             Diagnostics& diags) {
  // a cut dictionary: where it is cut (an error, exit 1), then the intact textures (issue 29 item 4)
  std::optional<rw::detail::CutDictionary> cut;
  std::optional<TextureDictionary> whole;
  Diagnostics opened;
  if (rw::detail::cut_dictionary_header(in.bytes, known_stamp)) {
    ASSAY_TRY(cut, rw::detail::open_cut_dictionary(in.bytes, opened.sink()));
    diags.add(cut->diagnostic());
  } else {
    ASSAY_TRY(TopLevel t, top_level(in));
    const Section& top = t.first();
    if (top.header.type != id::kTextureDictionary) {
      Error e = make_error(kFormat, std::string(section_name(top.header.type)), top.offset,
                           "only texture dictionaries (.txd) hold files to extract");
      e.kind = ErrorKind::unsupported;
      return e;
    }
    // a texture that cannot be read or decoded is a failed entry; the others are written
    // (exit 1; spec: #rw-real)
    TextureOptions to;
    to.keep_going = true;
    ASSAY_TRY(whole, TextureDictionary::open(in.bytes, 0, opened.sink(), to));
  }
  const TextureDictionary& d = cut ? cut->dict : *whole;
  forward_dictionary_diags(opened, d, diags);
  std::vector<ExtractItem> items;
  std::vector<std::string> names;
  std::set<std::string> used;
  for (std::size_t i = 0; i < d.textures().size(); ++i) {
    const TextureNative& tex = d.textures()[i];
    names.push_back(texture_file_name(tex, i, used));
    const std::uint64_t stored = tex.levels.empty() ? 0 : tex.levels[0].data.size();
    items.push_back({std::string(tex.name), {names.back()}, names.back() + (stored_as_section(tex) ? ".rws" : ".png"),
                     stored});
  }
  auto write = [&](std::size_t i, const OutputDir& out, unsigned) {
    return write_texture(in.bytes, d, i, names[i], x.mips, out);
  };
  return extract_stats(extract_each(items, write, extract_policy(x, ro), dir));
}

image::Rgba demo_image(std::uint32_t w, std::uint32_t h, std::uint32_t colours) {
  image::Rgba img{w, h, ByteBuffer(std::size_t{w} * h * 4)};
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) {
      const std::uint32_t c = ((x / 4) + (y / 4) * 3) % colours;
      std::uint8_t* p = img.pixels.data() + (std::size_t{y} * w + x) * 4;
      p[0] = static_cast<std::uint8_t>(c * 255 / std::max<std::uint32_t>(colours - 1, 1));
      p[1] = static_cast<std::uint8_t>(255 - p[0]);
      p[2] = static_cast<std::uint8_t>((x * 8) & 0xFF);
      p[2] = static_cast<std::uint8_t>(c * 37);
      p[3] = 255;
    }
  return img;
}

Result<std::vector<std::string>> write_samples(const std::filesystem::path& dir) {
  // PS2: a PAL4 32x32 and a PAL8 64x64 texture with two mip levels (spec: #rw-5)
  ASSAY_TRY(auto t4, writer::ps2_texture_from_rgba("checker_pal4", {demo_image(32, 32, 16)}, true));
  ASSAY_TRY(auto t8, writer::ps2_texture_from_rgba("ramp_pal8", {demo_image(64, 64, 200), demo_image(32, 32, 200)}, false));
  ASSAY_TRY(ByteBuffer n4, writer::ps2_texture_native(t4));
  ASSAY_TRY(ByteBuffer n8, writer::ps2_texture_native(t8));
  const ByteBuffer ps2 = writer::texture_dictionary({n4, n8}, 6, kStampDefault);
  // PC: one DXT1 64x32 texture (D3D9, GTA convention raster 0x200)
  writer::D3d9Texture dt;
  dt.name = "tiles_dxt1";
  dt.width = 64;
  dt.height = 32;
  dt.d3d_format = d3d::kDxt1;
  dt.levels = {image::encode_bc1(demo_image(64, 32, 6))};
  ASSAY_TRY(ByteBuffer nd, writer::d3d9_texture_native(dt));
  const ByteBuffer pc = writer::texture_dictionary({nd}, 2, kStampGtaSa);
  const ByteBuffer dff = writer::clump({.frames = 2, .geometries = {{4, 2, "checker_pal4"}}, .node_names = {"root", "body"}});
  std::vector<std::string> names;
  for (const auto& [n, b] : {std::pair{"rw_ps2.txd", &ps2}, {"rw_pc_dxt1.txd", &pc}, {"rw_model.dff", &dff}}) {
    ASSAY_CHECK(write_file_atomic(dir / n, *b, true));
    names.emplace_back(n);
  }
  return names;
}

}  // namespace

const Format kRenderWareFormat = {
    .name = "renderware",
    .description = "RenderWare binary stream (.txd .dff)",
    .identify = identify,
    .info = info,
    .list = list,
    .verify = verify,
    .extract = extract,
    .write_samples = write_samples,
    .list_columns = {"index", "name", "platform", "width", "height", "depth", "format", "mips", "triangles",
                     "vertices"},
    .edit = rw::edit_format,  // texture dictionaries (issue 16): src/formats/renderware/edit.cc
};

}  // namespace assay
