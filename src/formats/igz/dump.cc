// `assay igz dump` (dump.h): the fields in the order docs/cli.md#igz lists them. spec: alchemy.md#igz
#include "assay/formats/igz/dump.h"

namespace assay::igz {

namespace {

void pool_field(FieldPrinter& p, std::string_view key, const IgzFile& f, std::uint32_t pool) {
  if (pool < f.pool_count()) p.field(key, f.pool(pool).name);
  else p.null(key);
}

void object_field(FieldPrinter& p, std::string_view key, std::size_t i) {
  if (i == kNoObject) p.null(key);
  else p.field(key, i);
}

std::optional<std::string_view> type_name(const Object& o) {
  return o.type_name.empty() ? std::nullopt : std::optional(o.type_name);
}

void print_types(const Fixups& fx, FieldPrinter& p) {
  p.begin_array("types");
  for (std::size_t i = 0; i < fx.types.size(); ++i) {
    p.begin_object("");
    p.field("index", i).field("name", fx.types[i]);
    p.field("size", i < fx.type_sizes.size() ? std::optional(fx.type_sizes[i]) : std::nullopt);
    p.end_object();
  }
  p.end_array();
}

void print_strings(const Fixups& fx, const Graph& g, FieldPrinter& p) {
  p.begin_object("strings");
  p.field("table", fx.strings);
  p.begin_array("referenced");
  for (const auto& s : g.strings)
    if (s.tag == tag::RSTR && s.text) p.field("", *s.text);
  p.end_array();
  p.end_object();
  p.begin_array("dependencies");
  for (const auto& d : fx.dependencies) {
    p.begin_object("");
    p.field("namespace", d.name_space).field("path", d.path).field("build_only", d.build_only);
    p.end_object();
  }
  p.end_array();
}

void print_externals(const Fixups& fx, FieldPrinter& p) {
  p.begin_object("externals");
  p.begin_array("ids");
  for (std::size_t i = 0; i < fx.external_ids.size(); ++i) {
    p.begin_object("");
    p.field("index", i).field("name_hash", fx.external_ids[i].name_hash);
    p.field("namespace_hash", fx.external_ids[i].namespace_hash).field("name", external_id_name(fx, i));
    p.end_object();
  }
  p.end_array();
  p.begin_array("names");
  for (std::size_t i = 0; i < fx.external_names.size(); ++i) {
    const auto& e = fx.external_names[i];
    p.begin_object("");
    p.field("index", i).field("namespace_index", e.namespace_index()).field("name_index", e.name_index());
    p.field("handle", e.handle()).field("name", external_name_name(fx, i));
    p.end_object();
  }
  p.end_array();
  p.end_object();
}

void print_memory_handles(const IgzFile& f, const Fixups& fx, FieldPrinter& p) {
  p.begin_array("memory_handles");
  for (std::size_t i = 0; i < fx.memory_handles.size(); ++i) {
    const auto& m = fx.memory_handles[i];
    p.begin_object("");
    p.field("index", i);
    if (nst_layout(f.header())) {  // spec C4: {u32 size, u32 flags}
      const MemoryV10 w = split_memory_v10(m.size_word, f.header().endian);
      p.field("size", w.size).field("alignment", w.alignment());
    } else {
      const MemoryWord w = decode_memory_word(m.size_word, f.header().pointer_size);
      p.field("size", w.size).field("alignment", w.alignment);
    }
    p.field("data", m.data);
    p.end_object();
  }
  p.end_array();
}

// An object as `list` shows it (index, offset, pool, type, size, pool_index, pool_offset, type_index).
void print_object_fields(const IgzFile& f, const Object& o, std::size_t i, FieldPrinter& p) {
  p.field("index", i).field("offset", o.position);
  pool_field(p, "pool", f, o.pool);
  p.field("type", type_name(o)).field("size", o.size);
  p.field("pool_index", o.pool).field("pool_offset", o.offset).field("type_index", o.type);
}

// The object's outgoing pointers, strings and external references; fields relative to the object.
void print_object_links(const IgzFile& f, const Graph& g, const Object& o, std::size_t i, FieldPrinter& p) {
  const auto v = f.header().version;
  const auto field_of = [&](std::uint32_t serialized) { return decode_pointer(v, serialized).offset - o.offset; };
  p.begin_array("edges");
  for (const auto& e : g.edges) {
    if (e.from != i) continue;
    const PoolOffset t = decode_pointer(v, e.target);
    p.begin_object("");
    p.field("field", field_of(e.field)).field("target", e.target);
    pool_field(p, "target_pool", f, t.pool);
    p.field("target_offset", t.offset);
    object_field(p, "target_object", e.to);
    p.end_object();
  }
  p.end_array();
  p.begin_array("strings");
  for (const auto& s : g.strings) {
    if (s.from != i) continue;
    p.begin_object("");
    p.field("field", field_of(s.field)).field("tag", tag_name(s.tag)).field("text", s.text);
    p.end_object();
  }
  p.end_array();
  p.begin_array("externals");
  for (const auto& x : g.externals) {
    if (x.from != i) continue;
    p.begin_object("");
    p.field("field", field_of(x.field)).field("tag", tag_name(x.tag)).field("kind", x.kind);
    p.field("index", x.valid ? std::optional(x.index) : std::nullopt);
    p.field("name", x.valid ? std::optional<std::string_view>(x.name) : std::nullopt);
    p.end_object();
  }
  p.end_array();
}

void print_objects(const IgzFile& f, const Graph& g, FieldPrinter& p) {
  p.begin_array("objects");
  for (std::size_t i = 0; i < g.objects.size(); ++i) {
    p.begin_object("");
    print_object_fields(f, g.objects[i], i, p);
    print_object_links(f, g, g.objects[i], i, p);
    p.end_object();
  }
  p.end_array();
  p.begin_array("edges");  // every ROFS edge, including those from memory blocks
  for (const auto& e : g.edges) {
    p.begin_object("");
    p.field("field", e.field);
    object_field(p, "from_object", e.from);
    p.field("target", e.target);
    object_field(p, "target_object", e.to);
    p.field("valid", e.valid);
    p.end_object();
  }
  p.end_array();
}

// igNames: text (null when unreadable), hash, whether it matches, and the TSTR index of the
// {TSTR index, hash} form (spec: alchemy.md#corrections C2).
void print_names(std::string_view key, const std::vector<NameEntry>& names, FieldPrinter& p) {
  p.begin_array(key);
  for (const auto& n : names) {
    p.begin_object("");
    p.field("name", n.text).field("hash", n.hash).field("hash_ok", n.hash_ok).field("tstr_index", n.tstr_index);
    p.end_object();
  }
  p.end_array();
}

// The root object, its list, and the root objects with their names (igNameList order).
void print_root(const IgzFile& f, const Graph& g, FieldPrinter& p) {
  p.begin_object("root");
  if (g.root) object_field(p, "object", *g.root);
  else p.null("object");
  p.begin_array("list");
  for (auto r : g.root_list) object_field(p, "", r);
  p.end_array();
  p.begin_array("entries");
  for (std::size_t k = 0; k < g.root_list.size(); ++k) {
    const std::size_t i = g.root_list[k];
    p.begin_object("");
    object_field(p, "object", i);
    if (i != kNoObject) {
      const Object& o = g.objects[i];
      p.field("type", type_name(o));
      pool_field(p, "pool", f, o.pool);
      p.field("pool_offset", o.offset);
    }
    p.field("name", k < g.names.size() ? g.names[k].text : std::nullopt);
    p.end_object();
  }
  p.end_array();
  p.end_object();
}

// spec C5: the file's own namespace (NSPC), null when the file has none.
void print_namespace(const Graph& g, FieldPrinter& p) {
  if (!g.namespace_list_object) {
    p.null("namespace");
    return;
  }
  p.begin_object("namespace");
  p.field("object", *g.namespace_list_object);
  print_names("names", g.namespace_names, p);
  const NameEntry* first = g.namespace_names.empty() ? nullptr : &g.namespace_names[0];
  p.field("name", first ? first->text : std::nullopt);
  p.field("hash", first ? std::optional(first->hash) : std::nullopt);
  p.end_object();
}

}  // namespace

Result<Dump> read_dump(ByteView bytes, const OpenOptions& opt, const DiagSink& sink) {
  ASSAY_TRY(IgzFile f, IgzFile::open(bytes, opt, sink));
  Fixups fx = decode_fixups(f, sink);
  Graph g = build_graph(f, fx, sink);
  return Dump{std::move(f), std::move(fx), std::move(g)};
}

void print_header(const IgzFile& f, FieldPrinter& p) {
  const Header& h = f.header();
  p.field("version", h.version).field("byte_order", to_string(h.endian));
  p.field("platform", h.platform);
  const auto pn = platform_name(h.version, h.platform);
  p.field("platform_name", pn.empty() ? std::nullopt : std::optional(pn));
  p.field("pointer_size", h.pointer_size);
  // spec: alchemy.md#corrections C3: from MTSZ when it says, cross-checked with the platform.
  p.field("pointer_size_source", to_string(h.pointer_source)).field("fields_hash", h.fields_hash);
  if (h.legacy()) p.field("layout_uncertain", true);  // spec: #igz-header-v6
  const Section& fx = h.sections[0];
  p.begin_object("fixup_section");
  p.field("offset", fx.offset).field("size", fx.length).field("alignment", fx.alignment);
  p.end_object();
  p.begin_array("pools");
  for (std::size_t k = 0; k < f.pool_count(); ++k) {
    const Section& s = f.pool(k);
    p.begin_object("");
    p.field("index", k).field("name", s.name).field("offset", s.offset).field("size", s.length).field("alignment", s.alignment);
    p.end_object();
  }
  p.end_array();
  p.begin_array("fixups");
  for (const auto& r : f.records()) {
    p.begin_object("");
    p.field("tag", tag_name(r.tag ? r.tag : r.raw_tag)).field("count", r.count).field("offset", r.offset).field("length", r.length);
    p.end_object();
  }
  p.end_array();
}

void print_object_details(const IgzFile& f, const Object& o, FieldPrinter& p) {
  pool_field(p, "pool", f, o.pool);
  p.field("type", type_name(o)).field("pool_index", o.pool).field("pool_offset", o.offset).field("type_index", o.type);
}

void print_dump(const Dump& d, FieldPrinter& p) {
  p.field("format", "igz");
  print_header(d.file, p);
  print_types(d.fixups, p);
  print_strings(d.fixups, d.graph, p);
  print_externals(d.fixups, p);
  print_memory_handles(d.file, d.fixups, p);
  print_objects(d.file, d.graph, p);
  print_root(d.file, d.graph, p);
  print_names("names", d.graph.names, p);
  print_namespace(d.graph, p);
  p.begin_array("list_layouts");
  for (ListLayout l : d.graph.list_layouts) p.field("", to_string(l));
  p.end_array();
}

}  // namespace assay::igz
