#include "disc_iso.h"

#include <cdio/iso9660.h>
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <string>

#include "assay/formats/warriors/disc.h"

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

}  // namespace

bool iso_has_signature(ByteView image) {
  constexpr std::size_t at = 16 * 2048;
  return image.size() >= at + 2048 && image[at + 1] == 'C' && image[at + 2] == 'D' && image[at + 3] == '0' &&
         image[at + 4] == '0' && image[at + 5] == '1';
}

Result<IsoFiles> find_iso_files(const Input& image) {
  if (image.path.empty()) return make_error(kFormat, "ISO image", kNoOffset, "an ISO image must be a file on disk");
  // spec: #wr-1-2: the logical block size MUST be 2,048 (primary descriptor +128).
  const std::uint16_t block = load<std::uint16_t>(image.bytes.data() + 16 * 2048 + 128, Endian::little);
  if (image.bytes[16 * 2048] == 1 && block != 2048)
    return make_error(kFormat, "ISO primary volume descriptor", 16 * 2048 + 128,
                      fmt::format("logical block size {} is not 2,048", block));
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

}  // namespace assay::warriors
