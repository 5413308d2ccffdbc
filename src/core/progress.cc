#include "assay/core/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

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
}

void Progress::draw(bool force) {
  std::lock_guard lk(mu_);
  if (finished_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  const std::uint64_t d = done_.load();
  std::fputs(fmt::format("\r{}: {}/{}", label_, d, total_).c_str(), stderr);
  std::fflush(stderr);
}

}  // namespace assay
