// The level-set check (spec: oni.md#oni-7; seed: TMrLevel_Load 0x4217d0): every level walked and
// linked with level 0 (links resolved by link_resolution.cc).
#include "assay/formats/oni/level_set.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <latch>
#include <map>
#include <system_error>

#include "assay/core/hash.h"
#include "assay/core/progress.h"
#include "assay/core/thread_pool.h"
#include "check_reuse.h"
#include "link_resolution.h"

namespace assay::oni {

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

// Load order within a level: Final first, then names in byte order (spec: oni.md#oni-7-2); a
// stable sort, each name parsed once (not twice per comparison).
void sort_for_loading(std::vector<std::filesystem::path>& paths) {
  struct Keyed {
    bool not_final;
    std::string name;
    std::filesystem::path path;
  };
  std::vector<Keyed> keyed;
  keyed.reserve(paths.size());
  for (auto& p : paths) {
    std::string n = p.filename().string();
    const auto ln = parse_level_file_name(n);
    keyed.push_back({!(ln && ln->final), std::move(n), std::move(p)});
  }
  std::stable_sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) {
    return a.not_final != b.not_final ? a.not_final < b.not_final : a.name < b.name;
  });
  for (std::size_t k = 0; k < paths.size(); ++k) paths[k] = std::move(keyed[k].path);
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
  LinkTargetCache cache(targets, f.names.size());
  std::array<std::uint32_t, 256> ids{};  // file id per slot (at most 255 slots: handles hold 8 bits)
  for (std::size_t s = 0; s < loaded.size() && s < ids.size(); ++s) ids[s] = loaded[s]->file_id();
  FileTally t;
  Hasher file_hash;
  file_hash.u32(f.file_id());
  for (const WalkedInstance& w : f.walked) {
    // Each instance hashed on its own, then folded into the file's hash: chains of a few steps
    // that the CPU runs side by side instead of one multiply chain through the whole file.
    Hasher hs;
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
        hs.u32(ids[h >> 24]), hs.u32(h & 0xFFFFFF);
        t.into_base += (h >> 24) < base_slots;
      }
    }
    file_hash.u32(hs.h);
  }
  t.hash = file_hash.h;
  return t;
}

// What one level contributes to the report, computed on its own (levels run in parallel).
struct LevelResult {
  LevelCounts c;
  std::vector<std::uint32_t> file_hashes;  // load order
  std::uint64_t instances = 0, links = 0;  // this level's files only
  Diagnostics diags;
  std::optional<Error> fatal;
  // The level's files once counted (their vectors handed to the worker's pool): freed, and their
  // mappings unmapped, only after the workers have joined. An munmap or a heap trim while the
  // other worker runs stops both for a TLB shootdown; on a 2-vCPU VM such a stall measured 1-2 ms.
  std::vector<std::unique_ptr<LoadedFile>> released;
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
      c.placeholders += f.placeholders;
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

// Level 0's files, loaded first by whichever worker takes job 0 and kept: every other level links
// into them. The other levels load their own files meanwhile and wait here only to resolve.
struct Base {
  std::vector<std::unique_ptr<LoadedFile>> files;
  std::vector<const LoadedFile*> loaded;
  std::latch ready{1};
};

// Level 0: loads its files and indexes their names, releases the waiting levels (spec:
// oni.md#oni-7-3: level 0 is always loaded first), then resolves, counts and hashes its own links
// (through the name index too) while they resolve theirs: from here on level 0 is only read.
void run_level0(LevelResult& r, const LevelJob& job, const LayoutSource& layouts, Progress& bar, Base& base,
                std::vector<detail::FileBuffers>& pool) {
  struct Release {
    std::latch& ready;
    bool done = false;
    void now() {
      if (!done) ready.count_down();
      done = true;
    }
    ~Release() { now(); }  // even if loading throws: no level waits forever
  } release{base.ready};
  r.c.level = 0;
  for (const auto& p : job.paths) {
    base.files.push_back(load_file(p, layouts));
    base.loaded.push_back(base.files.back().get());
    bar.advance();
  }
  if (base.loaded.size() > 255) {  // handles hold the slot in 8 bits
    r.fatal = make_error(kFormat, "level set", kNoOffset, fmt::format("level 0: {} files loaded at once (at most 255)", base.loaded.size()));
    base.loaded.clear();
    return;
  }
  for (const auto& f : base.files) index_names(*f);
  release.now();
  if (pool.empty()) pool.resize(1);
  count_level(r, base.loaded, 0, true, pool[0].targets);
  for (const auto& f : base.files) r.diags.append(f->diags);
}

// Level N: loads its files (while level 0 may still be loading), then resolves, counts and hashes
// them with level 0's loaded first; its files are released when done, their vectors kept in
// `pool` for the worker's next level.
void run_level(LevelResult& r, const LevelJob& job, Base& base, const LayoutSource& layouts, Progress& bar,
               std::vector<detail::FileBuffers>& pool) {
  r.c.level = job.level;
  if (pool.size() < job.paths.size()) pool.resize(job.paths.size());
  std::vector<std::unique_ptr<LoadedFile>> files;
  for (std::size_t k = 0; k < job.paths.size(); ++k) {
    files.push_back(detail::load_file_reusing(job.paths[k], layouts, pool[k]));
    bar.advance();
  }
  base.ready.wait();
  std::vector<const LoadedFile*> loaded = base.loaded;
  for (const auto& f : files) loaded.push_back(f.get());
  if (loaded.size() > 255) {  // handles hold the slot in 8 bits
    r.fatal = make_error(kFormat, "level set", kNoOffset, fmt::format("level {}: {} files loaded at once (at most 255)", job.level, loaded.size()));
    return;
  }
  count_level(r, loaded, base.loaded.size(), false, pool[0].targets);
  for (std::size_t k = 0; k < files.size(); ++k) {
    r.diags.append(files[k]->diags);
    pool[k].take_from(*files[k]);
  }
  r.released = std::move(files);
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
    sort_for_loading(ps);
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
  sort_for_loading(files);  // a collision names the Final file first
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
  // One job per level, level 0 first (job 0 is always taken first: no level waits on a job not yet
  // started), then the others largest first; each runs on its own (spec: oni.md#oni-7-3).
  std::vector<LevelResult> results(jobs.size());
  Base base;
  if (!have0) base.ready.count_down();
  std::vector<std::size_t> order = largest_first(jobs, have0 ? 1 : 0);
  if (have0) order.insert(order.begin(), 0);
  // Each worker's pool outlives the workers too (see LevelResult::released): its state is a
  // pointer to one of these, one per worker (each worker makes its state once).
  std::vector<std::vector<detail::FileBuffers>> pools(worker_count(order.size(), nthreads));
  std::atomic<std::size_t> pools_given{0};
  parallel_for_state(
      order.size(), nthreads, [&] { return &pools[pools_given++]; },
      [&](std::vector<detail::FileBuffers>* pool, std::size_t k) {
        const std::size_t j = order[k];
        if (have0 && j == 0) run_level0(results[0], jobs[0], layouts, bar, base, *pool);
        else run_level(results[j], jobs[j], base, layouts, bar, *pool);
      });
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
