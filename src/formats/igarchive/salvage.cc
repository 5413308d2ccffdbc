// A cut igArchive: the intact files, the lost ones and the words that name them.
// spec: alchemy.md#iga-name-table (the table writers put last), #iga-assembly.
#include "assay/formats/igarchive/salvage.h"

#include <fmt/format.h>

namespace assay::igarchive {

Cut find_cut(const Archive& a) {
  Cut c;
  c.file_end = a.data().size();
  const Header& h = a.header();
  c.names_lost = !range_ok(h.name_table_offset, h.name_table_size, c.file_end);
  c.intact.reserve(a.files().size());
  for (const FileEntry& f : a.files()) {
    if (auto s = a.past_end(f)) c.lost.push_back({f.index, *s});
    else c.intact.push_back(f.index);
  }
  return c;
}

Result<Salvaged> open_salvage(ByteView data, std::string_view name, Diagnostics* diags) {
  Diagnostics local;
  ASSAY_TRY(Archive a, Archive::open(data, name, local.sink()));
  Cut c = find_cut(a);
  for (const Diagnostic& d : local.items()) {
    // A name table past the end is the one error parse_names gives then (it stops there);
    // cut_findings names it again in the cut's words. Every other error fails as open_strict.
    if (c.names_lost && d.severity == Severity::error && d.where.structure == "name table") continue;
    if (d.severity == Severity::error) {
      Error e = d.where;
      e.file = std::string(name);
      return e;
    }
    if (diags) diags->add(d);
  }
  return Salvaged{std::move(a), std::move(c)};
}

std::string member_name(const Archive& a, const Cut& c, const FileEntry& f) {
  if (!c.names_lost) return std::string(f.name);
  std::string s = hex8(f.hash) + ".bin";
  if (f.index > 0 && a.files()[f.index - 1].hash == f.hash) s = fmt::format("{}_{}", f.index, s);
  return s;
}

std::vector<Diagnostic> cut_findings(const Archive& a, const Cut& c) {
  std::vector<Diagnostic> out;
  auto add = [&](std::string structure, std::uint64_t offset, std::string msg, std::string_view code) {
    Error e = a.error(structure, offset, std::move(msg)).with_code(code);
    e.file.clear();
    out.push_back({Severity::error, std::move(e)});
  };
  const Header& h = a.header();
  if (c.names_lost)
    add("name table", h.name_table_offset,
        fmt::format("unexpected end of data: the name table (0x{:x} bytes at 0x{:x}) lies past the file end 0x{:x}; "
                    "the files are named by their hash (<hash>.bin)",
                    h.name_table_size, h.name_table_offset, c.file_end),
        "igarchive.names-lost");
  for (const LostFile& l : c.lost) {
    const FileEntry& f = a.files()[l.index];
    add(fmt::format("file[{}]", l.index), l.at.offset,
        fmt::format("'{}' lost: unexpected end of data: its data at 0x{:x} (to 0x{:x}) lie past the file end 0x{:x}",
                    member_name(a, c, f), l.at.offset, l.at.end, c.file_end),
        "igarchive.file-lost");
  }
  if (!c.lost.empty())
    add("archive", c.file_end,
        fmt::format("the file is cut at 0x{:x}: {} of {} files lost, {} intact", c.file_end, c.lost.size(),
                    a.files().size(), c.intact.size()),
        "igarchive.cut");
  return out;
}

}  // namespace assay::igarchive
