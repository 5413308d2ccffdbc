// CLI verbs specific to igarchive: `pack igarchive` (new archive or --like ORIGINAL).
// All format logic lives in the library (assay/formats/igarchive/).
#include <cstdio>
#include <map>

#include "assay/core/progress.h"
#include "assay/formats/igarchive/edit.h"
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
  std::string conversion;  // the converting options given with --like ("--version --compression")
  [[nodiscard]] bool given(std::string_view o) const { return conversion.find(o) != std::string::npos; }
};

// Bytes the plan encodes (the progress total of `pack --like`).
std::uint64_t new_bytes(const igarchive::EditPlan& plan) {
  std::uint64_t n = 0;
  for (const auto& f : plan.replace) n += f.data.size();
  for (const auto& f : plan.add) n += f.data.size();
  return n;
}

// `pack --like ORIGINAL DIR` without converting options: an edit of the original. Files whose
// bytes equal the original's keep their stored bytes; only the others are encoded (issue 10).
int run_pack_like(Cli& cli, const PackArgs& p) {
  namespace iga = igarchive;
  auto in = open_input(p.like);
  if (!in) return report(in.error());
  Diagnostics diags;
  auto a = iga::open_strict(in->bytes, in->name, &diags);
  if (!a) return report(a.error());
  std::vector<std::string> added;
  auto plan = iga::plan_like(*a, p.dir, std::nullopt, p.threads, &added);
  if (!plan) return report(plan.error());
  Progress progress("pack", new_bytes(*plan), cli.progress());
  progress.set_bytes();
  plan->progress = progress.reporter();
  auto r = iga::edit_archive(*a, *plan);
  progress.finish();
  if (!r) return report(r.error());
  const std::uint64_t n = a->files().size() + plan->add.size();
  auto w = iga::write_checked(p.out, r->bytes, p.force,
                              [&](ByteView b) { return iga::check_edited(b, *plan, n, p.threads); });
  if (!w) return report(w.error());
  if (!cli.quiet) {
    for (const auto& name : added) std::fprintf(stderr, "assay: %s: not in %s, added\n", name.c_str(), p.like.c_str());
    std::fprintf(stderr, "%s: %llu files, %zu bytes: %llu kept as stored, %zu re-encoded, %zu added\n", p.out.c_str(),
                 static_cast<unsigned long long>(n), r->bytes.size(), static_cast<unsigned long long>(r->copied_files),
                 plan->replace.size(), plan->add.size());
  }
  return kExitOk;
}

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
  if (!p.like.empty() && p.conversion.empty()) return run_pack_like(cli, p);
  if (!p.like.empty()) {
    auto in = open_input(p.like);
    if (!in) return report(in.error());
    Diagnostics diags;
    auto a = iga::open_strict(in->bytes, in->name, &diags);
    if (!a) return report(a.error());
    // A real conversion: the original's names, order and times with the options given applied;
    // every file is re-encoded (issue 10: options with --like apply or are refused).
    opt = iga::options_like(*a);
    if (p.given("--version") && p.version != opt.version) {
      opt.version = p.version;
      opt.prefix_width = 0;  // the new version's own prefix form (spec #iga-prefix)
      opt.prefix_little.reset();
    }
    if (p.given("--big-endian")) opt.endian = Endian::big;
    if (p.given("--case-insensitive")) opt.flags |= iga::kFlagCaseInsensitive;
    std::vector<std::string> added;
    auto f = iga::files_like(*a, p.dir, *comp, &added);
    if (!f) return report(f.error());
    files = std::move(*f);
    if (p.given("--compression"))
      for (auto& w : files) w.compression = *comp;
    if (!cli.quiet)
      std::fprintf(stderr, "assay: %s given with --like: converting, every file is re-encoded\n", p.conversion.c_str());
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
  std::uint64_t total = 0;
  for (const auto& f : files) total += f.data.size();
  Progress progress("pack", total, cli.progress());
  progress.set_bytes();
  opt.progress = progress.reporter();
  auto bytes = iga::write_archive(files, opt);
  progress.finish();
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
