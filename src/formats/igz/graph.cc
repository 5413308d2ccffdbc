// The object graph and every value check of spec: alchemy.md#verify-igz.
// spec: alchemy.md#igz-objects, #igz-externals, #igz-tags, #open (Q5)
#include "assay/formats/igz/graph.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "assay/core/ascii.h"
#include "assay/core/hash.h"
#include "assay/core/record.h"
#include "assay/formats/igz/image.h"
#include "diag_util.h"

namespace assay::igz {

using detail::err;

namespace {

// One graph build: the file, its tables, the sink and the graph being filled.
struct Builder {
  const IgzFile& f;
  const Fixups& fx;
  const DiagSink& sink;
  Graph& g;
  ByteReader r = f.reader();
  unsigned ps = f.header().pointer_size;

  void say(Severity s, std::string_view what, std::uint64_t at, std::string msg) const {
    detail::report(sink, s, what, at, std::move(msg));
  }
  // Re-reports a resolve() error at `at` (resolve has no position of its own).
  void say(Severity s, Error e, std::uint64_t at) const {
    if (e.offset == kNoOffset) e.offset = at;
    detail::report(sink, s, std::move(e));
  }
  [[nodiscard]] std::uint64_t record_at(std::uint32_t t) const {
    const auto* rec = f.find(t);
    return rec ? rec->offset : kNoOffset;
  }
  // Checked reads of fields the caller has resolve()d: a position outside the file is an Error
  // naming the structure and offset (never a made-up 0).
  [[nodiscard]] Result<std::uint32_t> u32_at(std::uint64_t pos, std::string_view what) const {
    return r.u32(pos, what);
  }
  [[nodiscard]] Result<std::uint64_t> word(std::uint64_t pos, std::string_view what) const {
    return read_word(r, pos, ps, what);
  }
  // The pointer-sized word at a serialized offset, checked to lie in its pool.
  Result<std::uint64_t> field(std::uint32_t ser, std::string_view what) const {
    ASSAY_TRY(std::uint64_t pos, resolve(f, ser, ps, what));
    return word(pos, what);
  }
  // A NUL-terminated string at a serialized pointer, inside its pool.
  Result<std::string_view> string_at(std::uint64_t ptr, std::string_view what) const {
    if (ptr > 0xFFFFFFFFu) return err(what, kNoOffset, fmt::format("pointer 0x{:x} exceeds 32 bits", ptr));
    ASSAY_TRY(std::uint64_t pos, resolve(f, static_cast<std::uint32_t>(ptr), 1, what));
    const Section& pool = f.pool(decode_pointer(f.header().version, static_cast<std::uint32_t>(ptr)).pool);
    const std::uint64_t end = std::uint64_t{pool.offset} + pool.length;
    return r.cstring(pos, end - pos - 1, what);
  }

  // The size in bytes an igMemory word (or v10 {u32 size, u32 flags} pair) gives.
  [[nodiscard]] std::uint64_t memory_size(std::uint64_t w) const {
    if (nst_layout(f.header())) return split_memory_v10(w, f.header().endian).size;
    return decode_memory_word(w, ps).size;
  }

  // The RSTR/RSTT entry for a field (serialized offset), or nullptr.
  std::vector<std::size_t> strings_by_field;
  const StringRef* string_field(std::uint32_t field) {
    if (strings_by_field.size() != g.strings.size()) {
      strings_by_field.resize(g.strings.size());
      for (std::size_t i = 0; i < g.strings.size(); ++i) strings_by_field[i] = i;
      std::stable_sort(strings_by_field.begin(), strings_by_field.end(),
                       [&](std::size_t a, std::size_t b) { return g.strings[a].field < g.strings[b].field; });
    }
    auto it = std::lower_bound(strings_by_field.begin(), strings_by_field.end(), field,
                               [&](std::size_t i, std::uint32_t v) { return g.strings[i].field < v; });
    return it != strings_by_field.end() && g.strings[*it].field == field ? &g.strings[*it] : nullptr;
  }

  struct ListView {
    std::uint64_t pos = 0;   // absolute position of the elements
    std::uint32_t ser = 0;   // their serialized offset
    std::uint32_t count = 0;
  };

  void objects();
  void runtime_fields();
  void field_check(std::uint32_t t, std::size_t i, std::uint32_t ser, std::uint64_t pos);
  void tables();
  void root();
  void object_lists();
  void name_list();
  void namespace_list();
  void notes();
  Result<ListView> data_list(const Object& o, std::uint64_t elem, std::string_view what);
  std::optional<std::vector<NameEntry>> names_of(std::size_t obj, std::string_view what, std::uint64_t at);
};

void Builder::objects() {
  const auto& rvtb = fx.list(tag::RVTB);
  const std::uint64_t at = record_at(tag::RVTB);
  for (std::size_t i = 0; i < rvtb.size(); ++i) {
    const std::string what = fmt::format("RVTB[{}]", i);
    auto pos = resolve(f, rvtb[i], 4, what);
    if (!pos) {
      say(Severity::error, pos.error(), at);
      continue;
    }
    Object o;
    o.serialized = rvtb[i];
    const PoolOffset po = decode_pointer(f.header().version, rvtb[i]);
    o.pool = po.pool;
    o.offset = po.offset;
    o.position = *pos;
    auto type = u32_at(*pos, what);  // vtable word: TMET index, 32 bits (#igz-objects)
    if (!type) {
      say(Severity::error, type.error(), *pos);
      continue;
    }
    o.type = *type;
    if (o.type >= fx.types.size())
      say(Severity::error, what, *pos,
          fmt::format("TMET index {} is out of range (TMET count {})", o.type, fx.types.size()));
    else o.type_name = fx.types[o.type];
    if (o.type < fx.type_sizes.size()) o.size = fx.type_sizes[o.type];
    if (!range_ok(o.offset, o.size, f.pool(o.pool).length))
      say(Severity::error, what, *pos,
          fmt::format("object at pool {} + 0x{:x} of MTSZ size 0x{:x} runs past the pool (0x{:x} bytes)",
                      o.pool, o.offset, o.size, f.pool(o.pool).length));
    g.objects.push_back(o);
  }
  g.by_position.resize(g.objects.size());
  for (std::size_t i = 0; i < g.objects.size(); ++i) g.by_position[i] = i;
  std::stable_sort(g.by_position.begin(), g.by_position.end(), [&](std::size_t a, std::size_t b) {
    return g.objects[a].serialized < g.objects[b].serialized;
  });
  for (std::size_t k = 1; k < g.by_position.size(); ++k) {
    const Object& a = g.objects[g.by_position[k - 1]];
    const Object& b = g.objects[g.by_position[k]];
    if (a.pool == b.pool && std::uint64_t{a.offset} + a.size > b.offset)
      say(Severity::warning, fmt::format("RVTB[{}]", g.by_position[k]), b.position,
          fmt::format("object at pool {} + 0x{:x} overlaps the {} at + 0x{:x} (size 0x{:x})", b.pool,
                      b.offset, a.type_name, a.offset, a.size));
  }
}

void Builder::runtime_fields() {
  for (std::uint32_t t : {tag::ROFS, tag::RPID, tag::RSTT, tag::RSTR, tag::RMHN, tag::REXT,
                          tag::RNEX, tag::RHND}) {
    const auto& values = fx.list(t);
    const std::uint64_t at = record_at(t);
    for (std::size_t i = 0; i < values.size(); ++i) {
      auto pos = resolve(f, values[i], 4, fmt::format("{}[{}]", tag_name(t), i));
      if (!pos) {
        say(Severity::error, pos.error(), at);
        continue;
      }
      field_check(t, i, values[i], *pos);
    }
  }
}

// One runtime-list field: what its value must be (spec: #igz-tags, #verify-igz).
void Builder::field_check(std::uint32_t t, std::size_t i, std::uint32_t ser, std::uint64_t pos) {
  const std::string what = fmt::format("{}[{}]", tag_name(t), i);
  if (t == tag::RPID) return;  // spec Q11: only the position is checked
  auto v = field(ser, what);
  if (!v) return say(Severity::error, v.error(), pos);
  const std::uint64_t value = *v;
  const std::size_t from = g.object_containing(ser);
  if (t == tag::ROFS) {
    Edge e{ser, static_cast<std::uint32_t>(value), from, kNoObject, false};
    auto target = value > 0xFFFFFFFFu ? Result<std::uint64_t>(err(what, kNoOffset, "exceeds 32 bits"))
                                      : resolve(f, static_cast<std::uint32_t>(value), 1, what);
    if (!target) say(Severity::error, target.error(), pos);
    else e.valid = true, e.to = g.object_containing(e.target);
    g.edges.push_back(e);
  } else if (t == tag::RSTR) {
    StringRef s{t, ser, static_cast<std::uint32_t>(value), from, std::nullopt};
    auto text = string_at(value, what);
    if (!text) say(Severity::error, text.error(), pos);
    else s.text = *text;
    const PoolOffset p = decode_pointer(f.header().version, s.value);
    if (text && f.pool(p.pool).name != "String")
      say(Severity::warning, what, pos,
          fmt::format("string target is in pool '{}', not String", f.pool(p.pool).name));
    g.strings.push_back(s);
  } else if (t == tag::RSTT) {
    StringRef s{t, ser, static_cast<std::uint32_t>(value), from, std::nullopt};
    if (value >= fx.strings.size())
      say(Severity::error, what, pos, fmt::format("TSTR index {} ≥ TSTR count {}", value, fx.strings.size()));
    else s.text = fx.strings[value];
    g.strings.push_back(s);
  } else if (t == tag::RMHN) {
    if (value >= fx.memory_handles.size())
      say(Severity::error, what, pos,
          fmt::format("TMHN index {} ≥ TMHN count {}", value, fx.memory_handles.size()));
  } else {  // REXT, RNEX, RHND (spec: #igz-externals)
    ExternalRef x{t, ser, static_cast<std::uint32_t>(value), from, "exid", 0, "", false};
    const auto named_ext = fx.named_externals();
    const auto named_hnd = fx.named_handles();
    std::uint64_t idx = value & 0x7FFFFFFFu;
    std::uint64_t limit = fx.external_ids.size();
    const std::vector<std::uint32_t>* names = nullptr;
    if (t == tag::RNEX) names = &named_ext;
    if (t == tag::RHND) {
      idx = value & 0x3FFFFFFFu;
      if ((value & 0x80000000u) != 0) names = &named_hnd;
    }
    if (names != nullptr) limit = names->size(), x.kind = "exnm";
    if (idx >= limit) {
      say(Severity::error, what, pos,
          fmt::format("field 0x{:x} selects {} index {} but the list has {}", value,
                      names ? (t == tag::RNEX ? "named-external" : "named-handle") : "EXID", idx, limit));
    } else {
      x.valid = true;
      x.index = names ? (*names)[idx] : static_cast<std::uint32_t>(idx);
      x.name = names ? external_name_name(fx, x.index) : external_id_name(fx, x.index);
    }
    g.externals.push_back(std::move(x));
  }
}

// Table cross-checks: EXNM indices and TMHN memory.
void Builder::tables() {
  const std::uint64_t exnm = record_at(tag::EXNM);
  for (std::size_t i = 0; i < fx.external_names.size(); ++i) {
    const auto& e = fx.external_names[i];
    if (e.namespace_index() >= fx.strings.size() || e.name_index() >= fx.strings.size())
      say(Severity::error, fmt::format("EXNM[{}]", i), exnm,
          fmt::format("TSTR indices {} / {} exceed the TSTR count {}", e.namespace_index(),
                      e.name_index(), fx.strings.size()));
  }
  const std::uint64_t tmhn = record_at(tag::TMHN);
  for (std::size_t i = 0; i < fx.memory_handles.size(); ++i) {
    const auto& m = fx.memory_handles[i];
    const std::string what = fmt::format("TMHN[{}]", i);
    const std::uint64_t size = memory_size(m.size_word);
    auto pos = m.data > 0xFFFFFFFFu ? Result<std::uint64_t>(err(what, kNoOffset, "data pointer exceeds 32 bits"))
                                    : resolve(f, static_cast<std::uint32_t>(m.data), size, what);
    if (!pos) say(Severity::error, pos.error(), tmhn);
  }
}

// igDataList {header, count, capacity, igMemory} (spec: #igz-objects, #corrections C4). On
// 64-bit version 10 files the count sits at 0x10 (NST, after a u64 reference count) or 0x0C
// (CTR, after a u32 one). CTR's capacity sits where NST's count does, so a CTR list also "fits"
// the NST reading; NST's word at 0x0C is the reference count's high half (0). So: CTR when the
// word at 0x0C times the element size is the (nonzero) igMemory size, else NST.
Result<Builder::ListView> Builder::data_list(const Object& o, std::uint64_t elem, std::string_view what) {
  ListLayout layout = ps == 4 ? ListLayout::ptr32 : ListLayout::ptr64;
  if (nst_layout(f.header())) layout = ListLayout::nst64;
  const std::uint64_t data_at = ps == 8 ? 0x20 : 0x14, mem_at = ps == 8 ? 0x18 : 0x10;
  ASSAY_TRY(std::uint64_t pos, resolve(f, o.serialized, data_at + ps, what));
  auto count_at = [](ListLayout l) -> std::uint64_t {
    return l == ListLayout::ptr32 ? 0x08 : l == ListLayout::nst64 ? 0x10 : 0x0C;
  };
  if (layout == ListLayout::nst64) {
    ASSAY_TRY(const std::uint64_t mem, word(pos + mem_at, what));
    ASSAY_TRY(const std::uint32_t ctr_count, u32_at(pos + count_at(ListLayout::ctr64), what));
    const std::uint64_t size = memory_size(mem);
    if (size != 0 && std::uint64_t{ctr_count} * elem == size) layout = ListLayout::ctr64;
  }
  if (std::find(g.list_layouts.begin(), g.list_layouts.end(), layout) == g.list_layouts.end())
    g.list_layouts.push_back(layout);
  const std::uint64_t cat = count_at(layout);
  ASSAY_TRY(const std::uint32_t count_word, u32_at(pos + cat, what));
  const std::int32_t count = static_cast<std::int32_t>(count_word);
  if (count < 0) return err(what, pos + cat, fmt::format("negative count {}", count));
  if (count == 0) return ListView{};
  ASSAY_TRY(const std::uint64_t data, word(pos + data_at, what));
  std::uint64_t need = 0;
  if (data > 0xFFFFFFFFu || !mul_ok(static_cast<std::uint64_t>(count), elem, need))
    return err(what, pos + data_at, fmt::format("memory pointer 0x{:x} is invalid", data));
  auto at = resolve(f, static_cast<std::uint32_t>(data), need, what);
  if (!at) {
    Error e = at.error();
    e.offset = pos + data_at;
    e.message = fmt::format("{} elements: {}", count, e.message);
    return e;
  }
  return ListView{*at, static_cast<std::uint32_t>(data), static_cast<std::uint32_t>(count)};
}

void Builder::root() {
  const auto* rec = f.find(tag::ROOT);
  const std::uint64_t at = rec ? rec->offset : kNoOffset;
  if (rec == nullptr || rec->count != 1)
    return say(Severity::error, "ROOT", at,
               fmt::format("ROOT has {} entries; exactly one is required", rec ? rec->count : 0));
  // spec Q5: prefer the raw u32 when it names an RVTB object, else the packed reading.
  const std::size_t raw = fx.root_raw ? g.object_at(*fx.root_raw) : kNoObject;
  const bool packed_ok = fx.root_packed && fx.root_packed->size() == 1;
  const std::size_t packed = packed_ok ? g.object_at(fx.root_packed->front()) : kNoObject;
  if (raw == kNoObject && packed == kNoObject)
    return say(Severity::error, "ROOT", at, "ROOT (raw or packed) is not the start of an RVTB object");
  g.root = raw != kNoObject ? raw : packed;
  if (fx.root_raw && packed_ok && *fx.root_raw != fx.root_packed->front()) {
    // Both readings name objects: a real ambiguity (warning). A packed reading that names no
    // object is just a raw-written ROOT (igRewrite8's saver): a note.
    const Severity s = raw != kNoObject && packed != kNoObject ? Severity::warning : Severity::note;
    say(s, "ROOT", at,
        fmt::format("raw reading 0x{:x} and packed reading 0x{:x} disagree; using 0x{:x} (spec Q5)",
                    *fx.root_raw, fx.root_packed->front(), g.objects[*g.root].serialized));
  }
  if (g.objects[*g.root].type_name != "igObjectList")
    say(Severity::warning, "ROOT", g.objects[*g.root].position,
        fmt::format("root object type is '{}', not igObjectList", g.objects[*g.root].type_name));
}

// Every igObjectList's elements must be RVTB objects; the root's become the root list.
void Builder::object_lists() {
  for (std::size_t i = 0; i < g.objects.size(); ++i) {
    const Object& o = g.objects[i];
    if (o.type_name != "igObjectList") continue;
    const std::string what = fmt::format("igObjectList (RVTB[{}])", i);
    auto list = data_list(o, ps, what);
    if (!list) {
      detail::report(sink, Severity::error, list.error());
      continue;
    }
    for (std::uint32_t k = 0; k < list->count; ++k) {
      const std::uint64_t at = list->pos + std::uint64_t{k} * ps;
      auto p = word(at, what);
      if (!p) {
        say(Severity::error, p.error(), at);
        break;
      }
      const std::size_t obj = *p <= 0xFFFFFFFFu ? g.object_at(static_cast<std::uint32_t>(*p)) : kNoObject;
      if (obj == kNoObject)
        say(Severity::error, what, at, fmt::format("element {} (0x{:x}) is not an RVTB object", k, *p));
      if (g.root && *g.root == i) g.root_list.push_back(obj);
    }
  }
}

// The igNames of the igNameList object `obj`. An igName is {string, hash}: the string field is
// a string pointer (RSTR) or, in version 7 and Crash NST files, a TSTR index (RSTT, spec:
// alchemy.md#corrections C2); on 64-bit version 10 files it is {u64 string, u64 hash} (C4).
// Every hash is checked against FNV-1a of the lower-cased string.
std::optional<std::vector<NameEntry>> Builder::names_of(std::size_t obj, std::string_view what,
                                                        std::uint64_t at) {
  if (g.objects[obj].type_name != "igNameList") {
    say(Severity::warning, what, at,
        fmt::format("{} object type is '{}', not igNameList", what, g.objects[obj].type_name));
    return std::nullopt;
  }
  const std::uint64_t stride = ps == 8 ? 16 : 8;
  auto list = data_list(g.objects[obj], stride, "igNameList");
  if (!list) {
    detail::report(sink, Severity::warning, list.error());
    return std::nullopt;
  }
  std::vector<NameEntry> out;
  out.reserve(list->count);
  for (std::uint32_t k = 0; k < list->count; ++k) {
    const std::uint64_t p = list->pos + std::uint64_t{k} * stride;
    NameEntry n;
    n.field = list->ser + k * static_cast<std::uint32_t>(stride);
    const std::string where = fmt::format("igName[{}]", k);
    // The hash is a u32, or the low half of a u64 on NST (read in the file's order, C4).
    auto hash = read_word(r, p + ps, nst_layout(f.header()) ? 8 : 4, where);
    auto text_ptr = word(p, where);
    if (!hash || !text_ptr) {
      say(Severity::warning, !hash ? hash.error() : text_ptr.error(), p);
      break;
    }
    n.hash = static_cast<std::uint32_t>(*hash);
    if (const StringRef* s = string_field(n.field)) {
      n.text = s->text;  // resolved (or reported) by field_check
      if (s->tag == tag::RSTT) n.tstr_index = s->value;
    } else if (auto t = string_at(*text_ptr, where)) {
      n.text = *t;
    } else {
      say(Severity::warning, t.error(), p);
    }
    n.hash_ok = n.text && fnv1a32(*n.text, true) == n.hash;
    if (n.text && !n.hash_ok)
      say(Severity::warning, where, p + ps,
          fmt::format("hash 0x{:08x} is not FNV-1a of the lower-cased \"{}\" (0x{:08x})", n.hash, *n.text,
                      fnv1a32(*n.text, true)));
    out.push_back(n);
  }
  return out;
}

void Builder::name_list() {
  if (!fx.name_list) return;
  const std::uint64_t at = record_at(tag::ONAM);
  const std::size_t obj = g.object_at(*fx.name_list);
  if (obj == kNoObject)
    return say(Severity::warning, "ONAM", at,
               fmt::format("0x{:x} is not the start of an RVTB object", *fx.name_list));
  g.name_list_object = obj;
  auto names = names_of(obj, "ONAM", at);
  if (!names) return;
  g.names = std::move(*names);
  if (g.root && g.names.size() != g.root_list.size())
    say(Severity::warning, "igNameList", g.objects[obj].position,
        fmt::format("{} names for {} root objects", g.names.size(), g.root_list.size()));
}

// spec: alchemy.md#corrections C5: NSPC names a second igNameList with the file's namespace.
void Builder::namespace_list() {
  if (!fx.namespace_list) return;
  const std::uint64_t at = record_at(tag::NSPC);
  const std::size_t obj = g.object_at(*fx.namespace_list);
  if (obj == kNoObject)
    return say(Severity::warning, "NSPC", at,
               fmt::format("0x{:x} is not the start of an RVTB object", *fx.namespace_list));
  g.namespace_list_object = obj;
  auto names = names_of(obj, "NSPC", at);
  if (!names) return;
  g.namespace_names = std::move(*names);
  if (g.namespace_names.size() != 1)
    say(Severity::warning, "NSPC", at,
        fmt::format("the namespace igNameList holds {} names, not 1", g.namespace_names.size()));
}

// spec: #igz-externals: unresolved externals are notes (resolution needs other files).
void Builder::notes() {
  const std::vector<std::string> lines = external_lines(fx);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const bool id = i < fx.external_ids.size();
    say(Severity::note, id ? "EXID" : "EXNM", record_at(id ? tag::EXID : tag::EXNM), lines[i]);
  }
}

}  // namespace

std::string_view to_string(ListLayout l) {
  switch (l) {
    case ListLayout::ptr32: return "32-bit";
    case ListLayout::ptr64: return "64-bit";
    case ListLayout::nst64: return "64-bit NST";
    case ListLayout::ctr64: return "64-bit CTR";
  }
  return "?";
}

std::size_t Graph::object_at(std::uint32_t ser) const {
  const std::size_t i = object_containing(ser);
  return i != kNoObject && objects[i].serialized == ser ? i : kNoObject;
}

std::size_t Graph::object_containing(std::uint32_t ser) const {
  auto it = std::upper_bound(by_position.begin(), by_position.end(), ser,
                             [&](std::uint32_t v, std::size_t i) { return v < objects[i].serialized; });
  if (it == by_position.begin()) return kNoObject;
  const Object& o = objects[*(it - 1)];
  // inside the object's MTSZ size, in the same pool
  const std::uint64_t end = std::uint64_t{o.serialized} + std::max<std::uint32_t>(o.size, 1);
  return ser < end && decode_pointer(version, ser).pool == o.pool ? *(it - 1) : kNoObject;
}

std::string external_id_name(const Fixups& fx, std::size_t i) {
  const auto& e = fx.external_ids.at(i);
  return fmt::format("{:08x}::{:08x}", e.namespace_hash, e.name_hash);
}

std::string external_name_name(const Fixups& fx, std::size_t i) {
  const auto& e = fx.external_names.at(i);
  auto s = [&](std::uint32_t k) {
    return k < fx.strings.size() ? std::string(fx.strings[k]) : fmt::format("<TSTR {}>", k);
  };
  return s(e.namespace_index()) + "::" + s(e.name_index());
}

namespace {

std::string with_hint(std::string line, const std::string& hint) {
  return hint.empty() ? line : line + " (" + hint + ")";
}

}  // namespace

std::vector<std::string> external_lines(const Fixups& fx) {
  // The first TDEP of each namespace hash (as dependency_for finds it), indexed once for the file.
  std::unordered_map<std::uint32_t, const Dependency*> tdep;
  for (const Dependency& d : fx.dependencies) tdep.emplace(fnv1a32(d.name_space, true), &d);
  auto hint_for = [&](std::uint32_t hash, std::optional<std::string_view> name) -> std::string {
    const auto it = tdep.find(hash);
    if (it == tdep.end() || (name && !ascii_iequals(*name, it->second->name_space))) return {};
    return fmt::format("namespace {}, TDEP {}", it->second->name_space, it->second->path);
  };
  std::vector<std::string> out;
  for (std::size_t i = 0; i < fx.external_ids.size(); ++i) {
    const ExternalId& e = fx.external_ids[i];
    std::string hint;
    if (e.namespace_hash == kMetaImagesNamespace) {
      if (auto m = metaimage_for_hash(e.name_hash)) hint = "metaimages::" + *m;
    } else {
      hint = hint_for(e.namespace_hash, std::nullopt);
    }
    out.push_back(with_hint(fmt::format("external exid {}: {} unresolved", i, external_id_name(fx, i)), hint));
  }
  for (std::size_t i = 0; i < fx.external_names.size(); ++i) {
    const ExternalName& e = fx.external_names[i];
    std::string hint;
    if (e.namespace_index() < fx.strings.size()) {
      const std::string_view ns = fx.strings[e.namespace_index()];
      hint = hint_for(fnv1a32(ns, true), ns);  // an EXNM's namespace is text: the same name, any case
    }
    out.push_back(with_hint(fmt::format("external exnm {}: {} unresolved", i, external_name_name(fx, i)), hint));
  }
  return out;
}

Graph build_graph(const IgzFile& f, const Fixups& fx, const DiagSink& sink) {
  Graph g;
  g.version = f.header().version;
  Builder b{f, fx, sink, g};
  b.objects();
  b.tables();
  b.runtime_fields();
  b.root();
  b.object_lists();
  b.name_list();
  b.namespace_list();
  b.notes();
  return g;
}

void verify(ByteView bytes, const OpenOptions& opt, Diagnostics& out) {
  auto sink = out.sink();
  auto f = IgzFile::open(bytes, opt, sink);
  if (!f) return out.error(f.error());
  const Fixups fx = decode_fixups(*f, sink);
  (void)build_graph(*f, fx, sink);
}

}  // namespace assay::igz
