// Texture import benchmarks (issue 16): assay's encoders driven as `assay replace` drives them
// (all cores, across textures) against libsquish and libimagequant called directly on one core,
// on the same images, in the same run. The ratios are printed after the table:
//   ratio = direct library time on one core / assay time on all cores (>1: assay is faster).
#include <benchmark/benchmark.h>
#include <libimagequant.h>
#include <squish.h>

#include <cstdio>
#include <map>

#include "../tests/image/generated_images.h"
#include "assay/core/thread_pool.h"
#include "assay/formats/renderware/edit.h"
#include "assay/formats/renderware/writer.h"
#include "../src/formats/renderware/json.h"
#include "ratio_reporter.h"
#include "formats/serialise.h"

namespace {

using namespace assay;
constexpr std::uint32_t kTextures = 8, kSide = 256;

const std::vector<image::Rgba>& images() {
  static const auto imgs = [] {
    std::vector<image::Rgba> v;
    for (std::uint32_t i = 0; i < kTextures; ++i) v.push_back(image::testimg::photo(kSide, kSide, false, 3, i + 1));
    return v;
  }();
  return imgs;
}

std::vector<EditChange> changes() {
  std::vector<EditChange> c;
  for (std::uint32_t i = 0; i < kTextures; ++i) c.push_back({EditOp::replace, "t" + std::to_string(i), *image::encode_png(images()[i])});
  return c;
}

// A dictionary of kTextures one-level textures of the given platform/format to replace.
ByteBuffer dictionary(bool ps2) {
  std::vector<ByteBuffer> natives;
  for (std::uint32_t i = 0; i < kTextures; ++i) {
    rw::NativeSpec s;
    s.platform = ps2 ? rw::kPlatformPS2 : rw::kPlatformD3D9;
    s.format = ps2 ? rw::TexelFormat::pal8 : rw::TexelFormat::dxt1;
    s.name = "t" + std::to_string(i);
    s.stamp = ps2 ? rw::kStampDefault : rw::kStampGtaSa;
    natives.push_back(*rw::encode_texture_native(s, image::testimg::few_colours(kSide, kSide, 4), {}));
  }
  return rw::writer::texture_dictionary(natives, ps2 ? 6 : 2, ps2 ? rw::kStampDefault : rw::kStampGtaSa);
}

void run_edit(benchmark::State& st, bool ps2) {
  const ByteBuffer txd = dictionary(ps2);
  const auto c = changes();
  for (auto _ : st) {
    rw::DictionaryEditReport report;
    auto out = rw::edit_dictionary(txd, c, {}, report);
    if (!out) st.SkipWithError(out.error().str().c_str());
    benchmark::DoNotOptimize(out);
  }
}

void BM_AssayReplaceDxt1(benchmark::State& st) { run_edit(st, false); }
void BM_AssayReplacePs2Pal8(benchmark::State& st) { run_edit(st, true); }

void BM_AssayEncodeBlocksDxt1(benchmark::State& st) {  // the encoder alone, blocks over all cores
  for (auto _ : st)
    for (const auto& img : images()) benchmark::DoNotOptimize(image::encode_blocks(image::BlockFormat::bc1, img));
}

void BM_SquishDirectOneCore(benchmark::State& st) {
  ByteBuffer out(kSide * kSide / 2);
  for (auto _ : st)
    for (const auto& img : images()) {
      squish::CompressImage(img.pixels.data(), kSide, kSide, out.data(),
                            squish::kDxt1 | squish::kColourClusterFit | squish::kWeightColourByAlpha);
      benchmark::DoNotOptimize(out.data());
    }
}

void BM_LiqDirectOneCore(benchmark::State& st) {
  ByteBuffer idx(kSide * kSide);
  for (auto _ : st)
    for (const auto& img : images()) {
      liq_attr* attr = liq_attr_create();
      liq_set_max_colors(attr, 256);
      liq_set_speed(attr, 4);
      liq_image* li = liq_image_create_rgba(attr, img.pixels.data(), kSide, kSide, 0);
      liq_result* res = nullptr;
      if (liq_image_quantize(li, attr, &res) == LIQ_OK) {
        liq_set_dithering_level(res, 1.0f);
        liq_write_remapped_image(res, li, idx.data(), idx.size());
        liq_result_destroy(res);
      }
      liq_image_destroy(li);
      liq_attr_destroy(attr);
      benchmark::DoNotOptimize(idx.data());
    }
}

BENCHMARK(BM_SquishDirectOneCore)->Unit(benchmark::kMillisecond)->MinTime(1.0)->UseRealTime()->MeasureProcessCPUTime();
BENCHMARK(BM_AssayEncodeBlocksDxt1)->Unit(benchmark::kMillisecond)->MinTime(1.0)->UseRealTime()->MeasureProcessCPUTime();
BENCHMARK(BM_AssayReplaceDxt1)->Unit(benchmark::kMillisecond)->MinTime(1.0)->UseRealTime()->MeasureProcessCPUTime();
BENCHMARK(BM_LiqDirectOneCore)->Unit(benchmark::kMillisecond)->MinTime(1.0)->UseRealTime()->MeasureProcessCPUTime();
BENCHMARK(BM_AssayReplacePs2Pal8)->Unit(benchmark::kMillisecond)->MinTime(1.0)->UseRealTime()->MeasureProcessCPUTime();

// The ratios, from the same run.
void print_ratios(const bench::RatioReporter& r) {
  auto t = [&](const char* n) { return r.time(n); };
  auto c = [&](const char* n) { return r.cpu(n); };
  std::printf("(%u textures of %u x %u, %u threads; wall-clock ratios, >1 = assay faster)\n", kTextures, kSide, kSide,
              default_threads());
  if (t("BM_AssayEncodeBlocksDxt1") > 0)
    std::printf("ratio DXT1 blocks: libsquish direct 1 core / assay encode_blocks all cores = %.2fx\n",
                t("BM_SquishDirectOneCore") / t("BM_AssayEncodeBlocksDxt1"));
  if (c("BM_AssayEncodeBlocksDxt1") > 0)
    std::printf("ratio DXT1 blocks, CPU time (process CPU, all threads): libsquish / assay = %.2fx (1.0 = no overhead)\n",
                c("BM_SquishDirectOneCore") / c("BM_AssayEncodeBlocksDxt1"));
  if (t("BM_AssayReplaceDxt1") > 0)
    std::printf("ratio DXT1 replace: libsquish direct 1 core / assay replace (PNG decode, encode, read-back) = %.2fx\n",
                t("BM_SquishDirectOneCore") / t("BM_AssayReplaceDxt1"));
  if (t("BM_AssayReplacePs2Pal8") > 0)
    std::printf("ratio PS2 PAL8 replace: libimagequant direct 1 core / assay replace (+swizzle, packets, read-back) = %.2fx\n",
                t("BM_LiqDirectOneCore") / t("BM_AssayReplacePs2Pal8"));
  if (c("BM_AssayReplacePs2Pal8") > 0)
    std::printf("ratio PS2 PAL8 replace, CPU time (process CPU, all threads): libimagequant / assay = %.2fx\n",
                c("BM_LiqDirectOneCore") / c("BM_AssayReplacePs2Pal8"));
}

}  // namespace

int main(int argc, char** argv) { return assay::bench::run_with_ratios(argc, argv, print_ratios); }
