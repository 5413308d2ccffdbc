// A RenderWare binary stream as a Container (spec: renderware.md): a texture dictionary's
// entries are its textures (read() = the texture native section, texture() decodes a mip), a
// clump's are its atomics (no bytes of their own), any other stream's are its top-level sections
// (read()/open() give a section as a stream of its own). Parsed once at open.
#include <fmt/format.h>

#include <optional>
#include <set>

#include "assay/container.h"
#include "assay/family.h"
#include "assay/formats/renderware/texture.h"
#include "assay/formats/renderware/walker.h"
#include "formats/texture_budget.h"

namespace assay {

namespace {

class RenderWareContainer final : public FormatContainer {
 public:
  RenderWareContainer(Input in, ContainerOptions opt) : FormatContainer(kRenderWareFormat, std::move(in), std::move(opt)) {}

  // The family's list fields and entry details come from its Format record, read once here.
  Result<void> load() {
    // The listing first: it knows a texture dictionary the end of the file cuts (issue 29 item 4),
    // which the walk refuses; its "truncated" and "problems" fields say where it is cut.
    ASSAY_TRY(Json listing, kRenderWareFormat.list(input(), options().read_options()));
    const bool cut = listing.contains("truncated");
    rw::SectionTree t;
    if (!cut) {
      ASSAY_TRY(t, rw::walk(input().bytes, 0, {}));
      if (t.top.empty()) return make_error("renderware", "stream", 0, "no section");
    }
    const std::uint32_t top_type = cut ? rw::id::kTextureDictionary : t.sections[t.top[0]].header.type;
    Json& rows = listing["entries"];
    std::vector<Entry> entries;
    if (top_type == rw::id::kTextureDictionary) {
      rw::TextureOptions to;
      to.allow_cut = cut;
      ASSAY_TRY(rw::TextureDictionary d, rw::TextureDictionary::open(input().bytes, 0, {}, to));
      dict_ = std::move(d);
      std::set<std::string> used;
      for (std::size_t i = 0; i < dict_->textures().size(); ++i) {
        const rw::TextureNative& tex = dict_->textures()[i];
        Entry e = from_row(i < rows.size() ? rows[i] : Json::object());
        e.name = std::string(tex.name);
        std::string base = tex.name.empty() ? fmt::format("texture{}", i) : std::string(tex.name);
        if (!used.insert(base).second) used.insert(base = fmt::format("{}.{}", base, i));
        // what extract writes: the top mip, or the stored section of a GameCube native (issue 29)
        e.path = base + (tex.platform == rw::kPlatformGameCube && tex.error.empty() ? ".rws" : ".png");
        e.offset = tex.offset;
        auto h = rw::read_section_header(input().bytes, tex.offset);
        if (h) e.size = e.stored_size = rw::SectionHeader::kSize + h->size;
        e.kind = "texture";
        e.details["pixel_format"] = tex.format_name();
        entries.push_back(std::move(e));
      }
    } else if (top_type == rw::id::kClump) {
      for (std::size_t i = 0; i < rows.size(); ++i) {
        Entry e = from_row(rows[i]);
        e.path.clear();  // an atomic is not extracted
        e.kind = "atomic";
        entries.push_back(std::move(e));
      }
    } else {
      for (std::size_t i = 0; i < t.top.size(); ++i) {
        const rw::Section& s = t.sections[t.top[i]];
        Entry e = from_row(i < rows.size() ? rows[i] : Json::object());
        e.name = std::string(rw::section_name(s.header.type));
        e.path = fmt::format("{:04}_{}.rws", i, *e.name);
        e.offset = s.offset;
        e.size = e.stored_size = rw::SectionHeader::kSize + s.header.size;
        e.kind = "section";
        e.nested = true;
        entries.push_back(std::move(e));
      }
    }
    for (auto it = listing.begin(); it != listing.end(); ++it)
      if (it.key() != "format" && it.key() != "entries") fields_[it.key()] = it.value();
    set_entries(std::move(entries));
    return {};
  }

  [[nodiscard]] Json list_fields() const override { return fields_; }

  [[nodiscard]] Result<image::Rgba> texture(const Entry& e, unsigned mip) const override {
    if (!dict_ || e.kind != "texture") return Container::texture(e, mip);
    ASSAY_TRY(MemoryLease lease, texture_lease(*this, e, mip));  // issue 15 item 6
    return dict_->decode(e.index, mip);
  }

 private:
  static Entry from_row(Json row) {
    Entry e;
    if (row.contains("name") && row["name"].is_string()) e.name = row["name"].get<std::string>();
    for (const char* k : {"index", "name", "path", "offset", "size", "kind"}) row.erase(k);
    e.details = std::move(row);
    return e;
  }

  std::optional<rw::TextureDictionary> dict_;
  Json fields_ = Json::object();
};

}  // namespace

Result<std::unique_ptr<Container>> open_renderware_container(const OpenContext& ctx) {
  Input in = ctx.input;
  const ContainerOptions& opt = ctx.options;
  auto c = std::make_unique<RenderWareContainer>(std::move(in), opt);
  ASSAY_CHECK(c->load());
  return std::unique_ptr<Container>(std::move(c));
}

}  // namespace assay
