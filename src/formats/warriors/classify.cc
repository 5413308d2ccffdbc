// The entry classifier. spec: warriors.md#wr-8-1 (K1-K15 in order; every structural test accounts
// for the whole entry), #wr-9-2 .. #wr-9-4 (world files), #wr-8-3 (never by a loose parse).
// Containers and RenderWare streams are walked by their headers only.
#include "assay/formats/warriors/classify.h"

#include <algorithm>
#include <span>

#include "assay/core/hash.h"
#include "assay/formats/renderware/section.h"
#include "assay/formats/warriors/chunks.h"
#include "records.h"

namespace assay::warriors {

namespace {

// Every byte test reads through these two: a word or slice past the entry's end is nullopt, and
// a rule whose bytes are not there does not match (never a made-up 0).
std::optional<std::uint32_t> w32(ByteView e, std::uint64_t at) { return records::u32_at(e, at); }
std::optional<ByteView> slice(ByteView e, std::uint64_t at, std::uint64_t n) {
  if (!range_ok(at, n, e.size())) return std::nullopt;
  return e.subspan(static_cast<std::size_t>(at), static_cast<std::size_t>(n));
}

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
  const auto count = pos ? w32(e, *pos) : std::nullopt;
  if (!count) return false;
  std::uint64_t p = *pos + 4;
  if (*count > (e.size() - p) / 16) return false;
  for (std::uint64_t i = 0; i < *count; ++i) {
    if (!range_ok(p, 4, e.size())) return false;
    auto next = rw_section(e, p + 4, 0x14);
    if (!next) return false;
    p = *next;
  }
  if (p != e.size()) return false;
  return !name || w32(e, 12) == crc32(*name);  // V18 is checked by verify; K2 requires it when known
}

bool is_world_stream(ByteView e) {  // K4
  const auto first = w32(e, 0);
  if (!first || *first < 1) return false;
  auto td = rw_section(e, 4, 0x16);
  if (!td) return false;
  auto world = rw_section(e, *td, 0x0B);
  return world && *world == e.size();
}

bool is_manifest(ByteView e) {  // K5
  const auto a = w32(e, 0), b = w32(e, 4), n = w32(e, 8);
  return a && b && n && e.size() == 12 + 8 * std::uint64_t{*n} && *b >= *a && *a > 0;
}

bool is_old_rw(ByteView e) {  // K6
  for (std::uint64_t at : {0u, 4u})
    if (w32(e, at + 8) == 0x1803FFFFu) return true;
  return false;
}

bool starts_with(ByteView e, std::span<const std::uint8_t> magic) {
  const auto head = slice(e, 0, magic.size());
  return head && std::equal(head->begin(), head->end(), magic.begin());
}
bool starts_with(ByteView e, std::string_view magic) {
  return starts_with(e, std::span(reinterpret_cast<const std::uint8_t*>(magic.data()), magic.size()));
}

bool printable(std::uint8_t c) { return c >= 0x20 && c <= 0x7E; }

bool printable_name(ByteView e, std::uint64_t at) {  // NUL-terminated printable, <= 16 bytes
  const auto name = slice(e, at, std::min<std::uint64_t>(17, at < e.size() ? e.size() - at : 0));
  if (!name) return false;
  const auto nul = std::find(name->begin(), name->end(), std::uint8_t{0});
  return nul != name->end() && nul != name->begin() && std::all_of(name->begin(), nul, printable);
}

bool is_scene_record(ByteView e) {  // K8
  if (e.size() < 8 || w32(e, 0) != e.size()) return false;
  return (w32(e, 4) == 0 && printable_name(e, 8)) || printable_name(e, 4);
}

// K9 row: {name hash, offset}; a {0, 0} row ends the index and only zero rows may follow.
struct SoundIndexRow {
  static constexpr std::size_t kSize = 8;
  std::uint32_t hash = 0, offset = 0;
  static constexpr SoundIndexRow decode(RecordCursor& c) { return {.hash = c.u32(), .offset = c.u32()}; }
  [[nodiscard]] constexpr bool end() const { return hash == 0 && offset == 0; }
};

bool is_sound_bank_index(ByteView e) {  // K9
  if (e.size() < 8 || e.size() % 8 != 0) return false;
  const auto rows = RecordTable<SoundIndexRow>::open(records::le_reader(e), 0, e.size() / 8, "K9");
  if (!rows) return false;
  std::uint32_t last = 0;
  bool ended = false;
  for (const SoundIndexRow row : *rows) {
    if (row.end()) {
      ended = true;
      continue;
    }
    if (ended || row.offset < last) return false;  // a row after the end, or a decreasing offset
    last = row.offset;
  }
  return ended;
}

bool is_bitmap(ByteView e) {  // K12
  const auto size = w32(e, 2);
  return starts_with(e, "BM") && size && *size <= e.size();
}

bool is_text(ByteView e) {  // K13: a decimal count first, then only printable ASCII and \t \r \n
  const auto first = slice(e, 0, 1);
  if (!first || (*first)[0] < '0' || (*first)[0] > '9') return false;
  return std::all_of(e.begin(), e.end(), [](std::uint8_t c) { return printable(c) || c == '\t' || c == '\r' || c == '\n'; });
}

// K14 frame: 16 bytes, its first two the header: predictor (high nibble) and shift, then flags.
struct AdpcmFrame {
  static constexpr std::size_t kSize = 16;
  std::uint8_t predictor_shift = 0, flags = 0;
  static constexpr AdpcmFrame decode(RecordCursor& c) {
    AdpcmFrame f{.predictor_shift = c.u8(), .flags = c.u8()};
    c.skip(14);
    return f;
  }
  [[nodiscard]] constexpr bool plausible() const {
    return (predictor_shift >> 4) <= 4 && (predictor_shift & 0x0F) <= 12 && flags <= 7;
  }
};

bool is_adpcm(ByteView e) {  // K14: predictor <= 4, shift <= 12, flags <= 7 in every frame
  if (e.empty() || e.size() % 16 != 0) return false;
  const auto frames = RecordTable<AdpcmFrame>::open(records::le_reader(e), 0, e.size() / 16, "K14");
  return frames && std::all_of(frames->begin(), frames->end(), [](const AdpcmFrame& f) { return f.plausible(); });
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
  if (w32(e, 12) == kPackageMarker && check_exact_pack(e).exact) return EntryKind::pack;
  if (is_world_part(e, name)) return EntryKind::world_part;
  if (check_exact_resource(e).exact) return EntryKind::resource;
  if (is_world_stream(e)) return EntryKind::world_stream;
  if (is_manifest(e)) return EntryKind::world_manifest;
  if (is_old_rw(e)) return EntryKind::old_renderware;
  if (starts_with(e, kLua)) return EntryKind::lua;
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
