// The warriors family's JSON: info fields, classify counts, a load's result and the entry it
// loaded. Shapes: docs/cli.md#warriors; spec: warriors.md#wr-5-4 (a load's records).
#include <fmt/format.h>

#include <array>
#include <map>

#include "assay/container.h"

#include "family_parts.h"
#include "formats/serialise.h"

namespace assay::warriors {

namespace {

Json header_json(const ContainerHeader& h) {
  return Json{{"count", h.count}, {"size", h.size}, {"zero", h.zero}, {"id", h.id}};
}

// A chunk's group: null in a flat container (the record's -1).
Json group_json(std::int32_t group) { return group < 0 ? Json(nullptr) : Json(group); }

}  // namespace

Json disc_info_fields(const Disc& disc) {
  Json j{{"source", to_string(disc.source())}, {"entry_count", disc.count()},
         {"dir_size", disc.dir_bytes().size()}, {"wad_size", disc.wad_bytes().size()}};
  j.update(wad_truncation_fields(disc));
  return j;
}

Result<Json> chunk_info_fields(const Input& in) {
  ByteReader r(in.bytes, Endian::little, kFormat);
  ASSAY_TRY(std::uint32_t count, r.u32(0, "container header"));
  const ExactInfo as_pack = check_exact_pack(in.bytes);
  const bool pack = as_pack.exact;
  const ExactInfo x = pack ? as_pack : check_exact_resource(in.bytes);
  return Json{{"container", pack ? "pack" : "resource"},
              {"header", header_json({count, *r.u32(4, ""), *r.u32(8, ""), *r.u32(12, "")})},
              {"exact", x.exact},
              {"size", in.bytes.size()}};
}

Json kind_counts_json(const Disc& disc, std::span<const EntryKind> kinds) {
  const std::uint32_t n = disc.count();
  std::array<std::uint64_t, kEntryKindCount> count{}, bytes{};
  for (std::uint32_t i = 0; i < n; ++i) {
    ++count[static_cast<int>(kinds[i])];
    bytes[static_cast<int>(kinds[i])] += disc.entry(i).size;
  }
  Json counts = Json::object(), sizes = Json::object();
  for (int k = 0; k < kEntryKindCount; ++k) {
    counts[std::string(to_string(static_cast<EntryKind>(k)))] = count[k];
    sizes[std::string(to_string(static_cast<EntryKind>(k)))] = bytes[k];
  }
  return Json{{"format", kFormat}, {"entry_count", n}, {"counts", counts}, {"bytes", sizes}};
}

Json loaded_entry_json(const DirEntry& e, const NameTable& names, EntryKind kind) {
  const std::string* name = names.find(e.hash);
  return {{"index", e.index}, {"name", name ? Json(*name) : Json(nullptr)}, {"path", entry_file_name(e, names)},
          {"offset", e.offset}, {"size", e.size}, {"stored_size", e.size}, {"kind", to_string(kind)},
          {"hash", e.hash}};
}

Json load_result_json(const LoadResult& r, std::uint64_t base) {
  Json j;
  j["format"] = kFormat;
  j["container"] = to_string(r.shape);  // the loader (as list's "container")
  j["ok"] = r.ok();
  j["header"] = header_json(r.header);
  j["chunks"] = r.chunks.size();
  std::map<std::uint32_t, std::uint64_t> per_type;
  for (const auto& c : r.chunks) ++per_type[c.header.type];
  Json counts = Json::array();
  for (auto [t, n] : per_type) counts.push_back({{"type", t}, {"name", chunk_type_name(t)}, {"count", n}});
  j["chunk_counts"] = counts;
  Json records = Json::array();  // spec: #wr-5-4 step 3: one record per chunk
  for (const auto& c : r.chunks)
    records.push_back({{"index", c.index}, {"group", group_json(c.group)}, {"offset", base + c.offset}, {"type", c.header.type},
                       {"size", c.header.size}, {"zero", c.header.zero}, {"id", c.header.id}, {"stream_read", c.stream_read}});
  j["chunk_records"] = records;
  if (r.shape == ContainerShape::grouped) {
    j["groups"] = r.group_ids.size();
    j["ended_by_zero_group"] = r.ended_by_zero_group;
  }
  Json stack = Json::array();
  for (const auto& c : r.stacks.chunks()) {
    Json s{{"type", c.type}, {"name", chunk_type_name(c.type)}, {"offset", base + c.offset}, {"size", c.data.size()}, {"id", c.id}};
    std::visit([&](const auto& v) {
      using T = std::decay_t<decltype(v)>;
      if constexpr (std::is_same_v<T, ClumpValue>) s["value"] = {{"kind", "clump"}, {"atomics", v.atomics}, {"stamp", v.section.stamp}};
      else if constexpr (std::is_same_v<T, TexDictValue>) s["value"] = {{"kind", "texture_dictionary"}, {"textures", v.textures}};
      else if constexpr (std::is_same_v<T, WorldValue>) s["value"] = {{"kind", "world"}};
      else if constexpr (std::is_same_v<T, SpritePage>)
        s["value"] = {{"kind", "sprite_page"}, {"rects", v.rects}, {"first_glyph", v.first_glyph}, {"textures", v.dictionary.textures}};
      else s["value"] = nullptr;
    }, c.value);
    stack.push_back(std::move(s));
  }
  j["chunk_stack"] = stack;
  Json objects = Json::array();
  for (const auto& o : r.stacks.objects()) {
    Json oj{{"type", object_kind(o)}};
    std::visit([&](const auto& v) {
      using T = std::decay_t<decltype(v)>;
      if constexpr (std::is_same_v<T, Animation>) oj.update({{"name", v.name}, {"duration", v.duration}, {"channels", v.channels}});
      else if constexpr (std::is_same_v<T, CollisionMesh>)
        oj.update({{"cells", {v.nx, v.ny, v.nz}}, {"triangles", v.triangles}, {"vertices", v.vertices}});
      else if constexpr (std::is_same_v<T, Character>) {
        Json clips = Json::array();
        for (const auto& a : v.clips) clips.push_back(a.name);
        oj.update({{"clips", clips}, {"default_slots", v.default_slots}, {"anim_ranges", v.anim_ranges}});
      } else if constexpr (std::is_same_v<T, WorldObject>) oj["textures"] = v.textures.textures;
      else if constexpr (std::is_same_v<T, GameObjectList>)
        oj.update({{"list_bytes", v.list_bytes}, {"definition_bytes", v.definition_bytes}, {"instance_bytes", v.instance_bytes}});
      else if constexpr (std::is_same_v<T, Level>)
        oj.update({{"triangles", v.mesh.triangles}, {"vertices", v.mesh.vertices}, {"occluders", v.occluders},
                   {"skyline_atomics", v.skyline.atomics}, {"sky_box_atomics", v.sky_box.atomics},
                   {"cloud_box_atomics", v.cloud_box.atomics}});
    }, o);
    objects.push_back(std::move(oj));
  }
  j["objects"] = objects;
  Json stored = Json::array();
  for (const auto& s : r.stored) {
    Json sj{{"type", s.type}, {"name", chunk_type_name(s.type)}, {"slot", s.slot}, {"offset", base + s.offset}, {"size", s.size}};
    for (const auto& [k, v] : s.fields) sj[k] = v;
    if (!s.strings.empty()) sj["strings"] = s.strings;
    stored.push_back(std::move(sj));
  }
  j["stored"] = stored;
  j["consumed"] = r.consumed;
  j["trailing"] = r.trailing;
  Json problems = Json::array();  // docs/cli.md#json: offsets absolute in the file given
  for (Diagnostic d : r.diags.items()) {
    if (d.where.offset != kNoOffset) d.where.offset += base;
    problems.push_back(problem_json(d));
  }
  j["problems"] = std::move(problems);
  if (r.error) {
    const Error& e = *r.error;
    j["error"] = {{"message", e.structure.empty() ? e.message : e.structure + ": " + e.message},
                  {"offset", e.offset == kNoOffset ? Json(nullptr) : Json(base + e.offset)}};
  }
  return j;
}

Json wad_truncation_fields(const Disc& disc) {
  Json j = Json::object();
  if (auto w = disc.wad_truncation_warning()) {
    j["warning"] = w->where.message;
    j["problems"] = Json::array({problem_json(*w)});
  }
  return j;
}

Json disc_edit_json(std::string_view input, std::string_view output, bool in_place, std::uint64_t entry_count,
                    std::uint64_t wad_bytes, const std::vector<DiscEditLine>& changes) {
  Json lines = Json::array();
  for (const DiscEditLine& c : changes) {
    Json j{{"op", c.op}, {"name", c.name ? Json(*c.name) : Json(nullptr)}, {"hash", c.hash}};
    if (c.index) j["index"] = *c.index;
    if (c.old_size) j["old_size"] = *c.old_size;
    if (c.new_size) j["new_size"] = *c.new_size;
    lines.push_back(std::move(j));
  }
  return Json{{"format", kFormat}, {"input", input}, {"output", output}, {"in_place", in_place},
              {"entry_count", entry_count}, {"wad_bytes", wad_bytes}, {"changes", std::move(lines)}};
}

}  // namespace assay::warriors
