// parallel_for_state: per-worker state and early stop (include/assay/core/thread_pool.h).
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

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

}  // namespace
}  // namespace assay
