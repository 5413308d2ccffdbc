// igz writer. spec: alchemy.md#igz-header-v7, #igz-fixups, #igz-tags, #igz-strings, #igz-packed
#include "assay/formats/igz/writer.h"

#include <algorithm>

#include "assay/core/hash.h"
#include "diag_util.h"

namespace assay::igz {

using detail::err;

Writer::Writer(Layout layout) : layout_(layout) {
  ps_ = layout.pointer_size != 0 ? layout.pointer_size
        : layout.version >= 10   ? 8  // spec: #corrections C3: NST / CTR are 64-bit
                                 : platform_pointer_size(layout.version, layout.platform);
  if (ps_ != 4 && ps_ != 8) bad_ = true;
  if (layout.version < 7 || layout.version > 10) bad_ = true;
}

std::uint32_t Writer::add_pool(std::string name, std::uint32_t alignment) {
  pools_.push_back({std::move(name), alignment, {}});
  if (layout_.version < 9) pools_.back().bytes.resize(4);  // reserved (spec: #igz-packed)
  return static_cast<std::uint32_t>(pools_.size() - 1);
}

std::uint32_t Writer::add_type(std::string name, std::uint32_t size) {
  types_.push_back(std::move(name));
  sizes_.push_back(size);
  return static_cast<std::uint32_t>(types_.size() - 1);
}

std::uint32_t Writer::add_string_table_entry(std::string s) {
  tstr_.push_back(std::move(s));
  return static_cast<std::uint32_t>(tstr_.size() - 1);
}

void Writer::add_dependency(std::string ns, std::string path) { deps_.emplace_back(std::move(ns), std::move(path)); }

std::uint32_t Writer::add_external_id(std::uint32_t name_hash, std::uint32_t ns_hash) {
  exid_.emplace_back(name_hash, ns_hash);
  return static_cast<std::uint32_t>(exid_.size() - 1);
}

std::uint32_t Writer::add_external_name(std::uint32_t ns, std::uint32_t name, bool handle) {
  exnm_.emplace_back(ns | (handle ? 0x80000000u : 0u), name);
  return static_cast<std::uint32_t>(exnm_.size() - 1);
}

std::uint32_t Writer::add_memory_handle(std::uint64_t size_word, std::uint32_t data) {
  tmhn_.emplace_back(size_word, data);
  return static_cast<std::uint32_t>(tmhn_.size() - 1);
}

std::uint32_t Writer::alloc(std::uint32_t pool, std::uint32_t size, std::uint32_t align) {
  if (pool >= pools_.size() || align == 0) {
    bad_ = true;
    return 0;
  }
  ByteBuffer& b = pools_[pool].bytes;
  const std::size_t start = (b.size() + align - 1) / align * align;
  if (start + size > 0x07FFFFFFu) {
    bad_ = true;
    return 0;
  }
  b.resize(start + size, 0);
  return encode_pointer(layout_.version, {pool, static_cast<std::uint32_t>(start)});
}

std::uint8_t* Writer::at(std::uint32_t ser, std::uint32_t size) {
  const PoolOffset p = decode_pointer(layout_.version, ser);
  if (p.pool >= pools_.size() || !range_ok(p.offset, size, pools_[p.pool].bytes.size())) {
    bad_ = true;
    return nullptr;
  }
  return pools_[p.pool].bytes.data() + p.offset;
}

void Writer::put_u32(std::uint32_t a, std::uint32_t v) {
  if (auto* p = at(a, 4)) store<std::uint32_t>(p, v, layout_.endian);
}

void Writer::put_word(std::uint32_t a, std::uint64_t v) {
  if (ps_ == 4) return put_u32(a, static_cast<std::uint32_t>(v));
  if (auto* p = at(a, 8)) store<std::uint64_t>(p, v, layout_.endian);
}

std::uint32_t Writer::add_object(std::uint32_t pool, std::uint32_t type) {
  if (type >= sizes_.size()) {
    bad_ = true;
    return 0;
  }
  const std::uint32_t o = alloc(pool, sizes_[type], ps_);
  put_u32(o, type);  // the vtable word holds the TMET index (spec: #igz-objects)
  lists_[tag::RVTB].push_back(o);
  return o;
}

std::uint32_t Writer::add_string(std::string_view s) {
  if (string_pool_ == ~0u) string_pool_ = add_pool("String", 2);
  const std::uint32_t o = alloc(string_pool_, static_cast<std::uint32_t>(s.size() + 1), 1);
  if (auto* p = at(o, static_cast<std::uint32_t>(s.size() + 1))) std::copy(s.begin(), s.end(), p);
  // keep the next string 2-aligned like the samples' String pool
  auto& b = pools_[string_pool_].bytes;
  if (b.size() % 2 != 0) b.push_back(0);
  return o;
}

void Writer::set_pointer(std::uint32_t field, std::uint32_t target) {
  put_word(field, target);
  lists_[tag::ROFS].push_back(field);
}
void Writer::set_string(std::uint32_t field, std::string_view s) {
  put_word(field, add_string(s));
  lists_[tag::RSTR].push_back(field);
}
void Writer::set_string_index(std::uint32_t field, std::uint32_t tstr) {
  put_word(field, tstr);
  lists_[tag::RSTT].push_back(field);
}
void Writer::set_external(std::uint32_t field, std::uint32_t exid) {
  put_word(field, exid | 0x80000000u);
  lists_[tag::REXT].push_back(field);
}
void Writer::set_named_external(std::uint32_t field, std::uint32_t k) {
  put_word(field, k);
  lists_[tag::RNEX].push_back(field);
}
void Writer::set_handle(std::uint32_t field, std::uint32_t value) {
  put_word(field, value);
  lists_[tag::RHND].push_back(field);
}
void Writer::set_memory_handle(std::uint32_t field, std::uint32_t tmhn) {
  put_word(field, tmhn);
  lists_[tag::RMHN].push_back(field);
}
void Writer::add_pool_id(std::uint32_t field) { lists_[tag::RPID].push_back(field); }

void Writer::set_data_list(std::uint32_t list, std::uint32_t count, std::uint32_t data,
                           std::uint32_t element_size) {
  const std::uint32_t count_at = v10_64() ? (layout_.ctr ? 0x0C : 0x10) : ps_ == 8 ? 0x0C : 0x08;
  const std::uint32_t mem_at = ps_ == 8 ? 0x18 : 0x10;
  put_u32(list + count_at, count);
  put_u32(list + count_at + 4, count);
  const std::uint64_t size = std::uint64_t{count} * element_size;
  put_word(list + mem_at, memory_word(size));
  if (count != 0) set_pointer(list + mem_at + ps_, data);
}

std::uint64_t Writer::memory_word(std::uint64_t size) const {
  if (v10_64()) {  // spec C4: {u32 size, u32 flags}; flags as the NST file (active, alignment 8)
    const std::uint64_t flags = 0x01100000u, sz = size & 0xFFFFFFFFu;
    return layout_.endian == Endian::little ? flags << 32 | sz : sz << 32 | flags;
  }
  return (ps_ == 8 ? std::uint64_t{1} << 63 : 0x80000000u) | size;
}

void Writer::put_name_hash(std::uint32_t name, std::uint32_t hash) {
  if (v10_64()) put_word(name + ps_, hash);  // u64 hash (spec C4)
  else put_u32(name + ps_, hash);
}

std::uint32_t Writer::add_object_list(std::uint32_t pool, std::uint32_t type,
                                      const std::vector<std::uint32_t>& elements) {
  const std::uint32_t list = add_object(pool, type);
  const auto n = static_cast<std::uint32_t>(elements.size());
  const std::uint32_t data = n ? alloc(pool, n * ps_, ps_) : 0;
  for (std::uint32_t i = 0; i < n; ++i) set_pointer(data + i * ps_, elements[i]);
  set_data_list(list, n, data, ps_);
  return list;
}

// The fixup records in the samples' order (spec: #samples-model).
Result<std::pair<ByteBuffer, std::uint32_t>> Writer::records() const {
  ByteWriter w(layout_.endian);
  std::uint32_t n = 0;
  auto record = [&](std::uint32_t t, std::size_t count, const ByteBuffer& data) {
    const std::size_t start = w.size();
    w.u32(t);
    w.u32(static_cast<std::uint32_t>(count));
    w.u32(0);  // length, patched below
    w.u32(0x10);
    w.bytes(data);
    w.align(4);
    w.patch<std::uint32_t>(start + 8, static_cast<std::uint32_t>(w.size() - start));
    ++n;
  };
  auto strings = [&](const std::vector<std::string>& v) {
    ByteWriter d(layout_.endian);
    for (const auto& s : v) {
      d.cstr(s);
      if (layout_.version >= 8 && (s.size() + 1) % 2 != 0) d.u8(0);  // spec: #igz-strings
    }
    return d.take();
  };
  if (!deps_.empty()) {
    ByteWriter d(layout_.endian);
    for (const auto& [ns, path] : deps_) d.cstr(ns), d.cstr(path);
    record(tag::TDEP, deps_.size(), d.buffer());
  }
  if (!tstr_.empty()) record(tag::TSTR, tstr_.size(), strings(tstr_));
  record(tag::TMET, types_.size(), strings(types_));
  {
    ByteWriter d(layout_.endian);
    for (auto s : sizes_) d.u32(s);
    record(tag::MTSZ, sizes_.size(), d.buffer());
  }
  if (!exid_.empty()) {
    ByteWriter d(layout_.endian);
    for (auto [name, ns] : exid_) d.u32(name), d.u32(ns);
    record(tag::EXID, exid_.size(), d.buffer());
  }
  if (!exnm_.empty()) {
    ByteWriter d(layout_.endian);
    for (auto [ns, name] : exnm_) d.u64(std::uint64_t{ns} << 32 | name);  // one u64 (spec Q9)
    record(tag::EXNM, exnm_.size(), d.buffer());
  }
  if (!tmhn_.empty()) {
    ByteWriter d(layout_.endian);
    for (auto [size, data] : tmhn_) {
      if (ps_ == 8) d.u64(size), d.u64(data);
      else d.u32(static_cast<std::uint32_t>(size)), d.u32(data);
    }
    record(tag::TMHN, tmhn_.size(), d.buffer());
  }
  for (std::uint32_t t : {tag::RVTB, tag::RSTT, tag::RSTR, tag::ROFS, tag::RPID, tag::REXT,
                          tag::RNEX, tag::RHND, tag::RMHN}) {
    auto it = lists_.find(t);
    if (it == lists_.end() || it->second.empty()) continue;
    ASSAY_TRY(ByteBuffer packed, pack_list(it->second, layout_.version));
    record(t, it->second.size(), packed);
  }
  {
    ByteWriter d(layout_.endian);
    d.u32(root_);  // raw, as igRewrite8's saver writes new files (spec Q5)
    record(tag::ROOT, 1, d.buffer());
  }
  if (has_name_list_) {
    ByteWriter d(layout_.endian);
    d.u32(name_list_);
    record(tag::ONAM, 1, d.buffer());
  }
  if (has_namespace_list_) {  // spec: #corrections C5: a raw u32 like ONAM
    ByteWriter d(layout_.endian);
    d.u32(namespace_list_);
    record(tag::NSPC, 1, d.buffer());
  }
  return std::pair<ByteBuffer, std::uint32_t>{w.take(), n};
}

Result<ByteBuffer> Writer::finish() const {
  if (bad_) return err("writer", kNoOffset, "invalid layout, pool, type or write offset");
  if (pools_.empty() || pools_.size() + 1 > kMaxSectionsV7)
    return err("writer", kNoOffset, fmt::format("{} pools (1 to 31 allowed)", pools_.size()));
  ASSAY_TRY(auto rec, records());
  const ByteBuffer& recs = rec.first;
  const std::uint32_t num = rec.second;

  ByteWriter w(layout_.endian);
  w.u32(kMagic);
  w.u32(layout_.version);
  w.u32(fields_hash_);
  w.u32(layout_.platform);
  w.u32(num);
  // descriptors and pool names (spec: #igz-header-v7)
  std::vector<std::uint32_t> name_off;
  std::string names;
  for (const auto& p : pools_) {
    name_off.push_back(static_cast<std::uint32_t>(names.size()));
    names += p.name;
    names += '\0';
  }
  if (names.size() > kPoolNamesEnd - kPoolNamesV7) return err("writer", kNoOffset, "pool names too long");
  std::uint64_t pos = kPoolNamesEnd;
  struct Desc {
    std::uint32_t name, offset, length, alignment;
  };
  std::vector<Desc> desc{{0, static_cast<std::uint32_t>(pos), static_cast<std::uint32_t>(recs.size()), 0x800}};
  pos += recs.size();
  for (std::size_t i = 0; i < pools_.size(); ++i) {
    const std::uint32_t a = std::max<std::uint32_t>(pools_[i].alignment, 1);
    pos = (pos + a - 1) / a * a;
    desc.push_back({name_off[i], static_cast<std::uint32_t>(pos),
                    static_cast<std::uint32_t>(pools_[i].bytes.size()), pools_[i].alignment});
    pos += pools_[i].bytes.size();
  }
  if (pos > 0xFFFFFFFFu) return err("writer", kNoOffset, "file exceeds 4 GiB");
  for (const auto& d : desc) w.u32(d.name), w.u32(d.offset), w.u32(d.length), w.u32(d.alignment);
  w.zeros(kPoolNamesV7 - w.size());
  w.str(names);
  w.zeros(kPoolNamesEnd - w.size());
  w.bytes(recs);
  for (std::size_t i = 0; i < pools_.size(); ++i) {
    w.zeros(desc[i + 1].offset - w.size());
    w.bytes(pools_[i].bytes);
  }
  return w.take();
}

Result<ByteBuffer> build_sample(const Layout& layout) { return build_sample(layout, 2); }

Result<ByteBuffer> build_sample(const Layout& layout, std::uint32_t count, std::uint32_t image_bytes) {
  Writer w(layout);
  const std::uint32_t ps = w.pointer_size();
  const std::uint32_t def = w.add_pool("Default", 16);
  w.add_string("");  // creates the String pool as pool 1
  const std::uint32_t image = w.add_pool("Image", 4);
  const std::uint32_t t_list = w.add_type("igObjectList", w.data_list_size());
  const std::uint32_t t_names = w.add_type("igNameList", w.data_list_size());
  // A demo type: header, then pointer slots: next, name, tstr, external, named external,
  // handle, memory-handle index, igMemory word (RPID).
  const std::uint32_t t_demo = w.add_type("igDemoObject", w.object_header() + 8 * ps);
  w.add_dependency("demo_materials", "materials/demo_materials.igz");
  const std::uint32_t ns = w.add_string_table_entry("demo_materials");
  const std::uint32_t nm = w.add_string_table_entry("metal");
  const std::uint32_t hn = w.add_string_table_entry("chrome");
  w.add_external_name(ns, nm, false);  // named external 0
  w.add_external_name(ns, hn, true);   // named handle 0
  const std::uint32_t exid = w.add_external_id(fnv1a32("texture", true), fnv1a32("textures", true));
  const std::uint32_t blob = w.alloc(image, std::max<std::uint32_t>(0x10, image_bytes), 4);
  std::uint32_t lcg = 12345;
  for (std::uint32_t i = 0; i + 4 <= image_bytes; i += 4) {
    lcg = lcg * 1664525u + 1013904223u;
    w.put_u32(blob + i, (lcg >> 10) & 0x3F3F3F3Fu);  // some redundancy, like vertex data
  }
  const std::uint32_t mh = w.add_memory_handle(w.memory_word(0x10), blob);

  const std::uint32_t root = w.add_object(def, t_list);  // first, at the pool start
  const std::uint32_t names = w.add_object(def, t_names);
  std::vector<std::uint32_t> objs;
  for (std::uint32_t i = 0; i < count; ++i) objs.push_back(w.add_object(def, t_demo));
  const std::uint32_t h = w.object_header();
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t o = objs[i];
    w.set_pointer(o + h, objs[(i + 1) % count]);
    w.set_string(o + h + ps, fmt::format("demo_object_{}", i));
    w.set_string_index(o + h + 2 * ps, nm);
    w.set_external(o + h + 3 * ps, exid);
    w.set_named_external(o + h + 4 * ps, 0);
    w.set_handle(o + h + 5 * ps, i % 2 == 0 ? 0x80000000u : exid);  // named handle 0 / EXID
    w.set_memory_handle(o + h + 6 * ps, mh);
    w.add_pool_id(o + h + 7 * ps);
  }
  // The root list holds the demo objects; the name list names them (spec: #igz-objects).
  const std::uint32_t data = count ? w.alloc(def, count * ps, ps) : 0;
  for (std::uint32_t i = 0; i < count; ++i) w.set_pointer(data + i * ps, objs[i]);
  w.set_data_list(root, count, data, ps);
  const std::uint32_t stride = w.name_size();
  // One igName: a string pointer (RSTR) or {TSTR index, hash} through RSTT (spec C2).
  auto put_name = [&](std::uint32_t at, const std::string& n) {
    if (layout.names_as_tstr) w.set_string_index(at, w.add_string_table_entry(n));
    else w.set_string(at, n);
    w.put_name_hash(at, fnv1a32(n, true));
  };
  const std::uint32_t nd = count ? w.alloc(def, count * stride, ps) : 0;
  for (std::uint32_t i = 0; i < count; ++i) put_name(nd + i * stride, fmt::format("Demo_Object_{}", i));
  w.set_data_list(names, count, nd, stride);
  w.set_root(root);
  w.set_name_list(names);
  if (!layout.name_space.empty()) {  // spec C5: NSPC -> an igNameList with the namespace name
    const std::uint32_t nsl = w.add_object(def, t_names);
    const std::uint32_t nsd = w.alloc(def, stride, ps);
    put_name(nsd, layout.name_space);
    w.set_data_list(nsl, 1, nsd, stride);
    w.set_namespace_list(nsl);
  }
  return w.finish();
}

}  // namespace assay::igz
