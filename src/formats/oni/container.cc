// An Oni instance file as a Container (spec: oni.md#oni-3): its entries are the instance
// descriptors (name = full name with tag, path = the .oni file extract writes for a named
// instance); read() views an instance's bytes (8-byte instance header included).
#include <fmt/format.h>

#include "assay/container.h"
#include "assay/formats/oni/oni.h"

namespace assay {

namespace {

class OniContainer final : public FormatContainer {
 public:
  OniContainer(Input in, ContainerOptions opt, oni::InstanceFile f)
      : FormatContainer(kOniFormat, std::move(in), std::move(opt)), file_(std::move(f)) {
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
      entries.push_back(std::move(e));
    }
    set_entries(std::move(entries));
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
  oni::InstanceFile file_;
};

}  // namespace

Result<std::unique_ptr<Container>> open_oni_container(Input in, const ContainerOptions& opt) {
  ASSAY_TRY(oni::InstanceFile f, oni::InstanceFile::open(in.bytes, in.name));
  return std::unique_ptr<Container>(new OniContainer(std::move(in), opt, std::move(f)));
}

}  // namespace assay
