// `assay warriors load FILE | DISC:NAME | DISC::NAME | DISC:0xHASH`: one container through the
// loader with the standard handlers. The spec is resolved by ops_reports.cc (A::B like every
// verb's input: a disc inside an archive finds its WAD among the archive's entries). spec:
// warriors.md#wr-5-3, #wr-5-4.
#include <fmt/format.h>

#include <optional>

#include "family_parts.h"

namespace assay::warriors {

Result<LoadReport> load_disc_entry(const Input& disc, const Siblings& siblings, const std::string& spec,
                                   const std::string& sel, ContainerShape shape, const ReadOptions& opt) {
  LoadOptions lo;
  lo.shape = shape;
  ASSAY_TRY(OpenedDisc c, open_disc(disc, siblings, opt));
  auto e = find_selected(c.disc, sel);  // NAME, 0xHASH, or the <8 hex>.bin that list prints
  if (!e) return usage_error(fmt::format("{}: no entry with hash {:08x}", spec, name_hash(sel)));
  ASSAY_TRY(ByteView bytes, c.disc.entry_bytes(*e));
  const std::string* name = c.names.find(e->hash);
  const EntryKind kind = classify_entry(bytes, name ? std::optional<std::string_view>(*name) : std::nullopt);
  LoadReport r;
  r.base = e->offset;
  r.result = load_container(bytes, HandlerTable::standard(), lo);
  // As list shows the entry; the first row of a hash is the one found (no "<index>_").
  r.entry = LoadedEntry{*e, name ? std::optional(*name) : std::nullopt, entry_file_name(*e, c.names), kind};
  if (!is_container(kind))
    r.warning = fmt::format("entry kind is {}, not a resource or pack (spec: warriors.md#wr-5-3)", to_string(kind));
  return r;
}

LoadReport load_container_input(const Input& in, const std::string& spec, ContainerShape shape) {
  LoadOptions lo;
  lo.shape = shape;
  LoadReport r;
  r.file = spec;
  r.result = load_container(in.bytes, HandlerTable::standard(), lo);
  return r;
}

}  // namespace assay::warriors
