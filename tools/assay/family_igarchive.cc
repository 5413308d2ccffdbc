// CLI verbs specific to igarchive: `pack igarchive` (new archive or --like ORIGINAL).
// All format logic lives in the library (assay/formats/igarchive/).
#include <cstdio>
#include <map>

#include "assay/formats/igarchive/extract.h"
#include "assay/formats/igarchive/pack.h"
#include "cli.h"

namespace assay::cli {

namespace {

struct PackArgs {
  std::string out, dir, like, compression = "lzma";
  std::uint32_t version = 0x0B;
  bool big = false, case_insensitive = false, force = false;
  unsigned threads = 0;
};

int run_pack(Cli& cli, const PackArgs& p) {
  namespace iga = igarchive;
  auto comp = iga::compression_from_string(p.compression);
  if (!comp) {
    std::fprintf(stderr, "assay: --compression must be lzma, deflate, lz4, none or stored\n");
    return kExitUsage;
  }
  if (!iga::is_known_version(p.version)) {
    std::fprintf(stderr, "assay: --version must be 4, 8, 10, 11, 12 or 13\n");
    return kExitUsage;
  }
  iga::WriterOptions opt;
  std::vector<iga::WriterFile> files;
  if (!p.like.empty()) {
    auto in = open_input(p.like);
    if (!in) return report(in.error());
    Diagnostics diags;
    auto a = iga::open_strict(in->bytes, in->name, &diags);
    if (!a) return report(a.error());
    opt = iga::options_like(*a);
    std::vector<std::string> added;
    auto f = iga::files_like(*a, p.dir, *comp, &added);
    if (!f) return report(f.error());
    files = std::move(*f);
    if (!cli.quiet)
      for (const auto& n : added) std::fprintf(stderr, "assay: %s: not in %s, added\n", n.c_str(), p.like.c_str());
  } else {
    opt.version = p.version;
    opt.endian = p.big ? Endian::big : Endian::little;
    opt.flags = p.case_insensitive ? iga::kFlagCaseInsensitive : 0;
    auto f = iga::files_from_directory(p.dir, *comp);
    if (!f) return report(f.error());
    files = std::move(*f);
  }
  opt.threads = p.threads;
  auto bytes = iga::write_archive(files, opt);
  if (!bytes) return report(bytes.error());
  auto w = write_file_atomic(p.out, *bytes, p.force);
  if (!w) return report(w.error());
  if (!cli.quiet)
    std::fprintf(stderr, "%s: %zu files, %zu bytes (igArchive version %u, %s-endian)\n", p.out.c_str(), files.size(),
                 bytes->size(), opt.version, opt.endian == Endian::big ? "big" : "little");
  return kExitOk;
}

}  // namespace

void register_igarchive(Cli& cli) {
  cli.read_option_hooks.push_back([](CLI::App& sub, ReadOptions& ro) {
    sub.add_option_function<std::string>(
        "--igarchive-max-member", [&ro](const std::string& v) { ro.family["igarchive-max-member"] = v; },
        "igarchive: largest member (bytes) extract/verify accept (default 1 GiB)");
  });
  auto args = std::make_shared<PackArgs>();
  auto* sub = cli.pack->add_subcommand("igarchive", "build an Alchemy igArchive from a folder");
  sub->add_option("-o,--output", args->out, "archive to write")->required();
  sub->add_option("dir", args->dir, "folder whose files become the archive (relative paths = names)")->required();
  sub->add_option("--version", args->version, "igArchive version: 4, 8, 10, 11 (default), 12, 13");
  sub->add_flag("--big-endian", args->big, "big-endian archive (default little)");
  sub->add_option("--compression", args->compression, "lzma (default), deflate, lz4, none or stored");
  sub->add_flag("--case-insensitive", args->case_insensitive, "flags bit 0: hash lower-cased names");
  sub->add_option("--like", args->like, "rebuild with this archive's version, byte order, flags, order and codecs");
  sub->add_flag("-f,--force", args->force, "overwrite OUT");
  sub->add_option("--threads", args->threads, "compression threads (default: all cores)");
  sub->callback([&cli, args] { cli.fail(run_pack(cli, *args)); });
}

}  // namespace assay::cli
