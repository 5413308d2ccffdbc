#include "disc_iso.h"

#include <cdio/iso9660.h>
#include <fmt/format.h>

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

// spec: #wr-1-2: a file with the multi-extent flag (+25 bit 7) or a non-zero interleave (+26,
// +27) is an error. libiso9660 2.1 does not report these, so the root records are read here
// (ECMA-119: root extent and length in the primary descriptor's record at +156).
Result<void> check_root_records(ByteView img) {
  ASSAY_TRY(const auto pvd, read_record<records::PrimaryVolumeDescriptor>(records::le_reader(img), records::kPvdOffset,
                                                                           "ISO primary volume descriptor"));
  const std::uint64_t extent = pvd.root_extent;
  const std::uint64_t length = pvd.root_length;
  if (!range_ok(extent * 2048, length, img.size()))
    return make_error(kFormat, "ISO root directory", 16 * 2048 + 156, "root directory extent lies past the image's end");
  for (std::uint64_t sector = 0; sector * 2048 < length; ++sector) {
    const std::uint64_t base = extent * 2048 + sector * 2048;
    for (std::uint64_t pos = 0; pos + 34 <= 2048 && base + pos + 34 <= img.size();) {
      const std::uint8_t len = img[base + pos];
      if (len == 0) break;  // no more records in this sector
      if (len < 34 || pos + len > 2048) return make_error(kFormat, "ISO root directory record", base + pos, "bad record length");
      const std::uint8_t name_len = img[base + pos + 32];
      if (33u + name_len <= len) {
        const std::string name = iso_plain_name(std::string(reinterpret_cast<const char*>(img.data() + base + pos + 33), name_len).c_str());
        const bool ours = name == "WARRIORS.DIR" || name == "WARRIORS.WAD";
        if (ours && ((img[base + pos + 25] & 0x80) != 0 || img[base + pos + 26] != 0 || img[base + pos + 27] != 0))
          return make_error(kFormat, "ISO root directory record", base + pos,
                            name + " is multi-extent or interleaved (not supported)");
      }
      pos += len;
    }
  }
  return {};
}

}  // namespace

bool iso_has_signature(ByteView image) {
  constexpr std::size_t at = 16 * 2048;
  return image.size() >= at + 2048 && image[at + 1] == 'C' && image[at + 2] == 'D' && image[at + 3] == '0' &&
         image[at + 4] == '0' && image[at + 5] == '1';
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
