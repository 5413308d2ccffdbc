// The verify rules of a disc and of a loose container. spec: warriors.md#wr-2-5 (D1-D10),
// #wr-10 (V1-V21), #wr-6-3 (a level's chunks), #wr-9 (streamed worlds).
#include <fmt/format.h>

#include <span>

#include "assay/core/progress.h"
#include "assay/core/thread_pool.h"
#include "assay/formats/warriors/chunks.h"
#include "family_parts.h"
#include "records.h"

namespace assay::warriors {

namespace {

// What the verify rules read: the disc, the names given and each row's kind.
struct DiscRefs {
  const Disc& disc;
  const NameTable& names;
  std::span<const EntryKind> kinds;
};

unsigned thread_count(const ReadOptions& opt) { return opt.threads ? opt.threads : default_threads(); }

// Adds `in` to `out` under `label`, offsets moved by `base` (the entry's place in the WAD).
void prefix(Diagnostics& out, const Diagnostics& in, const std::string& label, std::uint64_t base) {
  for (Diagnostic d : in.items()) {
    d.where.structure = d.where.structure.empty() ? label : label + ": " + d.where.structure;
    if (d.where.offset != kNoOffset) d.where.offset += base;
    out.add(std::move(d));
  }
}

bool ends_with_ci(std::string_view s, std::string_view suf) {
  if (s.size() < suf.size()) return false;
  for (std::size_t i = 0; i < suf.size(); ++i) {
    char c = s[s.size() - suf.size() + i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
    if (c != suf[i]) return false;
  }
  return true;
}

// V13: the 18 chunks of spec #wr-6-3 in order, ending with an empty chunk stack and one object.
void check_level_shape(const LoadResult& r, Diagnostics& out) {
  static constexpr std::uint32_t kOrder[18] = {0x53, 0x2A, 0x47, 0x2A, 0x47, 0x2A, 0x47, 0x2A, 0x15,
                                               0x40, 0x52, 0x07, 0x04, 0x05, 0x06, 0x03, 0x17, 0x51};
  bool same = r.chunks.size() == 18;
  for (std::size_t i = 0; same && i < 18; ++i) same = r.chunks[i].header.type == kOrder[i];
  if (!same && r.ok()) out.warning(make_error(kFormat, "level", 0, "V13: chunk order differs from the 18 chunks of spec 6.3"));
  if (r.ok() && (!r.stacks.chunks().empty() || r.stacks.objects().size() != 1))
    out.warning(make_error(kFormat, "level", kNoOffset, "V13: the load does not end with an empty chunk stack and one object"));
}

// V18-V20 over the named streamed-world files (spec #wr-9-2, #wr-9-4).
void verify_worlds(const DiscRefs& c, Diagnostics& out) {
  for (std::uint32_t i = 0; i < c.disc.count(); ++i) {
    const DirEntry e = c.disc.entry(i);
    const std::string* name = c.names.find(e.hash);
    if (name == nullptr || !ends_with_ci(*name, "_sec.mem")) continue;
    auto bytes = c.disc.entry_bytes(e);
    if (!bytes || classify_entry(*bytes) != EntryKind::world_manifest) continue;
    const std::string world = name->substr(0, name->size() - 8);
    const std::string label = entry_label(e, c.names);
    auto w32 = [&](std::uint64_t at) { return records::u32_at(*bytes, at).value_or(0); };  // K5 sized it
    const std::uint32_t parts = w32(8);
    auto size_of = [&](const std::string& n) -> std::optional<std::uint32_t> {
      auto f = c.disc.find(name_hash(n));
      return f ? std::optional<std::uint32_t>(f->size) : std::nullopt;
    };
    if (auto s = size_of(world + "_sec.wld"); s && *s != w32(0))
      out.warning(make_error(kFormat, label, e.offset, fmt::format("V19: worldSize {} but {}_sec.wld is {} bytes", w32(0), world, *s)));
    for (std::uint32_t k = 1; k <= parts; ++k)
      if (auto s = size_of(fmt::format("{}_ms{}.sec", world, k)); s && *s != w32(4 + 8 * k))
        out.warning(make_error(kFormat, label, e.offset + 4 + 8 * k,
                               fmt::format("V19: part {} size {} but {}_ms{}.sec is {} bytes", k, w32(4 + 8 * k), world, k, *s)));
    for (std::uint32_t k = parts + 1, misses = 0; misses < 2; ++k) {  // V20: parts above partCount
      auto f = c.disc.find(name_hash(fmt::format("{}_ms{}.sec", world, k)));
      if (!f) {
        ++misses;
        continue;
      }
      misses = 0;
      out.note(make_error(kFormat, entry_label(*f, c.names), f->offset,
                          fmt::format("V20: world part {} is above the manifest's partCount {}: never loaded", k, parts)));
    }
  }
}

void verify_entry(const DiscRefs& c, const DirEntry& e, const HandlerTable& table, Diagnostics& out) {
  const std::string label = entry_label(e, c.names);
  auto bytes = c.disc.entry_bytes(e);
  if (!bytes) return;  // D5 already reported
  const std::string* name = c.names.find(e.hash);
  const EntryKind kind = c.kinds[e.index];
  auto err = [&](std::string m) { out.error(make_error(kFormat, label, e.offset, std::move(m))); };
  auto warn = [&](std::string m) { out.warning(make_error(kFormat, label, e.offset, std::move(m))); };
  const bool marker = records::has_package_marker(*bytes);
  if (name) {
    const auto expected = kind_from_name(*name);
    if (expected && *expected != kind) {
      if (*expected == EntryKind::resource) err(fmt::format("V2: named {} but not an exact resource ({})", *name, to_string(kind)));
      else if (*expected == EntryKind::pack) err(fmt::format("V1: named {} but not an exact pack: {}", *name, check_exact_pack(*bytes).why));
      else warn(fmt::format("V21: named {} but its structure is {}", *name, to_string(kind)));
    }
  }
  if (name && kind != EntryKind::world_part && ends_with_ci(*name, ".sec") && classify_entry(*bytes) == EntryKind::world_part)
    warn(fmt::format("V18: world part header hash {:08x} is not crc32(\"{}\")", records::u32_at(*bytes, 12).value_or(0), *name));
  if (marker && kind != EntryKind::pack && !(name && kind_from_name(*name) == EntryKind::pack))
    err("V1: carries the pack marker but is not an exact pack: " + check_exact_pack(*bytes).why);
  if (!is_container(kind)) return;
  LoadOptions lo;
  lo.shape = kind == EntryKind::pack ? ContainerShape::grouped : ContainerShape::flat;
  LoadResult r = load_container(*bytes, table, lo);
  Diagnostics local = r.diags;
  if (r.error) local.error(*r.error);
  if (name && name->size() > 4 && ends_with_ci(*name, ".lev")) check_level_shape(r, local);
  prefix(out, local, label, e.offset);
}

void verify_disc_ctx(const DiscRefs& c, const ReadOptions& opt, Diagnostics& out) {
  c.disc.validate(out);
  const std::uint32_t n = c.disc.count();
  const HandlerTable table = HandlerTable::standard();
  Progress progress("verify", n, opt.progress);
  // Blocks of entries keep memory bounded by the problems found, not by the disc.
  constexpr std::uint32_t kBlock = 256;
  for (std::uint32_t b = 0; b < n; b += kBlock) {
    const std::uint32_t m = std::min(kBlock, n - b);
    std::vector<Diagnostics> per(m);
    parallel_for(m, thread_count(opt), [&](std::size_t k) {
      verify_entry(c, c.disc.entry(b + static_cast<std::uint32_t>(k)), table, per[k]);
      progress.advance();
    });
    for (auto& d : per) out.append(d);
  }
  progress.finish();
  verify_worlds(c, out);
}

}  // namespace

void verify_disc(const Disc& disc, const NameTable& names, std::span<const EntryKind> kinds, const ReadOptions& opt,
                 Diagnostics& out) {
  verify_disc_ctx(DiscRefs{disc, names, kinds}, opt, out);
}

void verify_chunks(const Input& in, Diagnostics& out) {
  LoadResult r = load_container(in.bytes, HandlerTable::standard());
  out.append(r.diags);
  if (r.error) out.error(*r.error);
}

void verify_input(const Input& in, const Siblings& siblings, const ReadOptions& opt, Diagnostics& out) {
  if (!looks_like_disc(in)) return verify_chunks(in, out);
  auto c = open_disc(in, siblings, opt);
  if (!c) return out.error(c.error());
  verify_disc(c->disc, c->names, classify_entries(c->disc, c->names, opt.threads), opt, out);
}

}  // namespace assay::warriors
