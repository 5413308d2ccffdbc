// The entry classifier. spec: warriors.md#wr-8-1 (K1-K15 in order; every structural test accounts
// for the whole entry), #wr-9-2 .. #wr-9-4 (world files), #wr-8-3 (never by a loose parse).
// Containers and RenderWare streams are walked by their headers only.
#include "assay/formats/warriors/classify.h"

#include <cstring>

#include "assay/core/hash.h"
#include "assay/formats/renderware/section.h"
#include "assay/formats/warriors/chunks.h"
#include "records.h"

namespace assay::warriors {

namespace {

// A checked little-endian word: past the end reads as 0 (each rule checks the sizes it needs first).
std::uint32_t w32(ByteView e, std::uint64_t at) { return records::u32_at(e, at).value_or(0); }

// An RW section header at `at` with id `id` and a RenderWare 3 stamp whose body fits; returns its
// end. Header and stamp through RenderWare's own readers (spec: renderware.md#rw-2).
std::optional<std::uint64_t> rw_section(ByteView e, std::uint64_t at, std::uint32_t id) {
  auto h = rw::read_section_header(e, at);
  if (!h || h->type != id || !rw::plausible_stamp(h->stamp)) return std::nullopt;
  if (!range_ok(at + rw::SectionHeader::kSize, h->size, e.size())) return std::nullopt;
  return at + rw::SectionHeader::kSize + h->size;
}

// K2: {1,0,0,hash}, RW 0x16, u32 count, count x (u32 sectorIndex, RW 0x14), to the end.
bool is_world_part(ByteView e, std::optional<std::string_view> name) {
  if (e.size() < 28 || w32(e, 0) != 1 || w32(e, 4) != 0 || w32(e, 8) != 0) return false;
  auto pos = rw_section(e, 16, 0x16);
  if (!pos || !range_ok(*pos, 4, e.size())) return false;
  const std::uint64_t count = w32(e, *pos);
  std::uint64_t p = *pos + 4;
  if (count > (e.size() - p) / 16) return false;
  for (std::uint64_t i = 0; i < count; ++i) {
    if (!range_ok(p, 4, e.size())) return false;
    auto next = rw_section(e, p + 4, 0x14);
    if (!next) return false;
    p = *next;
  }
  if (p != e.size()) return false;
  return !name || w32(e, 12) == crc32(*name);  // V18 is checked by verify; K2 requires it when known
}

bool is_world_stream(ByteView e) {  // K4
  if (e.size() < 4 || w32(e, 0) < 1) return false;
  auto td = rw_section(e, 4, 0x16);
  if (!td) return false;
  auto world = rw_section(e, *td, 0x0B);
  return world && *world == e.size();
}

bool is_manifest(ByteView e) {  // K5
  if (e.size() < 12) return false;
  const std::uint64_t n = w32(e, 8);
  return e.size() == 12 + 8 * n && w32(e, 4) >= w32(e, 0) && w32(e, 0) > 0;
}

bool is_old_rw(ByteView e) {  // K6
  for (std::uint64_t at : {0u, 4u})
    if (range_ok(at, 12, e.size()) && w32(e, at + 8) == 0x1803FFFF) return true;
  return false;
}

bool starts_with(ByteView e, std::string_view magic) {
  return e.size() >= magic.size() && std::memcmp(e.data(), magic.data(), magic.size()) == 0;
}

bool printable_name(ByteView e, std::uint64_t at) {  // NUL-terminated printable, <= 16 bytes
  for (std::uint64_t i = 0; i <= 16 && at + i < e.size(); ++i) {
    const auto c = e[at + i];
    if (c == 0) return i > 0;
    if (c < 0x20 || c > 0x7E) return false;
  }
  return false;
}

bool is_scene_record(ByteView e) {  // K8
  if (e.size() < 8 || w32(e, 0) != e.size()) return false;
  return (w32(e, 4) == 0 && printable_name(e, 8)) || printable_name(e, 4);
}

bool is_sound_bank_index(ByteView e) {  // K9
  if (e.size() < 8 || e.size() % 8 != 0) return false;
  std::uint32_t last = 0;
  for (std::uint64_t p = 0; p < e.size(); p += 8) {
    const std::uint32_t h = w32(e, p), off = w32(e, p + 4);
    if (h == 0 && off == 0) {
      for (std::uint64_t q = p + 8; q < e.size(); ++q)
        if (e[q] != 0) return false;
      return true;
    }
    if (off < last) return false;
    last = off;
  }
  return false;
}

bool is_bitmap(ByteView e) {  // K12
  return e.size() >= 6 && e[0] == 'B' && e[1] == 'M' && w32(e, 2) <= e.size();
}

bool is_text(ByteView e) {  // K13: a decimal count first, then only printable ASCII and \t \r \n
  if (e.empty() || e[0] < '0' || e[0] > '9') return false;
  for (auto c : e)
    if (!((c >= 0x20 && c <= 0x7E) || c == '\t' || c == '\r' || c == '\n')) return false;
  return true;
}

bool is_adpcm(ByteView e) {  // K14: predictor <= 4, shift <= 12, flags <= 7 in every frame
  if (e.empty() || e.size() % 16 != 0) return false;
  for (std::uint64_t p = 0; p < e.size(); p += 16)
    if ((e[p] >> 4) > 4 || (e[p] & 0x0F) > 12 || e[p + 1] > 7) return false;
  return true;
}

}  // namespace

std::string_view to_string(EntryKind k) {
  static constexpr std::string_view names[kEntryKindCount] = {
      "pack", "world_part", "resource", "world_stream", "world_manifest", "old_renderware", "lua", "scene_record",
      "sound_bank_index", "font_metrics", "icon", "bitmap", "text", "sound_bank", "other"};
  return names[static_cast<int>(k)];
}

bool is_container(EntryKind k) { return k == EntryKind::pack || k == EntryKind::resource; }

EntryKind classify_entry(ByteView e, std::optional<std::string_view> name) {
  static constexpr std::uint8_t kLua[13] = {0x1B, 0x4C, 0x75, 0x61, 0x40, 0x01, 0x04, 0x04, 0x04, 0x20, 0x06, 0x09, 0x08};
  if (e.size() >= 16 && w32(e, 12) == kPackageMarker && check_exact_pack(e).exact) return EntryKind::pack;
  if (is_world_part(e, name)) return EntryKind::world_part;
  if (check_exact_resource(e).exact) return EntryKind::resource;
  if (is_world_stream(e)) return EntryKind::world_stream;
  if (is_manifest(e)) return EntryKind::world_manifest;
  if (is_old_rw(e)) return EntryKind::old_renderware;
  if (e.size() >= 13 && std::memcmp(e.data(), kLua, 13) == 0) return EntryKind::lua;
  if (is_scene_record(e)) return EntryKind::scene_record;
  if (is_sound_bank_index(e)) return EntryKind::sound_bank_index;
  if (starts_with(e, "METRICS1")) return EntryKind::font_metrics;
  if (starts_with(e, std::string_view("\0\0\1\0", 4))) return EntryKind::icon;
  if (is_bitmap(e)) return EntryKind::bitmap;
  if (is_text(e)) return EntryKind::text;
  if (is_adpcm(e)) return EntryKind::sound_bank;
  return EntryKind::other;
}

std::optional<EntryKind> kind_from_name(std::string_view n) {
  auto ends = [&](std::string_view suf) {
    if (n.size() < suf.size()) return false;
    for (std::size_t i = 0; i < suf.size(); ++i) {
      char c = n[n.size() - suf.size() + i];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
      if (c != suf[i]) return false;
    }
    return true;
  };
  if (ends(".pak")) return EntryKind::pack;
  if (ends(".lev") || ends(".anm") || ends(".glr") || ends(".cnk")) return EntryKind::resource;
  if (ends("_sec.wld")) return EntryKind::world_stream;
  if (ends("_sec.mem")) return EntryKind::world_manifest;
  if (ends(".sec")) return EntryKind::world_part;
  if (ends(".lua")) return EntryKind::lua;
  if (ends(".scn")) return EntryKind::scene_record;
  if (ends(".msd")) return EntryKind::sound_bank_index;
  if (ends(".msb")) return EntryKind::sound_bank;
  if (ends(".ico")) return EntryKind::icon;
  if (ends(".bmp")) return EntryKind::bitmap;
  if (ends(".txt")) return EntryKind::text;
  return std::nullopt;
}

}  // namespace assay::warriors
