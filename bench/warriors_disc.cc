// The warriors disc benchmark driver (used by bench/warriors_disc.sh; not part of ctest).
//   bench_warriors_disc generate OUTDIR DIVISOR   writes a 10,701-entry synthetic disc (same
//       kind mix as the NTSC-U disc, spec warriors.md#wr-8-2); DIVISOR 1 gives about 1.1 GiB,
//       larger divisors shrink every payload (same entries, same headers)
//   bench_warriors_disc heap DISC                  verify + classify through the library, then
//       prints the heap obtained from malloc (mallinfo2 arena + mmapped blocks), in bytes
//   bench_warriors_disc classify-cpu DISC [RUNS]  CPU seconds of one single-threaded classify
//   bench_warriors_disc [benchmark flags]          Google Benchmark: loading one level
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <cstdio>
#include <ctime>
#include <sys/resource.h>
#include <cstring>
#include <string>

#include "assay/core/hash.h"
#include "assay/options.h"
#include "assay/formats/warriors/samples.h"
#include "assay/formats/warriors/chunks.h"
#include "assay/formats/warriors/disc.h"
#include "assay/formats/warriors/writer.h"
#include "assay/ops.h"

using namespace assay;
using namespace assay::warriors;

namespace {

ByteBuffer anim_pack(std::uint32_t groups, std::uint32_t keyframes) {
  std::vector<ByteBuffer> res;
  for (std::uint32_t g = 0; g < groups; ++g) res.push_back(samples::animation("clip" + std::to_string(g), keyframes));
  return *write_pack(res);
}

ByteBuffer big_world_part(std::uint32_t atomic_body) {
  ByteWriter w;
  w.u32(1), w.u32(0), w.u32(0), w.u32(0x12345678);
  w.bytes(rw_texture_dictionary(0));
  w.u32(2);
  for (std::uint32_t i = 0; i < 2; ++i) {
    w.u32(i);
    w.bytes(rw_section(0x14, rw_section(1, ByteBuffer(atomic_body / 2, 0x3C))));
  }
  return w.take();
}

ByteBuffer filled(ByteBuffer head, std::size_t size, std::uint8_t fill) {
  head.resize(std::max(head.size(), size), fill);
  return head;
}

struct Kind {
  std::uint32_t count;
  ByteBuffer bytes;
};

std::vector<Kind> kinds(std::uint32_t div) {
  auto k16 = [&](std::uint64_t n) { return static_cast<std::uint32_t>(align16(std::max<std::uint64_t>(16, n / div))); };
  ByteBuffer scn(72, 0);
  std::memcpy(scn.data() + 8, "l1_intro", 9);
  scn = filled(scn, std::max<std::size_t>(72, 20000 / div), 0x5A);
  store<std::uint32_t>(scn.data(), static_cast<std::uint32_t>(scn.size()), Endian::little);
  ByteBuffer lua = {0x1B, 0x4C, 0x75, 0x61, 0x40, 0x01, 0x04, 0x04, 0x04, 0x20, 0x06, 0x09, 0x08};
  const std::string text = "2\r\nlamp_post\r\nbench\r\n";
  ByteBuffer adpcm(65536, 0x21);  // K14 reads every frame: the same size at every divisor
  for (std::size_t f = 0; f < adpcm.size(); f += 16) adpcm[f] = 0x12, adpcm[f + 1] = 2;
  ByteBuffer old = rw_section(0x16, ByteBuffer(4, 0), 0x1803FFFF);
  ByteBuffer metrics(50, 7), ico = {0, 0, 1, 0, 1, 0, 0x20, 0x20}, bmp(70, 0);
  std::memcpy(metrics.data(), "METRICS1", 8);
  ico.resize(45, 0x44);
  bmp[0] = 'B', bmp[1] = 'M', bmp[2] = 70, bmp[69] = 0xF0;
  const ByteBuffer wld = samples::world_stream(2);
  return {
      {881, anim_pack(4, k16(180000))},                              // packs ~634 MB
      {3615, samples::animation("model", k16(40000))},               // resources ~145 MB
      {564, samples::animation("walk", k16(4600))},
      {64, samples::level()},
      {3, samples::scene_list(3)},
      {2765, scn},                                                   // scene records ~55 MB
      {1911, big_world_part(k16(160000))},                           // world parts ~306 MB
      {159, wld},
      {159, samples::world_manifest(static_cast<std::uint32_t>(wld.size()), {100, 200})},
      {467, filled(lua, std::max<std::size_t>(13, 20000 / div), 0x33)},
      {63, ByteBuffer(text.begin(), text.end())},
      {21, adpcm},
      {21, ByteBuffer{0x11, 0x11, 0, 0, 0, 0, 0, 0, 0x22, 0x22, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
      {5, old},
      {1, metrics},
      {1, ico},
      {1, bmp},
  };
}

int generate(const std::string& out, std::uint32_t div) {
  const auto ks = kinds(div);
  std::vector<StreamedDiscEntry> entries;
  std::vector<const ByteBuffer*> src;
  for (const auto& k : ks)
    for (std::uint32_t i = 0; i < k.count; ++i) {
      entries.push_back({static_cast<std::uint32_t>((entries.size() + 1) * 2654435761u), static_cast<std::uint32_t>(k.bytes.size())});
      src.push_back(&k.bytes);
    }
  std::filesystem::create_directories(out);
  auto r = write_disc_files(std::filesystem::path(out) / "WARRIORS.DIR", std::filesystem::path(out) / "WARRIORS.WAD", entries,
                            [&](std::uint32_t i, ByteBuffer& b) { b = *src[i]; }, true);
  if (!r) return std::fprintf(stderr, "%s\n", r.error().str().c_str()), 2;
  std::printf("%zu entries\n", entries.size());
  return 0;
}

int heap(const std::string& disc) {
  auto in = Input::open(disc);
  if (!in) return 2;
  Diagnostics d;
  ReadOptions opt;
  d.append(verify_input(*in, *container_options(opt), nullptr, "warriors").diags);
  auto c = warriors_classify(*in, opt);
  const auto m = mallinfo2();
  std::printf("%zu\n", m.arena + m.hblkhd);
  return d.has_errors() || !c ? 1 : 0;
}

double cpu_now() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// CPU seconds of one classify (best of `runs`), single-threaded, in process (the figure that
// wall-clock time on a loaded shared machine hides), and the page faults of the first run
// (a fresh mapping: one per distinct page window of headers read).
int classify_cpu(const std::string& disc, int runs) {
  auto in = Input::open(disc);
  if (!in) return 2;
  ReadOptions opt;
  opt.threads = 1;
  double best = 1e9;
  long faults = 0;
  for (int r = 0; r < runs; ++r) {
    rusage u0{}, u1{};
    getrusage(RUSAGE_SELF, &u0);
    const double t0 = cpu_now();
    auto c = warriors_classify(*in, opt);
    const double t1 = cpu_now();
    getrusage(RUSAGE_SELF, &u1);
    if (!c) return 1;
    if (r == 0) faults = u1.ru_minflt - u0.ru_minflt + u1.ru_majflt - u0.ru_majflt;  // first touch of each page
    best = std::min(best, t1 - t0);
  }
  std::printf("%.6f %ld\n", best, faults);
  return 0;
}

void BM_LoadLevel(benchmark::State& state) {
  const ByteBuffer lev = samples::level();
  const HandlerTable t = HandlerTable::standard();
  for (auto _ : state) benchmark::DoNotOptimize(load_flat(lev, t).ok());
}
BENCHMARK(BM_LoadLevel);

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 4 && std::string(argv[1]) == "generate") return generate(argv[2], static_cast<std::uint32_t>(std::stoul(argv[3])));
  if (argc >= 3 && std::string(argv[1]) == "heap") return heap(argv[2]);
  if (argc >= 3 && std::string(argv[1]) == "classify-cpu") return classify_cpu(argv[2], argc >= 4 ? std::stoi(argv[3]) : 5);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
