#include "assay/core/thread_pool.h"

#include <atomic>
#include <utility>

#ifdef __linux__
#include <sched.h>
#endif

namespace assay {

unsigned default_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

ThreadPool::ThreadPool(unsigned threads) {
  if (threads == 0) threads = default_threads();
  workers_.reserve(threads);
  for (unsigned i = 0; i < threads; ++i) workers_.emplace_back([this] { run(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lk(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::submit(std::function<void()> job) {
  {
    std::lock_guard lk(mu_);
    jobs_.push(std::move(job));
    ++pending_;
  }
  cv_.notify_one();
}

void ThreadPool::wait() {
  std::unique_lock lk(mu_);
  done_cv_.wait(lk, [this] { return pending_ == 0; });
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void ThreadPool::run() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lk(mu_);
      cv_.wait(lk, [this] { return stop_ || !jobs_.empty(); });
      if (jobs_.empty()) return;
      job = std::move(jobs_.front());
      jobs_.pop();
    }
    std::exception_ptr err;
    try {
      job();
    } catch (...) {
      err = std::current_exception();
    }
    {
      std::lock_guard lk(mu_);
      if (err && !error_) error_ = err;
      if (--pending_ == 0) done_cv_.notify_all();
    }
  }
}

unsigned worker_count(std::size_t n, unsigned threads) {
  if (threads == 0) threads = default_threads();
  if (threads > n) threads = static_cast<unsigned>(n);
  return threads == 0 ? 1 : threads;
}

namespace {

// Called by each new worker first: a worker that starts on the CPU of the thread that created it
// moves to another CPU it may run on (the mask with that CPU removed, then the whole mask again:
// the move sticks, the affinity is unchanged). Linux sometimes places a new thread beside its busy
// creator and balances only at a later tick; on the 2-vCPU machines of docs/PERFORMANCE.md#oni half
// the runs of `oni check` kept both workers on one CPU for 4 ms slices, a third more wall time.
void leave_creator_cpu([[maybe_unused]] int creator) {
#ifdef __linux__
  cpu_set_t all;
  if (creator < 0 || sched_getcpu() != creator || sched_getaffinity(0, sizeof all, &all) != 0) return;
  cpu_set_t others = all;
  CPU_CLR(creator, &others);
  if (CPU_COUNT(&others) == 0 || sched_setaffinity(0, sizeof others, &others) != 0) return;
  sched_setaffinity(0, sizeof all, &all);
#endif
}

int current_cpu() {
#ifdef __linux__
  return sched_getcpu();
#else
  return -1;
#endif
}

}  // namespace

void run_workers(unsigned workers, const std::function<void(unsigned)>& body) {
  std::mutex mu;
  std::exception_ptr error;
  auto guarded = [&](unsigned w) {
    try {
      body(w);
    } catch (...) {
      std::lock_guard lk(mu);
      if (!error) error = std::current_exception();
    }
  };
  std::vector<std::thread> ts;
  ts.reserve(workers > 1 ? workers - 1 : 0);
  const int creator = current_cpu();
  for (unsigned w = 1; w < workers; ++w)
    ts.emplace_back([&guarded, w, creator] {
      leave_creator_cpu(creator);
      guarded(w);
    });
  guarded(0);
  for (auto& t : ts) t.join();
  if (error) std::rethrow_exception(error);
}

void parallel_for(std::size_t n, unsigned threads, const std::function<void(std::size_t)>& fn) {
  const unsigned workers = worker_count(n, threads);
  if (workers <= 1) {
    for (std::size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  std::atomic<std::size_t> next{0};
  run_workers(workers, [&](unsigned) {
    try {
      for (std::size_t i; (i = next.fetch_add(1)) < n;) fn(i);
    } catch (...) {
      next.store(n);  // hand out nothing more
      throw;
    }
  });
}

}  // namespace assay
