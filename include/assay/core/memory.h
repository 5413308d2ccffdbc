// One memory budget for the whole process (`--max-memory`, docs/cli.md#memory): every decode of
// a whole inner file takes a lease of its size first, so threads together never hold more than
// the limit in decoded inner files. A request that does not fit waits for other
// threads' leases to go; one larger than the whole limit, or one made by a thread that already
// holds a lease (it could wait for itself), fails at once with an error naming the budget.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string_view>
#include <thread>

#include "assay/core/error.h"

namespace assay {

inline constexpr std::uint64_t kDefaultMaxMemory = std::uint64_t{1} << 30;  // 1 GiB

class MemoryBudget;

// Bytes held against a budget until destruction.
class MemoryLease {
 public:
  MemoryLease() = default;
  MemoryLease(MemoryLease&& o) noexcept;
  MemoryLease& operator=(MemoryLease&& o) noexcept;
  MemoryLease(const MemoryLease&) = delete;
  MemoryLease& operator=(const MemoryLease&) = delete;
  ~MemoryLease();
  [[nodiscard]] std::uint64_t bytes() const noexcept { return bytes_; }

 private:
  friend class MemoryBudget;
  void release() noexcept;
  MemoryBudget* budget_ = nullptr;
  std::uint64_t bytes_ = 0;
  std::thread::id owner_;
};

class MemoryBudget {
 public:
  explicit MemoryBudget(std::uint64_t limit = kDefaultMaxMemory) : limit_(limit) {}
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;

  // The budget every decode of an inner file uses (set once by the CLI's --max-memory).
  static MemoryBudget& process();

  void set_limit(std::uint64_t bytes);
  [[nodiscard]] std::uint64_t limit() const;
  [[nodiscard]] std::uint64_t in_use() const;
  [[nodiscard]] std::uint64_t peak() const;  // the most ever held at once

  // A lease of `bytes` for `what` (named in the error).
  Result<MemoryLease> acquire(std::uint64_t bytes, std::string_view what);

 private:
  friend class MemoryLease;
  void give_back(std::uint64_t bytes, std::thread::id owner) noexcept;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::uint64_t limit_, in_use_ = 0, peak_ = 0;
};

}  // namespace assay
