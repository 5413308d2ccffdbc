// Texel decode benchmarks (issue 11 item 2: DXT blocks and D3D texels read through records):
// assay's image::decode_blocks / decode_pixels against libsquish's DecompressImage and a plain
// reference loop, on the same 512 x 512 levels, in the same run. Printed after the table:
//   ratio = baseline time / assay time (> 1: assay is faster; compare the ratio across commits).
// Run: nice build/<dir>/bench/bench_dxt_decode  (docs/PERFORMANCE.md "## renderware")
#include <benchmark/benchmark.h>
#include <squish.h>

#include <cstdio>
#include <random>

#include "assay/image/dxt.h"
#include "ratio_reporter.h"

namespace {

using namespace assay;
constexpr std::uint32_t kSide = 512;

// Random block bytes: every colour mode, alpha mode and index pattern occurs.
const ByteBuffer& blocks(std::size_t block_bytes) {
  static ByteBuffer b8, b16;
  ByteBuffer& b = block_bytes == 8 ? b8 : b16;
  if (b.empty()) {
    std::mt19937 rng(11);
    b.resize(std::size_t{kSide / 4} * (kSide / 4) * block_bytes);
    for (auto& v : b) v = static_cast<std::uint8_t>(rng());
  }
  return b;
}

void assay_blocks(benchmark::State& st, image::BlockFormat f, std::size_t bb) {
  const ByteBuffer& b = blocks(bb);
  for (auto _ : st) {
    auto img = image::decode_blocks(f, b, kSide, kSide);
    benchmark::DoNotOptimize(img->pixels.data());
  }
}

void squish_blocks(benchmark::State& st, int flags, std::size_t bb) {
  const ByteBuffer& b = blocks(bb);
  for (auto _ : st) {
    ByteBuffer out(std::size_t{kSide} * kSide * 4);  // a fresh image per level, as assay returns one
    squish::DecompressImage(out.data(), kSide, kSide, b.data(), flags);
    benchmark::DoNotOptimize(out.data());
  }
}

void BM_AssayBc1(benchmark::State& st) { assay_blocks(st, image::BlockFormat::bc1, 8); }
void BM_SquishBc1(benchmark::State& st) { squish_blocks(st, squish::kDxt1, 8); }
void BM_AssayBc2(benchmark::State& st) { assay_blocks(st, image::BlockFormat::bc2, 16); }
void BM_SquishBc2(benchmark::State& st) { squish_blocks(st, squish::kDxt3, 16); }
void BM_AssayBc3(benchmark::State& st) { assay_blocks(st, image::BlockFormat::bc3, 16); }
void BM_SquishBc3(benchmark::State& st) { squish_blocks(st, squish::kDxt5, 16); }

// 16-bit R5G6B5 texels: assay against a plain loop of the spec's expansion (#rw-6-4).
const ByteBuffer& texels565() {
  static const ByteBuffer b = [] {
    std::mt19937 rng(5);
    ByteBuffer v(std::size_t{kSide} * kSide * 2);
    for (auto& x : v) x = static_cast<std::uint8_t>(rng());
    return v;
  }();
  return b;
}

void BM_AssayR5G6B5(benchmark::State& st) {
  for (auto _ : st) {
    auto img = image::decode_pixels(image::PixelFormat::r5g6b5, texels565(), kSide, kSide);
    benchmark::DoNotOptimize(img->pixels.data());
  }
}

void BM_ReferenceR5G6B5(benchmark::State& st) {
  const ByteBuffer& b = texels565();
  for (auto _ : st) {
    ByteBuffer out(std::size_t{kSide} * kSide * 4);
    for (std::size_t i = 0; i < std::size_t{kSide} * kSide; ++i) {
      const std::uint32_t v = b[2 * i] | std::uint32_t{b[2 * i + 1]} << 8;
      const std::uint32_t r = v >> 11, g = (v >> 5) & 63, bl = v & 31;
      out[4 * i] = static_cast<std::uint8_t>((r << 3) | (r >> 2));
      out[4 * i + 1] = static_cast<std::uint8_t>((g << 2) | (g >> 4));
      out[4 * i + 2] = static_cast<std::uint8_t>((bl << 3) | (bl >> 2));
      out[4 * i + 3] = 255;
    }
    benchmark::DoNotOptimize(out.data());
  }
}

BENCHMARK(BM_AssayBc1)->Unit(benchmark::kMillisecond)->MinTime(0.5);
BENCHMARK(BM_SquishBc1)->Unit(benchmark::kMillisecond)->MinTime(0.5);
BENCHMARK(BM_AssayBc2)->Unit(benchmark::kMillisecond)->MinTime(0.5);
BENCHMARK(BM_SquishBc2)->Unit(benchmark::kMillisecond)->MinTime(0.5);
BENCHMARK(BM_AssayBc3)->Unit(benchmark::kMillisecond)->MinTime(0.5);
BENCHMARK(BM_SquishBc3)->Unit(benchmark::kMillisecond)->MinTime(0.5);
BENCHMARK(BM_AssayR5G6B5)->Unit(benchmark::kMillisecond)->MinTime(0.5);
BENCHMARK(BM_ReferenceR5G6B5)->Unit(benchmark::kMillisecond)->MinTime(0.5);

}  // namespace

int main(int argc, char** argv) {
  return assay::bench::run_with_ratios(argc, argv, [](const assay::bench::RatioReporter& r) {
    auto ratio = [&](const char* what, const char* base, const char* ours) {
      if (r.time(base) > 0 && r.time(ours) > 0)
        std::printf("ratio %s: %s / %s = %.2fx (> 1: assay faster)\n", what, base, ours, r.time(base) / r.time(ours));
    };
    ratio("BC1 decode", "BM_SquishBc1", "BM_AssayBc1");
    ratio("BC2 decode", "BM_SquishBc2", "BM_AssayBc2");
    ratio("BC3 decode", "BM_SquishBc3", "BM_AssayBc3");
    ratio("R5G6B5 decode", "BM_ReferenceR5G6B5", "BM_AssayR5G6B5");
  });
}
