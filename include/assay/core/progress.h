// Progress on stderr, only when stderr is a terminal and not --quiet. Thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace assay {

class Progress {
 public:
  Progress(std::string label, std::uint64_t total, bool enabled);
  ~Progress();
  void advance(std::uint64_t n = 1);
  void finish();
  static bool stderr_is_terminal();

 private:
  void draw(bool force);
  std::string label_;
  std::uint64_t total_;
  std::atomic<std::uint64_t> done_{0};
  bool enabled_;
  bool finished_ = false;
  std::mutex mu_;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace assay
