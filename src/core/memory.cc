#include "assay/core/memory.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace assay {

namespace {
thread_local unsigned leases_held = 0;  // by the current thread (a holder never waits)
}  // namespace

MemoryLease::MemoryLease(MemoryLease&& o) noexcept
    : budget_(std::exchange(o.budget_, nullptr)), bytes_(std::exchange(o.bytes_, 0)), owner_(o.owner_) {}

MemoryLease& MemoryLease::operator=(MemoryLease&& o) noexcept {
  if (this != &o) {
    release();
    budget_ = std::exchange(o.budget_, nullptr);
    bytes_ = std::exchange(o.bytes_, 0);
    owner_ = o.owner_;
  }
  return *this;
}

MemoryLease::~MemoryLease() { release(); }

void MemoryLease::release() noexcept {
  if (budget_ != nullptr) budget_->give_back(bytes_, owner_);
  budget_ = nullptr;
  bytes_ = 0;
}

MemoryBudget& MemoryBudget::process() {
  static MemoryBudget budget;  // the one process-wide budget the issue asks for (--max-memory)
  return budget;
}

void MemoryBudget::set_limit(std::uint64_t bytes) {
  {
    std::lock_guard lk(mu_);
    limit_ = bytes;
  }
  cv_.notify_all();
}

std::uint64_t MemoryBudget::limit() const {
  std::lock_guard lk(mu_);
  return limit_;
}

std::uint64_t MemoryBudget::in_use() const {
  std::lock_guard lk(mu_);
  return in_use_;
}

std::uint64_t MemoryBudget::peak() const {
  std::lock_guard lk(mu_);
  return peak_;
}

Result<MemoryLease> MemoryBudget::acquire(std::uint64_t bytes, std::string_view what) {
  std::unique_lock lk(mu_);
  auto fits = [&] { return bytes <= limit_ - std::min(limit_, in_use_); };
  auto refuse = [&](std::string_view why) {
    Error e = make_error("", "memory budget", kNoOffset,
                         fmt::format("{} needs {} bytes; the memory budget is {} bytes ({} in use{}); raise it with "
                                     "--max-memory",
                                     what, bytes, limit_, in_use_, why));
    e.kind = ErrorKind::io;
    return e.with_code("memory-budget");
  };
  if (bytes > limit_) return refuse("");
  if (!fits()) {
    if (leases_held > 0) return refuse(", partly by this same task");
    cv_.wait(lk, [&] { return fits() || bytes > limit_; });
    if (bytes > limit_) return refuse("");
  }
  in_use_ += bytes;
  peak_ = std::max(peak_, in_use_);
  ++leases_held;
  MemoryLease l;
  l.budget_ = this;
  l.bytes_ = bytes;
  l.owner_ = std::this_thread::get_id();
  return l;
}

void MemoryBudget::give_back(std::uint64_t bytes, std::thread::id owner) noexcept {
  {
    std::lock_guard lk(mu_);
    in_use_ -= std::min(in_use_, bytes);
  }
  if (owner == std::this_thread::get_id() && leases_held > 0) --leases_held;
  cv_.notify_all();
}

}  // namespace assay
