// igz header, section descriptors and the fixup record directory.
// spec: alchemy.md#igz-header-v7, #igz-header-v6, #igz-platform, #igz-fixups, #verify-igz
#include <algorithm>
#include <array>

#include "assay/formats/igz/fixups.h"
#include "assay/formats/igz/igz.h"
#include "diag_util.h"
#include "records.h"

namespace assay::igz {

using detail::err;
using detail::report;

namespace {

struct TagName {
  std::uint32_t tag;
  std::string_view name;
};
constexpr std::array<TagName, 19> kTags = {{
    {tag::TDEP, "TDEP"}, {tag::TSTR, "TSTR"}, {tag::TMET, "TMET"}, {tag::MTSZ, "MTSZ"},
    {tag::EXID, "EXID"}, {tag::EXNM, "EXNM"}, {tag::TMHN, "TMHN"}, {tag::ONAM, "ONAM"},
    {tag::RVTB, "RVTB"}, {tag::ROOT, "ROOT"}, {tag::ROFS, "ROFS"}, {tag::RPID, "RPID"},
    {tag::RSTT, "RSTT"}, {tag::RSTR, "RSTR"}, {tag::RMHN, "RMHN"}, {tag::REXT, "REXT"},
    {tag::RNEX, "RNEX"}, {tag::RHND, "RHND"}, {tag::NSPC, "NSPC"},
}};

bool known_tag(std::uint32_t t) {
  return std::any_of(kTags.begin(), kTags.end(), [t](const TagName& k) { return k.tag == t; });
}

bool is_pow2(std::uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

// Reads the section descriptors and their pool names.
void read_sections(ByteReader r, Header& h, const DiagSink& sink) {
  const bool v6 = h.legacy();
  const std::uint64_t first = v6 ? kHeaderV6Descriptors : kHeaderV7Descriptors;
  const std::uint64_t max = v6 ? kMaxSectionsV6 : kMaxSectionsV7;
  const std::uint64_t names = v6 ? kPoolNamesV6 : kPoolNamesV7;
  bool ended = false;
  // The descriptors the file holds (descriptor 0 checked by the caller); a short file ends early.
  const std::uint64_t fit = first <= r.size() ? (r.size() - first) / records::SectionDescriptor::kSize : 0;
  auto table = RecordTable<records::SectionDescriptor>::open(r, first, std::min(max, fit), "section table");
  if (!table) return;
  for (std::uint64_t i = 0; i < table->size(); ++i) {
    const std::uint64_t at = table->offset_of(i);
    const records::SectionDescriptor d = (*table)[i];
    Section s;
    s.name_offset = d.name_offset;
    s.offset = d.offset;
    s.length = d.length;
    s.alignment = d.alignment;
    if (ended) {
      if (s.offset != 0 || s.length != 0)
        report(sink, Severity::warning, fmt::format("section[{}]", i), at,
               "nonzero descriptor after the terminating zero descriptor");
      continue;
    }
    if (s.offset == 0) {
      ended = true;
      if (i == 0) return;  // the caller reports the missing fixup section
      continue;
    }
    h.sections.push_back(s);
  }
  // Pool names (descriptor 0, the fixups, has one too in the samples but it is unused).
  const std::uint64_t names_end = std::min<std::uint64_t>(kPoolNamesEnd, r.size());
  for (std::size_t i = 1; i < h.sections.size(); ++i) {
    Section& s = h.sections[i];
    const std::uint64_t at = names + (s.name_offset & 0xFFFFu);
    auto name = at < names_end ? r.cstring(at, names_end - at - 1, "pool name")
                               : Result<std::string_view>(err("pool name", at, "outside the pool-name area"));
    if (!name) {
      report(sink, Severity::error, fmt::format("section[{}] pool name", i), at,
             fmt::format("pool name offset 0x{:x} does not give a NUL-terminated name inside "
                         "0x{:x}-0x{:x}",
                         s.name_offset, names, kPoolNamesEnd - 1));
    } else {
      s.name = *name;
    }
  }
}

// Range, alignment and overlap of every section.
void check_sections(const ByteReader& r, Header& h, const DiagSink& sink) {
  const std::uint64_t first = h.legacy() ? kHeaderV6Descriptors : kHeaderV7Descriptors;
  for (std::size_t i = 0; i < h.sections.size(); ++i) {
    Section& s = h.sections[i];
    const std::uint64_t at = first + i * 16;
    const std::string what = i == 0 ? std::string("section[0] (fixups)")
                                    : fmt::format("section[{}] (pool {} '{}')", i, i - 1, s.name);
    // spec: #igz-header-v7: a 4-byte pool written by the igRewrite8 saver below version 9.
    if (i > 0 && s.length == 0xFFFFFFFFu && h.version < 9) s.length = 4;
    s.usable = range_ok(s.offset, s.length, r.size());
    if (!s.usable && i > 0)
      report(sink, Severity::error, what, at,
             fmt::format("pool '{}' at 0x{:x} + 0x{:x} runs past the file end 0x{:x}", s.name,
                         s.offset, s.length, r.size()));
    if (!is_pow2(s.alignment))
      report(sink, Severity::warning, what, at,
             fmt::format("alignment 0x{:x} is not a power of two", s.alignment));
    else if (s.offset % s.alignment != 0)
      // spec #verify-igz says warning; the game-made files (the 59 v7 igz of skylanders_zap.pak,
      // the NST v10 igz) all pack their pools unaligned: the alignment is a load-time property.
      report(sink, Severity::note, what, at,
             fmt::format("offset 0x{:x} is not a multiple of its alignment 0x{:x}", s.offset,
                         s.alignment));
  }
  std::vector<std::size_t> order(h.sections.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return h.sections[a].offset < h.sections[b].offset; });
  for (std::size_t k = 1; k < order.size(); ++k) {
    const Section& a = h.sections[order[k - 1]];
    const Section& b = h.sections[order[k]];
    if (a.length != 0 && b.length != 0 && std::uint64_t{a.offset} + a.length > b.offset)
      report(sink, Severity::error, fmt::format("section[{}]", order[k]), first + order[k] * 16,
             fmt::format("section at 0x{:x} overlaps section[{}] (0x{:x} + 0x{:x})", b.offset,
                         order[k - 1], a.offset, a.length));
  }
}

// What MTSZ says about the pointer size: the sizes of igObjectList and igNameList (spec:
// alchemy.md#corrections C3). Reads only the TMET and MTSZ records (bounded by their data).
unsigned pointer_size_from_mtsz(const ByteReader& r, const Header& h,
                                const std::vector<FixupRecord>& records, const DiagSink& sink) {
  const FixupRecord *tmet = nullptr, *mtsz = nullptr;
  for (const auto& rec : records) {
    if (rec.tag == tag::TMET && !tmet) tmet = &rec;
    if (rec.tag == tag::MTSZ && !mtsz) mtsz = &rec;
  }
  if (!tmet || !mtsz) return 0;
  const ByteReader td(tmet->data, h.endian, kFormatName, tmet->offset + tmet->data_offset);
  auto names = read_string_table(td, tmet->count, h.version >= 8, "TMET");
  if (!names && h.version == 7) names = read_string_table(td, tmet->count, true, "TMET");  // spec Q8
  if (!names) return 0;
  const std::uint64_t n = std::min<std::uint64_t>(names->size(), std::min<std::uint64_t>(mtsz->count, mtsz->data.size() / 4));
  const ByteReader md(mtsz->data, h.endian, kFormatName, mtsz->offset + mtsz->data_offset);
  auto sizes = RecordTable<Word32>::open(md, 0, n, "MTSZ");
  if (!sizes) return 0;
  unsigned objects = 0, names_ps = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint32_t size = (*sizes)[i].value;
    if ((*names)[i] == "igObjectList") objects = pointer_size_from_list_size(size);
    if ((*names)[i] == "igNameList") names_ps = pointer_size_from_list_size(size);
  }
  if (objects && names_ps && objects != names_ps)
    report(sink, Severity::warning, "MTSZ", mtsz->offset,
           fmt::format("igObjectList says {}-byte pointers but igNameList says {}; using {}", objects,
                       names_ps, objects));
  (void)r;
  return objects ? objects : names_ps;
}

// spec: alchemy.md#igz-platform, #corrections C3: the pointer size comes from the bytes (MTSZ)
// when they say it, cross-checked with the platform table; version 10 has no platform table.
Result<void> set_pointer_size(const ByteReader& r, Header& h, const std::vector<FixupRecord>& records,
                              const OpenOptions& opt, const DiagSink& sink) {
  if (opt.pointer_size != 0 && opt.pointer_size != 4 && opt.pointer_size != 8)
    return usage_error(fmt::format("igz pointer size must be 4 or 8, not {}", opt.pointer_size));
  const std::uint64_t at = h.legacy() ? kNoOffset : 0x0C;
  h.platform_pointer_size = platform_pointer_size(h.version, h.platform);
  h.bytes_pointer_size = pointer_size_from_mtsz(r, h, records, sink);
  const unsigned known = h.platform_pointer_size, bytes = h.bytes_pointer_size;
  if (h.version >= 10)
    report(sink, Severity::note, "header", at,
           fmt::format("version 10 platform {} is not numbered like version 9 (spec C3); {}", h.platform,
                       bytes ? fmt::format("MTSZ gives {}-byte pointers", bytes) : std::string("MTSZ says nothing")));
  if (opt.pointer_size != 0) {
    h.pointer_size = opt.pointer_size;
    h.pointer_source = PointerSource::caller;
    h.pointer_size_from_caller = true;
    if (bytes && bytes != opt.pointer_size)
      report(sink, Severity::warning, "header", at,
             fmt::format("the supplied pointer size {} disagrees with MTSZ ({}-byte pointers)", opt.pointer_size, bytes));
    else if (!known && !bytes)
      report(sink, Severity::note, "header", at,
             fmt::format("platform {} unknown; using the supplied pointer size {}", h.platform, opt.pointer_size));
    return {};
  }
  if (bytes) {
    h.pointer_size = bytes;
    h.pointer_source = PointerSource::bytes;
    if (known && known != bytes)
      report(sink, Severity::warning, "header", at,
             fmt::format("platform {} ({}) has {}-byte pointers but MTSZ sizes igObjectList/igNameList for "
                         "{}-byte pointers; using {} (spec C3)",
                         h.platform, platform_name(h.version, h.platform), known, bytes, bytes));
    return {};
  }
  if (!known && h.version >= 10) {  // every known version 10 game (NST, CTR) is 64-bit (C3)
    h.pointer_size = 8;
    h.pointer_source = PointerSource::platform;
    report(sink, Severity::warning, "header", at,
           "MTSZ has no igObjectList/igNameList size; assuming 8-byte pointers as every known version 10 "
           "game (spec C3)");
    return {};
  }
  if (!known)
    return err("header", at,
               fmt::format("platform {} is unknown for version {} and MTSZ has no igObjectList/igNameList size: "
                           "the pointer size is not established (supply one with --igz-pointer-size)",
                           h.platform, h.version));
  h.pointer_size = known;
  h.pointer_source = PointerSource::platform;
  return {};
}

// The version 5/6 fixup section's inner header (spec: #igz-header-v6 [uncertain]).
Result<void> read_v6_inner_header(const ByteReader& r, Header& h) {
  const Section& fx = h.sections[0];
  if (fx.length < kFixupInnerHeaderV6)
    return err("fixup inner header", fx.offset,
               fmt::format("fixup section of 0x{:x} bytes cannot hold the 0x1c-byte inner header",
                           fx.length));
  ASSAY_TRY(auto inner, read_record<records::FixupInnerHeaderV6>(r, fx.offset, "fixup inner header"));
  h.platform = inner.platform;
  h.num_fixups = inner.num_fixups;
  return {};
}

Result<Header> read_header(const ByteReader& r, const OpenOptions& opt, const DiagSink& sink) {
  Header h;
  if (r.size() < 8) return err("header", 0, fmt::format("file of {} bytes is too short for an igz", r.size()));
  const ByteView b = r.data();
  const auto prefix = probe_byte_order(b, kMagic);
  if (!prefix) return err("header", 0, "magic is not IGZ\\x01 in either byte order");
  h.endian = prefix->endian;
  h.version = prefix->prefix.version;
  ByteReader rr(b, h.endian, kFormatName);
  if (h.version < 5 || h.version > 10)
    return err("header", 4, fmt::format("unknown igz version {}", h.version));
  if (h.legacy())
    report(sink, Severity::warning, "header", 4,
           fmt::format("version {} layout is uncertain (spec Q7); checks are best effort", h.version));
  const std::uint64_t need = h.legacy() ? kHeaderV6Descriptors + 16 : kHeaderV7Descriptors + 16;
  if (!rr.has(0, need)) return rr.out_of_bounds("header", 0, need);
  if (h.legacy()) {
    ASSAY_TRY(auto v6, read_record<records::HeaderV6>(rr, 0, "header"));
    h.fields_hash = v6.fields_hash;
  } else {
    ASSAY_TRY(auto v7, read_record<records::HeaderV7>(rr, 0, "header"));
    h.fields_hash = v7.fields_hash;
    h.platform = v7.platform;
    h.num_fixups = v7.num_fixups;
  }
  if (h.fields_hash == 0)
    report(sink, Severity::note, "header", 8, "serializableFieldsHash is 0 (tool-written file)");
  read_sections(rr, h, sink);
  if (h.sections.empty())
    return err("section[0]", need - 16, "descriptor 0 (the fixup section) has offset 0");
  if (!range_ok(h.sections[0].offset, h.sections[0].length, r.size()))
    return err("section[0]", need - 16,
               fmt::format("fixup section 0x{:x} + 0x{:x} runs past the file end 0x{:x}",
                           h.sections[0].offset, h.sections[0].length, r.size()));
  if (h.legacy()) ASSAY_CHECK(read_v6_inner_header(rr, h));
  (void)opt;  // the pointer size is set after the record walk (MTSZ, spec C3)
  check_sections(rr, h, sink);
  return h;
}

// One fixup record header, v7 or v5/6 layout (range checked by the caller against the section).
Result<FixupRecord> fixup_header(const ByteReader& r, const Header& h, std::uint64_t pos, const std::string& what) {
  FixupRecord rec;
  rec.offset = pos;
  if (h.legacy()) {
    ASSAY_TRY(auto v6, read_record<records::FixupHeaderV6>(r, pos, what));
    rec.raw_tag = v6.id, rec.count = v6.count, rec.length = v6.length, rec.data_offset = v6.data_offset;
  } else {
    ASSAY_TRY(auto v7, read_record<records::FixupHeaderV7>(r, pos, what));
    rec.raw_tag = v7.tag, rec.count = v7.count, rec.length = v7.length, rec.data_offset = v7.data_offset;
  }
  return rec;
}

// Walks the fixup record headers (spec: #igz-fixups; v5/6: #igz-header-v6).
Result<std::vector<FixupRecord>> read_records(const ByteReader& r, const Header& h,
                                              const DiagSink& sink) {
  const Section& fx = h.sections[0];
  const std::uint64_t hdr = h.legacy() ? kFixupHeaderV6 : kFixupHeaderV7;
  const std::uint64_t start = fx.offset + (h.legacy() ? kFixupInnerHeaderV6 : 0);
  const std::uint64_t end = std::uint64_t{fx.offset} + fx.length;
  std::uint64_t min_bytes = 0;
  if (!mul_ok(h.num_fixups, hdr, min_bytes) || min_bytes > end - start)
    return err("fixups", h.legacy() ? fx.offset + 0x10 : 0x10,
               fmt::format("{} fixup records need at least 0x{:x} bytes; the section has 0x{:x}",
                           h.num_fixups, min_bytes, end - start));
  std::vector<FixupRecord> out;
  out.reserve(h.num_fixups);
  std::uint64_t pos = start;
  for (std::uint32_t i = 0; i < h.num_fixups; ++i) {
    const std::string what = fmt::format("fixup[{}]", i);
    if (!range_ok(pos, hdr, end))
      return err(what, pos, fmt::format("record header runs past the fixup section end 0x{:x}", end));
    ASSAY_TRY(FixupRecord rec, fixup_header(r, h, pos, what));
    rec.tag = h.legacy() ? tag_for_v6_id(rec.raw_tag) : (known_tag(rec.raw_tag) ? rec.raw_tag : 0);
    if (rec.length < hdr || rec.data_offset < hdr || rec.data_offset > rec.length)
      return err(what, pos,
                 fmt::format("{} record: length 0x{:x} / dataOffset 0x{:x} (each must be at least "
                             "0x{:x}, dataOffset at most length)",
                             tag_name(rec.raw_tag), rec.length, rec.data_offset, hdr));
    if (!range_ok(pos, rec.length, end))
      return err(what, pos,
                 fmt::format("{} record of 0x{:x} bytes runs past the fixup section end 0x{:x}",
                             tag_name(rec.raw_tag), rec.length, end));
    rec.data = r.data().subspan(pos + rec.data_offset, rec.length - rec.data_offset);
    if (rec.tag == 0)
      report(sink, Severity::warning, what, pos,
             fmt::format("unknown fixup tag {} (0x{:08x}); skipped by its length",
                         h.legacy() ? fmt::format("id {}", rec.raw_tag) : tag_name(rec.raw_tag), rec.raw_tag));
    else if (std::any_of(out.begin(), out.end(), [&](const FixupRecord& o) { return o.tag == rec.tag; }))
      report(sink, Severity::warning, what, pos,
             fmt::format("fixup {} present twice; the first is used", tag_name(rec.tag)));
    if (rec.length % 4 != 0)
      report(sink, Severity::warning, what, pos,
             fmt::format("record length 0x{:x} is not a multiple of 4", rec.length));
    out.push_back(rec);
    pos += rec.length;
  }
  if (pos != end)
    report(sink, Severity::warning, "fixups", pos,
           fmt::format("fixup records end at 0x{:x} but the section ends at 0x{:x}", pos, end));
  return out;
}

}  // namespace

std::string tag_name(std::uint32_t t) {
  for (const auto& k : kTags)
    if (k.tag == t) return std::string(k.name);
  std::string s(4, '.');
  for (int i = 0; i < 4; ++i) {
    const auto c = static_cast<char>((t >> (8 * i)) & 0xFF);
    if (c >= 0x20 && c < 0x7F) s[i] = c;
  }
  return s;
}

std::uint32_t tag_for_v6_id(std::uint32_t id) {
  // spec: alchemy.md#igz-header-v6 (ids 4, 9 and 0x0D unknown)
  switch (id) {
    case 0x00: return tag::TMET;
    case 0x01: return tag::TSTR;
    case 0x02: return tag::EXID;
    case 0x03: return tag::EXNM;
    case 0x05: return tag::RVTB;
    case 0x06: return tag::ROFS;
    case 0x07: return tag::REXT;
    case 0x08: return tag::ROOT;
    case 0x0A: return tag::TMHN;
    case 0x0B: return tag::RMHN;
    case 0x0C: return tag::MTSZ;
    case 0x0E: return tag::RSTR;
    case 0x0F: return tag::RPID;
    case 0x10: return tag::RNEX;
    default: return 0;
  }
}

bool is_runtime_list(std::uint32_t t) {
  return t == tag::RVTB || t == tag::ROOT || t == tag::ROFS || t == tag::RPID || t == tag::RSTT ||
         t == tag::RSTR || t == tag::RMHN || t == tag::REXT || t == tag::RNEX || t == tag::RHND;
}

std::string_view platform_name(std::uint32_t version, std::uint32_t p) {
  // spec: alchemy.md#igz-platform (igRewrite7 igCore.cs); version 10 as 9, 5 as 6.
  static constexpr std::array<std::string_view, 17> v9 = {
      "default", "win32", "wii",  "durango", "aspen", "xenon", "ps3", "osx",  "win64",
      "cafe",    "raspi", "android", "aspen64", "lgtv", "ps4", "wp8", "linux"};
  static constexpr std::array<std::string_view, 13> v6 = {
      "default", "win32", "wii", "deprecated", "aspen", "xenon", "ps3", "osx", "win64",
      "cafe",    "ngp",   "android", "marmalade"};  // 13 is "max", not a platform
  if (version <= 6) return p < v6.size() ? v6[p] : std::string_view{};
  if (version >= 10) return {};  // spec: #corrections C3: not the v9 numbering (NST says 6, is 64-bit)
  if (p >= v9.size()) return {};
  if (p == 12) return version == 7 ? "marmalade" : version == 8 ? "deprecated" : "aspen64";
  return v9[p];
}

unsigned platform_pointer_size(std::uint32_t version, std::uint32_t p) {
  const std::string_view n = platform_name(version, p);
  if (n.empty()) return 0;
  return n == "durango" || n == "win64" || n == "aspen64" || n == "ps4" ? 8 : 4;
}

std::string_view to_string(PointerSource s) {
  switch (s) {
    case PointerSource::platform: return "platform";
    case PointerSource::bytes: return "mtsz";
    case PointerSource::caller: return "caller";
  }
  return "?";
}

unsigned pointer_size_from_list_size(std::uint32_t size) {
  return size == 0x28 ? 8 : size == 0x18 ? 4 : 0;  // spec: #corrections C3, C4
}

MemoryV10 split_memory_v10(std::uint64_t w, Endian e) {
  // {u32 size, u32 flags} read as one u64: size is the low half in a little-endian file.
  if (e == Endian::little) return {static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(w >> 32)};
  return {static_cast<std::uint32_t>(w >> 32), static_cast<std::uint32_t>(w)};
}

const FixupRecord* IgzFile::find(std::uint32_t t) const {
  for (const auto& r : records_)
    if (r.tag == t) return &r;
  return nullptr;
}

Result<IgzFile> IgzFile::open(ByteView bytes, const OpenOptions& opt, const DiagSink& sink) {
  const ByteReader r(bytes, Endian::big, kFormatName);
  IgzFile f;
  f.bytes_ = bytes;
  ASSAY_TRY(f.header_, read_header(r, opt, sink));
  ASSAY_TRY(f.records_, read_records(f.reader(), f.header_, sink));
  ASSAY_CHECK(set_pointer_size(f.reader(), f.header_, f.records_, opt, sink));
  return f;
}

PoolOffset decode_pointer(std::uint32_t version, std::uint32_t v) {
  if (version >= 7) return {v >> 27, v & 0x07FFFFFFu};  // spec: #igz-pointers, Q10
  return {v >> 24, v & 0x00FFFFFFu};
}

std::uint32_t encode_pointer(std::uint32_t version, PoolOffset p) {
  if (version >= 7) return (p.pool << 27) | (p.offset & 0x07FFFFFFu);
  return (p.pool << 24) | (p.offset & 0x00FFFFFFu);
}

Result<std::uint64_t> resolve(const IgzFile& f, std::uint32_t serialized, std::uint64_t need,
                              std::string_view what) {
  const PoolOffset p = decode_pointer(f.header().version, serialized);
  if (p.pool >= f.pool_count())
    return err(what, kNoOffset,
               fmt::format("0x{:08x} names pool {} but the file has {} pools", serialized, p.pool,
                           f.pool_count()));
  const Section& s = f.pool(p.pool);
  if (!s.usable)
    return err(what, kNoOffset,
               fmt::format("0x{:08x} points into pool {} ('{}'), which lies outside the file",
                           serialized, p.pool, s.name));
  if (!range_ok(p.offset, std::max<std::uint64_t>(need, 1), s.length))
    return err(what, kNoOffset,
               fmt::format("0x{:08x}: offset 0x{:x} + 0x{:x} is outside pool {} ('{}', 0x{:x} bytes)",
                           serialized, p.offset, std::max<std::uint64_t>(need, 1), p.pool, s.name,
                           s.length));
  return std::uint64_t{s.offset} + p.offset;
}

MemoryWord decode_memory_word(std::uint64_t w, unsigned pointer_size) {
  // spec: alchemy.md#igz-objects (igMemory)
  MemoryWord m;
  if (pointer_size == 8) {
    m.optimal_cpu = (w >> 63) != 0;
    m.alignment = std::uint64_t{1} << (((w >> 59) & 0xF) + 2);
    m.size = w & ((std::uint64_t{1} << 59) - 1);
  } else {
    w &= 0xFFFFFFFFu;
    m.optimal_cpu = (w >> 31) != 0;
    m.alignment = std::uint64_t{1} << (((w >> 27) & 0xF) + 2);
    m.size = w & 0x07FFFFFFu;
  }
  return m;
}

}  // namespace assay::igz
