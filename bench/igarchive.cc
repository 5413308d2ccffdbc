// igArchive benchmark helper (driven by bench/igarchive_bench.py; not part of ctest).
//   bench_igarchive gen OUT [MiB]      synthetic LZMA archive: one file of 3/8 of the data plus
//                                      ten equal files, compressible but not trivial text+noise
//   bench_igarchive baseline ARCHIVE   single-thread plain liblzma raw decode of the same blocks
//                                      (lzma_raw_decoder per block into one reused buffer): MiB/s
//   bench_igarchive tiny OUT           a two-file archive (for list/info timing)
#include <lzma.h>

#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <string>

#include "assay/core/mapped_file.h"
#include "assay/core/output.h"
#include "assay/formats/igarchive/archive.h"
#include "assay/formats/igarchive/writer.h"
#include "igarchive_synth.h"

using namespace assay;
namespace iga = assay::igarchive;

namespace {

using assay::bench::igarchive_synth;

int gen(const char* out, std::uint64_t mib) {
  const std::uint64_t total = mib << 20;
  const std::uint64_t big = total * 3 / 8, each = (total - big) / 10;
  std::vector<iga::WriterFile> files;
  files.push_back({.name = "big/level_00.igz", .data = igarchive_synth(big, 1)});
  for (int i = 0; i < 10; ++i)
    files.push_back({.name = "levels/level_" + std::to_string(i + 1) + ".igz",
                     .data = igarchive_synth(i == 9 ? total - big - 9 * each : each, i + 2)});
  iga::WriterOptions o;
  o.version = 8;
  o.lzma_preset = 0;
  auto bytes = iga::write_archive(files, o);
  if (!bytes) return std::fprintf(stderr, "%s\n", bytes.error().str().c_str()), 1;
  auto w = write_file_atomic(out, *bytes, true);
  if (!w) return std::fprintf(stderr, "%s\n", w.error().str().c_str()), 1;
  std::printf("%s: %llu MiB in %zu files, archive %llu bytes, largest file (bytes) %llu\n", out,
              static_cast<unsigned long long>(mib), files.size(), static_cast<unsigned long long>(bytes->size()),
              static_cast<unsigned long long>(big));
  return 0;
}

int tiny(const char* out) {
  std::vector<iga::WriterFile> files = {{.name = "a.igz", .data = igarchive_synth(5000, 1)}, {.name = "b.igz", .data = igarchive_synth(9000, 2)}};
  iga::WriterOptions o;
  o.version = 8;
  auto bytes = iga::write_archive(files, o);
  if (!bytes) return 1;
  return write_file_atomic(out, *bytes, true) ? 0 : 1;
}

// The baseline: decode every LZMA block of the archive on one thread with plain liblzma.
int baseline(const char* path) {
  auto m = MappedFile::open(path);
  if (!m) return std::fprintf(stderr, "%s\n", m.error().str().c_str()), 1;
  auto a = iga::Archive::open(m->bytes(), path);
  if (!a) return std::fprintf(stderr, "%s\n", a.error().str().c_str()), 1;
  ByteBuffer out(iga::kBlockSize);
  lzma_stream s = LZMA_STREAM_INIT;
  std::uint64_t bytes_out = 0;
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  for (const auto& f : a->files()) {
    auto bl = a->blocks(f);
    if (!bl) return 1;
    for (const auto& b : *bl) {
      const std::uint8_t* p = m->bytes().data() + b.offset;
      if (!b.compressed) {
        std::memcpy(out.data(), p, b.usize);
        bytes_out += b.usize;
        continue;
      }
      const std::uint16_t c = static_cast<std::uint16_t>(p[0] | (p[1] << 8));
      lzma_options_lzma opt{};
      opt.dict_size = 0x8000, opt.lc = 3, opt.lp = 0, opt.pb = 2;
      lzma_filter filters[2] = {{LZMA_FILTER_LZMA1, &opt}, {LZMA_VLI_UNKNOWN, nullptr}};
      if (lzma_raw_decoder(&s, filters) != LZMA_OK) return 1;
      s.next_in = p + 7, s.avail_in = c, s.next_out = out.data(), s.avail_out = b.usize;
      while (s.avail_out > 0 && lzma_code(&s, LZMA_RUN) == LZMA_OK) {
      }
      if (s.avail_out != 0) return std::fprintf(stderr, "decode failed\n"), 1;
      bytes_out += b.usize;
    }
  }
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  lzma_end(&s);
  std::printf("%.3f %llu %.3f\n", sec, static_cast<unsigned long long>(bytes_out), cpu);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "gen" && argc >= 3) return gen(argv[2], argc > 3 ? std::stoull(argv[3]) : 256);
  if (mode == "baseline" && argc >= 3) return baseline(argv[2]);
  if (mode == "tiny" && argc >= 3) return tiny(argv[2]);
  std::fprintf(stderr, "usage: bench_igarchive gen OUT [MiB] | baseline ARCHIVE | tiny OUT\n");
  return 2;
}
