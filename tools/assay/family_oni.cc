// CLI verbs specific to oni: `oni check`, `oni layouts`, `pack oni`, `hash oni-file-id`, and the
// --layouts/--exe/--textures reading options. Library calls only (src/formats/oni).
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <map>

#include "assay/container.h"
#include "assay/ops.h"
#include "assay/formats/oni/oni.h"
#include "cli.h"
#include "formats/ops_json.h"

namespace assay::cli {

namespace {

using namespace assay::oni;

void add_check(Cli& cli, CLI::App& oni) {
  struct Args {
    std::vector<std::string> inputs;
    bool json = false;
  };
  auto a = std::make_shared<Args>();
  auto* sub = oni.add_subcommand("check", "walk and link a level set: per-level counts, totals and a walk hash");
  sub->add_option("inputs", a->inputs, "a GameDataFolder and/or level files")->required();
  example(*sub, "assay oni check GameDataFolder/");
  sub->add_flag("--json", a->json, "machine-readable output (docs/cli.md)");
  cli.add_read_options(*sub);
  sub->callback([&cli, a] {
    a->json = a->json || cli.json;  // the global --json too
    std::vector<std::filesystem::path> in(a->inputs.begin(), a->inputs.end());
    auto rep = oni_check_report(in, cli.read, cli.progress());
    if (!rep) return cli.fail(report(rep.error()));
    if (a->json) {
      print_json(oni_check_json(*rep));
    } else {
      for (const auto& d : rep->diags.items())
        if (d.severity != Severity::note)
          std::cout << (d.where.file.empty() ? "" : d.where.file + ": ") << diagnostic_text(d) << '\n';
      Json rows = Json::array();
      for (const auto& l : rep->levels) {
        std::string files;
        for (const auto& f : l.files) files += (files.empty() ? "" : ",") + f;
        rows.push_back({{"level", l.level}, {"instances", l.instances}, {"placeholders", l.placeholders}, {"links", l.links},
                        {"into_level0", l.into_level0 ? Json(*l.into_level0) : Json(nullptr)}, {"unresolved", l.unresolved},
                        {"problems", l.problems}, {"files", files}});
      }
      print_table(rows, {"level", "instances", "placeholders", "links", "into_level0", "unresolved", "problems", "files"});
      std::cout << fmt::format("all: levels={} instances={} links={} hash={:08x}\n", rep->levels.size(), rep->instances, rep->links, rep->hash);
    }
    if (!rep->ok()) cli.fail(kExitProblems);
  });
}

void add_layouts(Cli& cli, CLI::App& oni) {
  auto exe = std::make_shared<std::string>();
  auto set = std::make_shared<std::string>();
  auto* sub = oni.add_subcommand("layouts", "print the built-in layouts, or those extracted from Oni.exe (spec oni.md#oni-5-2)");
  sub->add_option("--exe", *exe, "Windows Oni.exe v1.0");
  sub->add_option("--set", *set, "only one built-in set: v1.0 or v1.1")->check(CLI::IsMember({"v1.0", "v1.1"}));
  example(*sub, "assay oni layouts --exe Oni.exe > oni-layouts.txt");
  sub->callback([&cli, exe, set] {
    if (exe->empty()) {
      std::optional<TemplateSet> only;
      if (!set->empty()) only = *set == "v1.0" ? TemplateSet::v10 : TemplateSet::v11;
      std::cout << builtin_layouts_file(only);
      return;
    }
    auto text = layouts_text_from_exe(*exe);
    if (!text) return cli.fail(report(text.error()));
    std::cout << *text;
  });
}

void add_pack(Cli& cli) {
  struct Args {
    std::string out, dir, layouts, exe;
    PackOptions opt;
  };
  auto a = std::make_shared<Args>();
  auto* sub = cli.pack->add_subcommand("oni", "build levelN_X.dat + .raw (+ .sep) from the .oni files of DIR");
  sub->add_option("-o,--output", a->out, "output level<N>_<suffix>.dat")->required();
  sub->add_option("dir", a->dir, "folder of .oni files (noimport folders skipped)")->required();
  sub->add_flag("--sep", a->opt.sep, "write a .sep file (needed when instances have .sep data)");
  sub->add_flag("-f,--force", a->opt.force, "overwrite existing files");
  sub->add_option("--layouts", a->layouts, "layouts file (spec oni.md#oni-5)");
  sub->add_option("--exe", a->exe, "Oni.exe to take the layouts from");
  example(*sub, "assay pack oni -o level1_Final.dat exported/");
  sub->callback([&cli, a] {
    std::map<std::string, std::string> fam;
    if (!a->layouts.empty()) fam["layouts"] = a->layouts;
    if (!a->exe.empty()) fam["exe"] = a->exe;
    auto layouts = layouts_for(fam, a->dir);
    if (!layouts) return cli.fail(report(layouts.error()));
    Diagnostics diags;
    a->opt.progress = cli.progress();
    auto st = pack_level(a->dir, a->out, *layouts, a->opt, diags);
    for (const auto& d : diags.items()) std::fprintf(stderr, "%s\n", diagnostic_text(d).c_str());
    if (!st) return cli.fail(report(st.error()));
    if (!cli.quiet)
      std::fprintf(stderr, "%s: %llu instances (%llu placeholders) from %llu .oni files\n", a->out.c_str(),
                   static_cast<unsigned long long>(st->instances), static_cast<unsigned long long>(st->placeholders),
                   static_cast<unsigned long long>(st->oni_files));
  });
}

}  // namespace

void register_oni(Cli& cli) {
  cli.read_option_hooks.push_back([](CLI::App& sub, ReadOptions& ro) {
    sub.add_option_function<std::string>("--layouts", [&ro](const std::string& v) { ro.family["layouts"] = v; },
                                         "oni: layouts file (spec oni.md#oni-5)");
    sub.add_option_function<std::string>("--exe", [&ro](const std::string& v) { ro.family["exe"] = v; },
                                         "oni: take the layouts from Oni.exe");
    if (sub.get_name() == "extract") {
      sub.add_flag_callback("--sounds", [&ro] { ro.family["sounds"] = "1"; }, "oni: write every SNDD as 16-bit PCM WAV");
      sub.add_flag_callback("--adpcm", [&ro] { ro.family["adpcm"] = "1"; },
                            "oni: write every SNDD's data as stored (MS ADPCM WAV, IMA4 AIFC)");
    }
  });
  cli.hashes["oni-file-id"] = [&cli](const std::string& name) -> std::string {
    auto n = parse_level_file_name(name);
    if (!n) {
      std::fprintf(stderr, "assay: %s\n", n.error().str().c_str());
      cli.fail(kExitProblems);
      return "invalid";
    }
    return hex8(n->file_id);
  };
  if (cli.wants("oni")) {
    auto* oni = cli.app.add_subcommand("oni", "Oni level sets: check, layouts");
    example(*oni, "assay oni check GameDataFolder/");
    oni->require_subcommand(1);
    add_check(cli, *oni);
    add_layouts(cli, *oni);
  }
  if (cli.pack != nullptr) add_pack(cli);
}

}  // namespace assay::cli
