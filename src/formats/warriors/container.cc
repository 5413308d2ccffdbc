// The Warriors family as Containers: a disc (folder, DIR file or ISO; spec: warriors.md#wr-1-2)
// whose entries are the DIR rows, and a loose chunk container (.lev, .pak; spec: #wr-3) whose
// entries are its chunks. Both parsed once; find() takes names, "0xHASH" and "<hash>.bin".
#include <fmt/format.h>

#include <map>
#include <optional>

#include "assay/container.h"
#include "assay/family.h"
#include "assay/formats/renderware/walker.h"

#include "family_parts.h"
#include "../json_printer.h"

namespace assay {

namespace {

namespace wr = warriors;

class WarriorsContainer : public Container {
 public:
  WarriorsContainer(Input in, ContainerOptions opt) : Container("warriors", std::move(in), std::move(opt)) {}
  using Container::set_entries;
};

class DiscContainer final : public WarriorsContainer {
 public:
  DiscContainer(Input in, ContainerOptions opt, wr::Disc d, wr::NameTable names)
      : WarriorsContainer(std::move(in), std::move(opt)), disc_(std::move(d)), names_(std::move(names)) {
    const std::uint32_t n = disc_.count();
    kinds_ = wr::classify_entries(disc_, names_, options().threads);
    std::map<std::uint32_t, std::uint32_t> seen;  // hash -> first row (D9 duplicates: "<index>_" like extract)
    std::vector<Entry> entries;
    entries.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i) {
      const wr::DirEntry d = disc_.entry(i);
      Entry e;
      if (const std::string* name = names_.find(d.hash)) e.name = *name;
      e.path = wr::entry_file_name(d, names_);
      if (!seen.emplace(d.hash, i).second) e.path = fmt::format("{}_{}", i, e.path);
      e.offset = d.offset;  // in the WAD
      e.size = d.size;
      e.stored_size = d.size;
      e.family_kind = wr::to_string(kinds_[i]);
      e.nested = true;
      entries.push_back(std::move(e));
    }
    set_entries(std::move(entries));
  }

  [[nodiscard]] Result<void> print_info(FieldPrinter& p) const override {
    detail::print_json_fields(p, wr::disc_info_fields(disc_));
    return {};
  }
  // A truncated WAD is a warning in `list` as in `info` (`verify`: an error).
  void print_list_fields(FieldPrinter& p) const override { detail::print_json_fields(p, wr::wad_truncation_fields(disc_)); }
  void print_details(const Entry& e, FieldPrinter& p) const override {
    p.field("hash", disc_.entry(static_cast<std::uint32_t>(e.index)).hash).field("file", e.path);
  }
  // The rows' kinds from open(): classified once.
  void verify(Diagnostics& out) const override { wr::verify_disc(disc_, names_, kinds_, options().read_options(), out); }

  [[nodiscard]] Result<Input> read(const Entry& e, unsigned) const override {
    const wr::DirEntry d = disc_.entry(static_cast<std::uint32_t>(e.index));
    ASSAY_TRY(ByteView bytes, disc_.entry_bytes(d));
    Input out;
    out.name = input().name + "::" + (e.name ? *e.name : e.path);
    out.bytes = bytes;
    out.owner = disc_.owner() ? disc_.owner() : input().owner;
    return out;
  }

 protected:
  // spec: warriors.md#wr-2-2: the game lower-cases a name before hashing it, so globs fold case too.
  [[nodiscard]] bool case_insensitive() const override { return true; }

  // spec: warriors.md#wr-2-4: a name is looked up by its hash (any case, any "./" prefix);
  // "0xHASH" and "<8 hex digits>.bin" name a hash directly (wr::find_selected).
  [[nodiscard]] const Entry* find_alias(std::string_view name) const override {
    auto d = wr::find_selected(disc_, name);
    return d ? &entries()[d->index] : nullptr;
  }

 private:
  wr::Disc disc_;
  wr::NameTable names_;
  std::vector<wr::EntryKind> kinds_;  // by row
};

class ChunkContainer final : public WarriorsContainer {
 public:
  ChunkContainer(Input in, ContainerOptions opt, const wr::LoadResult& r)
      : WarriorsContainer(std::move(in), std::move(opt)), shape_(wr::to_string(r.shape)) {
    std::vector<Entry> entries;
    entries.reserve(r.chunks.size());
    for (const wr::ChunkRecord& c : r.chunks) {
      Entry e;
      e.name = fmt::format("{:04}_{:02x}.bin", c.index, c.header.type);
      e.path = holds_clump(c.header.type) ? e.name->substr(0, e.name->size() - 4) + ".glb" : *e.name;  // extract's file name
      e.offset = c.offset + 16;  // the body (spec: warriors.md#wr-3-1: 16-byte chunk header)
      e.size = c.header.size;
      e.stored_size = c.header.size;
      e.kind = assay::EntryKind::chunk;
      e.nested = true;
      entries.push_back(std::move(e));
      chunks_.push_back(c);
    }
    set_entries(std::move(entries));
  }

  [[nodiscard]] Result<void> print_info(FieldPrinter& p) const override {
    ASSAY_TRY(Json j, wr::chunk_info_fields(input()));
    detail::print_json_fields(p, j);
    return {};
  }
  void print_list_fields(FieldPrinter& p) const override { p.field("container", shape_); }
  void print_details(const Entry& e, FieldPrinter& p) const override {
    const wr::ChunkRecord& c = chunks_[e.index];
    p.field("file", *e.name);
    if (c.group < 0) p.null("group"); else p.field("group", c.group);  // null: a flat container
    p.field("type", c.header.type).field("type_name", wr::chunk_type_name(c.header.type));
    p.field("header_offset", c.offset).field("id", c.header.id);
  }
  void verify(Diagnostics& out) const override { wr::verify_chunks(input(), out); }

  // A chunk opens with this container's texture dictionaries at hand: the game reads a model's
  // textures from the dictionary chunks loaded with it (spec: warriors.md#wr-7-2, 0x2A and 0x0B
  // readers); RenderWare itself knows no such rule.
  [[nodiscard]] Result<std::unique_ptr<Container>> open(const Entry& e) const override {
    ASSAY_TRY(Input in, read(e));
    ContainerOptions opt = options();
    for (const Entry& d : entries())
      if (d.index != e.index)
        if (auto t = dictionary(d)) opt.renderware.dictionaries.push_back(std::move(*t));
    return open_entry(*this, e, std::move(in), opt);
  }

  // A clump chunk (0x09, 0x25, 0x47: the DFF reader, spec: #wr-7-1) is a model: its clump as
  // glTF, what extract writes (the chunk's bytes with --stored).
  [[nodiscard]] Result<ByteBuffer> model(const Entry& e) const override {
    if (!holds_clump(type_of(e))) return Container::model(e);
    ASSAY_TRY(auto inner, open(e));
    ASSAY_TRY(const Entry* m, first_model(*inner, e));
    return inner->model(*m);
  }

  [[nodiscard]] Result<ExtractCount> write_entry(const Entry& e, const OutputDir& dir, const WriteOptions& w) const override {
    if (w.stored || !holds_clump(type_of(e))) return Container::write_entry(e, dir, w);
    ASSAY_TRY(auto inner, open(e));
    ASSAY_TRY(const Entry* m, first_model(*inner, e));
    return inner->write_entry(*m, dir, w);
  }

  [[nodiscard]] std::string stored_path(const Entry& e) const override { return e.name.value_or(e.path); }

  // What the clumps' RenderWare containers report after extract: textures no dictionary holds.
  void extract_findings(Diagnostics& out) const override {
    for (const Entry& e : entries()) {
      if (!holds_clump(type_of(e))) continue;
      if (auto inner = open(e)) (*inner)->extract_findings(out);
    }
  }

 private:
  static bool holds_clump(std::uint32_t type) { return type == 0x09 || type == 0x25 || type == 0x47; }
  std::uint32_t type_of(const Entry& e) const { return chunks_[e.index].header.type; }

  // The RenderWare texture dictionary (section 0x16) of a 0x2A or 0x0B chunk, as an Input that
  // views this container's bytes.
  std::optional<Input> dictionary(const Entry& d) const {
    const std::uint32_t type = type_of(d);
    if (type != 0x2A && type != 0x0B) return std::nullopt;
    auto body = slice(d);
    if (!body) return std::nullopt;
    auto at = rw::find_section(body->bytes, 0x16);
    if (!at) return std::nullopt;
    auto sec = rw::section_bytes(body->bytes, *at);
    if (!sec) return std::nullopt;
    Input t = *body;
    t.name = fmt::format("{}::{}", input().name, *d.name);
    t.bytes = *sec;
    return t;
  }

  // The one clump the DFF reader takes (the first 0x10 section), as the inner container lists it.
  Result<const Entry*> first_model(const Container& inner, const Entry& e) const {
    for (const Entry& m : inner.entries())
      if (m.kind == assay::EntryKind::model) return &m;
    return entry_error(e, "holds no RenderWare clump");
  }

  std::string shape_;
  std::vector<wr::ChunkRecord> chunks_;  // by entry index
};

}  // namespace

Result<std::unique_ptr<Container>> open_warriors_container(const OpenContext& ctx) {
  Input in = ctx.input;
  const ContainerOptions& opt = ctx.options;
  if (wr::looks_like_disc(in)) {
    ASSAY_TRY(wr::Disc d, wr::Disc::open(in, ctx.siblings));
    ASSAY_TRY(wr::NameTable n, wr::NameTable::load(opt.names_files));
    return std::unique_ptr<Container>(new DiscContainer(std::move(in), opt, std::move(d), std::move(n)));
  }
  // All raw: list what the file holds (handlers run in verify).
  const wr::LoadResult r = wr::load_container(in.bytes, wr::HandlerTable());
  if (r.error) {
    Error e = *r.error;
    if (e.file.empty()) e.file = in.name;
    return e;
  }
  return std::unique_ptr<Container>(new ChunkContainer(std::move(in), opt, r));
}

}  // namespace assay
