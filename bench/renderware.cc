// RenderWare benchmarks (Google Benchmark), with the ratios printed at the end of the run:
//  - decoding a texture dictionary of 200 PS2 256 x 256 PAL8 textures to RGBA (assay's decoder:
//    row tables + palette LUT) against a plain per-pixel reference loop (the spec's address
//    formula, CSM1 mapping and alpha conversion evaluated for every pixel), megapixels/s;
//  - the walker on streams of 512 raw sections whose payloads are 16 bytes or 128 KiB: the time
//    does not grow with the payload (only headers are read), unlike a pass that reads every byte.
// Run: build/<dir>/bench/bench_renderware  (see docs/PERFORMANCE.md "## renderware")
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <random>

#include "assay/core/hash.h"
#include "assay/formats/renderware/texture.h"
#include "assay/formats/renderware/walker.h"
#include "assay/formats/renderware/writer.h"
#include "assay/image/ps2.h"
#include "ratio_reporter.h"

namespace {

using namespace assay;

constexpr std::uint32_t kTextures = 200, kSide = 256;

const ByteBuffer& dictionary() {
  static const ByteBuffer d = [] {
    std::mt19937 rng(7);
    std::vector<ByteBuffer> natives;
    for (std::uint32_t t = 0; t < kTextures; ++t) {
      rw::writer::Ps2Texture tex;
      tex.name = "t" + std::to_string(t);
      tex.width = tex.height = kSide;
      for (std::uint32_t i = 0; i < 256; ++i) tex.palette.push_back((rng() & 0x00FFFFFF) | 0xFF000000u);
      ByteBuffer idx(std::size_t{kSide} * kSide);
      for (auto& v : idx) v = static_cast<std::uint8_t>(rng());
      tex.levels = {std::move(idx)};
      natives.push_back(*rw::writer::ps2_texture_native(tex));
    }
    return rw::writer::texture_dictionary(natives, 6);
  }();
  return d;
}

void BM_DecodeDictionary(benchmark::State& st) {
  const ByteBuffer& b = dictionary();
  for (auto _ : st) {
    auto d = rw::TextureDictionary::open(b);
    for (std::size_t i = 0; i < d->textures().size(); ++i) {
      auto img = d->decode(i);
      benchmark::DoNotOptimize(img->pixels.data());
    }
  }
  st.counters["Mpix/s"] = benchmark::Counter(double(kTextures) * kSide * kSide / 1e6 * st.iterations(),
                                             benchmark::Counter::kIsRate);
}

// The reference: for every pixel, the spec's formulas (renderware.md#rw-5-7, #rw-5-8).
void reference_decode(const rw::TextureNative& t, ByteBuffer& out) {
  const rw::MipLevel& lv = t.levels[0];
  const auto l = static_cast<std::uint32_t>(std::countr_zero(lv.stored_width));
  out.resize(std::size_t{lv.width} * lv.height * 4);
  for (std::uint32_t y = 0; y < lv.height; ++y)
    for (std::uint32_t x = 0; x < lv.width; ++x) {
      const std::uint8_t index = lv.data[image::ps2::swizzle_address(x, y, l)];
      const std::uint8_t* c = t.palette.data() + std::size_t{image::ps2::csm1_entry(index)} * 4;
      std::uint8_t* o = out.data() + (std::size_t{y} * lv.width + x) * 4;
      o[0] = c[0], o[1] = c[1], o[2] = c[2], o[3] = image::ps2::expand_alpha(c[3]);
    }
}

void BM_ReferenceLoop(benchmark::State& st) {
  const ByteBuffer& b = dictionary();
  ByteBuffer out;
  for (auto _ : st) {
    auto d = rw::TextureDictionary::open(b);
    for (const auto& t : d->textures()) {
      ByteBuffer px;  // a fresh image per texture, as decode() returns one
      reference_decode(t, px);
      benchmark::DoNotOptimize(px.data());
    }
  }
  st.counters["Mpix/s"] = benchmark::Counter(double(kTextures) * kSide * kSide / 1e6 * st.iterations(),
                                             benchmark::Counter::kIsRate);
}

// 512 raw Struct sections of `payload` bytes inside one Extension container.
const ByteBuffer& stream(std::size_t payload) {
  static std::map<std::size_t, ByteBuffer> cache;
  auto& b = cache[payload];
  if (b.empty()) {
    const std::size_t n = 512;
    ByteWriter w;
    w.u32(rw::id::kExtension), w.u32(static_cast<std::uint32_t>(n * (12 + payload))), w.u32(rw::kStampDefault);
    for (std::size_t i = 0; i < n; ++i) {
      w.u32(rw::id::kStruct), w.u32(static_cast<std::uint32_t>(payload)), w.u32(rw::kStampDefault);
      w.zeros(payload);
    }
    b = w.take();
  }
  return b;
}

void BM_WalkTree(benchmark::State& st) {
  const ByteBuffer& b = stream(static_cast<std::size_t>(st.range(0)));
  for (auto _ : st) {
    auto t = rw::walk(b, 0, {});
    benchmark::DoNotOptimize(t->sections.size());
  }
  st.counters["stream_MiB"] = double(b.size()) / (1 << 20);
}

// Baseline that reads every byte of the same stream (CRC-32).
void BM_ReadEveryByte(benchmark::State& st) {
  const ByteBuffer& b = stream(static_cast<std::size_t>(st.range(0)));
  for (auto _ : st) benchmark::DoNotOptimize(crc32(b));
}

BENCHMARK(BM_DecodeDictionary)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_ReferenceLoop)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_WalkTree)->Arg(16)->Arg(128 << 10)->Unit(benchmark::kMicrosecond)->MinTime(0.5);
BENCHMARK(BM_ReadEveryByte)->Arg(16)->Arg(128 << 10)->Unit(benchmark::kMicrosecond)->MinTime(0.5);

// The ratios, from the same run.
void print_ratios(const bench::RatioReporter& r) {
  auto t = [&](const std::string& n) { return r.time(n); };
  auto c = [&](const std::string& n) { return r.cpu(n); };
  if (t("BM_DecodeDictionary") > 0)
    std::printf("ratio decode: reference loop / assay decoder = %.2fx wall, %.2fx CPU\n",
                t("BM_ReferenceLoop") / t("BM_DecodeDictionary"), c("BM_ReferenceLoop") / c("BM_DecodeDictionary"));
  const std::string big = "/" + std::to_string(128 << 10);
  if (t("BM_WalkTree/16") > 0)
    std::printf("ratio walk: 128 KiB payloads / 16 B payloads = %.2fx (stream 8,192x larger)\n",
                t(("BM_WalkTree" + big).c_str()) / t("BM_WalkTree/16"));
  if (t(("BM_WalkTree" + big).c_str()) > 0)
    std::printf("ratio on the 64 MiB stream: read every byte / walk = %.0fx\n",
                t(("BM_ReadEveryByte" + big).c_str()) / t(("BM_WalkTree" + big).c_str()));
}

}  // namespace

int main(int argc, char** argv) { return assay::bench::run_with_ratios(argc, argv, print_ratios); }
