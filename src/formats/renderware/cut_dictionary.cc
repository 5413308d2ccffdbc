// A texture dictionary cut by the end of the file. spec: renderware.md#rw-5-1
// (dictionary), #rw-5-2 (PS2 name: the String after the first Struct), #rw-6-1 (D3D/Xbox name:
// char[32] at +8 of the first Struct).
#include "cut_dictionary.h"

#include <fmt/format.h>

#include <algorithm>

#include "assay/container.h"
#include "children.h"
#include "records.h"

namespace assay::rw::detail {

namespace {

// The name of the texture native at `offset`, read from the bytes before the cut: a PS2
// native's String child when it is whole, a D3D/Xbox native's char[32] at +8 of its first Struct
// up to its NUL when that lies before the cut (the Struct, which holds the texels, is usually cut).
std::string cut_native_name(ByteView b, std::uint64_t offset) {
  const std::uint64_t st = offset + SectionHeader::kSize, body = st + SectionHeader::kSize;
  if (!range_ok(body, 4, b.size())) return {};
  if (records::decode_at<SectionHeader>(b, st).type != id::kStruct) return {};
  const std::uint32_t platform = records::u32_at(b, body);
  if (platform == kPlatformPS2) {
    auto kids = read_intact_children(b, offset, 0);
    if (!kids || kids->size() < 2 || (*kids)[1].h.type != id::kString) return {};
    return std::string(string_body((*kids)[1], 0, {}));
  }
  const bool d3d = platform == kPlatformD3D8 || platform == kPlatformD3D9 || platform == kPlatformXbox;
  if (!d3d || b.size() <= body + 8) return {};
  // the name's bytes up to the cut: it counts when its NUL lies before the cut too
  const std::size_t room = static_cast<std::size_t>(std::min<std::uint64_t>(32, b.size() - body - 8));
  const auto* name = reinterpret_cast<const char*>(b.data() + body + 8);
  std::size_t len = 0;
  while (len < room && name[len] != 0) ++len;
  return len < room || room == 32 ? std::string(name, len) : std::string();
}

}  // namespace

bool cut_dictionary_header(ByteView b, bool (*known_stamp)(std::uint32_t)) {
  if (b.size() < SectionHeader::kSize) return false;
  const SectionHeader h = records::decode_at<SectionHeader>(b, 0);
  if (h.type != id::kTextureDictionary || !known_stamp(h.stamp) || h.size <= b.size() - SectionHeader::kSize)
    return false;
  if (b.size() < 2 * SectionHeader::kSize) return true;  // the header alone: all there is to judge
  const SectionHeader c = records::decode_at<SectionHeader>(b, SectionHeader::kSize);
  return c.type == id::kStruct && c.stamp == h.stamp && h.size >= SectionHeader::kSize &&
         c.size <= h.size - SectionHeader::kSize;
}

Result<CutDictionary> open_cut_dictionary(ByteView b, const DiagSink& diag) {
  auto where = find_truncation(b);
  if (!where) return rw_error("Texture Dictionary", 0, "not cut by the end of the file", "renderware.not-cut");
  TextureOptions to;
  to.allow_cut = true;
  to.keep_going = true;
  auto d = TextureDictionary::open(b, 0, diag, to);
  if (!d) {  // the end cuts the dictionary's own Struct: the cut is the whole story
    Error e = where->error();
    if (where->deepest().offset != 0) e.message += "; " + d.error().str();
    return e;
  }
  CutDictionary c{*where, std::move(*d), {}, {}, records::decode_at<SectionHeader>(b, 0)};
  for (const CutSection& s : where->path)
    if (s.type == id::kTextureNative) {
      c.cut_offset = s.offset;
      c.cut_name = cut_native_name(b, s.offset);
      break;
    }
  return c;
}

Diagnostic CutDictionary::diagnostic() const {
  Error e = where.error();
  e.message += fmt::format("; {} of {} textures intact", intact(), declared());
  if (cut_offset && intact() < declared()) {
    e.message += cut_name.empty() ? fmt::format(", texture {} (at 0x{:x}) cut", intact(), *cut_offset)
                                  : fmt::format(", texture {} '{}' (at 0x{:x}) cut", intact(), cut_name, *cut_offset);
    if (declared() > intact() + 1) e.message += fmt::format(", {} after it lost", declared() - intact() - 1);
  } else if (declared() > intact()) {
    e.message += fmt::format(", {} lost", declared() - intact());
  }
  return {Severity::error, std::move(e)};
}

}  // namespace assay::rw::detail
