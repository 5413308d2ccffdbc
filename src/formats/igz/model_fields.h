// Internal: reads the model graph's objects field by field (model_read.cc, model_skin.cc): offsets
// from model_layout.cc's table for the file, each field checked against the object's MTSZ size, each
// pointer against ROFS and the type it must point at, pointer-sized words per the file.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "assay/formats/igz/edge.h"
#include "assay/formats/igz/model.h"
#include "diag_util.h"
#include "model_layout.h"

namespace assay::igz {

// Reads an object's fields by offset, checking each against the object's MTSZ size, and each
// pointer against ROFS and the type it must point at.
class FieldReader {
 public:
  FieldReader(const IgzFile& f, const Fixups& fx, const Graph& g)
      : f_(f), fx_(fx), g_(g), fields_(model_fields(f, g)), ps_(f.header().pointer_size) {
    rofs_ = fx.list(tag::ROFS);
    std::sort(rofs_.begin(), rofs_.end());
  }

  [[nodiscard]] const Graph& graph() const { return g_; }
  [[nodiscard]] const IgzFile& file() const { return f_; }
  [[nodiscard]] const ModelFields& fields() const { return fields_; }
  [[nodiscard]] unsigned pointer_size() const { return ps_; }

  [[nodiscard]] std::string what(std::size_t o, std::string_view field) const {
    const Object& ob = g_.objects[o];
    return fmt::format("{}[{}] {}", ob.type_name.empty() ? "object" : ob.type_name, o, field);
  }
  [[nodiscard]] std::uint32_t serialized(std::size_t o, std::uint32_t field) const {
    return encode_pointer(f_.header().version, {g_.objects[o].pool, g_.objects[o].offset + field});
  }

  // The absolute position of [field, field + need) of object o.
  Result<std::uint64_t> at(std::size_t o, std::uint32_t field, std::uint32_t need, std::string_view name) const {
    const Object& ob = g_.objects[o];
    if (ob.size != 0 && std::uint64_t{field} + need > ob.size)
      return detail::err(what(o, name), ob.position, fmt::format("field +0x{:x} ({} bytes) is outside the object's 0x{:x} bytes", field, need, ob.size));
    return resolve(f_, serialized(o, field), need, what(o, name));
  }
  Result<std::uint32_t> u32(std::size_t o, std::uint32_t field, std::string_view name) const {
    ASSAY_TRY(std::uint64_t p, at(o, field, 4, name));
    return f_.reader().u32(p, what(o, name));
  }
  Result<std::uint16_t> u16(std::size_t o, std::uint32_t field, std::string_view name) const {
    ASSAY_TRY(std::uint64_t p, at(o, field, 2, name));
    return f_.reader().u16(p, what(o, name));
  }
  // A pointer-sized word (pointer, handle index, igMemory size word).
  Result<std::uint64_t> word(std::size_t o, std::uint32_t field, std::string_view name) const {
    ASSAY_TRY(std::uint64_t p, at(o, field, ps_, name));
    return word_at(p, what(o, name));
  }
  Result<std::uint64_t> word_at(std::uint64_t pos, const std::string& w) const {
    if (ps_ == 8) return f_.reader().u64(pos, w);
    ASSAY_TRY(std::uint32_t v, f_.reader().u32(pos, w));
    return std::uint64_t{v};
  }
  Result<model::Vec4> vec4(std::size_t o, std::uint32_t field, std::string_view name) const {
    ASSAY_TRY(std::uint64_t p, at(o, field, 16, name));
    model::Vec4 v{};
    for (unsigned i = 0; i < 4; ++i) {
      ASSAY_TRY(v[i], f_.reader().f32(p + 4 * i, what(o, name)));
    }
    return v;
  }
  [[nodiscard]] bool is_pointer(std::uint32_t serialized_field) const {
    return std::binary_search(rofs_.begin(), rofs_.end(), serialized_field);
  }

  // An object reference: kNoObject for null, else the object it points at, of type `type`.
  Result<std::size_t> ref(std::size_t o, std::uint32_t field, std::string_view name, std::string_view type) const {
    ASSAY_TRY(std::uint64_t v, word(o, field, name));
    if (v == 0 && !is_pointer(serialized(o, field))) return kNoObject;  // 0 with a ROFS entry: pool 0, offset 0
    ASSAY_TRY(std::uint64_t pos, at(o, field, ps_, name));
    return target(serialized(o, field), v, pos, what(o, name), type);
  }

  // The object a pointer value at serialized `field` (file position `pos`) points at.
  Result<std::size_t> target(std::uint32_t field, std::uint64_t value, std::uint64_t pos, const std::string& w,
                             std::string_view type) const {
    if (!is_pointer(field))
      return detail::err(w, pos, fmt::format("0x{:08x} is not a pointer (no ROFS entry): the field is not where the {} metadata puts it", value, fields_.name));
    const std::size_t t = value > 0xFFFFFFFFu ? kNoObject : g_.object_at(static_cast<std::uint32_t>(value));
    if (t == kNoObject) return detail::err(w, pos, fmt::format("0x{:08x} points at no object", value));
    if (g_.objects[t].type_name != type)
      return detail::err(w, pos, fmt::format("points at {}[{}], not an {}", g_.objects[t].type_name, t, type));
    return t;
  }

  // An igMemory {size word, pointer}, each pointer-sized (version 10 64-bit: {u32 size, u32 flags},
  // u64 pointer): the bytes it holds.
  Result<MemorySpan> memory(std::size_t o, std::uint32_t field, std::string_view name) const {
    ASSAY_TRY(std::uint64_t word_value, word(o, field, name));
    ASSAY_TRY(std::uint64_t ptr, word(o, field + ps_, name));
    MemorySpan m;
    m.size = memory_bytes(f_, word_value);
    if (ptr == 0 && m.size == 0) return m;
    ASSAY_TRY(std::uint64_t pos, at(o, field + ps_, ps_, name));
    if (!is_pointer(serialized(o, field + ps_))) return detail::err(what(o, name), pos, fmt::format("memory pointer 0x{:08x} has no ROFS entry", ptr));
    if (ptr > 0xFFFFFFFFu) return detail::err(what(o, name), pos, fmt::format("memory pointer 0x{:x} exceeds 32 bits", ptr));
    ASSAY_TRY(m.offset, resolve(f_, static_cast<std::uint32_t>(ptr), m.size, what(o, name)));
    return m;
  }

  // An igVector {count, igMemory} (the count a u64 on 64-bit version 9, a u32 padded to 8 bytes on
  // version 10): its count and its elements' bytes (count x elem bytes).
  Result<std::pair<std::uint32_t, MemorySpan>> vector(std::size_t o, std::uint32_t field, std::string_view name,
                                                      std::uint32_t elem) const {
    std::uint64_t count = 0;
    if (ps_ == 8 && !nst_layout(f_.header())) {
      ASSAY_TRY(count, word(o, field, name));
    } else {
      ASSAY_TRY(count, u32(o, field, name));
    }
    ASSAY_TRY(MemorySpan m, memory(o, field + ps_, name));
    if (count > 0xFFFFFFFFu || count * elem > m.size) {
      ASSAY_TRY(std::uint64_t pos, at(o, field, 4, name));
      return detail::err(what(o, name), pos, fmt::format("{} elements of {} bytes do not fit its {} bytes of memory", count, elem, m.size));
    }
    return std::pair{static_cast<std::uint32_t>(count), m};
  }

  // Element i of a vector of object references (`m` from vector()).
  Result<std::size_t> vector_ref(std::size_t o, const MemorySpan& m, std::uint32_t i, std::string_view name,
                                 std::string_view type) const {
    const std::uint64_t pos = m.offset + std::uint64_t{i} * ps_;
    const std::string w = fmt::format("{}[{}]", what(o, name), i);
    ASSAY_TRY(std::uint64_t v, word_at(pos, w));
    const std::uint32_t field = field_at(pos);
    if (v == 0 && !is_pointer(field)) return kNoObject;
    return target(field, v, pos, w, type);
  }

  // An igObjectList's elements, each of `type` (null elements left out): {header, count, capacity,
  // igMemory of pointers}.
  Result<std::vector<std::size_t>> object_list(std::size_t o, std::string_view type) const {
    ASSAY_TRY(std::uint32_t count, u32(o, fields_.list_count, "_count"));
    ASSAY_TRY(MemorySpan m, memory(o, fields_.list_memory, "_data"));
    if (std::uint64_t{count} * ps_ > m.size)
      return detail::err(what(o, "_count"), g_.objects[o].position, fmt::format("{} elements do not fit its {} bytes of memory", count, m.size));
    std::vector<std::size_t> out;
    for (std::uint32_t i = 0; i < count; ++i) {
      ASSAY_TRY(std::size_t t, vector_ref(o, m, i, "_data", type));
      if (t != kNoObject) out.push_back(t);
    }
    return out;
  }

  // A buffer's _data: a memory handle (RMHN -> TMHN {size word, data pointer}), or where the layout
  // allows it an igMemory in place.
  Result<MemorySpan> data(std::size_t o, std::uint32_t field, std::string_view name) const {
    ASSAY_TRY(std::uint64_t pos, at(o, field, ps_, name));
    const auto& rmhn = fx_.list(tag::RMHN);
    if (std::find(rmhn.begin(), rmhn.end(), serialized(o, field)) == rmhn.end()) {
      if (fields_.data_in_place) return memory(o, field, name);
      return detail::err(what(o, name), pos, "no memory handle (RMHN entry)");
    }
    ASSAY_TRY(std::uint64_t index, word_at(pos, what(o, name)));
    if (index >= fx_.memory_handles.size())
      return detail::err(what(o, name), pos, fmt::format("TMHN index {} ≥ TMHN count {}", index, fx_.memory_handles.size()));
    const MemoryHandle& h = fx_.memory_handles[index];
    MemorySpan m;
    m.size = memory_bytes(f_, h.size_word);
    if (h.data > 0xFFFFFFFFu) return detail::err(what(o, name), pos, fmt::format("TMHN[{}] data pointer exceeds 32 bits", index));
    ASSAY_TRY(m.offset, resolve(f_, static_cast<std::uint32_t>(h.data), m.size, fmt::format("TMHN[{}] data", index)));
    return m;
  }

  // The external reference (REXT, RNEX, RHND) held by a field, or nullptr.
  [[nodiscard]] const ExternalRef* external(std::size_t o, std::uint32_t field) const {
    const std::uint32_t s = serialized(o, field);
    for (const ExternalRef& x : g_.externals)
      if (x.field == s) return &x;
    return nullptr;
  }

  [[nodiscard]] std::optional<std::string> name(std::size_t o) const {
    const std::uint32_t s = serialized(o, fields_.named_name);
    for (const StringRef& r : g_.strings)
      if (r.field == s && r.text) return std::string(*r.text);
    return std::nullopt;
  }

  [[nodiscard]] const Fixups& fixups() const { return fx_; }

 private:
  // The serialized offset of an absolute position inside the pool that holds it.
  [[nodiscard]] std::uint32_t field_at(std::uint64_t pos) const {
    for (std::size_t k = 0; k < f_.pool_count(); ++k) {
      const Section& p = f_.pool(k);
      if (p.usable && pos >= p.offset && pos - p.offset < p.length)
        return encode_pointer(f_.header().version, {static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(pos - p.offset)});
    }
    return 0;
  }

  const IgzFile& f_;
  const Fixups& fx_;
  const Graph& g_;
  const ModelFields& fields_;
  unsigned ps_;
  std::vector<std::uint32_t> rofs_;
};

// The model graph of one igModelInfo or igModelData (model.h's read_model) through a FieldReader made
// once for the file: a file's models share its sorted ROFS list.
Result<Model> read_model(const FieldReader& r, std::size_t object);
// An igGeometryAttr as a model of one draw call (model.h find_geometry_attrs), with what the
// scene index found above it.
Result<Model> read_geometry_attr(const FieldReader& r, std::size_t attr, const EdgeSceneIndex& index);
// The skeleton a CGraphicsSkinInfo pairs with `model_data` (model_skin.cc); nullopt when none does.
Result<std::optional<Skeleton>> read_skeleton(const FieldReader& r, std::size_t model_data);
// The igSkeleton2 `object`: its bones and inverse joint matrices (the PS3 EDGE skins read it too).
Result<Skeleton> read_skeleton_object(const FieldReader& r, std::size_t object);

}  // namespace assay::igz
