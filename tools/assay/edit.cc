// `assay replace|add|remove ARCHIVE (-o OUT | --in-place) ...`: targeted edits of a container.
// The family's Format::edit does the work and the writing; this file only parses the
// arguments, reads the FILEs and prints the report (docs/cli.md#edit). Texture FILEs: a PNG of the
// texture's size, or --resize / --png-size (formats/edit_input.h).
#include <fmt/format.h>

#include <filesystem>
#include <iostream>

#include "assay/family.h"
#include "assay/ops.h"
#include "assay/core/folder.h"
#include "assay/core/progress.h"
#include "assay/core/text.h"
#include "assay/formats/edit_data.h"
#include "assay/formats/edit_input.h"
#include "cli.h"
#include "formats/serialise.h"

namespace assay::cli {

namespace {

struct EditArgs {
  std::string archive, out, compression, texture_format, dither;
  std::vector<std::string> items;
  bool in_place = false, force = false, json = false;
  bool resize = false, png_size = false;  // a PNG of another size than the texture
};

Result<EditRequest> request(const Cli& cli, EditOp op, const EditArgs& a) {
  EditRequest req;
  req.read = cli.read;
  req.output = a.out;
  req.in_place = a.in_place;
  req.force = a.force;
  if (!a.compression.empty()) req.read.family["compression"] = a.compression;
  if (!a.texture_format.empty()) req.read.family["texture_format"] = a.texture_format;
  if (!a.dither.empty()) req.read.family["dither"] = a.dither;
  if (a.resize) req.read.family["size"] = "resize";  // assay/formats/edit_input.h
  if (a.png_size) req.read.family["size"] = "png";
  if (a.in_place == !a.out.empty()) return usage_error("give exactly one of -o OUT and --in-place");
  ASSAY_TRY(std::vector<std::string> items, expand_listfiles(a.items));  // @LIST: one item a line
  for (const std::string& item : items) {
    EditChange c;
    c.op = op;
    if (op == EditOp::remove) {
      c.name = item;
    } else {
      const auto eq = item.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
        return usage_error(item + ": expected NAME=FILE");
      c.name = item.substr(0, eq);
      const std::string file = item.substr(eq + 1);
      std::error_code ec;
      if (!std::filesystem::exists(file, ec)) return io_error(file, "no such file (the FILE of " + item + ")");
      // Read by the family in pieces, or whole below (formats/edit_data.h).
      req.read.family[edit_source_key(c.name)] = file;  // messages name the file ("x.jpg is a JPEG, not a PNG")
    }
    req.changes.push_back(std::move(c));
  }
  return req;
}

void print_text(const Json& j) {
  for (const auto& c : j["changes"]) {
    // A raw hash with no known name has "name": null; its hash follows among the fields.
    std::string line = c["op"].get<std::string>() + " " + (c["name"].is_string() ? c["name"].get<std::string>() : "-");
    for (auto it = c.begin(); it != c.end(); ++it)
      if (it.key() != "op" && it.key() != "name" && !it.value().is_null())
        line += " " + it.key() + "=" + (it.value().is_string() ? it.value().get<std::string>() : dump_json(it.value()));
    std::cout << escape_terminal(line) << '\n';
  }
  std::string tail = j["output"].get<std::string>() + ":";
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "changes" && it.key() != "output" && it.key() != "input" && it.key() != "format")
      tail += " " + it.key() + "=" + (it.value().is_string() ? it.value().get<std::string>() : dump_json(it.value()));
  std::cout << escape_terminal(tail) << '\n';
}

const char* name_of(EditOp op) { return op == EditOp::replace ? "replace" : op == EditOp::add ? "add" : "remove"; }

int run_edit(Cli& cli, EditOp op, const EditArgs& a) {
  auto req = request(cli, op, a);
  if (!req) return report(req.error());
  auto in = open_input(a.archive);
  if (!in) return report(in.error());
  auto fmt = require_family(*in);
  if (!fmt) return report(fmt.error());
  if ((*fmt)->edit == nullptr)
    return report(usage_error(fmt::format("{}: {} files cannot be edited with replace/add/remove", a.archive, (*fmt)->name)));
  NestedEdit scratch;  // MEMBER::NAME changes, edited by the member's family first
  if (auto folded = fold_nested_changes(*in, *req, scratch); !folded) return report(folded.error());
  // Families that stream (edit_reads_files) read each FILE in pieces; the others get it whole.
  std::uint64_t total = 0;
  for (EditChange& c : req->changes) {
    if (c.op == EditOp::remove || !c.data.empty()) continue;
    const std::string& file = req->read.family.at(edit_source_key(c.name));
    if (edit_reads_files((*fmt)->name)) {
      std::error_code ec;
      const auto n = std::filesystem::file_size(file, ec);
      total += ec ? 0 : static_cast<std::uint64_t>(n);
      continue;
    }
    auto data = read_regular_file(file);
    if (!data) return report(data.error());
    c.data = std::move(*data);
    total += c.data.size();
  }
  // Progress over the new data's bytes as the family encodes them (families that encode nothing
  // worth showing ignore it).
  Progress progress(name_of(op), total, cli.progress() && total != 0);
  progress.set_bytes();
  req->progress = progress.reporter();
  auto j = (*fmt)->edit(*in, *req);
  progress.finish();
  if (!j) return report(j.error());
  a.json ? print_json(json_of(*j)) : print_text(json_of(*j));
  return kExitOk;
}

void add_verb(Cli& cli, const char* name, EditOp op, const char* help, const char* items_help) {
  if (!cli.wants(name)) return;
  auto a = std::make_shared<EditArgs>();
  auto* sub = cli.app.add_subcommand(name, help);
  sub->add_option("archive", a->archive, "the container (ARCHIVE, A::INNER, or a disc folder)")->required();
  sub->add_option("items", a->items, items_help)->required();
  sub->add_option("-o,--output", a->out, "where the result goes (a file; a folder for Warriors DIR/WAD)");
  sub->add_flag("--in-place", a->in_place, "rewrite the input: a temporary beside it is renamed over it once read back");
  sub->add_flag("-f,--force", a->force, "overwrite OUT");
  sub->add_flag("--json", a->json, "report the changes as JSON");
  if (op != EditOp::remove) {
    sub->add_option("--compression", a->compression, "igarchive: codec of the new data (default: the file's own)");
    sub->add_option("--format", a->texture_format,
                    "textures from PNG: texel format (PAL8, PAL4, 8888, 888, 565, 555, 1555, 4444, DXT1, DXT3, DXT5; "
                    "default: the texture's own, or the first texture's for add)");
    sub->add_option("--dither", a->dither, "textures from PNG: palette dithering level 0 (off) to 1 (full, default)");
    auto* resize = sub->add_flag("--resize", a->resize,
                                 "textures from PNG: scale a PNG of another size to the texture's size (else refused)");
    sub->add_flag("--png-size", a->png_size, "textures from PNG: give the texture the PNG's size (else refused)")
        ->excludes(resize);
  }
  cli.add_read_options(*sub);
  family_help(*sub, [a] { return a->archive; });  // `replace game.pak --help`: igarchive's options only
  example(*sub, op == EditOp::remove    ? "assay remove game.pak -o new.pak old/unused.igz"
                : op == EditOp::replace ? "assay replace game.pak -o new.pak actors/hero.igz=hero.igz"
                                        : "assay add game.pak --in-place extra/readme.txt=readme.txt");
  sub->callback([&cli, op, a] {
    a->json = a->json || cli.json;  // the global --json too
    cli.fail(run_edit(cli, op, *a));
  });
}

}  // namespace

void register_edit(Cli& cli) {
  add_verb(cli, "replace", EditOp::replace, "replace files of a container (NAME must exist); others stay as stored",
           "NAME=FILE pairs (or @LIST, one a line)");
  add_verb(cli, "add", EditOp::add, "add files to a container (NAME must not exist)", "NAME=FILE pairs (or @LIST)");
  add_verb(cli, "remove", EditOp::remove, "remove files from a container", "NAMEs (or @LIST)");
}

}  // namespace assay::cli
