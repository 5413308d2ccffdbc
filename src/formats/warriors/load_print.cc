// `warriors load`'s report through a FieldPrinter (load.h): the loader's records, stacks,
// objects and stored items. Shapes: docs/cli.md#warriors; spec: warriors.md#wr-5-4.
#include <map>

#include "assay/formats/warriors/load.h"
#include "formats/json_printer.h"

namespace assay::warriors {

namespace {

void print_header(const ContainerHeader& h, FieldPrinter& p) {
  p.begin_object("header");
  p.field("count", h.count).field("size", h.size).field("zero", h.zero).field("id", h.id);
  p.end_object();
}

void print_chunk_counts(const LoadResult& r, FieldPrinter& p) {
  std::map<std::uint32_t, std::uint64_t> per_type;
  for (const auto& c : r.chunks) ++per_type[c.header.type];
  p.begin_array("chunk_counts");
  for (auto [t, n] : per_type) {
    p.begin_object("");
    p.field("type", t).field("name", chunk_type_name(t)).field("count", n);
    p.end_object();
  }
  p.end_array();
}

void print_chunk_records(const LoadResult& r, std::uint64_t base, FieldPrinter& p) {
  p.begin_array("chunk_records");  // spec: #wr-5-4 step 3: one record per chunk
  for (const auto& c : r.chunks) {
    p.begin_object("");
    p.field("index", c.index);
    if (c.group < 0) p.null("group");  // a flat container's -1
    else p.field("group", c.group);
    p.field("offset", base + c.offset).field("type", c.header.type).field("size", c.header.size);
    p.field("zero", c.header.zero).field("id", c.header.id).field("stream_read", c.stream_read);
    p.end_object();
  }
  p.end_array();
}

void print_chunk_value(const ChunkValue& value, FieldPrinter& p) {
  if (std::holds_alternative<std::monostate>(value)) return p.null("value");
  p.begin_object("value");
  std::visit([&](const auto& v) {
    using T = std::decay_t<decltype(v)>;
    if constexpr (std::is_same_v<T, ClumpValue>) p.field("kind", "clump").field("atomics", v.atomics).field("stamp", v.section.stamp);
    else if constexpr (std::is_same_v<T, TexDictValue>) p.field("kind", "texture_dictionary").field("textures", v.textures);
    else if constexpr (std::is_same_v<T, WorldValue>) p.field("kind", "world");
    else if constexpr (std::is_same_v<T, SpritePage>)
      p.field("kind", "sprite_page").field("rects", v.rects).field("first_glyph", v.first_glyph).field("textures", v.dictionary.textures);
  }, value);
  p.end_object();
}

void print_chunk_stack(const LoadResult& r, std::uint64_t base, FieldPrinter& p) {
  p.begin_array("chunk_stack");
  for (const auto& c : r.stacks.chunks()) {
    p.begin_object("");
    p.field("type", c.type).field("name", chunk_type_name(c.type)).field("offset", base + c.offset);
    p.field("size", c.data.size()).field("id", c.id);
    print_chunk_value(c.value, p);
    p.end_object();
  }
  p.end_array();
}

// docs/cli.md#json: offsets absolute in the file given.
void print_problems(const LoadResult& r, std::uint64_t base, FieldPrinter& p) {
  p.begin_array("problems");
  for (Diagnostic d : r.diags.items()) {
    if (d.where.offset != kNoOffset) d.where.offset += base;
    detail::print_json(p, "", problem_json(d));
  }
  p.end_array();
  if (!r.error) return;
  const Error& e = *r.error;
  p.begin_object("error");
  p.field("message", e.structure.empty() ? e.message : e.structure + ": " + e.message);
  if (e.offset == kNoOffset) p.null("offset");
  else p.field("offset", base + e.offset);
  p.end_object();
}

}  // namespace

void print_loaded_entry(const LoadedEntry& x, FieldPrinter& p) {  // as list shows it (entry.json)
  p.field("index", x.entry.index).field("name", x.name).field("path", x.path).field("offset", x.entry.offset);
  p.field("size", x.entry.size).field("stored_size", x.entry.size).field("kind", to_string(x.kind)).field("hash", x.entry.hash);
}

void print_loaded_object(const Object& o, FieldPrinter& p) {
  p.field("type", object_kind(o));
  std::visit([&](const auto& v) {
    using T = std::decay_t<decltype(v)>;
    if constexpr (std::is_same_v<T, Animation>) {
      p.field("name", v.name).field("duration", v.duration).field("channels", v.channels);
    } else if constexpr (std::is_same_v<T, CollisionMesh>) {
      p.begin_array("cells");
      p.field("", v.nx).field("", v.ny).field("", v.nz);
      p.end_array();
      p.field("triangles", v.triangles).field("vertices", v.vertices);
    } else if constexpr (std::is_same_v<T, Character>) {
      p.begin_array("clips");
      for (const auto& a : v.clips) p.field("", a.name);
      p.end_array();
      p.field("default_slots", v.default_slots).field("anim_ranges", v.anim_ranges);
    } else if constexpr (std::is_same_v<T, WorldObject>) {
      p.field("textures", v.textures.textures);
    } else if constexpr (std::is_same_v<T, GameObjectList>) {
      p.field("list_bytes", v.list_bytes).field("definition_bytes", v.definition_bytes).field("instance_bytes", v.instance_bytes);
    } else if constexpr (std::is_same_v<T, Level>) {
      p.field("triangles", v.mesh.triangles).field("vertices", v.mesh.vertices).field("occluders", v.occluders);
      p.field("skyline_atomics", v.skyline.atomics).field("sky_box_atomics", v.sky_box.atomics);
      p.field("cloud_box_atomics", v.cloud_box.atomics);
    }
  }, o);
}

void print_stored_item(const StoredItem& s, std::uint64_t base, FieldPrinter& p) {
  p.field("type", s.type).field("name", chunk_type_name(s.type)).field("slot", s.slot);
  p.field("offset", base + s.offset).field("size", s.size);
  for (const auto& [k, v] : s.fields) p.field(k, v);
  if (!s.strings.empty()) p.field("strings", s.strings);
}

void print_load_report(const LoadReport& x, FieldPrinter& p) {
  const LoadResult& r = x.result;
  p.field("format", "warriors").field("container", to_string(r.shape)).field("ok", r.ok());
  print_header(r.header, p);
  p.field("chunks", r.chunks.size());
  print_chunk_counts(r, p);
  print_chunk_records(r, x.base, p);
  if (r.shape == ContainerShape::grouped) p.field("groups", r.group_ids.size()).field("ended_by_zero_group", r.ended_by_zero_group);
  print_chunk_stack(r, x.base, p);
  p.begin_array("objects");
  for (const auto& o : r.stacks.objects()) {
    p.begin_object("");
    print_loaded_object(o, p);
    p.end_object();
  }
  p.end_array();
  p.begin_array("stored");
  for (const auto& s : r.stored) {
    p.begin_object("");
    print_stored_item(s, x.base, p);
    p.end_object();
  }
  p.end_array();
  p.field("consumed", r.consumed).field("trailing", r.trailing);
  print_problems(r, x.base, p);
  if (!x.file.empty()) p.field("file", x.file);
  if (x.entry) {
    p.begin_object("entry");
    print_loaded_entry(*x.entry, p);
    p.end_object();
  }
  if (!x.warning.empty()) p.field("warning", x.warning);
}

}  // namespace assay::warriors
