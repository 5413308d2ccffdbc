// igz performance (docs/PERFORMANCE.md#igz), figures printed as ratios measured in one run:
//  1. verify --deep over a synthetic igArchive of 2,000 igz files (the Container's verify_deep,
//     the archive opened once), 2 threads vs 1 thread;
//  2. decoding the fixups of one igz vs decompressing it from its archive (LZMA).
// `bench_igz --write-archive=PATH` writes the 2,000-file archive for the CLI-level run
// (bench/igz_deep.sh).
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cstring>
#include <fstream>
#include <ctime>
#include <map>
#include <mutex>
#include <thread>

#include "assay/container.h"
#include "assay/core/thread_pool.h"
#include "assay/options.h"
#include "assay/formats/igarchive/archive.h"
#include "assay/formats/igarchive/writer.h"
#include "assay/formats/igz/graph.h"
#include "assay/formats/igz/writer.h"
#include "ratio_reporter.h"

namespace {

using namespace assay;

constexpr std::uint32_t kFiles = 2000;

// 2,000 igz of every version/byte order, 24 objects and 8 KiB of payload each, LZMA.
const ByteBuffer& deep_archive() {
  static const ByteBuffer archive = [] {
    std::vector<igarchive::WriterFile> files;
    const igz::Layout layouts[] = {{9, Endian::big, 9}, {8, Endian::little, 8}, {7, Endian::big, 9},
                                   {10, Endian::little, 1}};
    for (std::uint32_t i = 0; i < kFiles; ++i) {
      auto b = igz::build_sample(layouts[i % 4], 24, 8192);
      files.push_back({.name = fmt::format("objects/file_{:04}.igz", i), .data = std::move(*b)});
    }
    igarchive::WriterOptions o;
    o.version = 0x0B;
    o.endian = Endian::big;
    return *igarchive::write_archive(files, o);
  }();
  return archive;
}

// A model-like igz (18 objects, ~200 KiB of vertex-like payload, as igModelTool_model.igz).
const ByteBuffer& one_igz() {
  static const ByteBuffer b = *igz::build_sample({9, Endian::big, 9}, 16, 200 * 1024);
  return b;
}

void BM_DeepVerify(benchmark::State& state) {
  const ByteBuffer& a = deep_archive();
  const Input in = Input::from_buffer("deep.bld", a);
  const auto threads = static_cast<unsigned>(state.range(0));
  std::size_t problems = 0;
  for (auto _ : state) {
    Diagnostics d;
    auto c = open(in);
    if (c) verify_deep(**c, d, DeepOptions{1, threads, false});
    else d.error(c.error());
    problems = d.count(Severity::error);
    benchmark::DoNotOptimize(problems);
  }
  if (problems != 0) state.SkipWithError("the synthetic archive does not verify");
  state.counters["files"] = kFiles;
}
BENCHMARK(BM_DeepVerify)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

std::map<unsigned, std::pair<double, double>> split_;  // threads -> (total, busiest) CPU ms

// Library level: igz::verify over the same 2,000 igz held in memory (no archive, no LZMA).
const std::vector<ByteBuffer>& many_igz() {
  static const std::vector<ByteBuffer> v = [] {
    std::vector<ByteBuffer> out;
    const igz::Layout layouts[] = {{9, Endian::big, 9}, {8, Endian::little, 8}, {7, Endian::big, 9},
                                   {10, Endian::little, 1}};
    for (std::uint32_t i = 0; i < kFiles; ++i) out.push_back(*igz::build_sample(layouts[i % 4], 24, 8192));
    return out;
  }();
  return v;
}

void BM_VerifyMany(benchmark::State& state) {
  const auto& files = many_igz();
  const unsigned threads = static_cast<unsigned>(state.range(0));
  // CPU time per worker thread: on an oversubscribed machine wall time cannot show the split,
  // but total / busiest-thread CPU is the speedup the work allows on idle cores.
  std::map<std::thread::id, double> cpu;
  std::mutex mu;
  for (auto _ : state) {
    std::vector<std::size_t> errors(files.size());
    parallel_for(files.size(), threads, [&](std::size_t i) {
      timespec a{}, b{};
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
      Diagnostics d;
      igz::verify(files[i], {}, d);
      errors[i] = d.count(Severity::error);
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
      const double ms = (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6;
      std::lock_guard lock(mu);
      cpu[std::this_thread::get_id()] += ms;
    });
    benchmark::DoNotOptimize(errors.data());
  }
  double total = 0, busiest = 0;
  for (const auto& [id, ms] : cpu) total += ms, busiest = std::max(busiest, ms);
  const double n = static_cast<double>(state.iterations());
  state.counters["cpu_total_ms"] = total / n;
  state.counters["cpu_busiest_thread_ms"] = busiest / n;
  split_[threads] = {total / n, busiest / n};
}
BENCHMARK(BM_VerifyMany)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);

void BM_DecodeFixups(benchmark::State& state) {
  const ByteBuffer& b = one_igz();
  for (auto _ : state) {
    auto f = igz::IgzFile::open(b);
    const igz::Fixups fx = igz::decode_fixups(*f, nullptr);
    benchmark::DoNotOptimize(fx.lists.size());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.size()));
}
BENCHMARK(BM_DecodeFixups)->Unit(benchmark::kMicrosecond);

// Fixups plus the object graph and every verify check.
void BM_VerifyOne(benchmark::State& state) {
  const ByteBuffer& b = one_igz();
  for (auto _ : state) {
    Diagnostics d;
    igz::verify(b, {}, d);
    benchmark::DoNotOptimize(d.items().size());
  }
}
BENCHMARK(BM_VerifyOne)->Unit(benchmark::kMicrosecond);

void BM_Decompress(benchmark::State& state) {
  static const ByteBuffer archive = [] {
    std::vector<igarchive::WriterFile> files{{.name = "model.igz", .data = one_igz()}};
    igarchive::WriterOptions o;
    o.version = 0x0B;
    o.endian = Endian::big;
    return *igarchive::write_archive(files, o);
  }();
  auto a = igarchive::Archive::open(archive);
  const auto* f = a->find("model.igz");
  ByteBuffer out;
  for (auto _ : state) {
    auto r = a->read(*f, out, 1);
    benchmark::DoNotOptimize(out.data());
    if (!r) state.SkipWithError("decompression failed");
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * one_igz().size()));
}
BENCHMARK(BM_Decompress)->Unit(benchmark::kMicrosecond);

// The ratios, from the same run.
void print_ratios(const bench::RatioReporter& r) {
  auto t = [&](std::string_view p) { return r.time(p); };
  auto cpu = [&](std::string_view p) { return r.cpu(p); };
  const double t1 = t("BM_DeepVerify/1/");
  const double t2 = t("BM_DeepVerify/2/");
  if (t1 > 0 && t2 > 0)
    std::printf("RATIO deep verify of %u igz, 1 thread / 2 threads: %.2fx (%.1f ms vs %.1f ms)\n",
                kFiles, t1 / t2, t1, t2);
  const double m1 = t("BM_VerifyMany/1/"), m2 = t("BM_VerifyMany/2/");
  if (m1 > 0 && m2 > 0)
    std::printf("RATIO igz::verify of %u in-memory igz, 1 thread / 2 threads: %.2fx (%.1f ms vs %.1f ms)\n",
                kFiles, m1 / m2, m1, m2);
  if (split_.count(1) && split_.count(2))
    std::printf("RATIO igz::verify of %u in-memory igz, CPU split over 2 threads: 1-thread CPU / "
                "busiest-thread CPU = %.2fx (%.1f ms / %.1f ms; 2-thread total %.1f ms)\n",
                kFiles, split_[1].first / split_[2].second, split_[1].first, split_[2].second,
                split_[2].first);
  // single-threaded work: CPU time, so that other load on the machine does not skew it
  const double dec = cpu("BM_DecodeFixups"), unz = cpu("BM_Decompress"), ver = cpu("BM_VerifyOne");
  if (dec > 0 && unz > 0 && ver > 0)
    std::printf("RATIO one %zu-byte igz (CPU time): decompress / decode fixups: %.0fx (%.1f us vs "
                "%.2f us); decompress / full verify: %.0fx (%.1f us)\n",
                one_igz().size(), unz / dec, unz, dec, unz / ver, ver);
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--write-archive=", 16) == 0) {
      const ByteBuffer& a = deep_archive();
      std::ofstream(argv[i] + 16, std::ios::binary).write(reinterpret_cast<const char*>(a.data()),
                                                          static_cast<std::streamsize>(a.size()));
      std::printf("wrote %s (%zu bytes, %u igz)\n", argv[i] + 16, a.size(), kFiles);
      return 0;
    }
  return assay::bench::run_with_ratios(argc, argv, print_ratios);
}
