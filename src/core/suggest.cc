// A name that matches nothing gets "did you mean", as verbs do (core/suggest.h).
#include "assay/core/suggest.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace assay {

std::string closest_word(std::string_view word, const std::vector<std::string>& known) {
  auto distance = [](std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
      std::size_t diag = row[0];
      row[0] = i;
      for (std::size_t j = 1; j <= b.size(); ++j) {
        const std::size_t up = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
        diag = up;
      }
    }
    return row[b.size()];
  };
  std::string best;
  std::size_t best_d = 3;
  for (const auto& k : known) {
    // Words whose lengths differ by 3 or more are at least that far apart (unless a prefix).
    const bool prefix = word.size() >= 2 && k.size() > word.size() && k.compare(0, word.size(), word) == 0;
    if (!prefix && (k.size() > word.size() + 2 || word.size() > k.size() + 2)) continue;
    std::size_t d = distance(word, k);
    if (prefix) d = std::min<std::size_t>(d, 1);
    if (d < best_d && d < std::max<std::size_t>(word.size(), 2)) best = k, best_d = d;
  }
  return best;
}

namespace {

// Longer literal runs are not looked for inside names (bounded work on the error path).
constexpr std::size_t kMaxRun = 32;
constexpr std::size_t kMaxWindows = 100000;

std::string with_slashes(std::string_view s) {
  std::string out(s);
  std::replace(out.begin(), out.end(), '\\', '/');
  return out;
}

std::vector<std::string> split_parts(std::string_view s) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t slash = s.find('/', start);
    parts.emplace_back(s.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    if (slash == std::string_view::npos) return parts;
    start = slash + 1;
  }
}

std::string join_parts(const std::vector<std::string>& parts) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? "/" : "") + parts[i];
  return out;
}

struct Run {
  std::size_t pos = 0, len = 0;
};

// The literal runs of a normalised glob: between `*`, `?`, `[...]` and `/`.
std::vector<Run> literal_runs(std::string_view p) {
  std::vector<Run> runs;
  std::size_t start = 0, i = 0;
  auto close = [&](std::size_t end) {
    if (end > start) runs.push_back({start, end - start});
  };
  while (i < p.size()) {
    const char c = p[i];
    if (c == '*' || c == '?' || c == '/') {
      close(i);
      start = ++i;
    } else if (c == '[') {  // fnmatch: `!`/`^` may lead, and a `]` right after is literal
      close(i);
      std::size_t j = i + 1;
      if (j < p.size() && (p[j] == '!' || p[j] == '^')) ++j;
      if (j < p.size() && p[j] == ']') ++j;
      const std::size_t end = p.find(']', j);
      start = i = end == std::string_view::npos ? p.size() : end + 1;
    } else {
      ++i;
    }
  }
  close(p.size());
  std::stable_sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.len > b.len; });
  return runs;
}

class Suggester {
 public:
  Suggester(const std::vector<std::string>& spellings, GlobOptions opt) : spellings_(spellings), opt_(opt) {
    for (const std::string& s : spellings) {
      std::string n = glob_normalise(s, opt);
      if (display_.emplace(n, with_slashes(s)).second) normalised_.push_back(std::move(n));
    }
  }

  [[nodiscard]] bool selects(const std::string& glob) const {
    return std::any_of(spellings_.begin(), spellings_.end(), [&](const std::string& s) { return glob_match(glob, s, opt_); });
  }

  std::string name(std::string_view selector) const {
    const std::string folded = glob_normalise(selector, GlobOptions{true});
    for (const std::string& s : spellings_)
      if (glob_normalise(s, GlobOptions{true}) == folded) return with_slashes(s);
    const std::string best = closest_word(glob_normalise(selector, opt_), normalised_);
    return best.empty() ? best : display_.at(best);
  }

  std::string glob(std::string_view selector) const {
    const std::string p = glob_normalise(selector, opt_);
    if (std::string s = by_part(p); !s.empty()) return s;
    for (const Run& r : literal_runs(p)) {
      if (r.len < 2 || r.len > kMaxRun) continue;
      const std::string run = p.substr(r.pos, r.len);
      const std::string best = closest_word(run, windows(r.len));
      if (best.empty() || best == run) continue;
      std::string cand = p;
      cand.replace(r.pos, r.len, best);
      if (selects(cand)) return cand;
    }
    return {};
  }

 private:
  // One literal `/`-part replaced by the closest folder or file name of any spelling.
  std::string by_part(const std::string& p) const {
    std::vector<std::string> parts = split_parts(p);
    std::vector<std::string> known;
    std::unordered_set<std::string> seen;
    for (const std::string& n : normalised_)
      for (std::string& part : split_parts(n))
        if (seen.insert(part).second) known.push_back(std::move(part));
    for (std::string& part : parts) {
      if (part.empty() || has_glob_chars(part)) continue;
      const std::string best = closest_word(part, known);
      if (best.empty() || best == part) continue;
      const std::string keep = std::exchange(part, best);
      if (std::string cand = join_parts(parts); selects(cand)) return cand;
      part = keep;
    }
    return {};
  }

  // Every substring of the spellings of len, len-1 or len+1 characters (in that order, so a tie
  // goes to the same length) without a `/`.
  std::vector<std::string> windows(std::size_t len) const {
    std::vector<std::string> out;
    std::unordered_set<std::string> seen;
    for (const std::size_t w : {len, len - 1, len + 1})
      for (const std::string& n : normalised_)
        for (std::size_t i = 0; w > 0 && i + w <= n.size(); ++i) {
          std::string s = n.substr(i, w);
          if (s.find('/') != std::string::npos || !seen.insert(s).second) continue;
          out.push_back(std::move(s));
          if (out.size() >= kMaxWindows) return out;
        }
    return out;
  }

  const std::vector<std::string>& spellings_;
  GlobOptions opt_;
  std::vector<std::string> normalised_;                    // distinct, in order
  std::unordered_map<std::string, std::string> display_;  // normalised -> as shown
};

}  // namespace

std::string suggest_selector(std::string_view selector, const std::vector<std::string>& spellings, GlobOptions opt) {
  if (selector.empty() || spellings.empty()) return {};
  const Suggester s(spellings, opt);
  return has_glob_chars(selector) ? s.glob(selector) : s.name(selector);
}

}  // namespace assay
