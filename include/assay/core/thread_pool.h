// A small fixed thread pool and a parallel_for on top of it.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <queue>
#include <thread>
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

}  // namespace assay
