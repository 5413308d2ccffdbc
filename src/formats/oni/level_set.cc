// Link resolution and the level-set check (spec: oni.md#oni-7; seed: TMrLevel_Load 0x4217d0).
#include "assay/formats/oni/level_set.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <system_error>

#include "assay/core/hash.h"
#include "assay/core/progress.h"
#include "assay/core/thread_pool.h"

namespace assay::oni {

// The name directory's binary search (spec: oni.md#oni-3-8) over the names load_file kept.
static std::optional<std::uint32_t> find_name(const LoadedFile& g, std::string_view name) {
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

std::vector<std::uint32_t> resolve_links(const std::vector<const LoadedFile*>& loaded, std::size_t slot) {
  const LoadedFile& f = *loaded[slot];
  std::vector<std::uint32_t> out(f.links.size(), kBadHandle);
  // Each named target is looked up once, however many links point at it (issue 12 item 5).
  constexpr std::uint32_t kNotYet = 0xFFFFFFFDu;
  std::vector<std::uint32_t> by_target(f.names.size(), kNotYet);
  for (std::size_t k = 0; k < f.links.size(); ++k) {
    const Link& l = f.links[k];
    if (l.bad) continue;
    // Rule 1: an unnamed target is that instance (spec: oni.md#oni-7-1).
    if (f.file.descriptor(l.target).unnamed()) {
      out[k] = static_cast<std::uint32_t>(slot << 24) | l.target;
      continue;
    }
    if (by_target[l.target] != kNotYet) {
      out[k] = by_target[l.target];
      continue;
    }
    // Rule 2: the first loaded file with data for the name, passing over placeholders.
    const std::string_view name = f.names[l.target];
    std::uint32_t h = kUnresolved;
    for (std::size_t s = 0; s < loaded.size() && h == kUnresolved; ++s) {
      const LoadedFile& g = *loaded[s];
      if (!g.opened || g.file.is_oni()) continue;
      if (s == slot) {  // the link's own file: its directory entry for the name is the target itself
        if (f.has_data[l.target]) h = static_cast<std::uint32_t>(s << 24) | l.target;
        continue;
      }
      if (auto idx = find_name(g, name); idx && g.has_data[*idx]) h = static_cast<std::uint32_t>(s << 24) | *idx;
    }
    out[k] = by_target[l.target] = h;  // rule 4: no data anywhere leaves the field 0
  }
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

struct LevelGroup {
  unsigned level;
  std::vector<std::unique_ptr<LoadedFile>> files;
};

// Load order within a level: Final first, then names in byte order (spec: oni.md#oni-7-2).
bool load_before(const std::filesystem::path& a, const std::filesystem::path& b) {
  const std::string na = a.filename().string(), nb = b.filename().string();
  const bool fa = parse_level_file_name(na) && parse_level_file_name(na)->final;
  const bool fb = parse_level_file_name(nb) && parse_level_file_name(nb)->final;
  if (fa != fb) return fa;
  return na < nb;
}

struct Hasher {
  std::uint32_t h = kFnv1aBasis;
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) h = (h ^ ((v >> (8 * i)) & 0xFF)) * kFnv1aPrime;
  }
};

// The walk hash (docs/cli.md, `oni check`): FNV-1a 32 over little-endian u32s.
void hash_file(Hasher& hs, const LoadedFile& f, const std::vector<const LoadedFile*>& loaded,
               const std::vector<std::uint32_t>& handles) {
  hs.u32(f.file_id());
  for (const WalkedInstance& w : f.walked) {
    hs.u32(w.index);
    hs.u32(f.file.descriptor(w.index).tag);
    hs.u32(w.end);
    hs.u32(w.link_count);
    for (std::uint32_t k = w.first_link; k < w.first_link + w.link_count; ++k) {
      const std::uint32_t h = handles[k];
      hs.u32(f.links[k].offset);
      if (h == kUnresolved) hs.u32(0), hs.u32(0);
      else if (h == kBadHandle) hs.u32(0xFFFFFFFF), hs.u32(0xFFFFFFFF);
      else hs.u32(loaded[h >> 24]->file_id()), hs.u32(h & 0xFFFFFF);
    }
  }
}

std::uint64_t count_errors(const LoadedFile& f) { return f.diags.count(Severity::error); }

}  // namespace

Result<CheckReport> check_level_set(const std::vector<std::filesystem::path>& inputs, const LayoutSource& layouts, unsigned threads,
                                    bool progress) {
  CheckReport rep;
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
  // Group by level; collisions (spec: oni.md#oni-2-2).
  std::map<unsigned, std::vector<std::filesystem::path>> by_level;
  std::map<unsigned, std::map<std::uint32_t, std::string>> ids;
  std::map<unsigned, std::uint64_t> set_errors;
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
  std::vector<LevelGroup> groups;
  std::vector<std::pair<std::size_t, std::filesystem::path>> jobs;
  for (auto& [lev, ps] : by_level) {
    std::sort(ps.begin(), ps.end(), load_before);
    if (!parse_level_file_name(ps[0].filename().string())->final)
      rep.diags.warning(make_error(kFormat, "", kNoOffset, fmt::format("level {} has no level{}_Final.dat (not playable)", lev, lev)));
    groups.push_back({lev, {}});
    groups.back().files.resize(ps.size());
    for (const auto& p : ps) jobs.emplace_back(groups.size() - 1, p);
  }
  if (groups.empty()) return rep;
  if (groups[0].level != 0) rep.diags.warning(make_error(kFormat, "", kNoOffset, "no level 0 file: the other levels are linked without it"));
  // Each file is loaded and walked once, in parallel; results land in fixed slots.
  std::vector<std::unique_ptr<LoadedFile>> loaded_all(jobs.size());
  Progress bar("oni check", jobs.size(), progress);
  parallel_for(jobs.size(), threads == 0 ? default_threads() : threads, [&](std::size_t j) {
    loaded_all[j] = load_file(jobs[j].second, layouts);
    bar.advance();
  });
  bar.finish();
  for (std::size_t j = 0, k = 0; j < jobs.size(); ++j) {
    auto& g = groups[jobs[j].first];
    if (j > 0 && jobs[j].first != jobs[j - 1].first) k = 0;
    g.files[k++] = std::move(loaded_all[j]);
  }
  const bool have0 = groups[0].level == 0;
  std::vector<const LoadedFile*> base;
  if (have0)
    for (auto& f : groups[0].files) base.push_back(f.get());
  Hasher hs;
  std::uint64_t base_links = 0, base_unresolved = 0;
  for (std::size_t gi = 0; gi < groups.size(); ++gi) {
    LevelGroup& g = groups[gi];
    const bool is0 = g.level == 0;
    std::vector<const LoadedFile*> loaded = is0 ? std::vector<const LoadedFile*>{} : base;
    const std::size_t first_slot = loaded.size();
    for (auto& f : g.files) loaded.push_back(f.get());
    if (loaded.size() > 255)  // handles hold the slot in 8 bits
      return make_error(kFormat, "level set", kNoOffset, fmt::format("level {}: {} files loaded at once (at most 255)", g.level, loaded.size()));
    LevelCounts c;
    c.level = g.level;
    if (!is0) c.into_level0 = 0;
    for (std::size_t s = first_slot; s < loaded.size(); ++s) {
      const LoadedFile& f = *loaded[s];
      c.files.push_back(f.display);
      if (f.opened) {
        c.instances += f.file.instance_count();
        for (std::uint32_t i = 0; i < f.file.instance_count(); ++i) c.placeholders += f.file.descriptor(i).placeholder();
      }
      const auto handles = resolve_links(loaded, s);
      std::uint64_t unresolved = 0;
      for (std::uint32_t h : handles) {
        if (h == kUnresolved) ++unresolved;
        else if (!is0 && h != kBadHandle && (h >> 24) < first_slot) ++*c.into_level0;
      }
      if (unresolved) {
        Error e = make_error(kFormat, "links", kNoOffset, fmt::format("{} links unresolved (no loaded file has data for the name)", unresolved));
        e.file = f.display;
        rep.diags.warning(e);
      }
      c.links += f.links.size();
      c.unresolved += unresolved;
      hash_file(hs, f, loaded, handles);
      rep.instances += f.opened ? f.file.instance_count() : 0;
      rep.links += f.links.size();
      c.problems += count_errors(f);
    }
    c.problems += set_errors[g.level];
    if (is0) {
      base_links = c.links;
      base_unresolved = c.unresolved;
    } else {
      c.links += base_links;  // the loaded set: level 0's walk included (spec: oni.md#oni-7-3)
      c.unresolved += base_unresolved;
    }
    rep.levels.push_back(std::move(c));
    for (auto& f : g.files) rep.diags.append(f->diags);
  }
  rep.hash = hs.h;
  return rep;
}

}  // namespace assay::oni
