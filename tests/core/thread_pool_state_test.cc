// parallel_for_state: per-worker state and early stop (include/assay/core/thread_pool.h).
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#ifdef __linux__
#include <sched.h>
#endif

#include "assay/core/thread_pool.h"

namespace assay {
namespace {

TEST(WorkerCount, BoundedByItemsAndAtLeastOne) {
  EXPECT_EQ(worker_count(0, 4), 1u);
  EXPECT_EQ(worker_count(3, 8), 3u);
  EXPECT_EQ(worker_count(100, 2), 2u);
  EXPECT_EQ(worker_count(100, 1), 1u);
  EXPECT_GE(worker_count(100, 0), 1u);
}

TEST(ParallelForState, OneStatePerWorkerCoveringEveryItemOnce) {
  struct State {
    std::thread::id owner = std::this_thread::get_id();
    std::size_t items = 0;
  };
  std::atomic<int> made{0};
  std::vector<std::atomic<int>> hits(1000);
  std::mutex mu;
  std::size_t total = 0;
  std::set<std::thread::id> owners;
  parallel_for_state(hits.size(), 3,
                     [&] {
                       ++made;
                       return State{};
                     },
                     [&](State& s, std::size_t i) {
                       EXPECT_EQ(s.owner, std::this_thread::get_id());  // made on the worker's own thread
                       ++hits[i];
                       if (++s.items == 1) {
                         std::lock_guard lk(mu);
                         owners.insert(s.owner);
                       }
                       (void)total;
                     });
  EXPECT_LE(made.load(), 3);
  EXPECT_GE(made.load(), 1);
  for (auto& h : hits) EXPECT_EQ(h.load(), 1);
  EXPECT_LE(owners.size(), 3u);
}

TEST(ParallelForState, FalseStopsTheHandingOut) {
  std::size_t seen = 0;
  parallel_for_state(1000, 1, [] { return 0; }, [&](int&, std::size_t i) {
    ++seen;
    return i != 10;  // stop after item 10
  });
  EXPECT_EQ(seen, 11u);  // one worker, in order: items 0..10
  std::atomic<std::size_t> seen2{0};
  parallel_for_state(100000, 2, [] { return 0; }, [&](int&, std::size_t) {
    ++seen2;
    return false;
  });
  EXPECT_LE(seen2.load(), 2u);  // each worker runs at most its first item
}

TEST(ParallelForState, NoItemsNoState) {
  int made = 0;
  parallel_for_state(0, 4, [&] { return ++made; }, [](int&, std::size_t) {});
  EXPECT_EQ(made, 0);
}

TEST(ParallelForState, ExceptionReachesTheCaller) {
  EXPECT_THROW(parallel_for_state(50, 2, [] { return 0; },
                                  [](int&, std::size_t i) {
                                    if (i == 7) throw std::runtime_error("x");
                                  }),
               std::runtime_error);
}

// run_workers starts each worker away from its creator's CPU when the affinity allows one, then
// gives it the creator's whole mask back: the workers are distinct threads and end with the same
// affinity as the caller (thread_pool.cc, WorkerThread).
TEST(RunWorkers, WorkersAreOwnThreadsWithTheCallersAffinity) {
  std::mutex mu;
  std::set<std::thread::id> ids;
  std::vector<bool> same_mask(4, false);
#ifdef __linux__
  cpu_set_t caller;
  ASSERT_EQ(sched_getaffinity(0, sizeof caller, &caller), 0);
#endif
  run_workers(4, [&](unsigned w) {
    std::lock_guard lk(mu);
    ids.insert(std::this_thread::get_id());
#ifdef __linux__
    cpu_set_t mine;
    same_mask[w] = sched_getaffinity(0, sizeof mine, &mine) == 0 && CPU_EQUAL(&mine, &caller);
#else
    same_mask[w] = true;
#endif
  });
  EXPECT_EQ(ids.size(), 4u);
  EXPECT_TRUE(ids.count(std::this_thread::get_id()));  // worker 0 is the caller
  for (unsigned w = 0; w < 4; ++w) EXPECT_TRUE(same_mask[w]) << w;
}

}  // namespace
}  // namespace assay
