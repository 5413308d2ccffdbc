// CLI verbs specific to igarchive: `pack igarchive` (new archive or --like ORIGINAL).
// All format logic lives in the library (assay/formats/igarchive/).
#include <cstdio>
#include <map>

#include <optional>

#include "assay/core/progress.h"
#include "assay/ops.h"
#include "cli.h"

namespace assay::cli {

namespace {

struct PackArgs {
  std::string out, dir, like, compression = "lzma";
  std::uint32_t version = 0x0B;
  bool big = false, case_insensitive = false, force = false;
  unsigned threads = 0;
  std::string conversion;  // the converting options given ("--version --compression")
  [[nodiscard]] bool given(std::string_view o) const { return conversion.find(o) != std::string::npos; }
};

int run_pack(Cli& cli, const PackArgs& a) {
  IgArchivePack p;
  p.out = a.out;
  p.dir = a.dir;
  p.like = a.like;
  p.threads = a.threads;
  p.force = a.force;
  // Without --like every option applies (with its default); with it, only those given convert.
  if (a.like.empty() || a.given("--compression")) p.compression = a.compression;
  if (a.like.empty() || a.given("--version")) p.version = a.version;
  if (a.like.empty() || a.given("--big-endian")) p.big_endian = a.big;
  if (a.like.empty() || a.given("--case-insensitive")) p.case_insensitive = a.case_insensitive;
  std::optional<Progress> bar;
  p.start_progress = [&](std::uint64_t total) {
    bar.emplace("pack", total, cli.progress());
    bar->set_bytes();
    return bar->reporter();
  };
  if (!a.like.empty() && !a.conversion.empty() && !cli.quiet)
    std::fprintf(stderr, "assay: %s given with --like: converting, every file is re-encoded\n", a.conversion.c_str());
  auto r = pack_igarchive(p);
  if (bar) bar->finish();
  if (!r) return report(r.error());
  if (cli.quiet) return kExitOk;
  for (const auto& name : r->added) std::fprintf(stderr, "assay: %s: not in %s, added\n", name.c_str(), a.like.c_str());
  if (!a.like.empty() && !r->converted)
    std::fprintf(stderr, "%s: %llu files, %llu bytes: %llu kept as stored, %llu re-encoded, %zu added\n", a.out.c_str(),
                 static_cast<unsigned long long>(r->files), static_cast<unsigned long long>(r->bytes),
                 static_cast<unsigned long long>(r->kept), static_cast<unsigned long long>(r->encoded),
                 r->added.size());
  else
    std::fprintf(stderr, "%s: %llu files, %llu bytes (igArchive version %u, %s-endian)\n", a.out.c_str(),
                 static_cast<unsigned long long>(r->files), static_cast<unsigned long long>(r->bytes), r->version,
                 r->endian == Endian::big ? "big" : "little");
  return kExitOk;
}

}  // namespace

void register_igarchive(Cli& cli) {
  cli.read_option_hooks.push_back([](CLI::App& sub, ReadOptions& ro) {
    sub.add_option_function<std::string>(
        "--igarchive-max-member", [&ro](const std::string& v) { ro.family["igarchive-max-member"] = v; },
        "igarchive: largest member (bytes) extract/verify accept (default 1 GiB)");
  });
  if (cli.pack == nullptr) return;  // not built for this command line (Cli::only)
  auto args = std::make_shared<PackArgs>();
  auto* sub = cli.pack->add_subcommand("igarchive", "build an Alchemy igArchive from a folder");
  sub->add_option("-o,--output", args->out, "archive to write")->required();
  sub->add_option("dir", args->dir, "folder whose files become the archive (relative paths = names)")->required();
  sub->add_option("--version", args->version, "igArchive version: 4, 8, 10, 11 (default), 12, 13");
  sub->add_flag("--big-endian", args->big, "big-endian archive (default little)");
  sub->add_option("--compression", args->compression, "lzma (default), deflate, lz4, none or stored");
  sub->add_flag("--case-insensitive", args->case_insensitive, "flags bit 0: hash lower-cased names");
  sub->add_option("--like", args->like, "rebuild like this archive: unchanged files keep their stored bytes; "
                  "--version/--big-endian/--compression/--case-insensitive with it convert (everything re-encoded)");
  sub->add_flag("-f,--force", args->force, "overwrite OUT");
  sub->add_option("--threads", args->threads, "compression threads (default: all cores)");
  example(*sub, "assay pack igarchive -o new.pak --compression lz4 folder/   (or --like game.pak folder/)");
  sub->callback([&cli, args, sub] {
    args->conversion.clear();
    for (const char* o : {"--version", "--big-endian", "--compression", "--case-insensitive"})
      if (sub->get_option(o)->count() > 0) args->conversion += std::string(args->conversion.empty() ? "" : " ") + o;
    cli.fail(run_pack(cli, *args));
  });
}

}  // namespace assay::cli
