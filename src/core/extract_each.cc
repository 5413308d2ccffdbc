#include "assay/core/extract_each.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <numeric>

#include "assay/core/glob.h"
#include "assay/core/progress.h"
#include "assay/core/thread_pool.h"

namespace assay {

namespace {

// The item's name or one of its aliases matches glob g ('/' and '\\' alike; case folded with opt).
bool matches(std::string_view g, const ExtractItem& item, GlobOptions opt) {
  if (glob_match(g, item.name, opt)) return true;
  return std::any_of(item.aliases.begin(), item.aliases.end(), [&](const std::string& a) { return glob_match(g, a, opt); });
}

bool matches_any(const std::vector<std::string>& globs, const ExtractItem& item, GlobOptions opt) {
  return std::any_of(globs.begin(), globs.end(), [&](const std::string& g) { return matches(g, item, opt); });
}

// True when `item`'s first file is already there (--skip-existing).
bool already_written(const ExtractItem& item, const OutputDir& dir) {
  if (item.path.empty()) return false;
  auto target = dir.prepare(item.path);
  std::error_code ec;
  return target && std::filesystem::exists(*target, ec);
}

struct Run {
  std::span<const ExtractItem> items;
  const WriteItem& write;
  const ExtractPolicy& policy;
  const OutputDir& dir;
  Progress& progress;
  ExtractReport report;
  std::vector<std::pair<std::size_t, ExtractFailure>> failed;
  std::mutex mu;
  std::atomic<bool> stop{false};

  void one(std::size_t i, unsigned threads) {
    if (stop) return;
    const ExtractItem& item = items[i];
    if (policy.skip_existing && already_written(item, dir)) {
      progress.advance(item.size);
      std::lock_guard lk(mu);
      ++report.skipped;
      return;
    }
    progress.set_current(item.path.empty() ? item.name : item.path);
    auto r = write(i, dir, threads);
    progress.advance(item.size);
    std::lock_guard lk(mu);
    if (!r) {
      failed.push_back({i, ExtractFailure{item.name, r.error()}});
      if (policy.stop_on_error) stop = true;
      return;
    }
    report.files += r->files;
    report.bytes += r->bytes;
  }
};

// Small items in parallel batches (bounded memory); a large one alone, its blocks on all cores.
// A batch under kSmallBatch runs on this thread: starting workers costs more than its work (70
// PS2 HUD textures, 56 KB: the same wall time on one thread or two, 30% less CPU on one).
void run_batches(Run& run, const std::vector<std::size_t>& chosen, unsigned threads) {
  constexpr std::uint64_t kBatchBytes = 64u << 20, kLarge = 16u << 20, kSmallBatch = 64u << 10;
  auto size_of = [&](std::size_t k) { return run.items[chosen[k]].size; };
  std::size_t i = 0;
  while (i < chosen.size() && !run.stop) {
    std::size_t j = i;
    std::uint64_t batch = 0;
    while (j < chosen.size() && (j == i || batch + size_of(j) <= kBatchBytes) && size_of(j) < kLarge) batch += size_of(j++);
    // --stop-on-error promises nothing after the failing item in order is written: one at a time
    if (j == i || run.policy.stop_on_error) {
      run.one(chosen[i++], threads);
      continue;
    }
    // Largest first, so the last to start are small and the workers finish together
    // (docs/PERFORMANCE.md, "igz textures to PNG"). Only the start order changes: failures are
    // reported in item order.
    std::vector<std::size_t> order(j - i);
    std::iota(order.begin(), order.end(), i);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return size_of(a) > size_of(b); });
    parallel_for(order.size(), batch < kSmallBatch ? 1 : threads, [&](std::size_t k) { run.one(chosen[order[k]], 1); });
    i = j;
  }
}

}  // namespace

std::vector<std::size_t> select_items(std::span<const ExtractItem> items, const ExtractPolicy& policy,
                                      std::vector<std::string>* unmatched) {
  const GlobOptions opt{policy.fold_case};
  std::vector<std::uint8_t> take(items.size(), policy.globs.empty() ? 1 : 0);
  for (const std::string& g : policy.globs) {
    bool any = false;
    if (policy.find && !has_glob_chars(g))
      if (auto k = policy.find(g); k && *k < items.size()) take[*k] = 1, any = true;
    for (std::size_t k = 0; k < items.size(); ++k)
      if (matches(g, items[k], opt)) take[k] = 1, any = true;
    if (!any && unmatched != nullptr) unmatched->push_back(g);
  }
  std::vector<std::size_t> chosen;
  for (std::size_t k = 0; k < items.size(); ++k)
    if (take[k] && (policy.excludes.empty() || !matches_any(policy.excludes, items[k], opt))) chosen.push_back(k);
  return chosen;
}

ExtractReport extract_each(std::span<const ExtractItem> items, const WriteItem& write, const ExtractPolicy& policy,
                           const OutputDir& dir) {
  std::vector<std::string> unmatched;
  const std::vector<std::size_t> chosen = select_items(items, policy, &unmatched);
  std::uint64_t total = 0;
  for (std::size_t k : chosen) total += items[k].size;
  Progress progress("extract", total, policy.progress);
  progress.set_bytes();
  Run run{items, write, policy, dir, progress};
  run_batches(run, chosen, policy.threads == 0 ? default_threads() : policy.threads);
  progress.finish();
  std::sort(run.failed.begin(), run.failed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [k, f] : run.failed) run.report.failed.push_back(std::move(f));
  run.report.selected = chosen.size();
  run.report.unmatched = std::move(unmatched);
  return std::move(run.report);
}

}  // namespace assay
