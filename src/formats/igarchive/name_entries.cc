// Name-table entries in every layout, and swapping an archive's name table.
// spec: alchemy.md#iga-name-table, #corrections C1; docs/alchemy-readers.md (igArchiveExtractor)
#include <fmt/format.h>

#include "records.h"
#include "assay/formats/igarchive/names.h"

namespace assay::igarchive {

ByteBuffer name_entry(NameLayout layout, std::string_view name, std::string_view path, std::uint32_t time,
                      Endian endian) {
  ByteWriter w(endian);
  switch (layout) {
    case NameLayout::unparsed: break;
    case NameLayout::string: w.cstr(name); break;
    case NameLayout::string_time: w.cstr(name), w.u32(time); break;
    case NameLayout::name_path_time: w.cstr(name), w.cstr(path), w.u32(time); break;
    case NameLayout::path_name_time: w.cstr(path), w.cstr(name), w.u32(time); break;
    case NameLayout::string_zero_word: w.str(name), w.u32(0); break;   // no NUL: the word's bytes end it
    case NameLayout::path_tail_time: w.str(path), w.cstr(name), w.u32(time); break;  // no NUL between
    case NameLayout::string_unterminated: w.str(name); break;
  }
  return w.take();
}

Result<ByteBuffer> with_name_entries(ByteView archive, const std::vector<ByteBuffer>& entries) {
  ASSAY_TRY(Archive a, Archive::open(archive, "name table swap", [](const Diagnostic&) {}));
  const Header& h = a.header();
  if (entries.size() != h.num_files)
    return make_error(kFormatName, "name table", h.name_table_offset,
                      fmt::format("{} entries for {} files", entries.size(), h.num_files));
  if (h.name_table_offset + h.name_table_size != archive.size())
    return make_error(kFormatName, "name table", h.name_table_offset, "the name table is not the last thing in the file").with_code("igarchive.name-table");
  ByteWriter t(h.endian);
  std::uint64_t off = 4ull * entries.size();
  for (const auto& e : entries) {
    t.u32(static_cast<std::uint32_t>(off));
    off += e.size();
  }
  for (const auto& e : entries) t.bytes(e);
  if (t.size() > 0xFFFFFFFFu) return make_error(kFormatName, "name table", h.name_table_offset, "name table above 4 GiB").with_code("igarchive.name-table");
  ByteBuffer out(archive.begin(), archive.begin() + static_cast<std::ptrdiff_t>(h.name_table_offset));
  const ByteBuffer& table = t.buffer();
  out.insert(out.end(), table.begin(), table.end());
  Header nh = h;
  nh.name_table_size = static_cast<std::uint32_t>(table.size());
  const ByteBuffer header = records::encode_header(nh);
  std::copy(header.begin(), header.end(), out.begin());
  return out;
}

}  // namespace assay::igarchive
