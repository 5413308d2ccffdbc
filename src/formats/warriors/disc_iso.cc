#include "disc_iso.h"

#include <cdio/iso9660.h>
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>

#include "assay/formats/warriors/disc.h"
#include "records.h"

namespace assay::warriors {

namespace {

// "warriors.dir;1" -> "WARRIORS.DIR"; a trailing "." is dropped. spec: #wr-1-2
std::string iso_plain_name(const char* raw) {
  std::string s(raw);
  if (auto semi = s.find(';'); semi != std::string::npos) s.resize(semi);
  if (!s.empty() && s.back() == '.') s.pop_back();
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
  return s;
}

struct IsoCloser {
  void operator()(iso9660_t* p) const { iso9660_close(p); }
};

// ECMA-119 9.1: a directory record's fixed part; its name (name_length bytes) follows at +33.
struct DirectoryRecord {
  static constexpr std::size_t kSize = 33;
  std::uint8_t length = 0, flags = 0, unit_size = 0, interleave_gap = 0, name_length = 0;
  static constexpr DirectoryRecord decode(RecordCursor& c) {
    DirectoryRecord d;
    d.length = c.u8();
    c.skip(24);  // extended attribute length, extent, data length, date
    d.flags = c.u8();
    d.unit_size = c.u8();
    d.interleave_gap = c.u8();
    c.skip(4);  // volume sequence number
    d.name_length = c.u8();
    return d;
  }
  // spec: #wr-1-2: multi-extent (+25 bit 7) or interleaved (+26, +27 non-zero).
  [[nodiscard]] constexpr bool multi_extent_or_interleaved() const {
    return (flags & 0x80) != 0 || unit_size != 0 || interleave_gap != 0;
  }
};

constexpr std::uint64_t kIsoSector = 2048;
constexpr std::uint64_t kMinRecord = 34;  // 33 fixed bytes and a 1-byte name

// The records of one root-directory sector (s: its bytes in the image, up to 2,048): a zero length
// byte ends them; WARRIORS.DIR/.WAD must be neither multi-extent nor interleaved.
Result<void> check_root_sector(const ByteReader& s) {
  for (std::uint64_t pos = 0; s.has(pos, kMinRecord);) {
    ASSAY_TRY(const auto d, read_record<DirectoryRecord>(s, pos, "ISO root directory record"));
    if (d.length == 0) break;  // no more records in this sector
    if (d.length < kMinRecord || pos + d.length > kIsoSector)
      return s.error("ISO root directory record", pos, "bad record length");
    if (DirectoryRecord::kSize + d.name_length <= d.length) {
      ASSAY_TRY(const ByteView raw, s.bytes(pos + DirectoryRecord::kSize, d.name_length, "ISO root directory record"));
      const std::string name = iso_plain_name(std::string(raw.begin(), raw.end()).c_str());
      if ((name == "WARRIORS.DIR" || name == "WARRIORS.WAD") && d.multi_extent_or_interleaved())
        return s.error("ISO root directory record", pos, name + " is multi-extent or interleaved (not supported)");
    }
    pos += d.length;
  }
  return {};
}

// spec: #wr-1-2: a file with the multi-extent flag (+25 bit 7) or a non-zero interleave (+26,
// +27) is an error. libiso9660 2.1 does not report these, so the root records are read here
// (ECMA-119: root extent and length in the primary descriptor's record at +156).
Result<void> check_root_records(ByteView img) {
  const ByteReader r = records::le_reader(img);
  ASSAY_TRY(const auto pvd, read_record<records::PrimaryVolumeDescriptor>(r, records::kPvdOffset,
                                                                           "ISO primary volume descriptor"));
  const std::uint64_t extent = pvd.root_extent;
  const std::uint64_t length = pvd.root_length;
  if (!range_ok(extent * kIsoSector, length, img.size()))
    return make_error(kFormat, "ISO root directory", 16 * 2048 + 156, "root directory extent lies past the image's end");
  for (std::uint64_t base = extent * kIsoSector; base < extent * kIsoSector + length; base += kIsoSector) {
    // the last sector may run past the image's end: its records are read up to the end
    ASSAY_TRY(const ByteReader s, r.sub(base, std::min(kIsoSector, img.size() - base), "ISO root directory"));
    ASSAY_CHECK(check_root_sector(s));
  }
  return {};
}

}  // namespace

// ECMA-119 8.4: the primary volume descriptor (whole) at sector 16 with "CD001" at +1.
bool iso_has_signature(ByteView image) {
  const ByteReader r = records::le_reader(image);
  if (!r.has(records::kPvdOffset, records::PrimaryVolumeDescriptor::kSize)) return false;
  const auto id = r.bytes(records::kPvdOffset + 1, 5, "ISO primary volume descriptor");
  return id && std::string_view(reinterpret_cast<const char*>(id->data()), id->size()) == "CD001";
}

std::string iso_truncation(ByteView image) {
  if (!iso_has_signature(image)) return {};
  const auto pvd = read_record<records::PrimaryVolumeDescriptor>(records::le_reader(image), records::kPvdOffset, "ISO");
  if (!pvd) return {};  // iso_has_signature saw the whole descriptor
  const std::uint64_t blocks = pvd->volume_blocks;
  const std::uint64_t need = blocks * 2048;
  if (need <= image.size()) return {};
  return fmt::format("ISO image truncated: the volume descriptor (0x8050) gives {} sectors ({} bytes), the file has {}: "
                     "{} bytes missing from offset 0x{:x}",
                     blocks, need, image.size(), need - image.size(), image.size());
}

namespace {
Result<IsoFiles> find_iso_files_in(const Input& image);
}  // namespace

Result<IsoFiles> find_iso_files(const Input& image) {
  auto r = find_iso_files_in(image);
  if (r) return r;
  Error e = std::move(r).error();
  if (std::string t = iso_truncation(image.bytes); !t.empty()) e.message = t + "; " + e.message;
  return e;
}

namespace {

Result<IsoFiles> find_iso_files_in(const Input& image) {
  if (image.path.empty()) return make_error(kFormat, "ISO image", kNoOffset, "an ISO image must be a file on disk");
  // spec: #wr-1-2: the logical block size MUST be 2,048 (primary descriptor +128).
  ASSAY_TRY(const auto pvd, read_record<records::PrimaryVolumeDescriptor>(records::le_reader(image.bytes), records::kPvdOffset,
                                                                           "ISO primary volume descriptor"));
  const std::uint16_t block = pvd.block_size;
  if (pvd.type == 1 && block != 2048)
    return make_error(kFormat, "ISO primary volume descriptor", 16 * 2048 + 128,
                      fmt::format("logical block size {} is not 2,048", block));
  ASSAY_CHECK(check_root_records(image.bytes));
  std::unique_ptr<iso9660_t, IsoCloser> iso(iso9660_open(image.path.c_str()));
  if (!iso) return make_error(kFormat, "ISO image", 16 * 2048, "libiso9660 cannot read the volume descriptors");
  CdioList_t* list = iso9660_ifs_readdir(iso.get(), "/");
  if (list == nullptr) return make_error(kFormat, "ISO root directory", kNoOffset, "cannot read the root directory");
  std::optional<IsoExtent> dir, wad;
  Error bad;
  bool failed = false;
  for (CdioListNode_t* node = _cdio_list_begin(list); node != nullptr; node = _cdio_list_node_next(node)) {
    const auto* st = static_cast<const iso9660_stat_t*>(_cdio_list_node_data(node));
    if (st == nullptr || st->type != iso9660_stat_s::_STAT_FILE) continue;
    const std::string name = iso_plain_name(st->filename);
    if (name != "WARRIORS.DIR" && name != "WARRIORS.WAD") continue;
    IsoExtent x{std::uint64_t{static_cast<std::uint32_t>(st->lsn)} * 2048, st->size};
    if (!range_ok(x.offset, x.size, image.bytes.size()) && !failed) {
      bad = make_error(kFormat, "ISO root directory", kNoOffset,
                       fmt::format("{} extent [0x{:x}, +{}) lies past the image's end (0x{:x})", name, x.offset,
                                   x.size, image.bytes.size()));
      failed = true;
    }
    (name == "WARRIORS.DIR" ? dir : wad) = x;
  }
  iso9660_filelist_free(list);
  if (failed) return bad;
  if (!dir) return make_error(kFormat, "ISO root directory", kNoOffset, "no WARRIORS.DIR in the image's root");
  if (!wad) return make_error(kFormat, "ISO root directory", kNoOffset, "no WARRIORS.WAD in the image's root");
  return IsoFiles{*dir, *wad};
}

}  // namespace

}  // namespace assay::warriors
