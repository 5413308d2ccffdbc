// A small fixed thread pool and a parallel_for on top of it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <queue>
#include <thread>
#include <type_traits>
#include <vector>

namespace assay {

unsigned default_threads();  // hardware_concurrency, at least 1

class ThreadPool {
 public:
  explicit ThreadPool(unsigned threads = default_threads());
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  void submit(std::function<void()> job);
  void wait();  // until every submitted job has finished; rethrows the first job's exception
  [[nodiscard]] unsigned size() const noexcept { return static_cast<unsigned>(workers_.size()); }

 private:
  void run();
  std::vector<std::thread> workers_;
  std::queue<std::function<void()>> jobs_;
  std::mutex mu_;
  std::condition_variable cv_, done_cv_;
  std::size_t pending_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;  // the first exception a job threw
};

// Calls fn(i) for i in [0, n) on `threads` threads (1 = inline, in order).
// Indices are handed out dynamically, so uneven work balances. An exception thrown by fn stops
// the handing out and is rethrown on the calling thread after every worker has joined.
void parallel_for(std::size_t n, unsigned threads, const std::function<void(std::size_t)>& fn);

// How many workers parallel_for runs for n items on `threads` (0 = default_threads()): at least 1,
// at most n.
[[nodiscard]] unsigned worker_count(std::size_t n, unsigned threads);

// Runs body(w) for every w in [0, workers) at once, w == 0 on the calling thread. An exception
// thrown by a body is rethrown on the calling thread after every worker has joined.
void run_workers(unsigned workers, const std::function<void(unsigned)>& body);

// parallel_for with per-worker state: each worker calls make() once, on its own thread, and
// passes the result to every fn(state, i) it runs (a codec context reused across blocks, a scratch
// buffer). fn may return bool: false stops the handing out of further indices (the first failure
// of a batch); items already running finish.
template <class Make, class Fn>
void parallel_for_state(std::size_t n, unsigned threads, Make&& make, Fn&& fn) {
  if (n == 0) return;
  std::atomic<std::size_t> next{0};
  run_workers(worker_count(n, threads), [&](unsigned) {
    auto state = make();
    for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < n;) {
      if constexpr (std::is_same_v<decltype(fn(state, i)), bool>) {
        if (!fn(state, i)) {
          next.store(n, std::memory_order_relaxed);
          return;
        }
      } else {
        fn(state, i);
      }
    }
  });
}

}  // namespace assay
