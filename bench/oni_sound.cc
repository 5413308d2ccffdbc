// SNDD decoding speed (issue 27 item 6: at least 50x faster than real time on one core): every
// SNDD of the golden levels (../shared/goldens/oni/sounds: MS ADPCM, PCM and IMA4, 9 sounds,
// 5.6 s of audio) decoded to PCM on one thread, per iteration. Printed after the table:
//   real-time ratio = seconds of audio decoded / CPU seconds spent decoding them.
// Run from the source folder: nice build/<dir>/bench/bench_oni_sound  (docs/PERFORMANCE.md
// "## oni sounds"); ASSAY_GOLDENS overrides ../shared/goldens.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "assay/formats/oni/oni.h"
#include "assay/formats/oni/sound.h"
#include "ratio_reporter.h"

namespace {

using namespace assay;

struct Levels {
  std::vector<std::unique_ptr<oni::LoadedFile>> files;
  double audio_seconds = 0;
};

const Levels& levels() {
  static const Levels l = [] {
    Levels out;
    const char* env = std::getenv("ASSAY_GOLDENS");
    const std::filesystem::path root = std::filesystem::path(env ? env : "../shared/goldens") / "oni" / "sounds";
    for (const char* lv : {"GameDataFolder", "GameDataFolder_sep"}) {
      auto f = oni::load_file(root / lv / "level0_Final.dat", oni::LayoutSource{});
      if (!f->opened) continue;
      for (std::uint32_t i = 0; i < f->file.instance_count(); ++i) {
        if (f->file.descriptor(i).tag != oni::make_tag("SNDD")) continue;
        if (auto s = oni::decode_sndd_instance(*f, i)) out.audio_seconds += static_cast<double>(s->frames()) / s->rate;
      }
      out.files.push_back(std::move(f));
    }
    return out;
  }();
  return l;
}

void BM_DecodeEverySndd(benchmark::State& st) {
  const Levels& l = levels();
  if (l.audio_seconds == 0) return st.SkipWithError("no golden levels (set ASSAY_GOLDENS)");
  for (auto _ : st)
    for (const auto& f : l.files)
      for (std::uint32_t i = 0; i < f->file.instance_count(); ++i) {
        if (f->file.descriptor(i).tag != oni::make_tag("SNDD")) continue;
        auto s = oni::decode_sndd_instance(*f, i);
        benchmark::DoNotOptimize(s);
      }
  st.counters["audio_s"] = l.audio_seconds;
}
BENCHMARK(BM_DecodeEverySndd);  // nanoseconds: the ratio below reads them as such

}  // namespace

int main(int argc, char** argv) {
  return assay::bench::run_with_ratios(argc, argv, [](const assay::bench::RatioReporter& r) {
    const double cpu_ns = r.cpu("BM_DecodeEverySndd");
    if (cpu_ns <= 0) return;
    std::printf("SNDD decode: %.2f s of audio in %.3f ms CPU: %.0fx real time on one core (bar: 50x)\n", levels().audio_seconds, cpu_ns / 1e6,
                levels().audio_seconds / (cpu_ns / 1e9));
  });
}
