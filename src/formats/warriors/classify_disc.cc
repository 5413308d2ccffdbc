// The kind of every DIR row (spec: warriors.md#wr-8-1), for the disc container and
// `assay warriors classify`.
#include "assay/core/thread_pool.h"

#include "family_parts.h"
#include "formats/serialise.h"

namespace assay::warriors {

namespace {

EntryKind kind_of(const Disc& disc, const NameTable& names, const DirEntry& e) {
  auto bytes = disc.entry_bytes(e);
  if (!bytes) return EntryKind::other;
  const std::string* n = names.find(e.hash);
  return classify_entry(*bytes, n ? std::optional<std::string_view>(*n) : std::nullopt);
}

}  // namespace

std::vector<EntryKind> classify_entries(const Disc& disc, const NameTable& names, unsigned threads) {
  std::vector<EntryKind> kinds(disc.count(), EntryKind::other);
  parallel_for(kinds.size(), threads ? threads : default_threads(),
               [&](std::size_t i) { kinds[i] = kind_of(disc, names, disc.entry(static_cast<std::uint32_t>(i))); });
  return kinds;
}

Result<Json> classify_disc(const Input& in, const ReadOptions& opt) {
  return classify_disc(in, *folder_siblings(in), opt);
}

Result<Json> classify_disc(const Input& in, const Siblings& siblings, const ReadOptions& opt) {
  ASSAY_TRY(OpenedDisc c, open_disc(in, siblings, opt));
  return kind_counts_json(c.disc, classify_entries(c.disc, c.names, opt.threads));
}

}  // namespace assay::warriors
