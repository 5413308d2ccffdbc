#include "assay/core/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

#include "assay/core/interrupt.h"

namespace assay {

bool Progress::stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

Progress::Progress(std::string label, std::uint64_t total, bool enabled)
    : label_(std::move(label)), total_(total), enabled_(enabled) {}

Progress::~Progress() { finish(); }

void Progress::advance(std::uint64_t n) {
  done_ += n;
  if (enabled_) draw(false);
}

void Progress::finish() {
  std::lock_guard lk(mu_);
  if (!enabled_ || finished_) return;
  finished_ = true;
  std::fputs("\r\033[K", stderr);
  note_progress_line(false);
}

ProgressFn Progress::reporter() {
  if (!enabled_) return {};
  return [this](std::uint64_t n, std::string_view item) {
    if (!item.empty()) set_current(std::string(item));
    advance(n);
  };
}

void Progress::set_current(std::string item) {
  std::lock_guard lk(mu_);
  current_ = std::move(item);
}

namespace {
std::string amount(double v, bool bytes) {
  if (!bytes) return fmt::format("{:.0f}", v);
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  return u == 0 ? fmt::format("{:.0f} B", v) : fmt::format("{:.1f} {}", v, units[u]);
}
}  // namespace

void Progress::draw(bool force) {
  std::lock_guard lk(mu_);
  if (finished_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  const std::uint64_t d = done_.load();
  const double secs = std::chrono::duration<double>(now - start_).count();
  std::string line = fmt::format("{}: ", label_);
  if (total_ != 0) line += fmt::format("{}% ", std::min<std::uint64_t>(100, d * 100 / total_));
  line += total_ != 0 ? fmt::format("{}/{}", amount(double(d), bytes_), amount(double(total_), bytes_)) : amount(double(d), bytes_);
  if (secs > 0.5 && d > 0) {
    const double rate = double(d) / secs;
    line += fmt::format(" {}/s", amount(rate, bytes_));
    if (total_ > d) line += fmt::format(" ETA {:.0f}s", double(total_ - d) / rate);
  }
  if (!current_.empty()) line += "  " + current_;
  if (line.size() > 110) line = line.substr(0, 107) + "...";
  std::fputs(("\r" + line + "\033[K").c_str(), stderr);
  std::fflush(stderr);
  note_progress_line(true);  // an interruption clears it (core/interrupt.h)
}

}  // namespace assay
