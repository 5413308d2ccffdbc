// The igArchive's JSON (docs/cli.md#igarchive): header, name table, entry names, a cut archive.
// spec: alchemy.md#iga, #corrections C1, C7
#include <fmt/format.h>

#include <map>

#include "assay/formats/igarchive/archive.h"
#include "json.h"
#include "../json_object.h"
#include "assay/formats/igarchive/salvage.h"
#include "formats/serialise.h"

namespace assay {

namespace igarchive {

Json name_table_json(const Archive& a) {
  std::map<std::string_view, std::uint64_t> layouts;
  for (const FileEntry& f : a.files()) ++layouts[to_string(f.name_layout)];
  Json j;
  j["name_layout"] = layouts.size() == 1 ? Json(layouts.begin()->first) : Json(layouts.empty() ? "none" : "mixed");
  Json counts = Json::object();
  for (const auto& [l, n] : layouts) counts[std::string(l)] = n;
  j["name_layouts"] = std::move(counts);
  return j;
}

Json header_json(const Archive& a, std::uint64_t file_size) {
  const Header& h = a.header();
  Json j;
  j["file_size"] = file_size;
  j["header_size"] = header_size(h.version);
  j["toc_size"] = h.toc_size;
  j["num_files"] = h.num_files;
  j["sector_size"] = h.sector_size;
  j["hash_search_divider"] = h.divider;
  j["hash_search_slop"] = h.slop;
  j["name_table_offset"] = h.name_table_offset;
  j["name_table_size"] = h.name_table_size;
  j["num_large_blocks"] = h.num_large;
  j["num_medium_blocks"] = h.num_medium;
  j["num_small_blocks"] = h.num_small;
  j["flags"] = h.flags;
  j["case_insensitive"] = (h.flags & kFlagCaseInsensitive) != 0;
  j["name_only"] = (h.flags & kFlagNameOnly) != 0;
  j["prefix_width"] = a.prefix_width();
  j.update(name_table_json(a));  // spec: alchemy.md#corrections C1
  return j;
}

Json name_entry_json(const FileEntry& f) {
  return Json{{"name_layout", to_string(f.name_layout)}, {"name_match", to_string(f.name_match)}};
}


void print_entry_details(FieldPrinter& p, const Archive& a, const FileEntry& f) {
  const bool stored = f.compression == Compression::stored;
  if (a.version() >= 0x0A) p.field("build_path", f.path); else p.null("build_path");
  p.field("hash", f.hash).field("compression", to_string(f.compression)).field("blocks", f.num_blocks);
  if (stored) p.null("table"), p.null("first_entry");
  else p.field("table", to_string(f.table)).field("first_entry", f.first_entry);
  p.field("word", f.word).field("ordinal", f.ordinal).field("time", f.time);
  p.field("name_layout", to_string(f.name_layout)).field("name_match", to_string(f.name_match));
}

Json cut_json(const Archive& a, const Cut& c) {
  if (!c.cut()) return Json(nullptr);
  Json lost = Json::array();
  for (const LostFile& l : c.lost) {
    const FileEntry& f = a.files()[l.index];
    lost.push_back({{"index", l.index},
                    {"name", member_name(a, c, f)},
                    {"hash", f.hash},
                    {"size", f.length},
                    {"offset", l.at.offset},
                    {"end", l.at.end}});
  }
  return Json{{"file_end", c.file_end},
              {"names_lost", c.names_lost},
              {"intact", c.intact.size()},
              {"lost", std::move(lost)}};
}

namespace {

Json report_json(const EditReport& r) {
  return {{"op", r.op},
          {"name", r.name},
          {"hash", r.hash},
          {"old_size", r.op == "add" ? Json(nullptr) : Json(r.old_size)},
          {"new_size", r.op == "remove" ? Json(nullptr) : Json(r.new_size)},
          {"stored_size", r.op == "remove" || r.unchanged ? Json(nullptr) : Json(r.stored_size)},
          {"compression", to_string(r.compression)},
          {"unchanged", r.unchanged}};
}

}  // namespace

Json edit_json(std::string_view input, std::string_view output, bool in_place, std::uint64_t files, const EditResult& r) {
  Json changes = Json::array();
  for (const EditReport& c : r.changes) changes.push_back(report_json(c));
  return Json{{"format", kFormatName},
              {"input", input},
              {"output", output},
              {"in_place", in_place},
              {"files", files},
              {"bytes", r.size},
              {"copied_files", r.copied_files},
              {"encoded_blocks", r.encoded_blocks},
              {"changes", std::move(changes)}};
}

Json list_fields_json(const Archive& a, const Cut& cut) {
  Json j{{"version", a.version()}, {"byte_order", to_string(a.endian())}};
  if (cut.cut()) {  // the list verb prints "problems" and exits 1 (docs/cli.md#igarchive)
    j["truncated"] = cut_json(a, cut);
    Json problems = Json::array();
    for (const Diagnostic& d : cut_findings(a, cut)) problems.push_back(problem_json(d));
    j["problems"] = std::move(problems);
  }
  return j;
}

}  // namespace igarchive

}  // namespace assay
