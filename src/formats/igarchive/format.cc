// The igarchive Format record: identify, info, list, verify, extract, samples.
// spec: alchemy.md#iga
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "assay/container.h"
#include "assay/ops.h"
#include "assay/formats/format.h"
#include "assay/formats/igarchive/archive.h"
#include "assay/formats/igarchive/edit.h"
#include "assay/formats/igarchive/extract.h"
#include "assay/formats/igarchive/report.h"
#include "assay/formats/igarchive/salvage.h"
#include "assay/formats/igarchive/verify.h"
#include "assay/formats/igarchive/writer.h"
#include "records.h"

namespace assay {

namespace iga = igarchive;

namespace {

int identify(const Input& in) {
  Endian e = Endian::little;
  const auto p = iga::records::read_prefix(in.bytes, e);
  if (!p) return 0;
  return iga::is_known_version(p->version) ? 100 : 60;
}

// The fields that open both `info` and `list`.
Json archive_json(const iga::Header& h) {
  Json j;
  j["format"] = "igarchive";
  j["version"] = h.version;
  j["byte_order"] = to_string(h.endian);
  return j;
}

Result<Json> info(const Input& in, const ReadOptions&) {
  ASSAY_TRY(iga::Archive a, iga::open_strict(in.bytes, in.name, nullptr));
  Json j = archive_json(a.header());
  j.update(iga::header_json(a, in.bytes.size()));
  return j;
}

Result<Json> list(const Input& in, const ReadOptions&) {
  ASSAY_TRY(iga::Archive a, iga::open_strict(in.bytes, in.name, nullptr));
  const iga::Header& h = a.header();
  Json j = archive_json(h);
  Json entries = Json::array();
  for (const iga::FileEntry& f : a.files()) {
    Json e;
    e["index"] = f.index;
    e["name"] = std::string(f.name);
    e["path"] = f.path.empty() ? Json(nullptr) : Json(std::string(f.path));
    e["hash"] = f.hash;
    e["offset"] = f.offset;
    e["size"] = f.length;
    e["compression"] = to_string(f.compression);
    e["blocks"] = f.num_blocks;
    e["table"] = f.compression == iga::Compression::stored ? Json(nullptr) : Json(to_string(f.table));
    e["first_entry"] = f.compression == iga::Compression::stored ? Json(nullptr) : Json(f.first_entry);
    e["word"] = f.word;
    e["ordinal"] = f.ordinal;
    e["time"] = f.has_time ? Json(f.time) : Json(nullptr);
    e.update(iga::name_entry_json(f));
    entries.push_back(std::move(e));
  }
  j["entries"] = std::move(entries);
  return j;
}

void verify(const Input& in, const ReadOptions& opt, Diagnostics& out) {
  iga::VerifyOptions vo;
  vo.threads = opt.threads;
  if (auto it = opt.family.find("igarchive-max-member"); it != opt.family.end()) {
    try {
      vo.member_cap = std::stoull(it->second);
    } catch (...) {
    }
  }
  iga::verify(in.bytes, in.name, vo, out);
}

// Each member at its logical name through the shared per-entry loop (container.h
// extract_entries: selection, keep-going, --skip-existing), written by iga::write_member, which
// streams a large member through two decode windows. A cut archive (issue 29 item 4): its intact
// files are the entries, each lost one an error in `diags` (exit 1).
Result<ExtractStats> extract(const Input& in, const ReadOptions& opt, const ExtractOptions& x,
                             const OutputDir& dir, Diagnostics& diags) {
  ASSAY_TRY(ContainerOptions co, container_options(opt));
  ASSAY_TRY(std::unique_ptr<Container> c, open(in, co, "igarchive"));
  ASSAY_TRY(iga::Salvaged sv, iga::open_salvage(in.bytes, in.name, nullptr));  // entry i is file intact[i]
  const iga::Archive& a = sv.archive;
  for (const Diagnostic& d : iga::cut_findings(a, sv.cut)) diags.add(d);
  iga::MemberSettings s;
  s.member_cap = co.igarchive.member_cap;
  s.release_input_pages = !in.path.empty() && !in.is_directory;  // a read-only file mapping
  const WriteItem write = [&](std::size_t i, const OutputDir& out, unsigned threads) {
    iga::MemberSettings t = s;
    t.threads = threads;
    const iga::FileEntry& f = a.files()[sv.cut.intact[i]];
    const std::string name = sv.cut.names_lost ? iga::member_name(a, sv.cut, f) : std::string();
    t.name = name;
    return iga::write_member(a, f, out, t);
  };
  return extract_entries(*c, x, dir, write);
}

Result<std::vector<std::string>> write_samples(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& [file, opt_files] : iga::sample_archives()) {
    ASSAY_TRY(ByteBuffer bytes, iga::write_archive(opt_files.second, opt_files.first));
    ASSAY_CHECK(write_file_atomic(dir / file, bytes, true));
    names.push_back(file);
  }
  return names;
}

}  // namespace

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

}  // namespace igarchive

const Format kIgArchiveFormat = {
    .name = "igarchive",
    .description = "Alchemy igArchive (.bld .pak .arc)",
    .identify = identify,
    .info = info,
    .list = list,
    .verify = verify,
    .extract = extract,
    .write_samples = write_samples,
    .list_columns = {"index", "size", "compression", "blocks", "offset", "name"},
    .edit = igarchive::edit_format,
};

}  // namespace assay
