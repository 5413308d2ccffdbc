// `assay warriors load FILE | DISC:NAME | DISC:0xHASH`: one container through the loader with
// the standard handlers. spec: warriors.md#wr-5-3, #wr-5-4.
#include <fmt/format.h>

#include <system_error>


#include "family_parts.h"
#include "formats/serialise.h"

namespace assay::warriors {

Result<Json> load_spec(const std::string& spec, ContainerShape shape, const ReadOptions& opt) {
  std::error_code ec;
  LoadOptions lo;
  lo.shape = shape;
  const HandlerTable table = HandlerTable::standard();
  if (std::filesystem::exists(spec, ec) && !std::filesystem::is_directory(spec, ec)) {
    ASSAY_TRY(Input in, Input::open(spec));
    if (!looks_like_disc(in)) {
      Json j = load_result_json(load_container(in.bytes, table, lo));
      j["file"] = spec;
      return j;
    }
  }
  const auto colon = spec.rfind(':');
  if (colon == std::string::npos || colon == 0)
    return usage_error(fmt::format("{}: expected DISC:NAME, DISC:0xHASH or a container file", spec));
  ASSAY_TRY(Input in, Input::open(spec.substr(0, colon)));
  ASSAY_TRY(OpenedDisc c, open_disc(in, *folder_siblings(in), opt));
  const std::string sel = spec.substr(colon + 1);
  auto e = find_selected(c.disc, sel);  // NAME, 0xHASH, or the <8 hex>.bin that list prints
  if (!e) return usage_error(fmt::format("{}: no entry with hash {:08x}", spec, name_hash(sel)));
  ASSAY_TRY(ByteView bytes, c.disc.entry_bytes(*e));
  const std::string* name = c.names.find(e->hash);
  const EntryKind kind = classify_entry(bytes, name ? std::optional<std::string_view>(*name) : std::nullopt);
  Json j = load_result_json(load_container(bytes, table, lo), e->offset);
  // As list shows the entry (entry.json); the first row of a hash is the one found (no "<index>_").
  j["entry"] = loaded_entry_json(*e, c.names, kind);
  if (!is_container(kind))
    j["warning"] = fmt::format("entry kind is {}, not a resource or pack (spec: warriors.md#wr-5-3)", to_string(kind));
  return j;
}

}  // namespace assay::warriors
