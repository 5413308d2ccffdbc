// Link resolution and the level-set check (spec: oni.md#oni-7; seed: TMrLevel_Load 0x4217d0).
#include "assay/formats/oni/level_set.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <system_error>

#include "assay/core/hash.h"
#include "assay/core/progress.h"
#include "assay/core/thread_pool.h"
#include "check_reuse.h"

namespace assay::oni {

static std::uint64_t name_key(std::string_view s) { return std::hash<std::string_view>{}(s); }

// The name index is open addressing over pairs of u32: the key's high half (a tag that settles most
// probes without touching the name), then descriptor + 1 (0: empty slot).
void index_names(LoadedFile& g) {
  g.name_index.clear();
  if (!g.opened || g.file.is_oni()) return;
  const std::uint32_t m = g.file.name_count();
  std::size_t cap = 16;
  while (cap < std::size_t(m) * 2) cap *= 2;
  std::vector<std::uint32_t> table(2 * cap, 0);
  std::string_view prev;
  for (std::uint32_t k = 0; k < m; ++k) {
    const std::uint32_t idx = g.file.name_entry_index(k);
    // An entry out of range or out of order: the engine's binary search could miss names, so keep it.
    if (idx >= g.names.size() || (k > 0 && prev.compare(g.names[idx]) >= 0)) return;
    prev = g.names[idx];
    const std::uint64_t key = name_key(prev);
    std::size_t at = key & (cap - 1);
    while (table[2 * at + 1] != 0) at = (at + 1) & (cap - 1);
    table[2 * at] = static_cast<std::uint32_t>(key >> 32);
    table[2 * at + 1] = idx + 1;
  }
  g.name_index = std::move(table);
}

// The name directory's lookup (spec: oni.md#oni-3-8): the hash index when index_names built one
// (same answers: the directory is sorted and duplicate-free), else its binary search.
static std::optional<std::uint32_t> find_name(const LoadedFile& g, std::string_view name) {
  if (!g.name_index.empty()) {
    const std::size_t mask = g.name_index.size() / 2 - 1;
    const std::uint64_t key = name_key(name);
    const auto tag = static_cast<std::uint32_t>(key >> 32);
    for (std::size_t at = key & mask; g.name_index[2 * at + 1] != 0; at = (at + 1) & mask) {
      const std::uint32_t idx = g.name_index[2 * at + 1] - 1;
      if (g.name_index[2 * at] == tag && g.names[idx] == name) return idx;
    }
    return std::nullopt;
  }
  std::uint32_t lo = 0, hi = g.file.name_count();
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    const std::uint32_t idx = g.file.name_entry_index(mid);
    if (idx >= g.names.size()) return std::nullopt;
    const int c = g.names[idx].compare(name);
    if (c == 0) return idx;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return std::nullopt;
}

// The handle of loaded[slot]'s target t by the rules of spec oni.md#oni-7-1.
static std::uint32_t resolve_target(const std::vector<const LoadedFile*>& loaded, std::size_t slot, std::uint32_t t) {
  const LoadedFile& f = *loaded[slot];
  // Rule 1: an unnamed target is that instance.
  if (f.file.descriptor(t).unnamed()) return static_cast<std::uint32_t>(slot << 24) | t;
  // Rule 2: the first loaded file with data for the name, passing over placeholders.
  const std::string_view name = f.names[t];
  for (std::size_t s = 0; s < loaded.size(); ++s) {
    const LoadedFile& g = *loaded[s];
    if (!g.opened || g.file.is_oni()) continue;
    if (s == slot) {  // the link's own file: its directory entry for the name is the target itself
      if (f.has_data[t]) return static_cast<std::uint32_t>(s << 24) | t;
      continue;
    }
    if (auto idx = find_name(g, name); idx && g.has_data[*idx]) return static_cast<std::uint32_t>(s << 24) | *idx;
  }
  return kUnresolved;  // rule 4: no data anywhere leaves the field 0
}

namespace {

// Each named target's handle, looked up once however many links point at it (issue 12 item 5).
struct TargetCache {
  static constexpr std::uint32_t kNotYet = 0xFFFFFFFDu;
  std::vector<std::uint32_t>& by_target;  // the caller's, so that its pages serve file after file
  TargetCache(std::vector<std::uint32_t>& v, std::size_t n) : by_target(v) { by_target.assign(n, kNotYet); }
  std::uint32_t handle(const std::vector<const LoadedFile*>& loaded, std::size_t slot, const Link& l) {
    if (l.bad) return kBadHandle;
    std::uint32_t& h = by_target[l.target];
    if (h == kNotYet) h = resolve_target(loaded, slot, l.target);
    return h;
  }
};

}  // namespace

std::vector<std::uint32_t> resolve_links(const std::vector<const LoadedFile*>& loaded, std::size_t slot) {
  const LoadedFile& f = *loaded[slot];
  std::vector<std::uint32_t> out(f.links.size(), kBadHandle);
  std::vector<std::uint32_t> targets;
  TargetCache cache(targets, f.names.size());
  for (std::size_t k = 0; k < f.links.size(); ++k) out[k] = cache.handle(loaded, slot, f.links[k]);
  return out;
}

std::vector<std::filesystem::path> level_files_in(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string n = e.path().filename().string();
    if (!e.is_regular_file(ec) || n.rfind("level", 0) != 0 || n.size() < 4 || n.substr(n.size() - 4) != ".dat") continue;
    if (is_tools_file(n)) continue;
    out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

namespace {

// Load order within a level: Final first, then names in byte order (spec: oni.md#oni-7-2).
bool load_before(const std::filesystem::path& a, const std::filesystem::path& b) {
  const std::string na = a.filename().string(), nb = b.filename().string();
  const bool fa = parse_level_file_name(na) && parse_level_file_name(na)->final;
  const bool fb = parse_level_file_name(nb) && parse_level_file_name(nb)->final;
  if (fa != fb) return fa;
  return na < nb;
}

// FNV-1a 32 taken a whole u32 at a time (docs/cli.md, `oni check`): one multiply per value.
struct Hasher {
  std::uint32_t h = kFnv1aBasis;
  void u32(std::uint32_t v) { h = (h ^ v) * kFnv1aPrime; }
};

// What one file's links contribute: its walk hash (docs/cli.md, `oni check`) and counts, its links
// resolved in its own load (spec: oni.md#oni-7-1) in the same pass.
struct FileTally {
  std::uint32_t hash = 0;
  std::uint64_t unresolved = 0, into_base = 0;  // into_base: into loaded[0, base_slots)
};

FileTally tally_file(const std::vector<const LoadedFile*>& loaded, std::size_t slot, std::size_t base_slots,
                     std::vector<std::uint32_t>& targets) {
  const LoadedFile& f = *loaded[slot];
  TargetCache cache(targets, f.names.size());
  FileTally t;
  Hasher hs;
  hs.u32(f.file_id());
  for (const WalkedInstance& w : f.walked) {
    hs.u32(w.index);
    hs.u32(f.file.descriptor(w.index).tag);
    hs.u32(w.end);
    hs.u32(w.link_count);
    for (std::uint32_t k = w.first_link; k < w.first_link + w.link_count; ++k) {
      const std::uint32_t h = cache.handle(loaded, slot, f.links[k]);
      hs.u32(f.links[k].offset);
      if (h == kUnresolved) {
        hs.u32(0), hs.u32(0);
        ++t.unresolved;
      } else if (h == kBadHandle) {
        hs.u32(0xFFFFFFFF), hs.u32(0xFFFFFFFF);
      } else {
        hs.u32(loaded[h >> 24]->file_id()), hs.u32(h & 0xFFFFFF);
        t.into_base += (h >> 24) < base_slots;
      }
    }
  }
  t.hash = hs.h;
  return t;
}

// What one level contributes to the report, computed on its own (levels run in parallel).
struct LevelResult {
  LevelCounts c;
  std::vector<std::uint32_t> file_hashes;  // load order
  std::uint64_t instances = 0, links = 0;  // this level's files only
  Diagnostics diags;
  std::optional<Error> fatal;
};

struct LevelJob {
  unsigned level;
  std::vector<std::filesystem::path> paths;  // load order
};

// Resolves, counts and hashes the files loaded[first_slot...] (level 0 first when first_slot > 0).
void count_level(LevelResult& r, const std::vector<const LoadedFile*>& loaded, std::size_t first_slot, bool is0,
                 std::vector<std::uint32_t>& targets) {
  LevelCounts& c = r.c;
  if (!is0) c.into_level0 = 0;
  for (std::size_t s = first_slot; s < loaded.size(); ++s) {
    const LoadedFile& f = *loaded[s];
    c.files.push_back(f.display);
    if (f.opened) {
      c.instances += f.file.instance_count();
      for (std::uint32_t i = 0; i < f.file.instance_count(); ++i) c.placeholders += f.file.descriptor(i).placeholder();
    }
    const FileTally t = tally_file(loaded, s, first_slot, targets);
    const std::uint64_t unresolved = t.unresolved;
    if (!is0) *c.into_level0 += t.into_base;
    if (unresolved) {
      Error e = make_error(kFormat, "links", kNoOffset, fmt::format("{} links unresolved (no loaded file has data for the name)", unresolved));
      e.file = f.display;
      r.diags.warning(e);
    }
    c.links += f.links.size();
    c.unresolved += unresolved;
    r.file_hashes.push_back(t.hash);
    r.instances += f.opened ? f.file.instance_count() : 0;
    r.links += f.links.size();
    c.problems += f.diags.count(Severity::error);
  }
}

std::vector<std::unique_ptr<LoadedFile>> load_level(const LevelJob& job, const LayoutSource& layouts, Progress& bar, unsigned threads) {
  std::vector<std::unique_ptr<LoadedFile>> files(job.paths.size());
  parallel_for(files.size(), threads, [&](std::size_t k) {
    files[k] = load_file(job.paths[k], layouts);
    bar.advance();
  });
  return files;
}

// Loads, resolves, counts and hashes one level with `base` (level 0's files) loaded first; the
// level's own files are released when done, their vectors kept in `pool` for the worker's next level.
void run_level(LevelResult& r, const LevelJob& job, const std::vector<const LoadedFile*>& base, const LayoutSource& layouts,
               Progress& bar, std::vector<detail::FileBuffers>& pool) {
  r.c.level = job.level;
  if (pool.size() < job.paths.size()) pool.resize(job.paths.size());
  std::vector<std::unique_ptr<LoadedFile>> files;
  for (std::size_t k = 0; k < job.paths.size(); ++k) {
    files.push_back(detail::load_file_reusing(job.paths[k], layouts, pool[k]));
    bar.advance();
  }
  std::vector<const LoadedFile*> loaded = base;
  for (const auto& f : files) loaded.push_back(f.get());
  if (loaded.size() > 255) {  // handles hold the slot in 8 bits
    r.fatal = make_error(kFormat, "level set", kNoOffset, fmt::format("level {}: {} files loaded at once (at most 255)", job.level, loaded.size()));
    return;
  }
  count_level(r, loaded, base.size(), false, pool[0].targets);
  for (std::size_t k = 0; k < files.size(); ++k) {
    r.diags.append(files[k]->diags);
    pool[k].take_from(*files[k]);
  }
}

// Groups the check's files by level (collisions: spec oni.md#oni-2-2); load order within a level.
std::vector<LevelJob> group_levels(const std::vector<std::filesystem::path>& files, CheckReport& rep, std::map<unsigned, std::uint64_t>& set_errors) {
  std::map<unsigned, std::vector<std::filesystem::path>> by_level;
  std::map<unsigned, std::map<std::uint32_t, std::string>> ids;
  for (const auto& p : files) {
    const std::string n = p.filename().string();
    auto ln = parse_level_file_name(n);
    if (!ln) {
      rep.diags.error(ln.error());
      continue;
    }
    auto [it, fresh] = ids[ln->level].emplace(ln->file_id, n);
    if (!fresh) {
      Error e = make_error(kFormat, "file name", kNoOffset, fmt::format("file id 0x{:08x} collides with {} (\"Conflicting file indices\")", ln->file_id, it->second));
      e.file = n;
      rep.diags.error(e);
      ++set_errors[ln->level];
      continue;
    }
    by_level[ln->level].push_back(p);
  }
  std::vector<LevelJob> jobs;
  for (auto& [lev, ps] : by_level) {
    std::sort(ps.begin(), ps.end(), load_before);
    if (!parse_level_file_name(ps[0].filename().string())->final)
      rep.diags.warning(make_error(kFormat, "", kNoOffset, fmt::format("level {} has no level{}_Final.dat (not playable)", lev, lev)));
    jobs.push_back({lev, std::move(ps)});
  }
  return jobs;
}

Result<std::vector<std::filesystem::path>> input_files(const std::vector<std::filesystem::path>& inputs, CheckReport& rep) {
  std::vector<std::filesystem::path> files;
  for (const auto& in : inputs) {
    std::error_code ec;
    if (std::filesystem::is_directory(in, ec)) {
      for (auto& p : level_files_in(in)) files.push_back(p);
    } else if (!std::filesystem::exists(in, ec)) {
      return io_error(in.string(), "no such file or folder");
    } else if (is_tools_file(in.filename().string())) {
      rep.diags.note(make_error(kFormat, "", kNoOffset, fmt::format("{}: a tools file, skipped as the engine does", in.filename().string())));
    } else {
      files.push_back(in);
    }
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  std::stable_sort(files.begin(), files.end(), load_before);  // a collision names the Final file first
  if (files.empty()) return usage_error("no level<N>_<suffix>.dat files to check");
  return files;
}

// Jobs [first, n) with the largest levels (bytes on disk) handed out first, so that the workers
// finish together; the report keeps level order.
std::vector<std::size_t> largest_first(const std::vector<LevelJob>& jobs, std::size_t first) {
  std::vector<std::pair<std::uintmax_t, std::size_t>> by_size;
  for (std::size_t k = first; k < jobs.size(); ++k) {
    std::uintmax_t bytes = 0;
    for (const auto& p : jobs[k].paths) {
      std::error_code ec;
      const auto n = std::filesystem::file_size(p, ec);
      if (!ec) bytes += n;
    }
    by_size.emplace_back(bytes, k);
  }
  std::stable_sort(by_size.begin(), by_size.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::size_t> order;
  for (const auto& [bytes, k] : by_size) order.push_back(k);
  return order;
}

}  // namespace

Result<CheckReport> check_level_set(const std::vector<std::filesystem::path>& inputs, const LayoutSource& layouts, unsigned threads,
                                    bool progress) {
  CheckReport rep;
  ASSAY_TRY(auto files, input_files(inputs, rep));
  std::map<unsigned, std::uint64_t> set_errors;
  const std::vector<LevelJob> jobs = group_levels(files, rep, set_errors);
  if (jobs.empty()) return rep;
  const bool have0 = jobs[0].level == 0;
  if (!have0) rep.diags.warning(make_error(kFormat, "", kNoOffset, "no level 0 file: the other levels are linked without it"));
  const unsigned nthreads = threads == 0 ? default_threads() : threads;
  Progress bar("oni check", files.size(), progress);
  // Level 0 first (every other level links into it), kept loaded, its names indexed once; then the
  // other levels in parallel, each loading, resolving and hashing its own files (spec: oni.md#oni-7-3).
  std::vector<LevelResult> results(jobs.size());
  std::vector<std::unique_ptr<LoadedFile>> level0;
  std::vector<const LoadedFile*> base;
  if (have0) {
    level0 = load_level(jobs[0], layouts, bar, nthreads);
    for (const auto& f : level0) base.push_back(f.get());
    results[0].c.level = 0;
    if (base.size() > 255) return make_error(kFormat, "level set", kNoOffset, fmt::format("level 0: {} files loaded at once (at most 255)", base.size()));
    std::vector<std::uint32_t> targets;
    count_level(results[0], base, 0, true, targets);
    for (const auto& f : level0) {
      results[0].diags.append(f->diags);
      index_names(*f);
    }
  }
  const std::vector<std::size_t> order = largest_first(jobs, have0 ? 1 : 0);
  parallel_for_state(
      order.size(), nthreads, [] { return std::vector<detail::FileBuffers>{}; },
      [&](std::vector<detail::FileBuffers>& pool, std::size_t k) { run_level(results[order[k]], jobs[order[k]], base, layouts, bar, pool); });
  bar.finish();
  Hasher hs;
  std::uint64_t base_links = 0, base_unresolved = 0;
  for (std::size_t gi = 0; gi < results.size(); ++gi) {
    LevelResult& r = results[gi];
    if (r.fatal) return *r.fatal;
    LevelCounts& c = r.c;
    c.problems += set_errors[c.level];
    if (have0 && gi == 0) {
      base_links = c.links;
      base_unresolved = c.unresolved;
    } else {
      c.links += base_links;  // the loaded set: level 0's walk included (spec: oni.md#oni-7-3)
      c.unresolved += base_unresolved;
    }
    for (std::uint32_t fh : r.file_hashes) hs.u32(fh);
    rep.instances += r.instances;
    rep.links += r.links;
    rep.diags.append(r.diags);
    rep.levels.push_back(std::move(c));
  }
  rep.hash = hs.h;
  return rep;
}

}  // namespace assay::oni
