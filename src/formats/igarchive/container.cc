// igArchive as a Container: the archive is parsed once (header, TOC, name table); entries are
// its files in TOC (hash) order; read() decodes a member's blocks (on `threads` cores).
// spec: alchemy.md#iga, #iga-lookup (find by name under the archive flags).
#include <fmt/format.h>

#include "assay/container.h"
#include "assay/family.h"
#include "assay/ops.h"
#include "assay/core/memory.h"
#include "assay/core/output.h"
#include "assay/formats/igarchive/prefix.h"
#include "assay/formats/igarchive/archive.h"
#include "json.h"
#include "formats/json_printer.h"
#include "assay/formats/igarchive/salvage.h"
#include "assay/formats/igarchive/extract.h"
#include "assay/formats/igarchive/verify.h"
#include "family_parts.h"

namespace assay {

namespace {

namespace iga = igarchive;

class IgArchiveContainer final : public Container {
 public:
  // A cut archive (salvage.h): only its intact files are entries; list_fields names the
  // lost ones (iga::cut_json, "problems").
  IgArchiveContainer(Input in, ContainerOptions opt, iga::Salvaged s)
      : Container("igarchive", std::move(in), std::move(opt)), archive_(std::move(s.archive)), cut_(std::move(s.cut)) {
    std::vector<Entry> entries;
    entries.reserve(archive_.files().size());
    entry_of_.assign(archive_.files().size(), kLost);
    for (const std::uint32_t i : cut_.intact) {
      const iga::FileEntry& f = archive_.files()[i];
      Entry e;
      e.name = std::string(f.name);
      // extract writes the logical name sanitised ('\\' -> '/', iga::write_member through
      // OutputDir), and `path` says so; a name that does not sanitise stays as
      // it is (extract then names the error).
      auto written = sanitize_relative_path(f.name);
      e.path = written ? *written : std::string(f.name);
      e.offset = f.offset;
      e.size = f.length;
      e.stored_size = stored_size(f);
      e.kind = EntryKind::file;
      e.nested = true;
      if (cut_.names_lost) e.name = e.path = iga::member_name(archive_, cut_, f);  // "<hash>.bin"
      entry_of_[i] = entries.size();
      file_of_.push_back(i);
      entries.push_back(std::move(e));
    }
    set_entries(std::move(entries));
  }

  [[nodiscard]] Result<void> print_info(FieldPrinter& p) const override {
    Json j = iga::list_fields_json(archive_, cut_);
    j.update(iga::header_json(archive_, input().bytes.size()));
    detail::print_json_fields(p, j);
    return {};
  }

  void print_list_fields(FieldPrinter& p) const override { detail::print_json_fields(p, iga::list_fields_json(archive_, cut_)); }

  // spec: alchemy.md#corrections C1, C7
  void print_details(const Entry& e, FieldPrinter& p) const override {
    iga::print_entry_details(p, archive_, archive_.files()[file_of_[e.index]]);
  }

  [[nodiscard]] Result<Input> read(const Entry& e, unsigned threads) const override {
    const iga::FileEntry& f = file_of(e);
    const std::string name = input().name + "::" + std::string(f.name);
    // The process-wide budget (--max-memory) is held as long as the bytes live.
    ASSAY_TRY(MemoryLease lease, MemoryBudget::process().acquire(f.length, name));
    ByteBuffer buf;
    ASSAY_CHECK(archive_.read(f, buf, threads, options().igarchive.member_cap));
    return Input::from_buffer(name, std::move(buf), std::move(lease));
  }

  // A large member is identified from its first block; it is decoded whole only when a format
  // claims it (iga::read_file_prefix).
  [[nodiscard]] Result<bool> may_hold_format(const Entry& e) const override {
    ASSAY_TRY(std::size_t seen, unclaimed_prefix(e));
    return seen == 0;
  }

  [[nodiscard]] Result<std::unique_ptr<Container>> open(const Entry& e) const override {
    ASSAY_TRY(std::size_t seen, unclaimed_prefix(e));
    if (seen != 0) {
      const iga::FileEntry& f = file_of(e);
      return unrecognised_error(input().name + "::" + std::string(f.name),
                                fmt::format("identified from its first {} of {} bytes", seen, f.length));
    }
    return Container::open(e);
  }

  // spec: alchemy.md#iga-hash: flag bit 0, names hashed lower-cased (the lookup folds case).
  [[nodiscard]] bool case_insensitive() const override {
    return (archive_.header().flags & iga::kFlagCaseInsensitive) != 0;
  }

  void verify(Diagnostics& out) const override { iga::verify_input(input(), options(), out); }

  // A member streamed to DIR through two decode windows (iga::write_member). It is written
  // decompressed with or without w.stored (an igArchive member has no conversion); when a cut
  // archive lost its names, at "<hash>.bin" (spec: alchemy.md#iga).
  [[nodiscard]] Result<ExtractCount> write_entry(const Entry& e, const OutputDir& dir,
                                                 const WriteOptions& w) const override {
    if ((options().textures || options().models) && !w.stored) {  // extract --textures / --models
      ASSAY_TRY(std::optional<ExtractCount> n, write_converted(e, dir, w));
      if (n) return *n;
    }
    const iga::FileEntry& f = file_of(e);
    iga::MemberSettings s;
    s.threads = w.threads;
    s.member_cap = options().igarchive.member_cap;
    s.release_input_pages = !input().path.empty() && !input().is_directory;  // a read-only file mapping
    const std::string name = cut_.names_lost ? iga::member_name(archive_, cut_, f) : std::string();
    s.name = name;
    return iga::write_member(archive_, f, dir, s);
  }

  // A cut archive's lost files, each an error (extract exits 1).
  void extract_findings(Diagnostics& out) const override {
    for (const Diagnostic& d : iga::cut_findings(archive_, cut_)) out.add(d);
  }

 protected:
  // Build paths and the hash lookup under the archive flags (case rules).
  [[nodiscard]] const Entry* find_alias(std::string_view name) const override {
    const iga::FileEntry* f = archive_.find(name);
    return f == nullptr || entry_of_[f->index] == kLost ? nullptr : &entries()[entry_of_[f->index]];
  }

 private:
  // extract --textures / --models: an igz member holding images or models (kind "texture" or
  // "model" entries of its Container) is written as <member path without .igz>.png or .glb
  // (<stem>.<index>.png/.glb when it holds several; --mips and --gltf as the igz writes them)
  // instead of its bytes; nullopt when the member holds none.
  Result<std::optional<ExtractCount>> write_converted(const Entry& e, const OutputDir& dir, const WriteOptions& w) const {
    if (!e.path.ends_with(".igz")) return std::optional<ExtractCount>{};
    ContainerOptions opt = options();
    opt.igz.material_textures = options().models;  // --textures alone writes no model
    auto in = Container::read(e);
    auto inner = in ? open_entry(*this, e, std::move(*in), opt) : Result<std::unique_ptr<Container>>(in.error());
    if (!inner) return std::optional<ExtractCount>{};  // not an igz after all: written as stored
    std::vector<const Entry*> picked;
    for (const Entry& t : (*inner)->entries())
      if ((options().textures && t.kind == EntryKind::texture) || (options().models && t.kind == EntryKind::model)) picked.push_back(&t);
    if (picked.empty()) return std::optional<ExtractCount>{};
    const std::string stem = e.path.substr(0, e.path.size() - 4);
    ExtractCount n;
    for (const Entry* t : picked) {
      Entry named = *t;
      const char* ext = t->kind == EntryKind::texture ? ".png" : ".glb";
      named.path = picked.size() == 1 ? stem + ext : fmt::format("{}.{}{}", stem, t->index, ext);
      ASSAY_TRY(ExtractCount c, (*inner)->write_entry(named, dir, w));
      n.files += c.files, n.bytes += c.bytes;
    }
    return std::optional<ExtractCount>{n};
  }

  // For a member above kIdentifyWholeUpTo that no family claims from its first block: the bytes
  // looked at; 0 when it is small or claimed (then it is read whole and identified as usual).
  Result<std::size_t> unclaimed_prefix(const Entry& e) const {
    const iga::FileEntry& f = file_of(e);
    if (f.length <= iga::kIdentifyWholeUpTo) return std::size_t{0};
    ASSAY_TRY(ByteBuffer head, iga::read_file_prefix(archive_, f));
    const std::size_t seen = head.size();
    const Input probe = Input::from_buffer(input().name + "::" + std::string(f.name), std::move(head));
    return identify_family(probe) != nullptr ? std::size_t{0} : seen;
  }

  // Bytes the member occupies: its blocks' spans, or its length when stored.
  std::optional<std::uint64_t> stored_size(const iga::FileEntry& f) const {
    if (f.compression == iga::Compression::stored) return f.length;
    auto blocks = archive_.blocks(f);
    if (!blocks) return std::nullopt;
    std::uint64_t n = 0;
    for (const iga::Block& b : *blocks) n += b.span;
    return n;
  }

  const iga::FileEntry& file_of(const Entry& e) const { return archive_.files()[file_of_[e.index]]; }

  static constexpr std::size_t kLost = ~std::size_t{0};
  iga::Archive archive_;
  iga::Cut cut_;
  std::vector<std::uint32_t> file_of_;  // entry index -> TOC index (the intact files)
  std::vector<std::size_t> entry_of_;   // TOC index -> entry index, kLost for a lost file
};

}  // namespace

Result<std::unique_ptr<Container>> open_igarchive_container(const OpenContext& ctx) {
  Input in = ctx.input;
  const ContainerOptions& opt = ctx.options;
  ASSAY_TRY(iga::Salvaged s, iga::open_salvage(in.bytes, in.name, nullptr));
  return std::unique_ptr<Container>(new IgArchiveContainer(std::move(in), opt, std::move(s)));
}

}  // namespace assay
