// CLI verbs specific to igz: `assay igz dump FILE [--json]` (also as `assay dump`), and the
// --igz-pointer-size reading option for platforms whose pointer size is not established.
#include <iostream>

#include "assay/container.h"
#include "assay/ops.h"
#include "cli.h"
#include "formats/json_printer.h"
#include "formats/ops_json.h"
#include "formats/text_printer.h"

namespace assay::cli {

namespace {

struct DumpArgs {
  std::string file;
  bool json = false;
};

int do_dump(Cli& cli, const DumpArgs& a) {
  auto r = read_igz_dump(a.file, cli.read);
  if (!r) return report(r.error());
  if (a.json) {
    print_json(with_problems(detail::printed_json([&](FieldPrinter& p) { igz::print_dump(r->dump, p); }), r->diags));
  } else {
    for (const auto& d : r->diags.items())
      if (d.severity != Severity::note) std::fprintf(stderr, "%s: %s\n", a.file.c_str(), diagnostic_text(d).c_str());
    detail::TextPrinter p(std::cout);
    igz::print_dump(r->dump, p);
  }
  return r->diags.has_errors() ? kExitProblems : kExitOk;
}

void add_dump(Cli& cli, CLI::App& sub, const std::shared_ptr<DumpArgs>& args) {
  sub.add_option("file", args->file, "igz file (ARCHIVE::INNER reads an inner file)")->required();
  sub.add_flag("--json", args->json, "machine-readable output (docs/cli.md#igz)");
  cli.add_read_options(sub);
  sub.callback([&cli, args] {
    args->json = args->json || cli.json;  // the global --json too
    cli.fail(do_dump(cli, *args));
  });
}

bool has_subcommand(const CLI::App& app, const std::string& name) {
  for (const auto* s : app.get_subcommands([](const CLI::App*) { return true; }))
    if (s->get_name() == name) return true;
  return false;
}

}  // namespace

void register_igz(Cli& cli) {
  cli.read_option_hooks.push_back([](CLI::App& sub, ReadOptions& ro) {
    sub.add_option_function<std::string>(
        "--igz-pointer-size", [&ro](const std::string& v) { ro.family["igz-pointer-size"] = v; },
        "igz: pointer size (4 or 8) for a platform the spec does not know");
  });
  auto args = std::make_shared<DumpArgs>();
  if (cli.wants("igz")) {
    auto* family = cli.app.add_subcommand("igz", "Alchemy igz tools");
    family->require_subcommand(1);
    example(*family, "assay igz dump bootstrap.bld::x.igz");
    auto* dump = family->add_subcommand("dump", "strings, types, dependencies, externals, objects "
                                                "with their pointer edges, the root list");
    add_dump(cli, *dump, args);
    example(*dump, "assay igz dump --json bootstrap.bld::x.igz");
  }
  if (cli.wants("dump") && !has_subcommand(cli.app, "dump")) {  // top-level alias (`assay dump bootstrap.bld::x.igz`)
    auto* alias = cli.app.add_subcommand("dump", "igz dump (alias of `assay igz dump`)");
    add_dump(cli, *alias, args);
    example(*alias, "assay dump bootstrap.bld::x.igz");
  }
}

}  // namespace assay::cli
