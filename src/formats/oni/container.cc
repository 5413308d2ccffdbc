// An Oni instance file as a Container (spec: oni.md#oni-3): its entries are the instance
// descriptors (name = full name with tag, path = the .oni file extract writes for a named
// instance); read() views an instance's bytes (8-byte instance header included). TXMP instances
// are "texture" entries: texture() walks the file once (layouts as the CLI picks them, .raw/.sep
// taken from its siblings at open) and decodes a mip as `extract --textures` does (spec: oni.md#oni-9-1).
// SNDD instances are "sound" entries: sound() decodes them from the same walk, and
// with --sounds (--adpcm) extract writes them as WAV (the stored data) instead of .oni files.
#include <fmt/format.h>

#include <map>
#include <mutex>
#include <optional>

#include "assay/container.h"
#include "assay/family.h"
#include "assay/formats/oni/akev.h"
#include "assay/formats/oni/character.h"
#include "assay/formats/oni/m3gm.h"
#include "assay/formats/oni/oban.h"
#include "assay/formats/oni/oni.h"
#include "assay/formats/oni/sound_binding.h"
#include "assay/image/png.h"
#include "formats/texture_budget.h"
#include "family_parts.h"
#include "formats/model_output.h"
#include "records.h"
#include "sound_parts.h"
#include "../json_printer.h"

namespace assay {

namespace {

class OniContainer final : public Container {
 public:
  OniContainer(Input in, ContainerOptions opt, oni::InstanceFile f, oni::SiblingFiles sib)
      : Container("oni", std::move(in), std::move(opt)), file_(std::move(f)), sib_(std::move(sib)) {
    sounds_ = oni::sound_output(options());
    std::vector<Entry> entries;
    entries.reserve(file_.instance_count());
    for (std::uint32_t i = 0; i < file_.instance_count(); ++i) {
      const oni::Descriptor d = file_.descriptor(i);
      auto nm = file_.name(i);
      Entry e;
      if (!d.unnamed() && nm && !nm->empty()) {
        e.name = std::string(*nm);
        e.path = oni::oni_file_name(*nm);
      }
      if (!d.placeholder() && file_.instance_bytes(i)) {
        e.offset = file_.instance_file_offset(d);
        e.size = e.stored_size = d.size;
      }
      e.kind = EntryKind::instance;
      if (e.size) classify(e, i);
      if (options().textures || options().models || sounds_ != oni::SoundOutput::none) e.path = converted_path(i, e);
      entries.push_back(std::move(e));
    }
    set_entries(std::move(entries));
  }

  [[nodiscard]] Result<void> print_info(FieldPrinter& p) const override {
    detail::print_json_fields(p, oni::info_fields(file_, sib_.file_name));
    return {};
  }

  void print_details(const Entry& e, FieldPrinter& p) const override {
    const auto i = static_cast<std::uint32_t>(e.index);
    const oni::Descriptor d = file_.descriptor(i);
    p.field("tag", oni::tag_string(d.tag)).field("flags", d.flags()).field("placeholder", d.placeholder());
    p.field("descriptor_offset", file_.descriptor_offset(i));
    if (!e.size) return;
    const ByteView inst = *file_.instance_bytes(i);  // e.size: the constructor read them
    if (e.kind == EntryKind::texture) print_texture(e, inst, p);
    else if (e.kind == EntryKind::sound) oni::print_sound_details(p, inst, oni::sndd_is_mac(file_));
    else if (e.kind == EntryKind::animation && d.tag == oni::make_tag("OBAN")) print_oban(i, inst, p);
    else if (e.kind == EntryKind::animation) print_animation(inst, p);
    else if (e.kind == EntryKind::model && d.tag == oni::make_tag("M3GM")) print_model(i, p);
    else if (e.kind == EntryKind::model && d.tag == oni::make_tag("ONCC")) print_character(i, p);
    else if (e.kind == EntryKind::model && d.tag == oni::make_tag("AKEV")) print_level(i, p);
  }

  // An OBAN's fields and what names it (one pass over the file for all of them).
  void print_oban(std::uint32_t i, ByteView inst, FieldPrinter& p) const {
    oni::print_oban_details(p, inst);
    std::call_once(players_once_, [this] { players_ = oni::oban_player_index(file_); });
    const auto it = players_.find(i);
    oni::print_oban_players(p, it == players_.end() ? std::vector<oni::ObanPlayer>{} : it->second);
  }

  void verify(Diagnostics& out) const override {
    oni::verify_input(input(), sib_, options().read_options(), out);
    for (const Entry& e : entries())  // strip indices, PNTA bounds
      if (e.kind == EntryKind::model && is_tag(e, "M3GM")) oni::verify_m3gm(file_, static_cast<std::uint32_t>(e.index), out);
      else if (e.kind == EntryKind::model && is_tag(e, "AKEV")) oni::verify_akev(file_, static_cast<std::uint32_t>(e.index), out);
      else if (is_tag(e, "OBAN") && e.size) oni::verify_oban(file_, static_cast<std::uint32_t>(e.index), out);
    verify_characters(out);
  }

  [[nodiscard]] Result<image::Rgba> texture(const Entry& e, unsigned mip) const override {
    if (e.kind != EntryKind::texture) return Container::texture(e, mip);
    std::call_once(walked_once_, [this] { walk(); });
    if (!walked_ || !walked_->opened || walked_->layouts == nullptr) return walk_error_;
    ASSAY_TRY(MemoryLease lease, texture_lease(*this, e, mip));
    ASSAY_TRY(oni::Rgba8 img, oni::decode_txmp_instance(*walked_, static_cast<std::uint32_t>(e.index), mip));
    return image::Rgba{img.width, img.height, std::move(img.pixels)};
  }

  // An M3GM as GLB, its TXMP embedded when this level holds its pixels.
  [[nodiscard]] Result<ByteBuffer> model(const Entry& e) const override {
    if (e.kind != EntryKind::model && !is_tag(e, "OBAN")) return Container::model(e);
    ASSAY_CHECK(extractable());
    if (is_tag(e, "OBAN")) return oni::export_oban_glb(*walked_, static_cast<std::uint32_t>(e.index), texture_file());
    if (is_tag(e, "ONCC")) return oni::export_character_glb(*walked_, static_cast<std::uint32_t>(e.index), texture_file());
    if (is_tag(e, "AKEV")) return oni::export_akev_glb(*walked_, static_cast<std::uint32_t>(e.index), texture_file());
    return oni::export_m3gm_glb(*walked_, static_cast<std::uint32_t>(e.index), texture_file());
  }

  // An SNDD decoded to 16-bit PCM as `extract --sounds` writes it.
  [[nodiscard]] Result<audio::Sound> sound(const Entry& e) const override {
    if (e.kind != EntryKind::sound) return Container::sound(e);
    std::call_once(walked_once_, [this] { walk(); });
    if (!walked_ || !walked_->opened || walked_->layouts == nullptr) return walk_error_;
    return oni::decode_sndd_instance(*walked_, static_cast<std::uint32_t>(e.index));
  }

  // The level as walked (its links; the viewer's instance panel), or why it could not be.
  [[nodiscard]] Result<const oni::LoadedFile*> walked() const {
    std::call_once(walked_once_, [this] { walk(); });
    if (!walked_ || !walked_->opened || walked_->layouts == nullptr) return walk_error_;
    return walked_.get();
  }

  // The walk, without which nothing is exported (spec: oni.md#oni-8).
  [[nodiscard]] Result<void> extractable() const override {
    std::call_once(walked_once_, [this] { walk(); });
    if (!walked_ || !walked_->opened || walked_->layouts == nullptr) return walk_error_;
    return {};
  }

  // The layouts' warnings, the walk's findings, the instances exported without their links, the
  // unnamed instances no .oni holds; with --textures, the TXMPs with the SwapBytes flag.
  void extract_findings(Diagnostics& out) const override {
    std::call_once(walked_once_, [this] { walk(); });
    out.append(walk_warnings_);
    if (!walked_ || !walked_->opened || !exporter_) return;
    out.append(walked_->diags);
    if (options().textures) return swapped_note(out);
    if (sounds_ != oni::SoundOutput::none || options().models) return;
    exporter_->warn_unwalked(out);
    oni::warn_orphans(*walked_, *exporter_, out);
  }

  // NAME.oni with its unnamed dependents (spec: oni.md#oni-8); with --textures, a TXMP as
  // NAME.png (NAME.mip<k>.png with mips; spec: oni.md#oni-9-1). Stored: the instance's .oni
  // (a texture's TXMP instance as NAME.oni).
  [[nodiscard]] Result<ExtractCount> write_entry(const Entry& e, const OutputDir& dir, const WriteOptions& w) const override {
    const std::string path = w.stored ? stored_path(e) : e.path;
    if (path.empty()) return ExtractCount{};
    ASSAY_CHECK(extractable());
    const auto i = static_cast<std::uint32_t>(e.index);
    if (sounds_ != oni::SoundOutput::none && !w.stored && (e.kind == EntryKind::sound || path.ends_with(".json"))) {
      if (!walked_->has_data[i]) return ExtractCount{};
      const std::string stem = path.substr(0, path.rfind('.'));
      if (e.kind != EntryKind::sound) return oni::write_sound_binding(*walked_, i, stem, dir);
      return oni::write_sndd(*walked_, i, stem, sounds_ == oni::SoundOutput::adpcm, dir);
    }
    if (options().models && !w.stored && (e.kind == EntryKind::model || is_tag(e, "OBAN"))) return write_m3gm(i, path, dir, w.gltf);
    if (options().textures && !w.stored) {
      if (!walked_->has_data[i]) return ExtractCount{};
      return write_txmp(i, path.substr(0, path.size() - 4), w.mips, dir);
    }
    if (!oni::OniExport::exported(*walked_, i)) return ExtractCount{};
    Diagnostics reported;  // "exported without its links": extract_findings names them all
    ASSAY_TRY(ByteBuffer b, exporter_->build(i, reported));
    ASSAY_CHECK(dir.write(path, b));
    return ExtractCount{1, b.size()};
  }

  [[nodiscard]] std::string stored_path(const Entry& e) const override {
    if ((!options().textures && !options().models && sounds_ == oni::SoundOutput::none) || e.path.empty()) return e.path;
    return e.path.substr(0, e.path.rfind('.')) + ".oni";  // NAME.png, .wav, .json
  }

  [[nodiscard]] Result<Input> read(const Entry& e, unsigned) const override {
    ASSAY_TRY(ByteView b, file_.instance_bytes(static_cast<std::uint32_t>(e.index)));
    Input out;
    out.name = input().name + "::" + (e.name ? *e.name : fmt::format("#{}", e.index));
    out.bytes = b;
    out.owner = input().owner;
    return out;
  }

 private:
  // The kind of instance i (with data) and what is known of it at open, from its bytes alone.
  void classify(Entry& e, std::uint32_t i) const {
    const std::uint32_t tag = file_.descriptor(i).tag;
    const ByteView inst = *file_.instance_bytes(i);
    if (tag == oni::make_tag("TXMP")) classify_texture(e, inst);
    if (tag == oni::make_tag("SNDD")) oni::classify_sound(e, inst, oni::sndd_is_mac(file_));
    // An M3GM, an ONCC (its body and animations, docs/cli.md) and an AKEV (level geometry) are
    // models; a TRAM an animation.
    if (tag == oni::make_tag("M3GM") || tag == oni::make_tag("ONCC") || tag == oni::make_tag("AKEV")) e.kind = EntryKind::model;
    if (tag == oni::make_tag("TRAM") || tag == oni::make_tag("OBAN")) e.kind = EntryKind::animation;
  }

  // spec: oni.md#oni-9-1: width 0x8C, height 0x8E, format 0x90, flag 1 = mips (both retail sets).
  static void classify_texture(Entry& e, ByteView inst) {
    if (inst.size() < oni::records::kTxmpMinSize) return;
    const auto t = oni::records::read_txmp_image(inst);
    if (!t) return;
    e.kind = EntryKind::texture;
    auto lv = oni::txmp_levels(t->width, t->height, t->format, t->mipmapped());
    e.texture_info = TextureInfo{t->width, t->height, lv ? static_cast<std::uint32_t>(lv->size()) : 0};
  }
  static void print_texture(const Entry& e, ByteView inst, FieldPrinter& p) {
    p.field("width", e.texture_info->width).field("height", e.texture_info->height);
    p.field("pixel_format", oni::records::read_txmp_image(inst)->format);
    if (e.texture_info->mips) p.field("mips", e.texture_info->mips);
  }

  // With --textures a TXMP with data is written as NAME.png (TXMP#INDEX.png unnamed); nothing else.
  std::string texture_path(std::uint32_t i, const Entry& e) const {
    if (file_.descriptor(i).tag != oni::make_tag("TXMP") || !e.size) return {};
    std::string stem = oni::oni_file_name(e.name ? *e.name : fmt::format("TXMP#{}", i));
    stem.resize(stem.size() - 4);  // ".oni"
    return stem + ".png";
  }

  // With --textures a TXMP as PNG, with --sounds an SNDD as WAV; nothing else.
  std::string converted_path(std::uint32_t i, const Entry& e) const {
    if (options().textures && file_.descriptor(i).tag == oni::make_tag("TXMP")) return texture_path(i, e);
    // (by instance index i: e.index is not set before set_entries)
    if (options().models && (e.kind == EntryKind::model || (file_.descriptor(i).tag == oni::make_tag("OBAN") && e.size))) {
      const std::string oni_name = oni::oni_file_name(e.name ? *e.name : fmt::format("{}#{}", oni::tag_string(file_.descriptor(i).tag), i));
      return oni_name.substr(0, oni_name.size() - 4) + ".glb";  // NAME.oni -> NAME.glb
    }
    return sounds_ != oni::SoundOutput::none ? oni::sound_path(e, file_.descriptor(i).tag, i, sounds_ == oni::SoundOutput::adpcm) : std::string();
  }

  // An M3GM's counts and texture name (read without a walk).
  void print_model(std::uint32_t i, FieldPrinter& p) const {
    auto g = oni::m3gm_counts(file_, i);
    if (!g) return;
    p.field("vertices", g->vertices).field("triangles", g->triangles).field("texture", g->texture);
  }

  // With --models an M3GM, an ONCC (its body and animations), an OBAN or an AKEV (level geometry)
  // as NAME.glb; with --gltf as NAME.gltf + NAME.bin + its PNGs (model_output.h, as RenderWare and igz).
  Result<ExtractCount> write_m3gm(std::uint32_t i, const std::string& path, const OutputDir& dir, bool gltf) const {
    const std::uint32_t tag = file_.descriptor(i).tag;
    ASSAY_TRY(model::Scene s, tag == oni::make_tag("ONCC")   ? oni::character_scene(*walked_, i, texture_file(), &pngs_)
                              : tag == oni::make_tag("AKEV") ? oni::akev_scene(*walked_, i, texture_file(), &pngs_)
                              : tag == oni::make_tag("OBAN") ? oni::oban_scene(*walked_, i, texture_file(), &pngs_)
                                                             : oni::m3gm_scene(*walked_, i, texture_file(), &pngs_));
    return write_model_files(s, path, dir, gltf);
  }

  bool is_tag(const Entry& e, const char (&tag)[5]) const {
    return e.index < file_.instance_count() && file_.descriptor(static_cast<std::uint32_t>(e.index)).tag == oni::make_tag(tag);
  }

  // An ONCC's counts when this file holds them (read without a walk).
  void print_character(std::uint32_t i, FieldPrinter& p) const {
    auto c = oni::character_counts(file_, i);
    if (!c) return;
    p.field("bones", c->bones).field("animations", c->animations).field("frames", c->frames);
  }

  // An AKEV's PNTA points, triangles drawn and TXMA textures.
  void print_level(std::uint32_t i, FieldPrinter& p) const {
    auto c = oni::akev_counts(file_, i);
    if (!c) return;
    p.field("vertices", c->vertices).field("triangles", c->triangles).field("textures", c->textures);
  }

  // A TRAM: bones, frames, frame size (6: Euler keys, 16: quaternions).
  static void print_animation(ByteView inst, FieldPrinter& p) {
    if (inst.size() < oni::TramFields::kSize) return;
    const auto u16 = [&](std::uint32_t at) { return load<std::uint16_t>(inst.data() + at, Endian::little); };
    p.field("bones", u16(oni::TramFields::kBones)).field("frames", u16(oni::TramFields::kFrames));
    p.field("frame_size", u16(oni::TramFields::kFrameSize));
  }

  // verify: every character's body and animations, every TRAM's keys (issue 27).
  void verify_characters(Diagnostics& out) const {
    bool any = false;
    for (const Entry& e : entries()) any |= (e.kind == EntryKind::model && is_tag(e, "ONCC")) || (e.kind == EntryKind::animation && is_tag(e, "TRAM"));
    if (!any || !extractable()) return;
    for (const Entry& e : entries()) {
      const auto i = static_cast<std::uint32_t>(e.index);
      if (e.kind == EntryKind::animation && is_tag(e, "TRAM")) oni::verify_tram(*walked_, i, out);
      if (e.kind == EntryKind::model && is_tag(e, "ONCC")) oni::verify_character(*walked_, i, texture_file(), out);
    }
  }

  // The TXMP image fields (#oni-9-1) of instance i when it holds the whole fixed part, else none.
  std::optional<oni::records::TxmpImage> txmp_image(std::uint32_t i) const {
    auto inst = file_.instance_bytes(i);
    if (!inst || inst->size() < oni::records::kTxmpMinSize) return std::nullopt;
    auto img = oni::records::read_txmp_image(*inst);
    return img ? std::optional(*img) : std::nullopt;
  }

  // TXMP i as STEM.png (with mips, STEM.mip<k>.png down to 1x1), as texture() decodes it.
  Result<ExtractCount> write_txmp(std::uint32_t i, const std::string& stem, bool mips, const OutputDir& dir) const {
    std::size_t levels = 1;
    if (const auto img = txmp_image(i); mips && img && img->mipmapped()) {
      ASSAY_TRY(auto lv, oni::txmp_levels(img->width, img->height, img->format, true));
      levels = lv.size();
    }
    ExtractCount n;
    for (std::size_t k = 0; k < levels; ++k) {
      ASSAY_TRY(oni::Rgba8 img, oni::decode_txmp_instance(*walked_, i, static_cast<unsigned>(k)));
      ASSAY_TRY(ByteBuffer png, image::encode_png(image::Rgba{img.width, img.height, std::move(img.pixels)}));
      ASSAY_CHECK(dir.write(k == 0 ? stem + ".png" : fmt::format("{}.mip{}.png", stem, k), png));
      ++n.files;
      n.bytes += png.size();
    }
    return n;
  }

  void swapped_note(Diagnostics& out) const {
    std::uint32_t swapped = 0;
    for (std::uint32_t i = 0; i < walked_->file.instance_count(); ++i) {
      if (walked_->file.descriptor(i).tag != oni::make_tag("TXMP") || !walked_->has_data[i]) continue;
      const auto img = txmp_image(i);
      swapped += img && (img->flags & oni::records::TxmpImage::kSwapBytes) != 0;
    }
    if (swapped)
      out.note(walked_->file.error("TXMP", kNoOffset, fmt::format("{} textures have the SwapBytes flag (0x1000): decoded without swapping "
                                                                  "(OniSplit sets it on every PC TXMP it writes)", swapped)));
  }

  // Where an M3GM's placeholder TXMP has its pixels (spec: oni.md#oni-7-1: level 0's copy): level 0
  // walked with its .raw, loaded on first use; this level itself when there is none.
  const oni::LoadedFile* texture_file() const {
    std::call_once(level0_once_, [this] {
      if (!sib_.level0 || !walked_ || !walked_->layouts) return;
      const Input& l0 = *sib_.level0;
      level0_ = oni::load_file("level0_Final.dat", l0.bytes, l0.owner, walked_->layouts,
                               oni::LoadOptions{true, &sib_.level0_companions});
    });
    return level0_ && level0_->opened ? level0_.get() : walked_.get();
  }

  void walk() const {
    auto layouts = oni::walk_layouts(sib_, options().read_options(), &walk_warnings_);
    if (!layouts) {
      walk_error_ = layouts.error();
      return;
    }
    walked_ = oni::load_file(sib_.file_name, input().bytes, input().owner, *layouts, oni::LoadOptions{true, &sib_.companions});
    if (walked_->opened) exporter_ = std::make_unique<oni::OniExport>(*walked_);
    if (!walked_->opened) walk_error_ = walked_->diags.items().front().where;
    else if (walked_->layouts == nullptr) {
      auto r = layouts->for_checksum(walked_->file.header().checksum);
      walk_error_ = r ? make_error(oni::kFormat, "TXMP", kNoOffset, "no layouts to walk the file") : r.error().in_file(walked_->display);
    }
  }

  oni::InstanceFile file_;
  oni::SiblingFiles sib_;  // taken at open: the walk and verify read no file beside the input
  mutable std::once_flag players_once_;
  mutable std::map<std::uint32_t, std::vector<oni::ObanPlayer>> players_;  // OBAN -> who names it (list)
  mutable std::once_flag walked_once_;
  mutable std::unique_ptr<oni::LoadedFile> walked_;
  mutable Error walk_error_;
  mutable Diagnostics walk_warnings_;
  mutable std::unique_ptr<oni::OniExport> exporter_;
  mutable std::once_flag level0_once_;
  mutable std::unique_ptr<oni::LoadedFile> level0_;  // texture_file()
  oni::SoundOutput sounds_ = oni::SoundOutput::none;  // extract --sounds / --adpcm
  mutable oni::M3gmTextureCache pngs_;  // extract --models: each TXMP encoded once
};

}  // namespace

Result<const oni::LoadedFile*> oni::walked_file(const Container& c) {
  const auto* o = dynamic_cast<const OniContainer*>(&c);
  if (o == nullptr) return usage_error(fmt::format("{}: not an Oni level file", c.input().name));
  return o->walked();
}

Result<std::unique_ptr<Container>> open_oni_container(const OpenContext& ctx) {
  Input in = ctx.input;
  const ContainerOptions& opt = ctx.options;
  ASSAY_TRY(oni::InstanceFile f, oni::InstanceFile::open(in.bytes, in.name));
  oni::SiblingFiles sib = oni::take_siblings(in, ctx.siblings, opt, !f.is_oni());
  return std::unique_ptr<Container>(new OniContainer(std::move(in), opt, std::move(f), std::move(sib)));
}

}  // namespace assay
