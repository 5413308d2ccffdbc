// `assay cat ARCHIVE::ENTRY...`: the bytes of inner files on stdout, as 7-Zip's
// `e -so`: what `A::B` stands for everywhere (container.h resolve_path), i.e. the entry's bytes
// decompressed, as `extract` writes a file entry. Nothing else is printed on stdout.
#include <cstdio>
#include <memory>

#include "assay/container.h"
#include "assay/core/text.h"
#include "cli.h"

namespace assay::cli {

namespace {

int run_cat(const Cli& cli, const std::vector<std::string>& specs) {
  auto list = expand_listfiles(specs);
  if (!list) return report(list.error());
  auto opt = container_options(cli.read);
  if (!opt) return report(opt.error());
  int rc = kExitOk;
  for (const std::string& spec : *list) {
    if (spec.find("::") == std::string::npos) {
      std::fprintf(stderr, "assay: %s: give ARCHIVE::ENTRY (`assay list %s` shows the entries)\n",
                   escape_terminal(spec).c_str(), escape_terminal(spec).c_str());
      rc = std::max(rc, kExitUsage);
      continue;
    }
    auto in = resolve_path(spec, *opt);
    if (!in) {
      rc = std::max(rc, report(in.error()));
      continue;
    }
    const ByteView b = in->bytes;
    if (std::fwrite(b.data(), 1, b.size(), stdout) != b.size() || std::fflush(stdout) != 0) {
      std::fprintf(stderr, "assay: %s: cannot write to stdout\n", escape_terminal(spec).c_str());
      return kExitUsage;
    }
  }
  return rc;
}

}  // namespace

void register_cat(Cli& cli) {
  if (!cli.wants("cat")) return;
  auto specs = std::make_shared<std::vector<std::string>>();
  auto* sub = cli.app.add_subcommand("cat", "write the bytes of ARCHIVE::ENTRY to stdout (decompressed, as extract writes it)");
  sub->add_option("entries", *specs, "ARCHIVE::ENTRY (A::B::C to any depth; several are written one after another; @LIST)")
      ->required();
  cli.add_read_options(*sub);
  family_help(*sub, [specs] {
    const std::string s = specs->empty() ? "" : specs->front();
    return s.substr(0, s.rfind("::"));  // the archive
  });
  example(*sub, "assay cat game.pak::actors/hero.igz > hero.igz");
  sub->callback([&cli, specs] { cli.fail(run_cat(cli, *specs)); });
}

}  // namespace assay::cli
