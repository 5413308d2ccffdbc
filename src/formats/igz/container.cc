// An igz object file as a Container (spec: alchemy.md#igz): its entries are the objects of the
// RVTB list (offset = absolute file position, size = MTSZ of the type); read() views an
// object's bytes. Nested igz paths (ARCHIVE::x.igz) come from the archive's Container.
#include <fmt/format.h>

#include "assay/container.h"
#include "assay/family.h"
#include "assay/formats/igz/graph.h"
#include "assay/formats/igz/report.h"
#include "family_parts.h"

namespace assay {

namespace {

class IgzContainer final : public Container {
 public:
  // `file` and `fixups` view the bytes of `in`, which the Container owns from here on.
  IgzContainer(Input in, ContainerOptions opt, igz::IgzFile file, igz::Fixups fixups)
      : Container("igz", std::move(in), std::move(opt)), file_(std::move(file)), fixups_(std::move(fixups)) {
    const igz::Graph g = igz::build_graph(file_, fixups_, nullptr);
    std::vector<Entry> entries;
    entries.reserve(g.objects.size());
    for (std::size_t i = 0; i < g.objects.size(); ++i) {
      const igz::Object& o = g.objects[i];
      const std::string type(o.type_name);
      Entry e;
      e.name = type.empty() ? fmt::format("object{}", i) : type;
      e.path = fmt::format("{:04}_{}.bin", i, type.empty() ? "object" : type);
      e.offset = o.position;
      if (o.size != 0) e.size = e.stored_size = o.size;  // 0 = unknown type size
      e.kind = "object";
      e.details = igz::object_details_json(file_, o);
      entries.push_back(std::move(e));
    }
    set_entries(std::move(entries));
  }

  [[nodiscard]] Result<Json> info() const override {
    Json j = igz::info_json(file_, fixups_);
    j.erase("format");
    return j;
  }

  void verify(Diagnostics& out) const override { igz::verify_input(input(), options(), out); }

 private:
  igz::IgzFile file_;
  igz::Fixups fixups_;
};

}  // namespace

Result<std::unique_ptr<Container>> open_igz_container(const OpenContext& ctx) {
  igz::OpenOptions o;
  o.pointer_size = ctx.options.igz.pointer_size;
  ASSAY_TRY(igz::IgzFile f, igz::IgzFile::open(ctx.input.bytes, o));
  ASSAY_TRY(igz::Fixups fx, igz::decode_fixups(f));
  return std::unique_ptr<Container>(new IgzContainer(ctx.input, ctx.options, std::move(f), std::move(fx)));
}

}  // namespace assay
