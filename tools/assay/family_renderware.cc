// CLI verbs specific to renderware: `assay rw tree FILE [--json]` (library calls only).
#include <fmt/format.h>

#include <iostream>

#include "assay/formats/renderware/walker.h"
#include "cli.h"

namespace assay::cli {

namespace {

struct TreeArgs {
  std::string file;
  bool json = false;
};

int do_tree(const TreeArgs& a) {
  auto in = open_input(a.file);
  if (!in) return report(in.error());
  Diagnostics diags;
  auto tree = rw::walk(in->bytes, 0, diags.sink());
  for (const auto& d : diags.items()) std::fprintf(stderr, "%s: %s\n", in->name.c_str(), diagnostic_text(d).c_str());
  if (!tree) return report(tree.error().in_file(in->name));
  if (a.json) {
    Json secs = Json::array();
    for (const auto& s : tree->sections) {
      const rw::Version v = rw::decode_stamp_raw(s.header.stamp);
      secs.push_back({{"offset", s.offset},
                      {"id", s.header.type},
                      {"name", std::string(rw::section_name(s.header.type))},
                      {"size", s.header.size},
                      {"stamp", s.header.stamp},
                      {"version", v.str()},
                      {"depth", s.depth},
                      {"parent", s.parent < 0 ? Json(nullptr) : Json(s.parent)},
                      {"container", s.container},
                      {"children", s.child_count}});
    }
    print_json({{"format", "renderware"},
                {"file", in->name},
                {"stream_end", tree->stream_end},
                {"padding", tree->padding},
                {"max_depth", tree->max_depth},
                {"sections", secs}});
  } else {
    for (const auto& s : tree->sections) {
      const std::string_view n = rw::section_name(s.header.type);
      std::cout << fmt::format("{:08x}  {}{:#x} {}  size {}  {}\n", s.offset, std::string(2 * s.depth, ' '),
                               s.header.type, n.empty() ? "(unknown)" : n, s.header.size,
                               rw::decode_stamp_raw(s.header.stamp).str());
    }
    if (tree->padding)
      std::cout << fmt::format("{:08x}  ({} bytes of zero padding)\n", tree->stream_end, tree->padding);
  }
  return diags.has_errors() ? kExitProblems : kExitOk;
}

}  // namespace

void register_renderware(Cli& cli) {
  auto* rw = cli.app.add_subcommand("rw", "RenderWare stream tools");
  rw->require_subcommand(1);
  auto args = std::make_shared<TreeArgs>();
  auto* tree = rw->add_subcommand("tree", "print the section tree (offset, id, name, size, version)");
  tree->add_option("file", args->file, "a RenderWare stream (ARCHIVE::INNER reads an inner file)")->required();
  tree->add_flag("--json", args->json, "machine-readable output (docs/cli.md)");
  tree->callback([&cli, args] { cli.fail(do_tree(*args)); });
}

}  // namespace assay::cli
