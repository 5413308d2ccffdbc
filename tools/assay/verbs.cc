// The common verbs: identify, info, list, extract, verify, hash, formats. Every input path
// (A::B::C to any depth) is opened through the container model (include/assay/container.h):
// the container is parsed once, entries are found by a hash lookup, and the JSON printed is the
// container serialiser's (docs/cli.md#json, docs/schema/).
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>

#include "assay/family.h"
#include "assay/container.h"
#include "assay/ops.h"
#include "assay/core/extract_each.h"
#include "assay/core/glob.h"
#include "assay/core/hash.h"
#include "assay/core/suggest.h"
#include "assay/core/text.h"
#include "assay/core/progress.h"
#include "assay/core/thread_pool.h"
#include "cli.h"
#include "formats/serialise.h"
#include "formats/text_printer.h"

namespace assay::cli {

namespace {

struct Args {
  std::vector<std::string> files;  // verbs over many files
  std::string file;                // verbs over one file
  std::vector<std::string> globs;
  std::vector<std::string> excludes;
  std::string out_dir;
  bool json = false;
  bool force = false;
  bool skip_existing = false;
  bool stop_on_error = false;
  bool mips = false;
  bool stored = false;
  bool gltf = false;
  bool notes = false;  // verify: print notes too
  bool human = false;  // list -h: sizes in K, M, G
  unsigned depth = 1;
};

// A file or entry name as printed in text output: control characters and bytes that are not
// UTF-8 escaped (docs/cli.md#escaping), so a name cannot drive the terminal or split a line.
std::string esc(std::string_view s) { return escape_terminal(s); }

bool has_glob_chars(std::string_view s) { return s.find_first_of("*?[") != std::string_view::npos; }

Result<ContainerOptions> options_of(const Cli& cli, bool progress) {
  ReadOptions ro = cli.read;
  ro.progress = progress && cli.progress();
  return container_options(ro);
}

// The library's hint for unrecognised input, printed after the error.
int report_open_error(const Error& e, const std::string& spec) {
  const int rc = report(e);
  const auto sep = spec.rfind("::");
  if (e.kind == ErrorKind::usage && sep != std::string::npos && has_glob_chars(spec.substr(sep + 2)))
    std::fprintf(stderr, "assay: hint: '::' names one inner file; to select entries by a pattern, give it after the "
                         "file: assay list %s '%s', or assay extract %s '%s' -o DIR\n",
                 esc(spec.substr(0, sep)).c_str(), esc(spec.substr(sep + 2)).c_str(), esc(spec.substr(0, sep)).c_str(),
                 esc(spec.substr(sep + 2)).c_str());
  // The hint looks at an outer file only: resolving A::B again would decode the inner file
  // whole just for a hint (`info A::B` stays within one block).
  if (e.code == "unrecognised" && sep == std::string::npos) {
    auto in = resolve_path(spec);
    if (in) {
      const std::string hint = unrecognised_hint(*in);
      if (!hint.empty()) std::fprintf(stderr, "assay: %s: hint: %s\n", esc(spec).c_str(), hint.c_str());
    }
  }
  return rc;
}

// For A::B: false when B's first bytes already show no family claims it, so identify need not
// decode it whole (Container::may_hold_format). True otherwise, and on any error
// (the full resolve then reports it).
bool inner_may_hold_format(const Cli& cli, const std::string& spec) {
  const auto sep = spec.rfind("::");
  if (sep == std::string::npos) return true;
  auto opt = options_of(cli, false);
  if (!opt) return true;
  auto parent = open_path(spec.substr(0, sep), *opt);
  if (!parent) return true;
  const Entry* e = (*parent)->find(spec.substr(sep + 2));
  if (e == nullptr) return true;
  auto maybe = (*parent)->may_hold_format(*e);
  return !maybe.ok() || *maybe;
}

int do_identify(Cli& cli, const Args& a) {
  Json files = Json::array();
  int rc = kExitOk;
  auto list = expand_listfiles(a.files);
  if (!list) return report(list.error());
  for (const auto& f : *list) {
    if (!inner_may_hold_format(cli, f)) {  // unknown from its first block
      rc = std::max(rc, kExitProblems);
      if (a.json) files.push_back({{"file", f}, {"format", nullptr}});
      else std::cout << esc(f) << ": unknown\n";
      continue;
    }
    auto in = open_input(f);
    const Family* fmt = in ? identify_family(*in) : nullptr;
    if (!in) rc = std::max(rc, report(in.error()));
    else if (fmt == nullptr) rc = std::max(rc, kExitProblems);
    if (in && fmt == nullptr && !a.json) {
      const std::string hint = unrecognised_hint(*in);
      if (!hint.empty()) std::fprintf(stderr, "assay: %s: hint: %s\n", esc(f).c_str(), hint.c_str());
    }
    if (a.json) {
      files.push_back({{"file", f}, {"format", fmt ? Json(fmt->name) : Json(nullptr)}});
    } else if (in) {
      std::cout << esc(f) << ": " << (fmt ? fmt->name : std::string_view("unknown")) << '\n';
    }
  }
  if (a.json) print_json({{"files", files}});
  return rc;
}

// Opens FILE or A::B::C as a container; on failure reports and returns nullptr + the code.
std::unique_ptr<Container> open_or_report(const Cli& cli, const std::string& spec, bool progress, int& rc) {
  auto opt = options_of(cli, progress);
  if (!opt) {
    rc = report(opt.error());
    return nullptr;
  }
  auto c = open_path(spec, *opt);
  if (!c) {
    rc = report_open_error(c.error(), spec);
    return nullptr;
  }
  return std::move(*c);
}

// The selection of `extract`/`list`: GLOBs and --exclude (both with @LIST), --skip-existing,
// --stop-on-error, --mips. Exact names go through Container::find (container.h extract_policy).
Result<ExtractOptions> extract_options_of(const Args& a) {
  ExtractOptions x;
  ASSAY_TRY(x.globs, expand_listfiles(a.globs));
  ASSAY_TRY(x.excludes, expand_listfiles(a.excludes));
  x.mips = a.mips;
  x.stored = a.stored;
  x.gltf = a.gltf;
  x.skip_existing = a.skip_existing;
  x.stop_on_error = a.stop_on_error;
  return x;
}

// Every selector that matched nothing is named, with the closest one that selects something
// (suggest_entry: "did you mean", as for verbs); selecting nothing with a filter exits 1.
int report_selection(const std::string& file, const std::vector<std::string>& unmatched, std::uint64_t selected,
                     bool filtered, const Container* c = nullptr) {
  for (const auto& g : unmatched) {
    const std::string near = c ? suggest_entry(*c, g) : std::string();
    if (!near.empty())
      std::fprintf(stderr, "assay: %s: no entry matches '%s'; did you mean '%s'?\n", esc(file).c_str(), esc(g).c_str(),
                   esc(near).c_str());
    else
      std::fprintf(stderr, "assay: %s: no entry matches '%s' (`assay list %s` shows the names)\n", esc(file).c_str(),
                   esc(g).c_str(), esc(file).c_str());
  }
  if (filtered && selected == 0) {
    std::fprintf(stderr, "assay: %s: nothing selected\n", esc(file).c_str());
    return kExitProblems;
  }
  return unmatched.empty() ? kExitOk : kExitProblems;
}

bool filtered(const Args& a) { return !a.globs.empty() || !a.excludes.empty(); }

// Errors about a whole file that still opened, in the "problems" of its info/list JSON (a
// truncated RenderWare TXD lists what is intact): on stderr in text mode, and
// exit 1 either way (7-Zip's "unexpected end of data").
int report_file_errors(const std::string& file, const Json& j, bool json) {
  if (!j.contains("problems") || !j["problems"].is_array()) return kExitOk;
  int rc = kExitOk;
  for (const Json& p : j["problems"]) {
    if (!p.is_object() || p.value("severity", std::string()) != "error") continue;
    rc = kExitProblems;
    if (json) continue;
    const std::string where = p.contains("structure") && p["structure"].is_string() ? p["structure"].get<std::string>() : "";
    const std::string at = p.contains("offset") && p["offset"].is_number_unsigned()
                               ? fmt::format(" at 0x{:x}", p["offset"].get<std::uint64_t>()) : "";
    std::fprintf(stderr, "assay: %s: error: %s%s: %s\n", esc(file).c_str(), esc(where).c_str(), at.c_str(),
                 esc(p.value("message", std::string())).c_str());
  }
  return rc;
}

int do_info(Cli& cli, const Args& a) {
  int rc = kExitOk;
  auto c = open_or_report(cli, a.file, false, rc);
  if (!c) return rc;
  auto j = info_json(*c);
  if (!j) return report(j.error().in_file(a.file));
  if (a.json) {
    print_json(*j);
  } else {  // the same fields through the text printer
    detail::TextPrinter text(std::cout);
    text.field("format", c->format());
    (void)c->print_info(text);
  }
  return report_file_errors(a.file, *j, a.json);
}

std::vector<std::string> columns_for(std::string_view family) {
  const Family* f = find_family(family);
  if (f == nullptr || f->list_columns.empty()) return {"index", "name"};
  return f->list_columns;
}

// Text `list`: the family's columns, with "packed" after "size" when some
// entry's stored size differs from its size (compressed data), sizes in human units with -h,
// and a totals line.
void print_list_text(const Json& entries, std::vector<std::string> columns, bool human) {
  std::uint64_t count = 0, size = 0, stored = 0, unsized = 0;
  bool packed = false;
  for (const Json& e : entries) {
    ++count;
    const Json n = e.value("size", Json()), p = e.value("stored_size", Json());
    if (n.is_number_unsigned()) size += n.get<std::uint64_t>();
    else ++unsized;
    if (p.is_number_unsigned()) stored += p.get<std::uint64_t>();
    packed = packed || (p.is_number_unsigned() && n.is_number_unsigned() && p != n);
  }
  if (packed && std::find(columns.begin(), columns.end(), "packed") == columns.end()) {
    auto at = std::find(columns.begin(), columns.end(), "size");
    columns.insert(at == columns.end() ? std::find(columns.begin(), columns.end(), "name") : at + 1, "packed");
  }
  const auto text = [&](std::uint64_t n) { return human ? human_size(n) : std::to_string(n); };
  Json rows = Json::array();
  for (const Json& e : entries) {
    Json r = e;
    if (packed) r["packed"] = e.value("stored_size", Json());
    if (human)
      for (const char* k : {"size", "packed"})
        if (r.contains(k) && r[k].is_number_unsigned()) r[k] = human_size(r[k].get<std::uint64_t>());
    rows.push_back(std::move(r));
  }
  print_table(rows, columns);
  std::string total = fmt::format("total: {} {}, size {}", count, count == 1 ? "entry" : "entries", text(size));
  if (packed) total += ", packed " + text(stored);
  if (unsized != 0) total += fmt::format(" ({} without a size)", unsized);
  std::cout << total << '\n';
}

int do_list(Cli& cli, const Args& a) {
  int rc = kExitOk;
  auto c = open_or_report(cli, a.file, false, rc);
  if (!c) return rc;
  auto x = extract_options_of(a);
  if (!x) return report(x.error());
  std::vector<std::string> unmatched;
  const auto chosen = select_items(extract_items(*c), extract_policy(*c, *x), &unmatched);
  Json j = list_json(*c, std::span<const std::size_t>(chosen));
  if (a.json) {
    print_json(j);
  } else {
    // A family's warning about the whole file (a truncated WAD) goes to stderr, not into the table.
    if (j.contains("warning") && j["warning"].is_string())
      std::fprintf(stderr, "assay: %s: warning: %s\n", esc(a.file).c_str(), esc(j["warning"].get<std::string>()).c_str());
    print_list_text(j["entries"], columns_for(c->format()), a.human);
  }
  return std::max(report_file_errors(a.file, j, a.json),
                  report_selection(a.file, unmatched, chosen.size(), filtered(a), c.get()));
}

// ---- extract ----
// Every family's Format::extract goes through core's extract_each (selection, --skip-existing,
// keep-going, progress): the entries' bytes (igarchive, warriors, igz: container.h
// extract_entries), decoded textures (RenderWare), exported .oni files (Oni). The report is
// printed here, the same for all.
// OutputDir's refusal to replace a file without --force (core/output.cc).
// A folder in the way is not one of them: it stays a line of its own.
bool is_existing_file_error(const Error& e) {
  std::error_code ec;
  return e.kind == ErrorKind::io && e.message.starts_with("exists (use --force") &&
         !(!e.file.empty() && std::filesystem::is_directory(e.file, ec));
}

int report_extract(const Cli& cli, const Args& a, const ExtractStats& st, const Container* c = nullptr) {
  int rc = report_selection(a.file, st.unmatched, st.selected, filtered(a), c);
  std::uint64_t existing = 0;  // files already there (no --force): one summary line, not one a file
  std::string first_existing;
  for (const ExtractFailure& f : st.failed) {
    rc = std::max(rc, exit_code_for(f.error));
    if (is_existing_file_error(f.error)) {
      if (existing++ == 0) first_existing = f.name;
      continue;
    }
    std::fprintf(stderr, "assay: %s: %s: not extracted: %s\n", esc(a.file).c_str(), esc(f.name).c_str(),
                 esc(f.error.str()).c_str());
  }
  if (existing != 0)  // exit 2 (docs/cli.md#exit-codes: an existing file without --force)
    std::fprintf(stderr, "assay: %s: %llu %s in %s (%s%s); use --force to overwrite or --skip-existing to keep them\n",
                 esc(a.file).c_str(), static_cast<unsigned long long>(existing), existing == 1 ? "file exists" : "files exist",
                 esc(a.out_dir).c_str(), existing == 1 ? "" : "the first: ", esc(first_existing).c_str());
  if (cli.quiet) return rc;
  std::fprintf(stderr, "%s: extracted %llu files (%llu bytes) to %s", esc(a.file).c_str(),
               static_cast<unsigned long long>(st.files), static_cast<unsigned long long>(st.bytes), esc(a.out_dir).c_str());
  if (st.skipped) std::fprintf(stderr, ", %llu existing skipped", static_cast<unsigned long long>(st.skipped));
  if (existing) std::fprintf(stderr, ", %llu existing not overwritten", static_cast<unsigned long long>(existing));
  if (st.failed.size() > existing) std::fprintf(stderr, ", %llu not extracted", static_cast<unsigned long long>(st.failed.size() - existing));
  std::fprintf(stderr, "\n");
  return rc;
}

// `rc` becomes 1 when the family reports errors of the file itself (the walk, the dictionary).
Result<ExtractStats> extract_entries_of(const Args& a, const Container& c, const OutputDir& dir, int& rc) {
  ASSAY_TRY(ExtractOptions x, extract_options_of(a));
  Diagnostics diags;
  auto r = assay::extract(c, x, dir, diags);
  for (const auto& d : diags.items())  // errors and warnings; notes as verify shows them (--notes)
    if (a.notes || d.severity != Severity::note) std::fprintf(stderr, "%s: %s\n", esc(a.file).c_str(), diagnostic_text(d).c_str());
  if (diags.has_errors()) rc = kExitProblems;
  return r;
}

int extract_one(Cli& cli, const Args& a, const Container& c) {
  int rc = kExitOk;
  OutputDir dir(a.out_dir, a.force);
  auto st = extract_entries_of(a, c, dir, rc);
  if (!st) return report(st.error().in_file(a.file));
  return std::max(rc, report_extract(cli, a, *st, &c));
}

// `extract A.pak B.pak ... -o DIR [GLOB...]` (docs/cli.md#extract-many): after
// the first archive, an argument is another archive when it is an existing file or folder that
// assay recognises and no entry of the first archive has that exact name; any other argument
// is a name or GLOB, applied to every archive.
bool is_another_archive(const Container& first, const std::string& arg) {
  std::error_code ec;
  if (arg.empty() || arg.front() == '@' || !std::filesystem::exists(arg, ec) || first.find(arg) != nullptr) return false;
  auto in = resolve_path(arg);
  return in && identify_family(*in) != nullptr;
}

// The folder under DIR an archive extracts into when there are several: its file name
// (`out/zap.pak/`; for A::B the inner file's name).
std::string archive_folder_name(const std::string& spec) {
  std::string name = spec.substr(spec.rfind("::") == std::string::npos ? 0 : spec.rfind("::") + 2);
  while (name.size() > 1 && (name.back() == '/' || name.back() == '\\')) name.pop_back();
  const auto slash = name.find_last_of("/\\");
  return slash == std::string::npos ? name : name.substr(slash + 1);
}

int do_extract(Cli& cli, const Args& a) {
  if (a.force && a.skip_existing) {
    std::fprintf(stderr, "assay: --force and --skip-existing exclude each other\n");
    return kExitUsage;
  }
  int rc = kExitOk;
  auto c = open_or_report(cli, a.file, true, rc);
  if (!c) return rc;
  Args one = a;
  one.globs.clear();
  std::vector<std::string> archives{a.file};
  for (const std::string& g : a.globs) (is_another_archive(*c, g) ? archives : one.globs).push_back(g);
  if (archives.size() == 1) return extract_one(cli, one, *c);
  std::map<std::string, std::string> folders;  // folder name -> archive
  for (const std::string& f : archives) {
    const std::string name = archive_folder_name(f);
    auto [it, fresh] = folders.emplace(name, f);
    if (!fresh || name.empty() || name == "." || name == "..")
      return report(usage_error(fmt::format("{} and {} would both extract into {}/{}/: extract them one at a time",
                                            it->second, f, a.out_dir, name)));
  }
  for (std::size_t i = 0; i < archives.size(); ++i) {
    one.file = archives[i];
    one.out_dir = (std::filesystem::path(a.out_dir) / archive_folder_name(archives[i])).string();
    int open_rc = kExitOk;
    if (i > 0) c = open_or_report(cli, archives[i], true, open_rc);
    rc = std::max(rc, c ? extract_one(cli, one, *c) : open_rc);
    c.reset();
  }
  return rc;
}

// ---- verify ----
// The text report of one file: errors and warnings, notes only with --notes
// (their count follows the verdict when hidden); -q prints the verdict line alone.
void print_verify_text(const Cli& cli, const Args& a, const std::string& file, const Diagnostics& diags) {
  const std::size_t notes = diags.count(Severity::note);
  if (!cli.quiet)
    for (const auto& d : diags.items())
      if (a.notes || d.severity != Severity::note) std::cout << esc(file) << ": " << diagnostic_text(d) << '\n';
  std::cout << esc(file) << ": " << (diags.has_errors() ? "FAILED" : "ok") << " (" << diags.count(Severity::error)
            << " errors, " << diags.count(Severity::warning) << " warnings)";
  if (notes != 0 && !a.notes) std::cout << ", " << notes << (notes == 1 ? " note" : " notes") << " not shown (--notes)";
  std::cout << '\n';
}

// Verifies one input: through its container (and its inner files with --deep) when it opens,
// else with the family's verify alone (which reports why a broken file does not open).
int verify_one(Cli& cli, const Args& a, const std::string& file, Json& files) {
  auto opt = options_of(cli, true);
  if (!opt) return report(opt.error());
  const DeepOptions deep{a.depth, opt->threads, opt->progress};
  auto v = verify_file(file, *opt, cli.read.deep ? &deep : nullptr);
  if (!v) {  // a file that cannot be read is still one of --json's files, not ok (code "io" when none)
    if (a.json) {
      Diagnostics d;
      d.add({Severity::error, v.error().code.empty() ? v.error().with_code("io") : v.error()});
      files.push_back(verify_json(file, std::nullopt, d));
    }
    return report_open_error(v.error(), file);
  }
  const Diagnostics& diags = v->diags;
  const std::optional<std::string>& fmt_name = v->family;
  if (!v->hint.empty() && !a.json) std::fprintf(stderr, "assay: %s: hint: %s\n", esc(file).c_str(), v->hint.c_str());
  if (a.json) {
    files.push_back(verify_json(file, fmt_name, diags));
  } else {
    print_verify_text(cli, a, file, diags);
  }
  return diags.has_errors() ? kExitProblems : kExitOk;
}

int do_verify(Cli& cli, const Args& a) {
  Json files = Json::array();
  int rc = kExitOk;
  auto list = expand_listfiles(a.files);
  if (!list) return report(list.error());
  for (const auto& file : *list) rc = std::max(rc, verify_one(cli, a, file, files));
  if (a.json) print_json({{"files", files}});
  return rc;
}

void add_hash(Cli& cli) {
  cli.hashes["crc32"] = [](const std::string& s) { return hex8(crc32(s)); };
  cli.hashes["fnv1a"] = [](const std::string& s) { return hex8(fnv1a32(s)); };
  if (!cli.wants("hash")) return;
  auto* sub = cli.app.add_subcommand("hash", "print the hash of each STRING (8 hex digits)");
  cli.hash = sub;
  auto algo = std::make_shared<std::string>();
  auto strs = std::make_shared<std::vector<std::string>>();
  sub->add_option("algorithm", *algo, "crc32, fnv1a, or a family's algorithm")->required();
  sub->add_option("strings", *strs, "strings to hash")->required();
  example(*sub, "assay hash crc32 123456789");
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

void add_make_samples(Cli& cli) {
  auto* samples = cli.app.add_subcommand("make-samples", "write small demo files made by assay's own writers");
  auto dir = std::make_shared<std::string>();
  samples->add_option("dir", *dir, "output folder")->required();
  example(*samples, "assay make-samples demo/");
  samples->callback([&cli, dir] {
    std::filesystem::create_directories(*dir);
    for (const Family* f : families()) {
      if (f->write_samples == nullptr) continue;
      auto names = f->write_samples(*dir);
      if (!names) {
        cli.fail(report(names.error()));
        continue;
      }
      for (const auto& n : *names) std::cout << f->name << ": " << esc(n) << '\n';
    }
  });
}

}  // namespace

// The one nearest-word rule, shared with the entry-name suggestions (core/suggest.h).
std::string closest(std::string_view word, const std::vector<std::string>& known) { return closest_word(word, known); }

void install_suggestions(Cli& cli) {
  cli.app.failure_message([](const CLI::App* app, const CLI::Error& e) -> std::string {
    // CLI11's own message ("--output is required", ...) with the program's prefix.
    std::string msg = "assay: " + CLI::FailureMessage::simple(app, e);
    const CLI::App* verb = nullptr;
    for (auto subs = app->get_subcommands(); !subs.empty(); subs = verb->get_subcommands()) verb = subs.back();
    std::string extra;
    for (const std::string& w : app->remaining(true)) {
      const auto kinds = verb ? verb->get_subcommands([](const CLI::App*) { return true; }) : std::vector<const CLI::App*>{};
      if (!w.empty() && w.front() != '-' && !kinds.empty()) {  // `pack foo`: a kind the verb does not have
        std::vector<std::string> names;
        for (const CLI::App* k : kinds) names.push_back(k->get_name());
        const std::string s = closest(w, names);
        return fmt::format("assay: {}: unknown kind '{}'{}\nRun `assay {} --help` for the kinds.\n", verb->get_name(), w,
                           s.empty() ? "" : fmt::format("; did you mean '{}'?", s), verb->get_name());
      }
      if (!w.empty() && w.front() == '-') {
        std::vector<std::string> names;
        for (const CLI::App* a : {app, verb}) {
          if (a == nullptr) continue;
          for (const CLI::Option* o : a->get_options()) {
            for (const auto& l : o->get_lnames()) names.push_back("--" + l);
            for (const auto& s : o->get_snames()) names.push_back("-" + s);
          }
        }
        const std::string name = w.substr(0, w.find('='));
        const std::string s = closest(name, names);
        extra += fmt::format("assay: unknown option '{}'{}\n", name, s.empty() ? "" : fmt::format("; did you mean '{}'?", s));
      } else if (verb == nullptr) {
        std::vector<std::string> names;
        for (const CLI::App* sub : app->get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
        const std::string s = closest(w, names);
        return fmt::format("assay: unknown verb '{}'{}\nRun `assay --help` for the verbs.\n", w,
                           s.empty() ? "" : fmt::format("; did you mean '{}'?", s));
      }
    }
    if (!extra.empty()) return extra + "Run with --help for the options.\n";  // not CLI11's line as well
    return msg;
  });
}

void add_global_options(Cli& cli) {
  cli.app.fallthrough();  // global options (-q, --threads, --json) anywhere on the line
  cli.app.add_flag("-q,--quiet", cli.quiet, "no progress or summary lines on stderr");
  cli.app.add_option("--threads", cli.read.threads, "worker threads (default: all cores)");
  cli.app.add_flag("--json", cli.json, "machine-readable output (docs/cli.md)");
}

void register_common(Cli& cli) {
  install_suggestions(cli);
  if (cli.wants("pack")) {
    cli.pack = cli.app.add_subcommand("pack", "build a container from a folder");
    cli.pack->require_subcommand(1);
    example(*cli.pack, "assay pack igarchive -o new.pak folder/   (`assay pack FAMILY --help` for each)");
  }
  if (cli.wants("formats")) {
    auto* formats = cli.app.add_subcommand("formats", "list the formats assay knows");
    example(*formats, "assay formats");
    formats->callback([] {
      for (const Family* f : families()) std::cout << f->name << "\t" << f->description << '\n';
    });
  }
  add_hash(cli);
  if (cli.wants("make-samples")) add_make_samples(cli);
}

void register_verbs(Cli& cli) {
  auto args = std::make_shared<Args>();
  struct Verb {
    const char* name;
    const char* help;
    int (*run)(Cli&, const Args&);
    bool many, globs, json;
    const char* example;
  };
  const Verb verbs[] = {
      {"identify", "name the format of each FILE", do_identify, true, false, true,
       "assay identify GAME/ bootstrap.bld level1.txd"},
      {"info", "print the header of FILE", do_info, false, false, true, "assay info --json bootstrap.bld::x.igz"},
      {"list", "list the entries of FILE, optionally filtered by GLOBs", do_list, false, true, true,
       "assay list bootstrap.bld '*.igz' --exclude 'levels/*'"},
      {"extract", "extract entries of FILE (of each ARCHIVE: into DIR/<its name>/) to -o DIR", do_extract, false, true, false,
       "assay extract bootstrap.bld -o out '*.igz' --skip-existing   (or: assay extract *.pak -o out)"},
      {"verify", "check each FILE against every rule of its spec", do_verify, true, false, true,
       "assay verify --deep --json bootstrap.bld GAME/"},
  };
  for (const Verb& v : verbs) {
    if (!cli.wants(v.name)) continue;
    auto* sub = cli.app.add_subcommand(v.name, v.help);
    example(*sub, v.example);
    if (v.many) {
      sub->add_option("files", args->files, "input files (A::B::C reads an inner file; @LIST reads names from LIST)")
          ->required();
    } else {
      sub->add_option("file", args->file, "input file (A::B::C reads an inner file)")->required();
    }
    if (v.globs) {
      const bool extract = std::string_view(v.name) == "extract";
      sub->add_option("globs", args->globs,
                      extract ? "more ARCHIVEs (existing files assay recognises, each into DIR/<its name>/), and names or "
                                "globs selecting entries (@LIST: one per line)"
                              : "select entries by name or glob (@LIST: one per line)");
      sub->add_option("--exclude", args->excludes, "leave out entries matching GLOB (repeatable, @LIST)");
    }
    if (v.json) sub->add_flag("--json", args->json, "machine-readable output (docs/cli.md)");
    if (std::string_view(v.name) == "extract") {
      sub->add_option("-o,--output", args->out_dir, "output folder")->required();
      auto* force = sub->add_flag("-f,--force", args->force, "overwrite existing files");
      sub->add_flag("--skip-existing", args->skip_existing, "leave existing files as they are")->excludes(force);
      sub->add_flag("--stop-on-error", args->stop_on_error, "stop at the first entry that cannot be extracted");
      sub->add_flag("--mips", args->mips, "textures: write every mip level");
      sub->add_flag("--stored", args->stored, "the bytes as stored, not converted to PNG, .oni, ...");
      sub->add_flag("--gltf", args->gltf, "models as NAME.gltf + NAME.bin + PNG files instead of one NAME.glb");
      sub->add_flag_callback("--textures", [&cli] { cli.read.family["textures"] = "1"; },
                             "textures as PNG where a family keeps the stored bytes otherwise (Oni TXMPs, igz images in an igArchive)");
      sub->add_flag_callback("--models", [&cli] { cli.read.family["models"] = "1"; },
                             "models as glTF where a family keeps the stored bytes otherwise (Oni M3GMs)");
      sub->add_flag("--notes", args->notes, "also print the file's notes (by default its errors and warnings only)");
    }
    if (std::string_view(v.name) == "verify") {
      sub->add_flag("--deep", cli.read.deep, "also verify every file inside a container");
      sub->add_option("--depth", args->depth, "with --deep: levels of inner files (default 1)");
      sub->add_flag("--notes", args->notes, "also print notes (by default errors and warnings only; --json has all)");
    }
    if (std::string_view(v.name) == "list") {  // -h is human sizes here (ls -h); --help stays
      sub->set_help_flag("--help", "Print this help message and exit");
      sub->add_flag("-h,--human-readable", args->human, "sizes in K, M, G (powers of 1024) in the text table");
    }
    if (std::string_view(v.name) != "identify") cli.add_read_options(*sub);  // identify reads no option
    family_help(*sub, [args] { return args->files.empty() ? args->file : args->files.front(); });
    sub->callback([&cli, args, run = v.run] {
      Args a = *args;
      a.json = a.json || cli.json;
      cli.fail(run(cli, a));
    });
  }
  register_cat(cli);
}

}  // namespace assay::cli
