// igArchive targeted edit vs a full repack (issue 10 item 5), measured in one run:
//   bench_igarchive_edit [MiB=64] [threads=0]
// Builds an LZMA archive of MiB files of 1 MiB each (text-like data; built with a fast preset,
// not measured), then times, on the same cores:
//   replace  edit_archive replacing one 1 MiB file (only its 32 blocks are encoded; the other
//            files' stored bytes are copied) + the read-back check;
//   repack   what `pack --like` did before (and still does when converting): write_archive of
//            every file with the original's options, every block re-encoded (preset 6);
//   like     the new `pack --like` with one changed file: every original decoded and compared,
//            then the same edit as `replace`.
// Prints the seconds and the ratios repack/replace and repack/like.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "assay/core/thread_pool.h"
#include "assay/formats/igarchive/edit.h"
#include "assay/formats/igarchive/writer.h"
#include "igarchive_synth.h"

using namespace assay;
namespace iga = assay::igarchive;

namespace {

using assay::bench::igarchive_synth;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t mib = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 64;
  const unsigned threads = argc > 2 ? static_cast<unsigned>(std::strtoul(argv[2], nullptr, 10)) : 0;
  std::vector<iga::WriterFile> files;
  for (std::size_t i = 0; i < mib; ++i)
    files.push_back({.name = "data/file" + std::to_string(i) + ".igz", .data = igarchive_synth(1 << 20, i + 1)});
  iga::WriterOptions o;
  o.version = 0x0B;
  o.lzma_preset = 0;  // building the input is not measured
  o.threads = threads;
  auto built = iga::write_archive(files, o);
  if (!built) return std::fprintf(stderr, "%s\n", built.error().str().c_str()), 1;
  auto a = iga::Archive::open(*built, "bench");
  if (!a) return 1;
  const ByteBuffer fresh = igarchive_synth(1 << 20, 999);
  const std::string target = "data/file" + std::to_string(mib / 2) + ".igz";

  iga::EditPlan plan;
  plan.threads = threads;
  plan.replace.push_back({.name = target, .data = fresh});
  auto t0 = std::chrono::steady_clock::now();
  auto edited = iga::edit_archive(*a, plan);
  if (!edited || !iga::check_edited(edited->bytes, plan, mib, threads).ok()) return std::fprintf(stderr, "edit failed\n"), 1;
  const double t_replace = seconds_since(t0);

  // The full repack: every file's bytes (as a folder would give them) re-encoded.
  std::vector<iga::WriterFile> all = iga::entries_like(*a);
  for (std::size_t i = 0; i < all.size(); ++i) {
    all[i].data = a->files()[i].name == target ? fresh : ByteBuffer();
    if (all[i].data.empty()) (void)a->read(a->files()[i], all[i].data, 1);
  }
  iga::WriterOptions lo = iga::options_like(*a);
  lo.threads = threads;
  t0 = std::chrono::steady_clock::now();
  auto repacked = iga::write_archive(all, lo);
  const double t_repack = seconds_since(t0);
  if (!repacked) return 1;

  // The new pack --like: decode and compare every original, then the edit.
  t0 = std::chrono::steady_clock::now();
  std::vector<char> same(all.size());
  parallel_for(all.size(), threads ? threads : default_threads(), [&](std::size_t i) {
    ByteBuffer b;
    same[i] = a->read(a->files()[i], b, 1).ok() && b == all[i].data;
  });
  iga::EditPlan like;
  like.threads = threads;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (!same[i]) like.replace.push_back({.name = std::string(a->files()[i].name), .data = all[i].data});
  auto liked = iga::edit_archive(*a, like);
  if (!liked || !iga::check_edited(liked->bytes, like, mib, threads).ok()) return 1;
  const double t_like = seconds_since(t0);

  std::printf("archive: %zu x 1 MiB LZMA files, %zu bytes; threads %u\n", mib, built->size(),
              threads ? threads : default_threads());
  std::printf("replace one 1 MiB file (edit):        %.3f s (%llu blocks encoded, %llu files copied)\n", t_replace,
              static_cast<unsigned long long>(edited->encoded_blocks), static_cast<unsigned long long>(edited->copied_files));
  std::printf("full repack, every block re-encoded:  %.3f s\n", t_repack);
  std::printf("pack --like, one file changed:        %.3f s (%zu re-encoded)\n", t_like, like.replace.size());
  std::printf("ratio repack / replace: %.1fx\n", t_repack / t_replace);
  std::printf("ratio repack / pack --like: %.1fx\n", t_repack / t_like);
  return t_repack / t_replace >= 10 ? 0 : 3;
}
