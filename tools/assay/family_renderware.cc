// CLI verbs specific to renderware: `assay rw tree FILE [--json]` (library calls only).
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <optional>

#include "assay/container.h"
#include "assay/core/text.h"
#include "assay/ops.h"
#include "cli.h"
#include "formats/ops_json.h"

namespace assay::cli {

namespace {

struct TreeArgs {
  std::string file;
  bool json = false;
};

// Sections are printed as the walk reaches them; nothing is kept (spec: renderware.md#rw-real
// "Memory"). A plain file is walked by rw::walk_file, which drops the pages behind the walk.
int do_tree(const TreeArgs& a) {
  std::error_code ec;
  const bool plain = std::filesystem::is_regular_file(a.file, ec);
  Result<Input> in = plain ? Result<Input>(Input{}) : open_input(a.file);
  if (!in) return report(in.error());
  const std::string name = plain ? a.file : in->name;
  std::size_t errors = 0;
  std::optional<RwTreeJsonStream> json;
  if (a.json) json.emplace(std::cout, name);
  const DiagSink diag = [&](Diagnostic d) {
    errors += d.severity == Severity::error;
    if (json) json->problem(d);  // printed after the sections
    else std::fprintf(stderr, "%s: %s\n", name.c_str(), diagnostic_text(d).c_str());
  };
  const rw::SectionVisitor print = [&](const rw::Section& s) {
    if (json) return json->section(s);
    const std::string_view n = rw::section_name(s.header.type);
    std::cout << fmt::format("{:08x}  {}{:#x} {}  size {}  {}\n", s.offset, std::string(2 * s.depth, ' '),
                             s.header.type, n.empty() ? "(unknown)" : n, s.header.size,
                             rw::decode_stamp_raw(s.header.stamp).str());
  };
  auto w = plain ? rw::walk_file(a.file, diag, {}, print) : rw::walk_each(in->bytes, 0, diag, {}, print);
  if (json) {
    json->finish(w);
  } else if (w && w->padding) {
    std::cout << fmt::format("{:08x}  ({} bytes of zero padding)\n", w->stream_end, w->padding);
  }
  std::cout.flush();
  if (!w) return report(w.error().in_file(name));
  return errors ? kExitProblems : kExitOk;
}

}  // namespace

void register_renderware(Cli& cli) {
  cli.read_option_hooks.push_back([](CLI::App& sub, ReadOptions& ro) {
    if (sub.get_name() != "extract" && sub.get_name() != "serve") return;
    sub.add_option_function<std::string>(
        "--txd", [&ro](const std::string& v) { ro.family["txd"] += (ro.family["txd"].empty() ? "" : "\n") + v; },
        "renderware: a texture dictionary for the models' textures (repeatable; before the .txd beside the .dff)");
  });
  if (!cli.wants("rw")) return;
  auto* rw = cli.app.add_subcommand("rw", "RenderWare stream tools");
  rw->require_subcommand(1);
  example(*rw, "assay rw tree level1.txd");
  auto args = std::make_shared<TreeArgs>();
  auto* tree = rw->add_subcommand("tree", "print the section tree (offset, id, name, size, version)");
  tree->add_option("file", args->file, "a RenderWare stream (ARCHIVE::INNER reads an inner file)")->required();
  tree->add_flag("--json", args->json, "machine-readable output (docs/cli.md)");
  example(*tree, "assay rw tree --json GAME::level1.lev::0002_47.bin");
  tree->callback([&cli, args] {
    args->json = args->json || cli.json;  // the global --json too
    cli.fail(do_tree(*args));
  });
}

}  // namespace assay::cli
