// Progress on stderr, only when stderr is a terminal and not --quiet. Thread-safe.
// "label: 42% 12.0/28.5 MiB 3.1 MiB/s ETA 5s current-file"
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

namespace assay {

// How a library function reports work done (writers, edits): `n` more units finished, `item` the
// one being worked on ("" to keep the last). May be called from several threads at once.
using ProgressFn = std::function<void(std::uint64_t n, std::string_view item)>;

class Progress {
 public:
  Progress(std::string label, std::uint64_t total, bool enabled);
  ~Progress();
  void advance(std::uint64_t n = 1);
  // The item being worked on (a file name), shown after the figures.
  void set_current(std::string item);
  // Counts are bytes: shown as KiB/MiB/GiB, rate per second.
  void set_bytes(bool bytes = true) { bytes_ = bytes; }
  void finish();
  // This bar as a ProgressFn (empty when disabled, so the library skips the calls).
  [[nodiscard]] ProgressFn reporter();
  static bool stderr_is_terminal();

 private:
  void draw(bool force);
  std::string label_;
  std::uint64_t total_;
  std::atomic<std::uint64_t> done_{0};
  bool enabled_;
  bool finished_ = false;
  bool bytes_ = false;
  std::string current_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex mu_;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace assay
