// The oni family's JSON: the header fields of `info` and the Format record's `list`
// (docs/cli.md#oni, docs/schema/).
#include <fmt/format.h>

#include <map>

#include "assay/formats/oni/oni.h"
#include "family_parts.h"
#include "sound_parts.h"
#include "formats/serialise.h"
#include "formats/ops_json.h"

namespace assay::oni {

namespace {

std::string version_name(std::uint32_t v) {
  std::string s;
  for (int i = 3; i >= 0; --i) s += static_cast<char>(v >> (8 * i));
  return s;
}

std::string template_set(std::uint64_t c) {
  if (c == kChecksumV10) return "v1.0";
  if (c == kChecksumV11) return "v1.1";
  if (c == 0x0003BA70A8D8AE11ull || c == 0x0003BA70A8DBAE11ull) return "possibly PS2 (unverified)";
  if (c == 0x0003BCDF2E6B1681ull) return "BFW source build";
  return "unknown";
}

// Which TXMP layout the file's textures need, from the TXMP checksum (the template entry; a
// .oni's header set) and the instance sizes: v1.0 0xAC, v1.1 0xB0 (BFW), or v1.1 in OniSplit's
// 0xAC form (-import:sep; spec oni-templates.md). null without TXMP data.
Json txmp_layout(const InstanceFile& f) {
  std::uint64_t checksum = f.is_oni() ? 0 : ~std::uint64_t{0};
  for (std::uint32_t k = 0; k < f.template_count(); ++k)
    if (f.template_entry(k).tag == make_tag("TXMP")) checksum = f.template_entry(k).checksum;
  if (f.is_oni()) checksum = f.header().checksum == kChecksumV11 ? 0x8911EEB5Full : f.header().checksum == kChecksumV10 ? 0x891187581ull : 0;
  std::uint64_t short_form = 0, full = 0;
  for (std::uint32_t i = 0; i < f.instance_count(); ++i) {
    const Descriptor d = f.descriptor(i);
    if (d.tag != make_tag("TXMP") || d.placeholder() || d.size == 0) continue;
    (d.size < 0xB0 ? short_form : full) += 1;
  }
  if (short_form + full == 0) return nullptr;
  if (checksum == 0x891187581ull) return "v1.0 (0xAC, .raw pixels)";
  if (checksum != 0x8911EEB5Full) return "unknown";
  if (full == 0) return "v1.1 in OniSplit's 0xAC form (-import:sep; .sep pixels)";
  if (short_form == 0) return "v1.1 (0xB0, .sep pixels)";
  return fmt::format("v1.1: {} TXMPs in OniSplit's 0xAC form, {} of 0xB0 (.sep pixels)", short_form, full);
}

}  // namespace

Json info_fields(const InstanceFile& f, std::string_view file_name) {
  const FileHeader& h = f.header();
  Json j;
  j["version"] = version_name(h.version);
  j["checksum"] = h.checksum;
  j["template_set"] = template_set(h.checksum);
  j["instances"] = h.instance_count;
  j["names"] = h.name_count;
  j["templates"] = h.template_count;
  j["data_offset"] = h.data_offset;
  j["data_size"] = h.data_size;
  j["name_offset"] = h.name_offset;
  j["name_size"] = h.name_size;
  if (f.is_oni()) j["raw_offset"] = h.raw_offset, j["raw_size"] = h.raw_size;
  if (auto n = parse_level_file_name(file_name); n) {
    j["level"] = n->level;
    j["suffix"] = n->suffix;
    j["final"] = n->final;
    j["file_id"] = n->file_id;
  }
  Json t = Json::array();
  for (std::uint32_t k = 0; k < f.template_count(); ++k) {
    const TemplateEntry e = f.template_entry(k);
    t.push_back({{"tag", tag_string(e.tag)}, {"checksum", e.checksum}, {"count", e.count}});
  }
  j["template_entries"] = t;
  j["txmp_layout"] = txmp_layout(f);
  return j;
}

Json list_document(const InstanceFile& f) {
  Json entries = Json::array();
  for (std::uint32_t i = 0; i < f.instance_count(); ++i) {
    const Descriptor d = f.descriptor(i);
    auto nm = f.name(i);
    Json e;
    e["index"] = i;
    e["tag"] = tag_string(d.tag);
    e["name"] = d.unnamed() || !nm ? Json(nullptr) : Json(std::string(*nm));
    e["size"] = d.size;
    e["flags"] = d.flags();
    e["placeholder"] = d.placeholder();
    entries.push_back(std::move(e));
  }
  return Json{{"format", "oni"}, {"entries", entries}};
}

namespace {
Json group_json(const SoundGroup& g) {
  Json perms = Json::array();
  for (const SoundPermutation& p : g.permutations)
    perms.push_back({{"weight", p.weight}, {"volume", {p.min_volume, p.max_volume}}, {"pitch", {p.min_pitch, p.max_pitch}}, {"sound", p.sound}});
  return {{"volume", g.volume},   {"pitch", g.pitch},       {"prevent_repeats", g.prevent_repeats}, {"last_selected", g.last_selected},
          {"channels", g.channels}, {"permutations", perms}};
}
}  // namespace

Json sound_binding_json(const SoundBinding& s) {
  Json j{{"kind", tag_string(s.kind)}, {"version", s.version}, {"size", s.size}};
  if (s.group) j.update(group_json(*s.group));
  return j;
}

Json edit_json(const InstanceEditReport& r) {
  Json lines = Json::array();
  for (const InstanceEditLine& c : r.changes) {
    Json j{{"op", "replace"}, {"name", c.name}, {"index", c.index}, {"source", c.source}};
    const std::pair<const char*, const std::optional<std::uint64_t>*> fields[] = {
        {"instances", &c.instances}, {"old_size", &c.old_size},         {"new_size", &c.new_size},
        {"width", &c.width},         {"height", &c.height},             {"pixel_format", &c.pixel_format},
        {"mips", &c.mips},           {"pixel_offset", &c.pixel_offset}, {"pixel_bytes", &c.pixel_bytes}};
    for (const auto& [key, v] : fields)
      if (*v) j[key] = **v;
    lines.push_back(std::move(j));
  }
  return Json{{"format", "oni"},         {"input", r.input},
              {"output", r.output},      {"in_place", r.in_place},
              {"instances", r.instances}, {"bytes", r.bytes},
              {"raw_appended", r.raw_appended}, {"sep_appended", r.sep_appended},
              {"changes", std::move(lines)}};
}

}  // namespace assay::oni

namespace assay {

namespace fs = std::filesystem;

// Each problem names its file (null for the set); a level lists those of files named as its own
// (level<N>_*.dat: the loaded ones and those left out, e.g. for a colliding file id).
Json oni_check_json(const oni::CheckReport& r) {
  Json problems = Json::array();
  std::map<unsigned, Json> by_level;
  for (const auto& d : r.diags.items()) {
    Json j = problem_json(d);
    j["file"] = d.where.file.empty() ? Json(nullptr) : Json(d.where.file);
    if (auto n = oni::parse_level_file_name(fs::path(d.where.file).filename().string())) by_level[n->level].push_back(j);
    problems.push_back(std::move(j));
  }
  Json levels = Json::array();
  for (const auto& l : r.levels)
    levels.push_back({{"file", l.files.empty() ? Json(nullptr) : Json(l.files[0])},
                      {"files", l.files},
                      {"level", l.level},
                      {"instances", l.instances},
                      {"placeholders", l.placeholders},
                      {"links", l.links},
                      {"into_level0", l.into_level0 ? Json(*l.into_level0) : Json(nullptr)},
                      {"unresolved", l.unresolved},
                      {"errors", l.problems},
                      {"problems", by_level.count(l.level) ? by_level[l.level] : Json::array()}});
  return {{"format", "oni"},
          {"levels", levels},
          {"all", {{"levels", r.levels.size()}, {"instances", r.instances}, {"links", r.links}, {"hash", r.hash}}},
          {"problems", problems}};
}

}  // namespace assay
