#include "assay/core/thread_pool.h"

#include <atomic>
#include <memory>
#include <system_error>
#include <utility>

#ifdef __linux__
#include <pthread.h>
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

// A worker of run_workers, started on a CPU other than its creator's when its affinity allows one
// (the thread is created with that CPU left out of its mask, then takes the whole mask back: it
// stays where it started, its affinity unchanged). Left to itself, Linux sometimes places a new
// thread on its busy creator's CPU, where it waits for a tick before it first runs, and balances
// the two only later: on the 2-vCPU machines of docs/PERFORMANCE.md#oni, half the runs of
// `oni check` lost 1.5-4 ms so (a worker's first job starting late, then both on one CPU).
class WorkerThread {
 public:
  WorkerThread(const std::function<void(unsigned)>& body, unsigned w) : body_(body), w_(w) {
#ifdef __linux__
    pthread_attr_t attr;
    if (const int rc = pthread_attr_init(&attr); rc != 0) throw std::system_error(rc, std::generic_category(), "pthread_attr_init");
    const int creator = sched_getcpu();
    if (creator >= 0 && sched_getaffinity(0, sizeof all_, &all_) == 0) {
      cpu_set_t others = all_;
      CPU_CLR(creator, &others);
      narrowed_ = CPU_COUNT(&others) > 0 && pthread_attr_setaffinity_np(&attr, sizeof others, &others) == 0;
    }
    const int rc = pthread_create(&thread_, &attr, &WorkerThread::start, this);
    pthread_attr_destroy(&attr);
    if (rc != 0) throw std::system_error(rc, std::generic_category(), "pthread_create");
#else
    thread_ = std::thread([this] { body_(w_); });
#endif
  }
  WorkerThread(const WorkerThread&) = delete;
  WorkerThread& operator=(const WorkerThread&) = delete;
  void join() {
#ifdef __linux__
    pthread_join(thread_, nullptr);
#else
    thread_.join();
#endif
  }

 private:
#ifdef __linux__
  static void* start(void* self) {
    auto* t = static_cast<WorkerThread*>(self);
    if (t->narrowed_) sched_setaffinity(0, sizeof t->all_, &t->all_);
    t->body_(t->w_);
    return nullptr;
  }
  pthread_t thread_{};
  cpu_set_t all_{};
  bool narrowed_ = false;
#else
  std::thread thread_;
#endif
  const std::function<void(unsigned)>& body_;
  unsigned w_;
};

}  // namespace

void run_workers(unsigned workers, const std::function<void(unsigned)>& body) {
  std::mutex mu;
  std::exception_ptr error;
  const std::function<void(unsigned)> guarded = [&](unsigned w) {
    try {
      body(w);
    } catch (...) {
      std::lock_guard lk(mu);
      if (!error) error = std::current_exception();
    }
  };
  std::vector<std::unique_ptr<WorkerThread>> ts;  // stable addresses: each thread reads its own
  ts.reserve(workers > 1 ? workers - 1 : 0);
  try {
    for (unsigned w = 1; w < workers; ++w) ts.push_back(std::make_unique<WorkerThread>(guarded, w));
  } catch (...) {
    for (auto& t : ts) t->join();  // the workers started finish the work; then the failure
    throw;
  }
  guarded(0);
  for (auto& t : ts) t->join();
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
