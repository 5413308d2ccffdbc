// `assay warriors load FILE | DISC:NAME | DISC::NAME | DISC:0xHASH`: one container through the
// loader with the standard handlers. FILE and DISC may be inner files (A::B) like every verb's
// input: a disc inside an archive finds its WAD among the archive's entries. spec:
// warriors.md#wr-5-3, #wr-5-4.
#include <fmt/format.h>

#include <optional>
#include <system_error>

#include "family_parts.h"

namespace assay::warriors {

namespace {

// The disc's entry `sel` (NAME, 0xHASH, or the <8 hex>.bin that list prints) through the loader.
Result<LoadReport> load_disc_entry(const ResolvedInput& disc, const std::string& spec, const std::string& sel,
                                   const LoadOptions& lo, const ReadOptions& opt) {
  ASSAY_TRY(OpenedDisc c, open_disc(disc.input, *disc.siblings, opt));
  auto e = find_selected(c.disc, sel);
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

LoadReport load_file(const Input& in, const std::string& spec, const LoadOptions& lo) {
  LoadReport r;
  r.file = spec;
  r.result = load_container(in.bytes, HandlerTable::standard(), lo);
  return r;
}

// Where the disc part of `spec` ends and its selector starts: at the last separator, "::" or a
// single ':' (DISC:NAME; A::B:NAME for a disc inside a container); nullopt when there is none.
std::optional<std::pair<std::size_t, std::size_t>> selector_split(const std::string& spec) {
  const auto colon = spec.rfind(':');
  if (colon == std::string::npos || colon == 0) return std::nullopt;
  if (spec[colon - 1] != ':') return std::pair{colon, colon + 1};
  if (colon == 1) return std::nullopt;
  return std::pair{colon - 1, colon + 1};
}

}  // namespace

Result<LoadReport> load_spec(const std::string& spec, ContainerShape shape, const ReadOptions& opt) {
  std::error_code ec;
  LoadOptions lo;
  lo.shape = shape;
  ASSAY_TRY(const ContainerOptions co, container_options(opt));
  // DISC::NAME, DISC:NAME, DISC::0xHASH: DISC is a folder, a file or an inner file (A::B).
  if (const auto split = selector_split(spec); split && !std::filesystem::exists(spec, ec)) {
    auto disc = resolve_with_siblings(spec.substr(0, split->first), co);
    if (disc && looks_like_disc(disc->input)) return load_disc_entry(*disc, spec, spec.substr(split->second), lo, opt);
    if (!disc && split->second == split->first + 1) return std::move(disc).error();  // DISC:NAME, DISC unread
  }
  // A container file, or an inner file A::B that is one.
  ASSAY_TRY(const ResolvedInput whole, resolve_with_siblings(spec, co));
  if (whole.input.is_directory || looks_like_disc(whole.input))
    return usage_error(fmt::format("{}: expected DISC:NAME, DISC:0xHASH or a container file", spec));
  return load_file(whole.input, spec, lo);
}

}  // namespace assay::warriors
