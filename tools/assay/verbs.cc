// The common verbs: identify, info, list, extract, verify, hash, formats.
#include <fmt/format.h>

#include <iostream>

#include "assay/core/glob.h"
#include "assay/core/hash.h"
#include "assay/core/progress.h"
#include "cli.h"

namespace assay::cli {

namespace {

struct Args {
  std::vector<std::string> files;  // verbs over many files
  std::string file;                // verbs over one file
  std::vector<std::string> globs;
  std::string out_dir;
  bool json = false;
  bool force = false;
  bool mips = false;
};

int do_identify(Cli& cli, const Args& a) {
  Json files = Json::array();
  int rc = kExitOk;
  for (const auto& f : a.files) {
    auto in = open_input(f);
    const Format* fmt = in ? identify_format(*in) : nullptr;
    if (!in) rc = std::max(rc, report(in.error()));
    else if (fmt == nullptr) rc = std::max(rc, kExitProblems);
    if (a.json) {
      files.push_back({{"file", f}, {"format", fmt ? Json(fmt->name) : Json(nullptr)}});
    } else if (in) {
      std::cout << f << ": " << (fmt ? fmt->name : std::string_view("unknown")) << '\n';
    }
  }
  if (a.json) print_json({{"files", files}});
  (void)cli;
  return rc;
}

// Opens the input and its format; on failure reports and returns the exit code.
template <class Fn>
int with_format(const std::string& file, Fn&& fn) {
  auto in = open_input(file);
  if (!in) return report(in.error());
  auto f = require_format(*in);
  if (!f) return report(f.error());
  return fn(*in, **f);
}

int unsupported(const Format& f, std::string_view verb) {
  std::fprintf(stderr, "assay: %s: `%.*s` is not supported for this format yet\n",
               std::string(f.name).c_str(), static_cast<int>(verb.size()), verb.data());
  return kExitUsage;
}

int do_info(Cli& cli, const Args& a) {
  return with_format(a.file, [&](const Input& in, const Format& f) {
    if (f.info == nullptr) return unsupported(f, "info");
    auto j = f.info(in, cli.read);
    if (!j) return report(j.error().in_file(in.name));
    a.json ? print_json(*j) : print_fields(*j);
    return kExitOk;
  });
}

int do_list(Cli& cli, const Args& a) {
  return with_format(a.file, [&](const Input& in, const Format& f) {
    if (f.list == nullptr) return unsupported(f, "list");
    auto j = f.list(in, cli.read);
    if (!j) return report(j.error().in_file(in.name));
    Json& entries = (*j)["entries"];
    if (!a.globs.empty()) {
      Json kept = Json::array();
      for (auto& e : entries)
        if (e.contains("name") && e["name"].is_string() && glob_any(a.globs, e["name"].get<std::string>()))
          kept.push_back(std::move(e));
      entries = std::move(kept);
    }
    if (a.json) print_json(*j);
    else print_table(entries, f.list_columns.empty() ? std::vector<std::string>{"index", "name"} : f.list_columns);
    return kExitOk;
  });
}

int do_extract(Cli& cli, const Args& a) {
  return with_format(a.file, [&](const Input& in, const Format& f) {
    if (f.extract == nullptr) return unsupported(f, "extract");
    OutputDir dir(a.out_dir, a.force);
    ExtractOptions x;
    x.globs = a.globs;
    x.mips = a.mips;
    Diagnostics diags;
    ReadOptions ro = cli.read;
    ro.progress = cli.progress();
    auto r = f.extract(in, ro, x, dir, diags);
    for (const auto& d : diags.items())
      std::fprintf(stderr, "%s: %s\n", in.name.c_str(), diagnostic_text(d).c_str());
    if (!r) return report(r.error().in_file(in.name));
    if (!cli.quiet)
      std::fprintf(stderr, "%s: extracted %llu files (%llu bytes) to %s\n", in.name.c_str(),
                   static_cast<unsigned long long>(r->files), static_cast<unsigned long long>(r->bytes),
                   a.out_dir.c_str());
    return diags.has_errors() ? kExitProblems : kExitOk;
  });
}

int do_verify(Cli& cli, const Args& a) {
  Json files = Json::array();
  int rc = kExitOk;
  for (const auto& file : a.files) {
    Diagnostics diags;
    std::string fmt_name;
    auto in = open_input(file);
    if (!in) {
      rc = std::max(rc, report(in.error()));
      continue;
    }
    auto f = require_format(*in);
    if (!f) {
      diags.error(f.error());
    } else {
      fmt_name = std::string((*f)->name);
      if ((*f)->verify == nullptr) return unsupported(**f, "verify");
      ReadOptions ro = cli.read;
      ro.progress = cli.progress();
      (*f)->verify(*in, ro, diags);
      if (ro.deep) verify_inner_files(**f, *in, ro, diags);
    }
    if (diags.has_errors()) rc = std::max(rc, kExitProblems);
    if (a.json) {
      Json problems = Json::array();
      for (const auto& d : diags.items()) problems.push_back(diagnostic_json(d));
      files.push_back({{"file", file},
                       {"format", fmt_name.empty() ? Json(nullptr) : Json(fmt_name)},
                       {"ok", !diags.has_errors()},
                       {"errors", diags.count(Severity::error)},
                       {"warnings", diags.count(Severity::warning)},
                       {"problems", problems}});
    } else {
      for (const auto& d : diags.items()) std::cout << file << ": " << diagnostic_text(d) << '\n';
      std::cout << file << ": " << (diags.has_errors() ? "FAILED" : "ok") << " ("
                << diags.count(Severity::error) << " errors, " << diags.count(Severity::warning)
                << " warnings)\n";
    }
  }
  if (a.json) print_json({{"files", files}});
  return rc;
}

void add_hash(Cli& cli) {
  cli.hashes["crc32"] = [](const std::string& s) { return hex8(crc32(s)); };
  cli.hashes["fnv1a"] = [](const std::string& s) { return hex8(fnv1a32(s)); };
  auto* sub = cli.app.add_subcommand("hash", "print the hash of each STRING (8 hex digits)");
  cli.hash = sub;
  auto algo = std::make_shared<std::string>();
  auto strs = std::make_shared<std::vector<std::string>>();
  sub->add_option("algorithm", *algo, "crc32, fnv1a, or a family's algorithm")->required();
  sub->add_option("strings", *strs, "strings to hash")->required();
  sub->callback([&cli, algo, strs] {
    auto it = cli.hashes.find(*algo);
    if (it == cli.hashes.end()) {
      std::string known;
      for (const auto& [k, v] : cli.hashes) known += (known.empty() ? "" : ", ") + k;
      std::fprintf(stderr, "assay: unknown hash '%s' (known: %s)\n", algo->c_str(), known.c_str());
      cli.fail(kExitUsage);
      return;
    }
    for (const auto& s : *strs) std::cout << it->second(s) << '\n';
  });
}

}  // namespace

void register_common(Cli& cli) {
  cli.app.add_flag("-q,--quiet", cli.quiet, "no progress or summary lines on stderr");
  cli.pack = cli.app.add_subcommand("pack", "build a container from a folder");
  cli.pack->require_subcommand(1);
  auto* formats = cli.app.add_subcommand("formats", "list the formats assay knows");
  formats->callback([] {
    for (const Format* f : all_formats()) std::cout << f->name << "\t" << f->description << '\n';
  });
  add_hash(cli);
  auto* samples = cli.app.add_subcommand("make-samples", "write small demo files made by assay's own writers");
  auto dir = std::make_shared<std::string>();
  samples->add_option("dir", *dir, "output folder")->required();
  samples->callback([&cli, dir] {
    std::filesystem::create_directories(*dir);
    for (const Format* f : all_formats()) {
      if (f->write_samples == nullptr) continue;
      auto names = f->write_samples(*dir);
      if (!names) {
        cli.fail(report(names.error()));
        continue;
      }
      for (const auto& n : *names) std::cout << f->name << ": " << n << '\n';
    }
  });
}

void register_verbs(Cli& cli) {
  auto args = std::make_shared<Args>();
  struct Verb {
    const char* name;
    const char* help;
    int (*run)(Cli&, const Args&);
    bool many, globs, json;
  };
  const Verb verbs[] = {
      {"identify", "name the format of each FILE", do_identify, true, false, true},
      {"info", "print the header of FILE", do_info, false, false, true},
      {"list", "list the entries of FILE, optionally filtered by GLOBs", do_list, false, true, true},
      {"extract", "extract entries of FILE to -o DIR", do_extract, false, true, false},
      {"verify", "check each FILE against every rule of its spec", do_verify, true, false, true},
  };
  for (const Verb& v : verbs) {
    auto* sub = cli.app.add_subcommand(v.name, v.help);
    if (v.many) {
      sub->add_option("files", args->files, "input files (ARCHIVE::INNER reads an inner file)")->required();
    } else {
      sub->add_option("file", args->file, "input file (ARCHIVE::INNER reads an inner file)")->required();
    }
    if (v.globs) sub->add_option("globs", args->globs, "select entries by name");
    if (v.json) sub->add_flag("--json", args->json, "machine-readable output (docs/cli.md)");
    if (std::string_view(v.name) == "extract") {
      sub->add_option("-o,--output", args->out_dir, "output folder")->required();
      sub->add_flag("-f,--force", args->force, "overwrite existing files");
      sub->add_flag("--mips", args->mips, "textures: write every mip level");
    }
    if (std::string_view(v.name) == "verify")
      sub->add_flag("--deep", cli.read.deep, "also verify every file inside a container");
    cli.add_read_options(*sub);
    sub->callback([&cli, args, run = v.run] { cli.fail(run(cli, *args)); });
  }
}

}  // namespace assay::cli
