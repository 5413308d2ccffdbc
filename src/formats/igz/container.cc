// An igz object file as a Container (spec: alchemy.md#igz): its entries are the objects of the
// RVTB list (offset = absolute file position, size = MTSZ of the type); read() views an
// object's bytes. Nested igz paths (ARCHIVE::x.igz) come from the archive's Container.
#include <fmt/format.h>

#include "assay/container.h"
#include "assay/family.h"
#include "assay/formats/igz/report.h"

namespace assay {

namespace {

class IgzContainer final : public FormatContainer {
 public:
  IgzContainer(Input in, ContainerOptions opt) : FormatContainer(kIgzFormat, std::move(in), std::move(opt)) {}

  Result<void> load() {
    igz::OpenOptions o;
    o.pointer_size = options().igz.pointer_size;
    ASSAY_TRY(Json listing, igz::list_json(input().bytes, o));
    std::vector<Entry> entries;
    for (Json row : listing["entries"]) {
      Entry e;
      const std::uint64_t index = row.value("index", std::uint64_t{entries.size()});
      const std::string type = row.contains("type") && row["type"].is_string() ? row["type"].get<std::string>() : "";
      e.name = type.empty() ? fmt::format("object{}", index) : type;
      e.path = fmt::format("{:04}_{}.bin", index, type.empty() ? "object" : type);
      if (row.contains("offset") && row["offset"].is_number_unsigned()) e.offset = row["offset"].get<std::uint64_t>();
      if (row.contains("size") && row["size"].is_number_unsigned() && row["size"].get<std::uint64_t>() != 0)
        e.size = e.stored_size = row["size"].get<std::uint64_t>();  // 0 = unknown type size
      e.kind = "object";
      for (const char* k : {"index", "offset", "size"}) row.erase(k);
      e.details = std::move(row);
      entries.push_back(std::move(e));
    }
    set_entries(std::move(entries));
    return {};
  }
};

}  // namespace

Result<std::unique_ptr<Container>> open_igz_container(const OpenContext& ctx) {
  Input in = ctx.input;
  const ContainerOptions& opt = ctx.options;
  auto c = std::make_unique<IgzContainer>(std::move(in), opt);
  ASSAY_CHECK(c->load());
  return std::unique_ptr<Container>(std::move(c));
}

}  // namespace assay
