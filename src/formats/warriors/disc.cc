// spec: warriors.md#wr-1-2, #wr-2-1 .. #wr-2-5.
#include "assay/core/ascii.h"
#include "assay/formats/warriors/disc.h"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>
#include <system_error>

#include "assay/core/hash.h"
#include "assay/core/mapped_file.h"  // read_text_file
#include "assay/family.h"
#include "disc_iso.h"

namespace assay::warriors {

namespace {

bool iequals(std::string_view a, std::string_view b) { return ascii_iequals(a, b); }

bool istarts_with(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}


// Keeps the DIR's and the WAD's bytes alive together.
struct InputPair {
  std::shared_ptr<const void> dir, wad;
};

Result<Disc> from_inputs(const Input& dir, const Input& wad, DiscSource source) {
  auto owner = std::make_shared<InputPair>(InputPair{dir.owner, wad.owner});
  return Disc::from_views(dir.bytes, wad.bytes, std::move(owner), source);
}

bool has_sibling(const std::vector<std::string>& names, std::string_view name) {
  return std::any_of(names.begin(), names.end(), [&](const std::string& n) { return iequals(n, name); });
}

}  // namespace

std::string_view base_name(std::string_view name) {
  if (istarts_with(name, "./")) name.remove_prefix(2);
  if (istarts_with(name, "ee_files/")) name.remove_prefix(9);
  return name;
}

std::string normalise_name(std::string_view name) {
  std::string s = "./ee_files/";
  s += base_name(name);
  for (char& c : s) c = ascii_lower(c);
  return s;
}

std::optional<std::uint32_t> parse_hash(std::string_view s) {
  if (s.size() < 3 || s.size() > 10 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return std::nullopt;
  std::uint32_t v = 0;
  for (char c : s.substr(2)) {
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return std::nullopt;
    v = (v << 4) | static_cast<std::uint32_t>(d);
  }
  return v;
}

std::uint32_t name_hash(std::string_view name) {
  if (auto h = parse_hash(name)) return *h;
  return crc32(normalise_name(name));
}

std::string_view to_string(DiscSource s) {
  switch (s) {
    case DiscSource::folder: return "folder";
    case DiscSource::dir_file: return "dir_file";
    case DiscSource::iso: return "iso";
  }
  return "?";
}

Result<Disc> Disc::from_views(ByteView dir, ByteView wad, std::shared_ptr<const void> owner, DiscSource source) {
  // D1: size >= 16 and = 16 + 12 * count, checked before any row is read.
  if (dir.size() < kDirHeaderSize)
    return make_error(kFormat, "DIR header", 0, fmt::format("D1: DIR is {} bytes, needs at least 16", dir.size()));
  const ByteReader r(dir, Endian::little, kFormat);
  ASSAY_TRY(const DirHeader header, read_record<DirHeader>(r, 0, "DIR header"));
  const std::uint32_t count = header.count;
  const std::uint64_t rows = std::uint64_t{count} * kDirRowSize;  // u32 x 16: cannot wrap
  if (dir.size() < kDirHeaderSize + rows)
    return make_error(kFormat, "DIR header", 0,
                      fmt::format("D1: DIR truncated: count {} needs {} bytes (16 + 12 per row), the file has {}: "
                                  "{} bytes missing from offset 0x{:x} (rows {} to {} incomplete)",
                                  count, kDirHeaderSize + rows, dir.size(), kDirHeaderSize + rows - dir.size(), dir.size(),
                                  (dir.size() - kDirHeaderSize) / kDirRowSize, count - 1));
  if (dir.size() != kDirHeaderSize + rows)
    return make_error(kFormat, "DIR header", 0,
                      fmt::format("D1: count {} needs a DIR of {} bytes, file has {}", count,
                                  kDirHeaderSize + rows, dir.size()));
  Disc d;
  ASSAY_TRY(d.rows_, RecordTable<DirRow>::open(r, kDirHeaderSize, count, "DIR row"));
  d.dir_ = dir;
  d.wad_ = wad;
  d.count_ = count;
  d.source_ = source;
  d.owner_ = std::move(owner);
  return d;
}

DirEntry Disc::entry(std::uint32_t i) const noexcept {
  const DirRow row = rows_[i];  // i < count(): past it stops the program (rows_.at() gives an Error)
  return {i, row.offset, row.size, row.hash};
}

Result<ByteView> Disc::entry_bytes(const DirEntry& e) const {
  if (!range_ok(e.offset, e.size, wad_.size()))
    return make_error(kFormat, fmt::format("DIR row {}", e.index), kDirHeaderSize + kDirRowSize * e.index,
                      fmt::format("D5: entry {:08x} [0x{:x}, +{}) lies past the WAD's end (0x{:x})", e.hash,
                                  e.offset, e.size, wad_.size()));
  return wad_.subspan(e.offset, e.size);
}

std::optional<DirEntry> Disc::find(std::uint32_t hash) const noexcept {
  for (std::uint32_t i = 0; i < count_; ++i) {
    DirEntry e = entry(i);
    if (e.hash == hash) return e;
  }
  return std::nullopt;
}

std::optional<Diagnostic> Disc::wad_truncation_warning() const {
  std::uint64_t need = 0, past = 0;
  for (std::uint32_t i = 0; i < count_; ++i) {
    const DirEntry e = entry(i);
    const std::uint64_t end = std::uint64_t{e.offset} + e.size;
    need = std::max(need, end);
    if (end > wad_.size()) ++past;
  }
  if (need <= wad_.size()) return std::nullopt;
  return Diagnostic{Severity::warning,
                    make_error(kFormat, "WAD", wad_.size(),
                               fmt::format("WAD truncated: the DIR's rows need {} bytes, the WAD has {}: {} bytes missing from offset "
                                           "0x{:x} ({} of {} entries cut or absent)",
                                           need, wad_.size(), need - wad_.size(), wad_.size(), past, count_))};
}

void Disc::validate(Diagnostics& out) const {
  if (auto w = wad_truncation_warning()) out.error(w->where);
  auto row_at = [](std::uint32_t i) { return kDirHeaderSize + kDirRowSize * i; };
  for (std::size_t b = 4; b < 16; ++b)
    if (dir_[b] != 0) {
      out.warning(make_error(kFormat, "DIR header", 4, "D2: bytes 0x04-0x0F are not zero"));
      break;
    }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> hashes;  // (hash, row), for D9
  hashes.reserve(count_);
  std::uint64_t last_end = 0;
  for (std::uint32_t i = 0; i < count_; ++i) {
    const DirEntry e = entry(i);
    const std::string row = fmt::format("DIR row {} ({:08x})", i, e.hash);
    hashes.emplace_back(e.hash, i);
    if (e.offset % kSector != 0)
      out.error(make_error(kFormat, row, row_at(i), fmt::format("D3: wadOffset 0x{:x} is not a multiple of 2,048", e.offset)));
    if (!range_ok(e.offset, e.size, wad_.size()))
      out.error(make_error(kFormat, row, row_at(i),
                           fmt::format("D5: entry [0x{:x}, +{}) ends past the WAD ({} bytes)", e.offset, e.size, wad_.size())));
    if (e.size == 0) out.warning(make_error(kFormat, row, row_at(i), "D10: entry of size 0"));
    if (i > 0) {
      const DirEntry p = entry(i - 1);
      const bool zero_pair = (p.size == 0 || e.size == 0) && e.offset == p.offset;
      if (e.offset <= p.offset && !zero_pair)
        out.error(make_error(kFormat, row, row_at(i),
                             fmt::format("D4: wadOffset 0x{:x} does not increase (previous row 0x{:x})", e.offset, p.offset)));
      const std::uint64_t prev_end = std::uint64_t{p.offset} + p.size;
      if (e.offset < prev_end)
        out.error(make_error(kFormat, row, row_at(i),
                             fmt::format("D6: entry starts at 0x{:x}, inside the previous entry (ends 0x{:x})", e.offset, prev_end)));
      else if (e.offset - prev_end >= kSector)
        out.warning(make_error(kFormat, row, row_at(i),
                               fmt::format("D7: gap of {} bytes after the previous entry", e.offset - prev_end)));
    }
    last_end = std::max<std::uint64_t>(last_end, std::uint64_t{e.offset} + e.size);
  }
  if (wad_.size() % kSector != 0 || (wad_.size() >= last_end && wad_.size() - last_end >= kSector))
    out.warning(make_error(kFormat, "WAD", wad_.size(),
                           fmt::format("D8: WAD size {} is not a multiple of 2,048 ending within 2,048 bytes of the last entry (0x{:x})",
                                       wad_.size(), last_end)));
  std::sort(hashes.begin(), hashes.end());
  for (std::size_t k = 1; k < hashes.size(); ++k)
    if (hashes[k].first == hashes[k - 1].first)
      out.warning(make_error(kFormat, fmt::format("DIR row {} ({:08x})", hashes[k].second, hashes[k].first),
                             row_at(hashes[k].second),
                             fmt::format("D9: hash also used by row {}; this row is unreachable by name", hashes[k - 1].second)));
}

Result<Disc> Disc::open(const Input& in) { return open(in, *folder_siblings(in)); }

// spec: warriors.md#wr-1-2: the DIR and the WAD are siblings (a folder's files, or the entries
// beside the DIR in its container), found without case.
Result<Disc> Disc::open(const Input& in, const Siblings& siblings) {
  if (in.is_directory) {
    ASSAY_TRY(std::optional<Input> dir, siblings.open("WARRIORS.DIR"));
    if (!dir) return io_error(in.name, "no WARRIORS.DIR in this folder");
    ASSAY_TRY(std::optional<Input> wad, siblings.open("WARRIORS.WAD"));
    if (!wad) return io_error(in.name, "no WARRIORS.WAD in this folder");
    return from_inputs(*dir, *wad, DiscSource::folder);
  }
  if (iso_has_signature(in.bytes)) {
    ASSAY_TRY(IsoFiles files, find_iso_files(in));
    auto span = [&](const IsoExtent& x) { return in.bytes.subspan(x.offset, x.size); };
    return from_views(span(files.dir), span(files.wad), in.owner, DiscSource::iso);
  }
  if (!iequals(in.file_name(), "WARRIORS.DIR"))
    return make_error(kFormat, "disc", kNoOffset, "not a folder, WARRIORS.DIR or ISO image");
  ASSAY_TRY(std::optional<Input> wad, siblings.open("WARRIORS.WAD"));
  if (!wad) return io_error(in.name, "no WARRIORS.WAD beside this WARRIORS.DIR");
  return from_inputs(in, *wad, DiscSource::dir_file);
}

bool looks_like_disc(const Input& in) {
  if (in.is_directory) {
    const std::vector<std::string> names = folder_siblings(in)->names();
    return has_sibling(names, "WARRIORS.DIR") && has_sibling(names, "WARRIORS.WAD");
  }
  // A truncated image is claimed too, so open() says what is missing.
  if (iso_has_signature(in.bytes)) return find_iso_files(in).ok() || !iso_truncation(in.bytes).empty();
  // The name is the signature (on disk or as an entry of a container): a DIR of the wrong size
  // opens to a D1 error saying what is missing.
  return iequals(in.file_name(), "WARRIORS.DIR");
}

Result<NameTable> NameTable::load(const std::vector<std::string>& files) {
  NameTable t;
  for (const auto& f : files) {
    ASSAY_TRY(std::string text, read_text_file(f));
    std::istringstream is(text);
    std::string line;
    while (std::getline(is, line)) {
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
      std::size_t b = 0;
      while (b < line.size() && (line[b] == ' ' || line[b] == '\t')) ++b;
      if (b < line.size() && line[b] != '#') t.add(std::string_view(line).substr(b));
    }
  }
  return t;
}

void NameTable::add(std::string_view name) {
  if (name.empty() || parse_hash(name)) return;
  names_.emplace(name_hash(name), std::string(base_name(name)));
}

const std::string* NameTable::find(std::uint32_t hash) const {
  auto it = names_.find(hash);
  return it == names_.end() ? nullptr : &it->second;
}

std::string entry_file_name(const DirEntry& e, const NameTable& names) {
  if (const std::string* n = names.find(e.hash)) return *n;
  return hex8(e.hash) + ".bin";
}

std::optional<DirEntry> find_selected(const Disc& disc, std::string_view selector) {
  if (selector.size() == 12 && selector.substr(8) == ".bin")
    if (auto h = parse_hash("0x" + std::string(selector.substr(0, 8))))
      if (auto e = disc.find(*h)) return e;
  return disc.find(name_hash(selector));
}

std::string entry_label(const DirEntry& e, const NameTable& names) {
  std::string s = fmt::format("entry[{}] {:08x}", e.index, e.hash);
  if (const std::string* n = names.find(e.hash)) s += " (" + *n + ")";
  return s;
}

}  // namespace assay::warriors
