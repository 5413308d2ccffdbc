// JSON views of an igz (docs/cli.md#igz). spec: alchemy.md#igz
#include "json.h"
#include "../json_object.h"

#include <fmt/format.h>

#include <cmath>
#include "formats/serialise.h"

namespace assay::igz {

namespace {

Json pool_json(const IgzFile& f, std::uint32_t pool) {
  return pool < f.pool_count() ? Json(f.pool(pool).name) : Json(nullptr);
}

Json header_json(const IgzFile& f) {
  const Header& h = f.header();
  Json j;
  j["format"] = "igz";
  j["version"] = h.version;
  j["byte_order"] = to_string(h.endian);
  j["platform"] = h.platform;
  const auto pn = platform_name(h.version, h.platform);
  j["platform_name"] = pn.empty() ? Json(nullptr) : Json(pn);
  j["pointer_size"] = h.pointer_size;
  // spec: alchemy.md#corrections C3: from MTSZ when it says, cross-checked with the platform.
  j["pointer_size_source"] = to_string(h.pointer_source);
  j["fields_hash"] = h.fields_hash;
  if (h.legacy()) j["layout_uncertain"] = true;  // spec: #igz-header-v6
  const Section& fx = h.sections[0];
  j["fixup_section"] = {{"offset", fx.offset}, {"size", fx.length}, {"alignment", fx.alignment}};
  Json pools = Json::array();
  for (std::size_t k = 0; k < f.pool_count(); ++k) {
    const Section& s = f.pool(k);
    pools.push_back({{"index", k}, {"name", s.name}, {"offset", s.offset}, {"size", s.length},
                     {"alignment", s.alignment}});
  }
  j["pools"] = pools;
  Json fixups = Json::array();
  for (const auto& r : f.records())
    fixups.push_back({{"tag", r.tag ? tag_name(r.tag) : tag_name(r.raw_tag)},
                      {"count", r.count},
                      {"offset", r.offset},
                      {"length", r.length}});
  j["fixups"] = fixups;
  return j;
}

Json externals_json(const Fixups& fx) {
  Json ids = Json::array(), names = Json::array();
  for (std::size_t i = 0; i < fx.external_ids.size(); ++i)
    ids.push_back({{"index", i},
                   {"name_hash", fx.external_ids[i].name_hash},
                   {"namespace_hash", fx.external_ids[i].namespace_hash},
                   {"name", external_id_name(fx, i)}});
  for (std::size_t i = 0; i < fx.external_names.size(); ++i) {
    const auto& e = fx.external_names[i];
    names.push_back({{"index", i},
                     {"namespace_index", e.namespace_index()},
                     {"name_index", e.name_index()},
                     {"handle", e.handle()},
                     {"name", external_name_name(fx, i)}});
  }
  return {{"ids", ids}, {"names", names}};
}

Json object_index(std::size_t i) { return i == kNoObject ? Json(nullptr) : Json(i); }

// igNames: text (null when unreadable), hash, whether it matches, and the TSTR index of the
// {TSTR index, hash} form (spec: alchemy.md#corrections C2).
Json names_json(const std::vector<NameEntry>& names) {
  Json out = Json::array();
  for (const auto& n : names) {
    Json e = {{"name", n.text ? Json(*n.text) : Json(nullptr)}, {"hash", n.hash}, {"hash_ok", n.hash_ok}};
    e["tstr_index"] = n.tstr_index ? Json(*n.tstr_index) : Json(nullptr);
    out.push_back(std::move(e));
  }
  return out;
}

Json entry_json(const IgzFile& f, const Object& o, std::size_t i) {
  return {{"index", i},
          {"offset", o.position},
          {"pool", pool_json(f, o.pool)},
          {"type", o.type_name.empty() ? Json(nullptr) : Json(o.type_name)},
          {"size", o.size},
          {"pool_index", o.pool},
          {"pool_offset", o.offset},
          {"type_index", o.type}};
}

Json objects_json(const IgzFile& f, const Graph& g) {
  Json out = Json::array();
  const auto v = f.header().version;
  for (std::size_t i = 0; i < g.objects.size(); ++i) {
    const Object& o = g.objects[i];
    Json j = entry_json(f, o, i);
    Json edges = Json::array(), strings = Json::array(), ext = Json::array();
    for (const auto& e : g.edges) {
      if (e.from != i) continue;
      const PoolOffset t = decode_pointer(v, e.target);
      edges.push_back({{"field", decode_pointer(v, e.field).offset - o.offset},
                       {"target", e.target},
                       {"target_pool", pool_json(f, t.pool)},
                       {"target_offset", t.offset},
                       {"target_object", object_index(e.to)}});
    }
    for (const auto& s : g.strings)
      if (s.from == i)
        strings.push_back({{"field", decode_pointer(v, s.field).offset - o.offset},
                           {"tag", tag_name(s.tag)},
                           {"text", s.text ? Json(*s.text) : Json(nullptr)}});
    for (const auto& x : g.externals)
      if (x.from == i)
        ext.push_back({{"field", decode_pointer(v, x.field).offset - o.offset},
                       {"tag", tag_name(x.tag)},
                       {"kind", x.kind},
                       {"index", x.valid ? Json(x.index) : Json(nullptr)},
                       {"name", x.valid ? Json(x.name) : Json(nullptr)}});
    j["edges"] = edges;
    j["strings"] = strings;
    j["externals"] = ext;
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace

Result<OpenOptions> open_options(const ReadOptions& opt) {
  OpenOptions o;
  auto it = opt.family.find("igz-pointer-size");
  if (it != opt.family.end() && !it->second.empty()) {
    if (it->second == "4") o.pointer_size = 4;
    else if (it->second == "8") o.pointer_size = 8;
    else return usage_error("--igz-pointer-size must be 4 or 8");
  }
  return o;
}

Json object_details_json(const IgzFile& f, const Object& o) {
  return assay::detail::JsonObject(5)
      .add("pool", pool_json(f, o.pool))
      .add("type", o.type_name.empty() ? Json(nullptr) : Json(o.type_name))
      .add("pool_index", o.pool)
      .add("pool_offset", o.offset)
      .add("type_index", o.type)
      .take();
}

Result<Json> info_json(ByteView bytes, const OpenOptions& opt) {
  ASSAY_TRY(IgzFile f, IgzFile::open(bytes, opt));
  Diagnostics d;
  return info_json(f, decode_fixups(f, d.sink()));
}

Json info_json(const IgzFile& f, const Fixups& fx) {
  Json j = header_json(f);
  Json ext = Json::array();  // spec: #igz-externals, "verify and info list each one"
  for (std::size_t i = 0; i < fx.external_ids.size(); ++i)
    ext.push_back(fmt::format("external exid {}: {} unresolved", i, external_id_name(fx, i)));
  for (std::size_t i = 0; i < fx.external_names.size(); ++i)
    ext.push_back(fmt::format("external exnm {}: {} unresolved", i, external_name_name(fx, i)));
  j["externals"] = ext;
  return j;
}

Result<Json> list_json(ByteView bytes, const OpenOptions& opt) {
  ASSAY_TRY(IgzFile f, IgzFile::open(bytes, opt));
  ASSAY_TRY(Fixups fx, decode_fixups(f));
  const Graph g = build_graph(f, fx, nullptr);
  Json entries = Json::array();
  for (std::size_t i = 0; i < g.objects.size(); ++i) entries.push_back(entry_json(f, g.objects[i], i));
  return Json{{"format", "igz"}, {"entries", entries}};
}

Result<Json> dump_json(ByteView bytes, const OpenOptions& opt, Diagnostics& diags) {
  auto sink = diags.sink();
  ASSAY_TRY(IgzFile f, IgzFile::open(bytes, opt, sink));
  const Fixups fx = decode_fixups(f, sink);
  const Graph g = build_graph(f, fx, sink);
  Json j = header_json(f);
  Json types = Json::array();
  for (std::size_t i = 0; i < fx.types.size(); ++i)
    types.push_back({{"index", i},
                     {"name", fx.types[i]},
                     {"size", i < fx.type_sizes.size() ? Json(fx.type_sizes[i]) : Json(nullptr)}});
  j["types"] = types;
  Json pool_strings = Json::array();
  for (const auto& s : g.strings)
    if (s.tag == tag::RSTR && s.text) pool_strings.push_back(*s.text);
  j["strings"] = {{"table", fx.strings}, {"referenced", pool_strings}};
  Json deps = Json::array();
  for (const auto& d : fx.dependencies)
    deps.push_back({{"namespace", d.name_space}, {"path", d.path}, {"build_only", d.build_only}});
  j["dependencies"] = deps;
  j["externals"] = externals_json(fx);
  Json handles = Json::array();
  for (std::size_t i = 0; i < fx.memory_handles.size(); ++i) {
    const auto& m = fx.memory_handles[i];
    if (nst_layout(f.header())) {  // spec C4: {u32 size, u32 flags}
      const MemoryV10 w = split_memory_v10(m.size_word, f.header().endian);
      handles.push_back({{"index", i}, {"size", w.size}, {"alignment", w.alignment()}, {"data", m.data}});
      continue;
    }
    const MemoryWord w = decode_memory_word(m.size_word, f.header().pointer_size);
    handles.push_back({{"index", i}, {"size", w.size}, {"alignment", w.alignment}, {"data", m.data}});
  }
  j["memory_handles"] = handles;
  j["objects"] = objects_json(f, g);
  Json edges = Json::array();  // every ROFS edge, including those from memory blocks
  for (const auto& e : g.edges)
    edges.push_back({{"field", e.field}, {"from_object", object_index(e.from)}, {"target", e.target},
                     {"target_object", object_index(e.to)}, {"valid", e.valid}});
  j["edges"] = edges;
  Json roots = Json::array();
  for (auto r : g.root_list) roots.push_back(object_index(r));
  j["root"] = {{"object", g.root ? object_index(*g.root) : Json(nullptr)}, {"list", roots}};
  j["names"] = names_json(g.names);
  Json root_entries = Json::array();  // the root objects with their names (igNameList order)
  for (std::size_t k = 0; k < g.root_list.size(); ++k) {
    const std::size_t i = g.root_list[k];
    Json e = {{"object", object_index(i)}};
    if (i != kNoObject) {
      const Object& o = g.objects[i];
      e["type"] = o.type_name.empty() ? Json(nullptr) : Json(o.type_name);
      e["pool"] = pool_json(f, o.pool);
      e["pool_offset"] = o.offset;
    }
    e["name"] = k < g.names.size() && g.names[k].text ? Json(*g.names[k].text) : Json(nullptr);
    root_entries.push_back(std::move(e));
  }
  j["root"]["entries"] = root_entries;
  // spec C5: the file's own namespace (NSPC), null when the file has none.
  if (g.namespace_list_object) {
    Json ns = {{"object", *g.namespace_list_object}, {"names", names_json(g.namespace_names)}};
    ns["name"] = !g.namespace_names.empty() && g.namespace_names[0].text ? Json(*g.namespace_names[0].text) : Json(nullptr);
    ns["hash"] = g.namespace_names.empty() ? Json(nullptr) : Json(g.namespace_names[0].hash);
    j["namespace"] = std::move(ns);
  } else {
    j["namespace"] = nullptr;
  }
  Json layouts = Json::array();
  for (ListLayout l : g.list_layouts) layouts.push_back(to_string(l));
  j["list_layouts"] = layouts;
  return j;
}


// ---- a texture entry's details ----
namespace {

Json data_json(const ImageData& d) {
  switch (d.where) {
    case ImageData::Where::pool:
      return {{"where", "pool"}, {"offset", d.offset}, {"size", d.size}, {"memory_handle", d.handle}};
    case ImageData::Where::external:
      return {{"where", "external"}, {"reference", d.reference}};
    case ImageData::Where::none:
      break;
  }
  return {{"where", "none"}};
}

}  // namespace

Json image_details_json(const Image2& img) {
  Json j = {{"width", img.width},   {"height", img.height}, {"mips", img.levels},
            {"format", img.format}, {"platform", img.platform}, {"depth", img.depth},
            {"images", img.images}};
  j["image_name"] = img.name ? Json(*img.name) : Json(nullptr);
  j["data"] = data_json(img.data);
  if (auto need = data_size(img)) j["data_needed"] = *need;
  else j["not_decoded"] = need.error().message;
  if (const std::string_view a = texel_assumption(img); !a.empty()) j["assumed"] = std::string(a);
  return j;
}

// ---- a model entry's details ----
Json model_details_json(const Model& m) {
  Json j;
  j["name"] = m.name;
  j["model_data"] = m.data_object;
  j["min"] = {m.min[0], m.min[1], m.min[2]};
  j["max"] = {m.max[0], m.max[1], m.max[2]};
  j["transforms"] = m.transforms.size();
  Json draws = Json::array();
  for (const DrawCall& d : m.draws) {
    Json x;
    x["object"] = d.object;
    if (d.name) x["name"] = *d.name;
    x["vertices"] = d.vertices.count;
    x["stride"] = d.vertices.stride;
    Json els = Json::array();
    for (const VertexElement& e : d.vertices.elements)
      els.push_back(fmt::format("{}{} {} +{}", vertex_usage_name(e.usage), e.usage_index, vertex_type_name(e.type), e.offset));
    x["elements"] = std::move(els);
    x["indices"] = d.indices.count;
    x["index_format"] = d.indices.format.empty() ? Json(nullptr) : Json(d.indices.format);
    x["primitive_count"] = d.primitive_count;
    x["min"] = {d.min[0], d.min[1], d.min[2]};
    x["max"] = {d.max[0], d.max[1], d.max[2]};
    if (!d.material.empty()) x["material"] = d.material;
    if (d.transform) x["transform"] = *d.transform;
    draws.push_back(std::move(x));
  }
  j["draw_calls"] = std::move(draws);
  return j;
}

// ---- the edit report ----
Json edit_json(std::string_view input, std::string_view output, bool in_place, const std::vector<ImageReplaced>& changes) {
  Json lines = Json::array();
  for (const ImageReplaced& r : changes) {
    const Image2& img = *r.image;
    lines.push_back(Json{{"name", r.name}, {"op", "replace"}, {"format", img.format}, {"width", img.width},
                         {"height", img.height}, {"levels", img.levels}, {"bytes", r.bytes},
                         {"psnr_db", std::isfinite(r.psnr_db) ? Json(r.psnr_db) : Json(nullptr)},
                         {"exact", !std::isfinite(r.psnr_db)}});
  }
  return Json{{"format", "igz"}, {"input", input}, {"output", output}, {"in_place", in_place}, {"changes", std::move(lines)}};
}

}  // namespace assay::igz
