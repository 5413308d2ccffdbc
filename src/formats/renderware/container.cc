// A RenderWare binary stream as a Container (spec: renderware.md): a texture dictionary's
// entries are its textures (read() = the texture native section, texture() decodes a mip,
// extract writes a PNG), a clump's are its atomics (no bytes of their own) and, after them, one
// model per top-level clump (extract writes a glTF model, GLB), any other stream's
// are its top-level sections (read()/open() give a section as a stream of its own). Parsed once
// at open (stream.h); the JSON is json.cc's.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>

#include "assay/container.h"
#include "assay/family.h"
#include "assay/model/gltf.h"
#include "formats/model_output.h"
#include "assay/formats/renderware/gltf_export.h"
#include "formats/texture_budget.h"
#include "formats/json_printer.h"
#include "json.h"
#include "stream.h"

namespace assay {

namespace {

using namespace rw;
using rw::detail::ModelTextures;
using rw::detail::Stream;

class RenderWareContainer final : public Container {
 public:
  RenderWareContainer(Input in, assay::ContainerOptions opt, Stream s, ModelTextures textures)
      : Container(kFormat, std::move(in), std::move(opt)), s_(std::move(s)), textures_(std::move(textures)) {
    std::vector<Entry> entries;
    if (const TextureDictionary* d = s_.dictionary()) {
      std::set<std::string> used;
      for (std::size_t i = 0; i < d->textures().size(); ++i) entries.push_back(texture_entry(d->textures()[i], i, used)), where_.emplace_back(i, 0);
    } else if (s_.top_type() == id::kClump) {
      for (std::size_t ci = 0; ci < s_.clumps.size(); ++ci)
        for (std::size_t ai = 0; ai < s_.clumps[ci].atomics.size(); ++ai)
          entries.push_back(atomic_entry(ci, s_.clumps[ci].atomics[ai], entries.size())), where_.emplace_back(ci, ai);
      std::set<std::string> used;
      for (std::size_t ci = 0; ci < s_.clumps.size(); ++ci) entries.push_back(model_entry(ci, used)), where_.emplace_back(ci, 0);
    } else {
      for (std::size_t i = 0; i < s_.top.top.size(); ++i) entries.push_back(section_entry(s_.top.top[i], i)), where_.emplace_back(i, 0);
    }
    set_entries(std::move(entries));
  }

  [[nodiscard]] Result<void> print_info(FieldPrinter& p) const override {
    assay::detail::print_json_fields(p, rw::detail::info_fields(s_));
    return {};
  }
  void print_list_fields(FieldPrinter& p) const override { assay::detail::print_json_fields(p, rw::detail::list_fields(s_)); }

  // A texture's raster, an atomic's or a clump's counts, a section's id.
  void print_details(const Entry& e, FieldPrinter& p) const override {
    const auto [a, b] = where_[e.index];
    if (e.kind == EntryKind::texture) return assay::detail::print_json_fields(p, rw::detail::texture_details(s_.dictionary()->textures()[a]));
    if (e.kind == EntryKind::atomic) return assay::detail::print_json_fields(p, rw::detail::atomic_details(s_.clumps[a], a, s_.clumps[a].atomics[b]));
    if (e.kind == EntryKind::model) return assay::detail::print_json_fields(p, rw::detail::model_details(s_.clumps[a], a));
    assay::detail::print_json_fields(p, rw::detail::section_details(s_.top.top[a]));
  }
  void verify(Diagnostics& out) const override {
    rw::detail::verify_input(input(), options().progress, out);
    rw::detail::verify_models(s_, input().bytes, out);
  }

  [[nodiscard]] Result<image::Rgba> texture(const Entry& e, unsigned mip) const override {
    const TextureDictionary* d = s_.dictionary();
    if (d == nullptr || e.kind != EntryKind::texture) return Container::texture(e, mip);
    ASSAY_TRY(MemoryLease lease, texture_lease(*this, e, mip));
    return d->decode(e.index, mip);
  }

  // A texture: its PNG (every level with w.mips), a GameCube native's stored section; with
  // w.stored, the texture native section as a stream of its own (stored_path).
  [[nodiscard]] Result<ExtractCount> write_entry(const Entry& e, const OutputDir& dir,
                                                 const WriteOptions& w) const override {
    if (e.kind == EntryKind::model && !w.stored) return write_model(e, dir, w.gltf);
    const TextureDictionary* d = s_.dictionary();
    if (d == nullptr || e.kind != EntryKind::texture || w.stored) return Container::write_entry(e, dir, w);
    return rw::detail::write_texture(*d, e.index, bases_[e.index], w.mips, dir, input().bytes);
  }

  [[nodiscard]] std::string stored_path(const Entry& e) const override {
    if (e.kind == EntryKind::model) return e.path.substr(0, e.path.size() - 4) + ".dff";
    return e.kind == EntryKind::texture ? bases_[e.index] + ".rws" : e.path;
  }

  // Where a cut dictionary is cut, then what opening the dictionary reported, minus the errors
  // of single textures: those are failed entries (one message per bad texture).
  void extract_findings(Diagnostics& out) const override {
    if (s_.cut) out.add(s_.cut->diagnostic());
    model_findings(out);
    const TextureDictionary* d = s_.dictionary();
    if (d == nullptr) return;
    std::set<std::string> texture_errors;
    for (const TextureNative& t : d->textures())
      if (!t.error.empty()) texture_errors.insert(t.error);
    for (const Diagnostic& g : s_.dict_diags.items())
      if (g.severity != Severity::error || !texture_errors.count(g.where.str())) out.add(g);
  }

  [[nodiscard]] Result<void> extractable() const override {
    if (s_.dictionary() != nullptr || !s_.clumps.empty()) return {};
    const Section& top = s_.top.first();
    Error e = make_error(kFormat, std::string(section_name(top.header.type)), top.offset,
                         "only texture dictionaries (.txd) and clumps (.dff) hold files to extract")
                  .with_code("renderware.not-extractable");
    e.kind = ErrorKind::unsupported;
    return e;
  }

 private:
  // A texture's file name: its own, "texture<i>" when it has none, "<name>.<i>" when an earlier
  // texture took the name.
  Entry texture_entry(const TextureNative& tex, std::size_t i, std::set<std::string>& used) {
    std::string base = tex.name.empty() ? fmt::format("texture{}", i) : std::string(tex.name);
    if (!used.insert(base).second) used.insert(base = fmt::format("{}.{}", base, i));
    Entry e;
    e.name = std::string(tex.name);
    e.path = base + (rw::detail::stored_as_section(tex) ? ".rws" : ".png");
    e.offset = tex.offset;
    if (auto h = read_section_header(input().bytes, tex.offset)) e.size = e.stored_size = SectionHeader::kSize + h->size;
    e.kind = EntryKind::texture;
    e.texture_info = TextureInfo{tex.width, tex.height, tex.levels.empty() ? tex.mip_count : static_cast<std::uint32_t>(tex.levels.size())};
    bases_.push_back(std::move(base));
    return e;
  }

  // An atomic is not extracted: no path, no bytes of its own.
  Entry atomic_entry(std::size_t ci, const AtomicSummary& a, std::size_t index) const {
    const ClumpSummary& c = s_.clumps[ci];
    const std::string_view node = a.frame_index < c.frames.size() ? c.frames[a.frame_index].node_name : "";
    Entry e;
    e.name = node.empty() ? fmt::format("atomic{}", index) : std::string(node);
    e.kind = EntryKind::atomic;
    return e;
  }

  // A top-level clump: written as one glTF model (GLB), named after the clump.
  Entry model_entry(std::size_t ci, std::set<std::string>& used) const {
    const ClumpSummary& c = s_.clumps[ci];
    // one clump: the file's stem (wuzimu.dff -> wuzimu.glb); several: each root frame's name
    std::string name = s_.clumps.size() == 1 ? rw::detail::file_stem(input()) : "";
    for (const FrameSummary& f : c.frames)
      if (name.empty() && f.parent < 0 && !f.node_name.empty()) name = std::string(f.node_name);
    if (name.empty()) name = fmt::format("clump_{:03}", ci);
    if (!used.insert(name).second) used.insert(name = fmt::format("{}.{}", name, ci));
    Entry e;
    e.name = name;
    e.path = name + ".glb";
    e.offset = c.offset;
    if (auto h = read_section_header(input().bytes, c.offset)) e.size = e.stored_size = SectionHeader::kSize + h->size;
    e.kind = EntryKind::model;
    return e;
  }

  [[nodiscard]] Result<model::Scene> scene(const Entry& e) const {
    ASSAY_TRY(ByteView bytes, section_bytes(input().bytes, *e.offset));
    ASSAY_TRY(rw::ClumpModel clump, rw::decode_clump(bytes, *e.offset));
    rw::ExportNotes notes;
    return rw::clump_scene(std::move(clump), *e.name, textures_.sources(), notes);
  }

  [[nodiscard]] Result<ByteBuffer> model(const Entry& e) const override {
    if (e.kind != EntryKind::model) return Container::model(e);
    ASSAY_TRY(model::Scene s, scene(e));
    return model::write_glb(s);
  }

  // NAME.glb, or with `gltf` NAME.gltf, NAME.bin and one PNG per texture.
  [[nodiscard]] Result<ExtractCount> write_model(const Entry& e, const OutputDir& dir, bool gltf) const {
    ASSAY_TRY(model::Scene s, scene(e));
    return write_model_files(s, e.path, dir, gltf);
  }

  // Textures no dictionary holds: with no dictionary at all one warning that says so (with a few
  // names); else one warning per texture, up to kNamed, then their count.
  void model_findings(Diagnostics& out) const {
    constexpr std::size_t kNamed = 20;
    std::set<std::string> missing;
    for (const ClumpSummary& c : s_.clumps)
      for (std::string_view t : c.texture_names)
        if (!textures_.has(t)) missing.insert(std::string(t));
    if (missing.empty()) return;
    auto warn = [&](std::string m) {
      out.add({Severity::warning,
               make_error(kFormat, "Material", kNoOffset, std::move(m)).with_code("renderware.texture-missing")});
    };
    if (textures_.sources().dictionaries.empty()) {
      std::vector<std::string> some(missing.begin(), std::next(missing.begin(), std::min<std::ptrdiff_t>(5, missing.size())));
      warn(fmt::format("{} textures are in no dictionary ({}); the models name them without images: {}{}",
                       missing.size(), textures_.where(), fmt::join(some, ", "), missing.size() > 5 ? ", ..." : ""));
      return;
    }
    std::size_t n = 0;
    for (const std::string& t : missing)
      if (n++ < kNamed) warn(fmt::format("texture '{}' is in no dictionary ({}); the model names it without it", t,
                                         textures_.where()));
    if (missing.size() > kNamed) warn(fmt::format("and {} more textures in no dictionary", missing.size() - kNamed));
  }

  static Entry section_entry(const Section& s, std::size_t i) {
    Entry e;
    e.name = std::string(section_name(s.header.type));
    e.path = fmt::format("{:04}_{}.rws", i, *e.name);
    e.offset = s.offset;
    e.size = e.stored_size = SectionHeader::kSize + s.header.size;
    e.kind = EntryKind::section;
    e.nested = true;
    return e;
  }

  Stream s_;
  ModelTextures textures_;
  std::vector<std::string> bases_;  // each texture's file name without its extension
  // Each entry's texture, (clump, atomic), clump or top-level section index.
  std::vector<std::pair<std::size_t, std::size_t>> where_;
};

}  // namespace

Result<std::unique_ptr<Container>> open_renderware_container(const OpenContext& ctx) {
  ASSAY_TRY(Stream s, rw::detail::open_stream(ctx.input.bytes));
  ModelTextures textures;
  if (!s.clumps.empty()) {
    ASSAY_TRY(textures, rw::detail::model_textures(ctx));
  }
  return std::unique_ptr<Container>(
      std::make_unique<RenderWareContainer>(ctx.input, ctx.options, std::move(s), std::move(textures)));
}

}  // namespace assay
