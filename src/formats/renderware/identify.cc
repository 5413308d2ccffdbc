// Identify a RenderWare stream by content (spec: renderware.md#rw-real "Identify by content").
#include <algorithm>
#include <cctype>
#include <string>

#include "stream.h"

namespace assay::rw::detail {

namespace {

// spec: #rw-real "Identify by content": the sections a stream starts with.
bool top_level_id(std::uint32_t t) {
  return t == id::kClump || t == id::kTextureDictionary || t == id::kWorld || t == id::kAtomic ||
         t == id::kUvAnimDictionary || t == id::kGeometry || t == id::kTextureNative || t == id::kGeometryList;
}

std::string lower_ext(const Input& in) {
  std::string e = in.path.extension().string();
  if (e.empty()) {
    const auto dot = in.name.rfind('.');
    if (dot != std::string::npos) e = in.name.substr(dot);
  }
  std::transform(e.begin(), e.end(), e.begin(), [](unsigned char c) { return std::tolower(c); });
  return e;
}

// A plausible section at `off`: a known stamp and a size that fits.
bool plausible_at(ByteView b, std::uint64_t off, std::uint64_t end) {
  auto h = read_section_header(b, off);
  return h && known_stamp(h->stamp) && h->size <= end - off - SectionHeader::kSize;
}

}  // namespace

// The new form from 3.1.0.1 to 3.7.x, and the old form (no high bits) for every version 3.0-3.7
// it unpacks to. spec: renderware.md#rw-2-2 says the old form stops at 3.1.0.0 (0x300-0x310):
// too narrow. RenderWare unpacks any stamp without high bits as version = stamp << 8 (librw
// rwbase.h libraryIDUnpackVersion), and a shipped Xbox GTA III mod stamps every chunk 0x350
// (3.5.0.0), which librw reads. So 0x300-0x37F; 0x250 (2.5) or 0x400 (4.0) stay refused.
bool known_stamp(std::uint32_t stamp) {
  const Version v = decode_stamp_raw(stamp);
  if (v.old_form) return v.version >= 0x30000 && v.version <= 0x37FFF;
  return v.version > 0x31000 && v.version <= 0x37FFF;
}

// By content only: a known top-level id, a known stamp, a size that fits, and a container's
// first child that looks like a section with the same stamp. The extension raises the score of
// a stream that already qualifies; it never makes one (mh2_ps2_DSFE.TXD is Z2HM).
int identify(const Input& in) {
  const ByteView b = in.bytes;
  if (in.is_directory || b.size() < SectionHeader::kSize) return 0;
  // a texture dictionary the end of the file cuts is still one (spec: #rw-real)
  if (cut_dictionary_header(b, known_stamp)) return lower_ext(in) == ".txd" ? 90 : 60;
  if (!plausible_at(b, 0, b.size())) return 0;
  const SectionHeader h = *read_section_header(b, 0);
  if (!top_level_id(h.type)) return 0;
  if (h.size < SectionHeader::kSize) return 0;  // every top-level section above holds children
  auto c = read_section_header(b, SectionHeader::kSize);
  if (!c || c->stamp != h.stamp || !plausible_at(b, SectionHeader::kSize, SectionHeader::kSize + h.size)) return 0;
  const std::string ext = lower_ext(in);
  return ext == ".txd" || ext == ".dff" ? 100 : 80;
}

}  // namespace assay::rw::detail
