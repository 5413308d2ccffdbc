// An Oni instance file as a Container (spec: oni.md#oni-3): its entries are the instance
// descriptors (name = full name with tag, path = the .oni file extract writes for a named
// instance); read() views an instance's bytes (8-byte instance header included). TXMP instances
// are "texture" entries: texture() walks the file once (layouts as the CLI picks them, .raw/.sep
// beside it) and decodes a mip as `extract --textures` does (spec: oni.md#oni-9-1).
#include <fmt/format.h>

#include <mutex>

#include "assay/container.h"
#include "assay/family.h"
#include "assay/formats/oni/oni.h"
#include "formats/texture_budget.h"
#include "family_parts.h"
#include "records.h"

namespace assay {

namespace {

class OniContainer final : public Container {
 public:
  OniContainer(Input in, ContainerOptions opt, oni::InstanceFile f)
      : Container("oni", std::move(in), std::move(opt)), file_(std::move(f)) {
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
      e.kind = "instance";
      e.details = {{"tag", oni::tag_string(d.tag)},
                   {"flags", d.flags()},
                   {"placeholder", d.placeholder()},
                   {"descriptor_offset", file_.descriptor_offset(i)}};
      if (d.tag == oni::make_tag("TXMP") && e.size) texture_details(e, *file_.instance_bytes(i));
      entries.push_back(std::move(e));
    }
    set_entries(std::move(entries));
  }

  [[nodiscard]] Result<Json> info() const override { return oni::info_fields(file_, input()); }

  void verify(Diagnostics& out) const override { oni::verify_input(input(), options().read_options(), out); }

  [[nodiscard]] Result<image::Rgba> texture(const Entry& e, unsigned mip) const override {
    if (e.kind != "texture") return Container::texture(e, mip);
    std::call_once(walked_once_, [this] { walk(); });
    if (!walked_ || !walked_->opened || walked_->layouts == nullptr) return walk_error_;
    ASSAY_TRY(MemoryLease lease, texture_lease(*this, e, mip));
    ASSAY_TRY(oni::Rgba8 img, oni::decode_txmp_instance(*walked_, static_cast<std::uint32_t>(e.index), mip));
    return image::Rgba{img.width, img.height, std::move(img.pixels)};
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
  // spec: oni.md#oni-9-1: width 0x8C, height 0x8E, format 0x90, flag 1 = mips (both retail sets).
  static void texture_details(Entry& e, ByteView inst) {
    if (inst.size() < oni::records::kTxmpMinSize) return;
    const auto t = oni::records::read_txmp_image(inst);
    if (!t) return;
    e.kind = "texture";
    e.details["width"] = t->width;
    e.details["height"] = t->height;
    e.details["pixel_format"] = t->format;
    if (auto lv = oni::txmp_levels(t->width, t->height, t->format, t->mipmapped()); lv) e.details["mips"] = lv->size();
  }

  void walk() const {
    const std::filesystem::path path = input().path.empty() ? std::filesystem::path(input().name) : input().path;
    const std::filesystem::path dir = input().path.empty() ? std::filesystem::path(".") : input().path.parent_path();
    auto layouts = oni::layouts_for(options().read_options().family, dir, nullptr);
    if (!layouts) {
      walk_error_ = layouts.error();
      return;
    }
    walked_ = oni::load_file(path, input().bytes, input().owner, *layouts);
    if (!walked_->opened) walk_error_ = walked_->diags.items().front().where;
    else if (walked_->layouts == nullptr) {
      auto r = layouts->for_checksum(walked_->file.header().checksum);
      walk_error_ = r ? make_error(oni::kFormat, "TXMP", kNoOffset, "no layouts to walk the file") : r.error().in_file(walked_->display);
    }
  }

  oni::InstanceFile file_;
  mutable std::once_flag walked_once_;
  mutable std::unique_ptr<oni::LoadedFile> walked_;
  mutable Error walk_error_;
};

}  // namespace

Result<std::unique_ptr<Container>> open_oni_container(const OpenContext& ctx) {
  Input in = ctx.input;
  const ContainerOptions& opt = ctx.options;
  ASSAY_TRY(oni::InstanceFile f, oni::InstanceFile::open(in.bytes, in.name));
  return std::unique_ptr<Container>(new OniContainer(std::move(in), opt, std::move(f)));
}

}  // namespace assay
