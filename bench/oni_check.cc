// `oni check` in-process against reading the files' bytes once (issue 12 item 5), on the level set
// bench/oni_check_bench.py generates (its own minimal writer). No process start-up on either side:
// the ratio is the check's own cost over the floor of reading the bytes.
//   python3 bench/oni_check_bench.py build/<dir>/assay /tmp/oni-bench   (makes the set; prints the CLI ratios)
//   ASSAY_ONI_BENCH_DIR=/tmp/oni-bench build/<dir>/bench/bench_oni_check
// The read baseline is what a competent reader writes: each file read whole with read(2) into a
// buffer sized by fstat, a fresh buffer per file (as a loader keeping every file would).
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <vector>

#include "assay/core/thread_pool.h"
#include "assay/formats/oni/level_set.h"
#include "assay/formats/oni/oni.h"
#include "ratio_reporter.h"

namespace {

using namespace assay;

std::filesystem::path bench_dir() {
  const char* d = std::getenv("ASSAY_ONI_BENCH_DIR");
  return d != nullptr ? d : "/tmp/oni-bench";
}

std::size_t read_whole(const std::filesystem::path& p) {
  const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  struct stat st {};
  ::fstat(fd, &st);
  auto buf = std::make_unique_for_overwrite<std::uint8_t[]>(static_cast<std::size_t>(st.st_size));
  std::size_t got = 0;
  for (ssize_t r; got < static_cast<std::size_t>(st.st_size) && (r = ::read(fd, buf.get() + got, st.st_size - got)) > 0;) got += r;
  ::close(fd);
  benchmark::DoNotOptimize(buf.get());
  return got;
}

void BM_ReadBytesOnce(benchmark::State& st) {
  const auto files = oni::level_files_in(bench_dir());
  std::size_t bytes = 0;
  for (auto _ : st) {
    bytes = 0;
    for (const auto& p : files) bytes += read_whole(p);
  }
  st.SetBytesProcessed(static_cast<std::int64_t>(bytes) * st.iterations());
}

void BM_OniCheck(benchmark::State& st) {
  const std::filesystem::path dir = bench_dir();
  auto layouts = oni::layouts_for({}, dir, nullptr);  // oni-layouts.txt beside the set
  if (!layouts) {
    st.SkipWithError("no level set: run bench/oni_check_bench.py first (ASSAY_ONI_BENCH_DIR)");
    return;
  }
  const auto threads = static_cast<unsigned>(st.range(0));
  for (auto _ : st) {
    auto rep = oni::check_level_set({dir}, *layouts, threads, false);
    if (!rep || rep->links == 0) {
      st.SkipWithError("check failed");
      return;
    }
    benchmark::DoNotOptimize(rep->hash);
  }
}

BENCHMARK(BM_ReadBytesOnce)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_OniCheck)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  return assay::bench::run_with_ratios(argc, argv, [](const assay::bench::RatioReporter& r) {
    const double read = r.time("BM_ReadBytesOnce"), one = r.time("BM_OniCheck/1"), all = r.time("BM_OniCheck/0");
    if (read > 0 && one > 0 && all > 0)
      std::printf("oni check / read the bytes once (wall): %.2fx (1 thread), %.2fx (%u threads)\n", one / read, all / read,
                  assay::default_threads());
  });
}
