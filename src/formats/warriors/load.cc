// `assay warriors load FILE | DISC:NAME | DISC:0xHASH`: one container through the loader with
// the standard handlers. spec: warriors.md#wr-5-3, #wr-5-4.
#include <fmt/format.h>

#include <system_error>


#include "family_parts.h"

namespace assay::warriors {

Result<LoadReport> load_spec(const std::string& spec, ContainerShape shape, const ReadOptions& opt) {
  std::error_code ec;
  LoadOptions lo;
  lo.shape = shape;
  const HandlerTable table = HandlerTable::standard();
  if (std::filesystem::exists(spec, ec) && !std::filesystem::is_directory(spec, ec)) {
    ASSAY_TRY(Input in, Input::open(spec));
    if (!looks_like_disc(in)) {
      LoadReport r;
      r.file = spec;
      r.result = load_container(in.bytes, table, lo);
      return r;
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
  LoadReport r;
  r.base = e->offset;
  r.result = load_container(bytes, table, lo);
  // As list shows the entry; the first row of a hash is the one found (no "<index>_").
  r.entry = LoadedEntry{*e, name ? std::optional(*name) : std::nullopt, entry_file_name(*e, c.names), kind};
  if (!is_container(kind))
    r.warning = fmt::format("entry kind is {}, not a resource or pack (spec: warriors.md#wr-5-3)", to_string(kind));
  return r;
}

}  // namespace assay::warriors
