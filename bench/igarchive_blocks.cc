// igArchive block-table resolution (issue 11 item 2: a file's block-table run read as a checked
// BlockRun): Archive::blocks() for every file of a 2,000-file archive of 64 blocks each, against a
// baseline that only walks the same file entries (the per-file work that is not the table).
// Printed after the table: ratio = blocks() time / baseline time (compare it across commits).
// Run: nice build/<dir>/bench/bench_igarchive_blocks  (docs/PERFORMANCE.md "## igarchive")
#include <benchmark/benchmark.h>

#include <cstdio>

#include "assay/formats/igarchive/archive.h"
#include "assay/formats/igarchive/writer.h"
#include "ratio_reporter.h"

namespace {

using namespace assay;
namespace iga = assay::igarchive;

constexpr int kFiles = 2000;
constexpr std::size_t kFileBytes = 64 * 0x8000;  // 64 blocks (the medium table at S = 0x800)

const ByteBuffer& archive_bytes() {
  static const ByteBuffer b = [] {
    std::vector<iga::WriterFile> files;
    const ByteBuffer data(kFileBytes, 0x41);  // compresses to a few bytes a block
    for (int i = 0; i < kFiles; ++i) files.push_back({.name = "f/" + std::to_string(i) + ".igz", .data = data});
    iga::WriterOptions o;
    o.version = 8;
    o.lzma_preset = 0;
    return *iga::write_archive(files, o);
  }();
  return b;
}

void BM_BlocksEveryFile(benchmark::State& st) {
  auto a = iga::Archive::open(archive_bytes());
  for (auto _ : st) {
    std::uint64_t n = 0;
    for (const auto& f : a->files()) n += a->blocks(f)->size();
    benchmark::DoNotOptimize(n);
  }
}

void BM_WalkFilesBaseline(benchmark::State& st) {
  auto a = iga::Archive::open(archive_bytes());
  for (auto _ : st) {
    std::uint64_t n = 0;
    for (const auto& f : a->files()) n += a->data_bound(f) - f.offset + f.num_blocks;
    benchmark::DoNotOptimize(n);
  }
}

BENCHMARK(BM_BlocksEveryFile)->Unit(benchmark::kMillisecond)->MinTime(0.5);
BENCHMARK(BM_WalkFilesBaseline)->Unit(benchmark::kMillisecond)->MinTime(0.5);

}  // namespace

int main(int argc, char** argv) {
  return assay::bench::run_with_ratios(argc, argv, [](const assay::bench::RatioReporter& r) {
    if (r.time("BM_WalkFilesBaseline") > 0)
      std::printf("ratio blocks(): BM_BlocksEveryFile / BM_WalkFilesBaseline = %.2fx\n",
                  r.time("BM_BlocksEveryFile") / r.time("BM_WalkFilesBaseline"));
  });
}
