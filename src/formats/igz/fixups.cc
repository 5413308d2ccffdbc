// Decoding the fixup tables. spec: alchemy.md#igz-tags, #igz-strings, #igz-packed, #verify-igz
#include "assay/formats/igz/fixups.h"

#include "diag_util.h"
#include "records.h"

namespace assay::igz {

using detail::err;
using detail::report;

namespace {

ByteReader data_reader(const IgzFile& f, const FixupRecord& r) {
  return ByteReader(r.data, f.header().endian, kFormatName, r.offset + r.data_offset);
}

// count × item bytes must fit the record's data (checked before anything is allocated).
Result<void> check_count(const FixupRecord& r, std::uint64_t item, std::string_view unit) {
  std::uint64_t need = 0;
  if (!mul_ok(r.count, item, need) || need > r.data.size())
    return err(tag_name(r.tag), r.offset,
               fmt::format("count {} × {} {} needs 0x{:x} bytes; the record has 0x{:x}", r.count,
                           item, unit, need, r.data.size()));
  return {};
}

// The record's items as a table of T: the count checked against the data before any read
// (check_count's message names the record), then the checked table view.
template <Record T>
Result<RecordTable<T>> items(const IgzFile& f, const FixupRecord& r, std::string_view unit) {
  ASSAY_CHECK(check_count(r, T::kSize, unit));
  return RecordTable<T>::open(data_reader(f, r), 0, r.count, tag_name(r.tag));
}

// The first u32 of a record holding one offset (ONAM, NSPC, ROOT raw); size checked by the caller.
Result<std::uint32_t> single_word(const IgzFile& f, const FixupRecord& r) {
  ASSAY_TRY(Word32 w, read_record<Word32>(data_reader(f, r), 0, tag_name(r.tag)));
  return w.value;
}

bool has_empty(const std::vector<std::string_view>& v) {
  for (auto s : v)
    if (s.empty()) return true;
  return false;
}

// TSTR / TMET, with the version 7 padding question (spec Q8).
Result<std::vector<std::string_view>> strings(const IgzFile& f, const FixupRecord& r,
                                              const DiagSink& sink) {
  const auto rd = data_reader(f, r);
  const std::string what = tag_name(r.tag);
  if (f.header().version >= 8) return read_string_table(rd, r.count, true, what);
  auto plain = read_string_table(rd, r.count, false, what);
  std::uint64_t used = 0;
  if (plain)
    for (auto s : *plain) used += s.size() + 1;
  const bool suspicious = !plain || has_empty(*plain) || r.data.size() - used > 3;
  if (!suspicious) return plain;
  auto padded = read_string_table(rd, r.count, true, what);
  if (padded && !has_empty(*padded)) {
    report(sink, Severity::warning, what, r.offset,
           fmt::format("version {} strings read with even padding (spec Q8)", f.header().version));
    return padded;
  }
  return plain;
}

Result<std::vector<Dependency>> dependencies(const IgzFile& f, const FixupRecord& r) {
  ASSAY_CHECK(check_count(r, 2, "bytes (TDEP item)"));
  const auto rd = data_reader(f, r);
  std::vector<Dependency> out;
  out.reserve(r.count);
  std::uint64_t pos = 0;
  for (std::uint32_t i = 0; i < r.count; ++i) {
    Dependency d;
    ASSAY_TRY(d.name_space, rd.cstring(pos, rd.size(), "TDEP namespace"));
    pos += d.name_space.size() + 1;
    ASSAY_TRY(d.path, rd.cstring(pos, rd.size(), "TDEP path"));
    pos += d.path.size() + 1;
    d.build_only = d.path.starts_with("<build>");
    out.push_back(d);
  }
  return out;
}

Result<std::vector<std::uint32_t>> u32_table(const IgzFile& f, const FixupRecord& r) {
  ASSAY_TRY(auto t, items<Word32>(f, r, "bytes"));
  std::vector<std::uint32_t> out;
  out.reserve(t.size());
  for (const Word32 w : t) out.push_back(w.value);
  return out;
}

Result<std::vector<ExternalId>> external_ids(const IgzFile& f, const FixupRecord& r) {
  ASSAY_TRY(auto t, items<records::ExternalIdItem>(f, r, "bytes"));
  std::vector<ExternalId> out;
  out.reserve(t.size());
  for (const auto e : t) out.push_back({e.name_hash, e.namespace_hash});
  return out;
}

// EXNM: one u64 in file byte order, namespace in the high half (spec Q9, the loader's reading).
Result<std::vector<ExternalName>> external_names(const IgzFile& f, const FixupRecord& r) {
  ASSAY_TRY(auto t, items<Word64>(f, r, "bytes"));
  std::vector<ExternalName> out;
  out.reserve(t.size());
  for (const Word64 w : t) out.push_back({static_cast<std::uint32_t>(w.value >> 32), static_cast<std::uint32_t>(w.value)});
  return out;
}

// Q9: when the masked indices are out of range but the swapped reading is valid, swap and warn.
void fix_exnm_order(Fixups& fx, std::uint64_t at, const DiagSink& sink) {
  const auto n = fx.strings.size();
  for (std::size_t i = 0; i < fx.external_names.size(); ++i) {
    auto& e = fx.external_names[i];
    const ExternalName swapped{e.name_word, e.namespace_word};
    const bool ok = e.namespace_index() < n && e.name_index() < n;
    if (!ok && swapped.namespace_index() < n && swapped.name_index() < n) {
      report(sink, Severity::warning, fmt::format("EXNM[{}]", i), at,
             "words read in the swapped order (spec Q9)");
      e = swapped;
    }
  }
}

Result<std::vector<MemoryHandle>> memory_handles(const IgzFile& f, const FixupRecord& r) {
  auto take = [](auto table) {
    std::vector<MemoryHandle> out;
    out.reserve(table.size());
    for (const auto p : table) out.push_back({p.first, p.second});
    return out;
  };
  if (f.header().pointer_size == 8) {
    ASSAY_TRY(auto t, items<records::PointerPair64>(f, r, "bytes"));
    return take(t);
  }
  ASSAY_TRY(auto t, items<records::PointerPair32>(f, r, "bytes"));
  return take(t);
}

Result<std::vector<std::uint32_t>> runtime_list(const IgzFile& f, const FixupRecord& r) {
  auto v = unpack_list(r.data, r.count, f.header().version);
  if (!v) {
    Error e = v.error();
    e.structure = tag_name(r.tag) + " " + e.structure;
    e.offset = e.offset == kNoOffset ? r.offset : r.offset + r.data_offset + e.offset;
    return e;
  }
  return v;
}

// Records the result of one table, or reports its error.
template <class T>
void take(Result<T> r, T& into, Severity s, const DiagSink& sink) {
  if (r) into = std::move(*r);
  else report(sink, s, std::move(r).error());
}

void decode_record(const IgzFile& f, const FixupRecord& r, Fixups& fx, const DiagSink& sink) {
  const auto E = Severity::error;
  switch (r.tag) {
    case tag::TDEP: take(dependencies(f, r), fx.dependencies, E, sink); break;
    case tag::TSTR: take(strings(f, r, sink), fx.strings, E, sink); break;
    case tag::TMET: take(strings(f, r, sink), fx.types, E, sink); break;
    case tag::MTSZ: take(u32_table(f, r), fx.type_sizes, E, sink); break;
    case tag::EXID: take(external_ids(f, r), fx.external_ids, E, sink); break;
    case tag::EXNM: take(external_names(f, r), fx.external_names, E, sink); break;
    case tag::TMHN: take(memory_handles(f, r), fx.memory_handles, E, sink); break;
    case tag::ONAM:
      if (r.data.size() < 4) report(sink, E, "ONAM", r.offset, "record has no 4-byte offset");
      else if (auto w = single_word(f, r)) fx.name_list = *w;
      break;
    case tag::NSPC:  // spec: #corrections C5: a raw u32 like ONAM
      if (r.data.size() < 4) report(sink, E, "NSPC", r.offset, "record has no 4-byte offset");
      else if (auto w = single_word(f, r)) fx.namespace_list = *w;
      break;
    case tag::ROOT: {  // spec Q5: read raw and packed
      if (r.data.size() >= 4)
        if (auto w = single_word(f, r)) fx.root_raw = *w;
      if (auto p = runtime_list(f, r)) fx.root_packed = *p;
      if (!fx.root_raw && !fx.root_packed) report(sink, E, "ROOT", r.offset, "ROOT reads neither raw nor packed");
      break;
    }
    default:
      if (is_runtime_list(r.tag)) take(runtime_list(f, r), fx.lists[r.tag], E, sink);
      break;
  }
}

}  // namespace

Result<std::vector<std::string_view>> read_string_table(const ByteReader& rd, std::uint32_t count,
                                                        bool padded, std::string_view what) {
  const std::uint64_t min = padded ? 2 : 1;
  std::uint64_t need = 0;
  if (!mul_ok(count, min, need) || need > rd.size())
    return rd.error(what, 0,
                    fmt::format("count {} × {} bytes per string exceeds the 0x{:x} data bytes",
                                count, min, rd.size()));
  std::vector<std::string_view> out;
  out.reserve(count);
  std::uint64_t pos = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (pos >= rd.size())
      return rd.error(what, pos, fmt::format("string {} of {} starts past the record end", i, count));
    auto s = rd.cstring(pos, rd.size() - pos - 1, what);
    if (!s) return rd.error(what, pos, fmt::format("string {} of {} runs past the record end", i, count));
    out.push_back(*s);
    pos += s->size() + 1;
    if (padded && (s->size() + 1) % 2 != 0) ++pos;  // spec: #igz-strings
  }
  return out;
}

const std::vector<std::uint32_t>& Fixups::list(std::uint32_t t) const {
  static const std::vector<std::uint32_t> empty;  // immutable, so safe to share
  auto it = lists.find(t);
  return it == lists.end() ? empty : it->second;
}

std::vector<std::uint32_t> Fixups::named_externals() const {
  std::vector<std::uint32_t> v;
  for (std::uint32_t i = 0; i < external_names.size(); ++i)
    if (!external_names[i].handle()) v.push_back(i);
  return v;
}

std::vector<std::uint32_t> Fixups::named_handles() const {
  std::vector<std::uint32_t> v;
  for (std::uint32_t i = 0; i < external_names.size(); ++i)
    if (external_names[i].handle()) v.push_back(i);
  return v;
}

Fixups decode_fixups(const IgzFile& f, const DiagSink& sink) {
  Fixups fx;
  std::vector<std::uint32_t> seen;
  for (const auto& r : f.records()) {
    if (r.tag == 0) continue;
    bool dup = false;
    for (auto t : seen) dup = dup || t == r.tag;
    if (dup) continue;  // the directory walk warned; the first one is used
    seen.push_back(r.tag);
    decode_record(f, r, fx, sink);
  }
  if (const auto* m = f.find(tag::MTSZ); m && m->count != fx.types.size())
    report(sink, Severity::warning, "MTSZ", m->offset,
           fmt::format("MTSZ count {} differs from the TMET count {}", m->count, fx.types.size()));
  if (const auto* e = f.find(tag::EXNM)) fix_exnm_order(fx, e->offset, sink);
  if (fx.root_packed) fx.lists[tag::ROOT] = *fx.root_packed;
  return fx;
}

Result<Fixups> decode_fixups(const IgzFile& f) {
  Diagnostics d;
  Fixups fx = decode_fixups(f, d.sink());
  for (const auto& x : d.items())
    if (x.severity == Severity::error) return x.where;
  return fx;
}

}  // namespace assay::igz
