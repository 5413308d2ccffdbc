// The igArchive's JSON (docs/cli.md#igarchive): header, name table, entry names, a cut archive.
// spec: alchemy.md#iga, #corrections C1, C7
#include <fmt/format.h>

#include <map>

#include "assay/formats/igarchive/archive.h"
#include "json.h"
#include "../json_object.h"
#include "assay/formats/igarchive/salvage.h"

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


Json entry_details_json(const Archive& a, const FileEntry& f) {
  const bool stored = f.compression == Compression::stored;
  Json j = detail::JsonObject(11)
               .add("build_path", a.version() >= 0x0A ? Json(std::string(f.path)) : Json(nullptr))
               .add("hash", f.hash)
               .add("compression", to_string(f.compression))
               .add("blocks", f.num_blocks)
               .add("table", stored ? Json(nullptr) : Json(to_string(f.table)))
               .add("first_entry", stored ? Json(nullptr) : Json(f.first_entry))
               .add("word", f.word)
               .add("ordinal", f.ordinal)
               .add("time", f.time)
               .take();
  j.update(name_entry_json(f));
  return j;
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

}  // namespace igarchive

}  // namespace assay
