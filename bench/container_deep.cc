// Container model: verify --deep over an igArchive of N and 4N igz files (docs/PERFORMANCE.md
// "## container"). The archive is opened once and every inner file is read from the parsed
// Container, so the time per inner file should not grow with N: printed as the ratio of the
// time per inner file at 4N to that at N (1.0 = linear; the old per-file re-open gave ~2.2).
// Run: build/<dir>/bench/bench_container_deep [--benchmark_min_time=0.2]
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdio>

#include "assay/container.h"
#include "assay/formats/igarchive/writer.h"
#include "assay/formats/igz/writer.h"

namespace {

using namespace assay;

ByteBuffer archive_of(std::uint32_t files) {
  std::vector<igarchive::WriterFile> v;
  const igz::Layout layouts[] = {{9, Endian::big, 9}, {8, Endian::little, 8}};
  for (std::uint32_t i = 0; i < files; ++i)
    v.push_back({.name = fmt::format("objects/file_{:05}.igz", i), .data = *igz::build_sample(layouts[i % 2], 8, 1024)});
  return *igarchive::write_archive(v, {});
}

double deep_seconds(const ByteBuffer& a, unsigned threads) {
  const auto t0 = std::chrono::steady_clock::now();
  auto c = open(Input::from_buffer("deep.bld", a));
  Diagnostics d;
  verify_deep(**c, d, DeepOptions{1, threads, false});
  benchmark::DoNotOptimize(d.items().size());
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void BM_DeepVerify(benchmark::State& state) {
  const ByteBuffer a = archive_of(static_cast<std::uint32_t>(state.range(0)));
  for (auto _ : state) deep_seconds(a, 1);
  state.counters["per_file_us"] = benchmark::Counter(static_cast<double>(state.range(0)) * state.iterations(),
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_DeepVerify)->Arg(500)->Arg(2000)->Unit(benchmark::kMillisecond);

// The baseline the Container replaced, kept here only: the straightforward way, re-opening
// (re-parsing) the archive for every inner file, then verifying that file with its own family.
// Each re-open parses every table of the archive, so the time per inner file grows with N.
double reopen_deep_seconds(const ByteBuffer& a) {
  const auto t0 = std::chrono::steady_clock::now();
  const Input in = Input::from_buffer("deep.bld", a);
  ContainerOptions co;
  co.threads = 1;
  std::vector<std::string> names;
  if (auto outer = open(in, co))
    for (const Entry& e : (*outer)->entries())
      if (e.name) names.push_back(*e.name);
  Diagnostics d;
  for (const std::string& name : names) {
    auto c = open(in, co);  // the whole archive again
    if (!c) continue;
    const Entry* e = (*c)->find(name);
    if (e == nullptr) continue;
    if (auto inner = (*c)->open(*e)) (*inner)->verify(d);
  }
  benchmark::DoNotOptimize(d.items().size());
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The ratio, measured in this run (best of 5 each, one thread).
void print_ratio() {
  const std::uint32_t n = 500;
  const ByteBuffer a1 = archive_of(n), a4 = archive_of(4 * n);
  double t1 = 1e9, t4 = 1e9;
  for (int i = 0; i < 5; ++i) t1 = std::min(t1, deep_seconds(a1, 1)), t4 = std::min(t4, deep_seconds(a4, 1));
  std::printf("RATIO verify_deep time per inner file, %u vs %u igz (1 thread): %.1f us vs %.1f us: %.2fx (1.00 = linear)\n",
              4 * n, n, t4 / (4 * n) * 1e6, t1 / n * 1e6, (t4 / (4 * n)) / (t1 / n));
  double o1 = 1e9, o4 = 1e9;
  for (int i = 0; i < 2; ++i) o1 = std::min(o1, reopen_deep_seconds(a1)), o4 = std::min(o4, reopen_deep_seconds(a4));
  std::printf("RATIO baseline (archive re-opened per inner file), same archives: %.1f us vs %.1f us: %.2fx; "
              "Container at %u files is %.1fx faster\n",
              o4 / (4 * n) * 1e6, o1 / n * 1e6, (o4 / (4 * n)) / (o1 / n), 4 * n, o4 / t4);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  print_ratio();
  benchmark::Shutdown();
  return 0;
}
