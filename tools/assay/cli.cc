#include "cli.h"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "assay/family.h"
#include "assay/container.h"
#include "assay/ops.h"
#include "assay/core/progress.h"
#include "assay/core/text.h"
#include "formats/serialise.h"
#include "formats/text_printer.h"
#include "core/json_text.h"

namespace assay::cli {

void Cli::add_read_options(CLI::App& sub) {
  sub.add_option("--names", read.names_files, "name list file(s) that turn hashes back into names");
  sub.add_option("--threads", read.threads, "worker threads (default: all cores)");
  for (auto& hook : read_option_hooks) hook(sub, read);
  for (CLI::Option* o : sub.get_options()) in_family_group(o);  // the hooks' "<family>: ..." options
}

// ---- help by family ----
namespace {

struct FamilyGroup {
  std::string_view prefix;  // of the option's description
  std::string_view group;   // the help heading
  std::vector<std::string_view> families;
  // The families whose `extract` converts inner files that need the group: an igArchive's igz
  // images (the README's `assay extract zap.pak --textures`, with --mips; each igz opened with
  // --igz-pointer-size), an igz's own images (--mips).
  std::vector<std::string_view> extract_too;
};
const std::vector<FamilyGroup>& family_groups() {
  static const std::vector<FamilyGroup> groups{
      {"igarchive:", "igarchive options", {"igarchive"}, {}},
      {"igz:", "igz options", {"igz"}, {"igarchive"}},
      {"oni:", "oni options", {"oni"}, {}},
      {"textures", "texture options (renderware, oni; extract: igz, igarchive)", {"renderware", "oni"}, {"igz", "igarchive"}},
  };
  return groups;
}
const FamilyGroup* group_named(std::string_view group) {
  for (const FamilyGroup& g : family_groups())
    if (g.group == group) return &g;
  return nullptr;
}

// The family of FILE (A::B too), or "" when there is none or it does not open.
std::string family_of_file(const std::string& file) {
  if (file.empty()) return "";
  auto in = resolve_path(file);
  const Family* f = in ? identify_family(*in) : nullptr;
  return f == nullptr ? "" : std::string(f->name);
}

// CLI11's layout (Formatter::make_help) with the other families' groups left out when the verb's
// FILE is known.
class FamilyHelp final : public CLI::Formatter {
 public:
  explicit FamilyHelp(std::function<std::string()> file) : file_(std::move(file)) {}
  std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode mode) const override {
    if (mode == CLI::AppFormatMode::Sub) return make_expanded(app);
    const std::string file = file_ ? file_() : "";
    const std::string family = family_of_file(file);
    std::stringstream out;
    out << make_description(app);
    if (!family.empty())
      out << fmt::format("(the options for {}, a{} {} file; without a FILE, --help shows every family's)\n",
                         escape_terminal(file), family.front() == 'i' || family.front() == 'o' ? "n" : "", family);
    out << make_usage(app, name) << make_positionals(app);
    for (const std::string& group : app->get_groups()) {
      const FamilyGroup* g = group_named(group);
      const auto applies = [&] {
        const auto has = [&](const std::vector<std::string_view>& fs) { return std::find(fs.begin(), fs.end(), family) != fs.end(); };
        return has(g->families) || (app->get_name() == "extract" && has(g->extract_too));
      };
      if (g != nullptr && !family.empty() && !applies()) continue;
      auto opts = app->get_options([&](const CLI::Option* o) {
        return o->get_group() == group && o->nonpositional() && (mode != CLI::AppFormatMode::Sub || app->get_help_ptr() != o);
      });
      if (group.empty() || opts.empty()) continue;
      out << make_group(group, false, opts);
    }
    out << make_subcommands(app, mode) << '\n' << make_footer(app);
    return out.str();
  }

 private:
  std::function<std::string()> file_;
};

}  // namespace

CLI::Option* in_family_group(CLI::Option* o) {
  if (o == nullptr || o->get_positional()) return o;
  for (const FamilyGroup& g : family_groups())
    if (o->get_description().starts_with(g.prefix)) o->group(std::string(g.group));
  return o;
}

void family_help(CLI::App& verb, std::function<std::string()> file) {
  verb.formatter(std::make_shared<FamilyHelp>(std::move(file)));
}

std::string human_size(std::uint64_t n) {
  if (n < 1024) return std::to_string(n);
  static constexpr char kUnits[] = "KMGTPE";
  double v = static_cast<double>(n);
  int u = -1;
  while (v >= 1024 && u < 5) v /= 1024, ++u;
  if (v < 9.95) return fmt::format("{:.1f}{}", v, kUnits[u]);
  if (v < 1023.5 || u == 5) return fmt::format("{:.0f}{}", v, kUnits[u]);
  return fmt::format("1.0{}", kUnits[u + 1]);
}

std::string verb_on_command_line(int argc, const char* const* argv, const CLI::App& app, const std::vector<std::string>& known) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--") return "";
    if (a.starts_with("-")) {
      // A global option that takes a value (`--threads 4`) and has none after `=`: skip the value.
      const CLI::Option* o = a.find('=') == std::string_view::npos ? app.get_option_no_throw(std::string(a)) : nullptr;
      if (o != nullptr && o->get_items_expected_min() > 0) ++i;
      continue;
    }
    for (const auto& k : known)
      if (a == k) return k;
    return "";
  }
  return "";
}

const std::vector<std::string>& top_level_verbs() {
  static const std::vector<std::string> verbs{
      "identify", "info", "list", "extract", "verify",    // register_verbs
      "pack", "formats", "hash", "make-samples",          // register_common
      "igz", "dump", "rw", "warriors", "oni",             // the families
      "replace", "add", "remove", "serve",                // register_edit, register_serve
      "cat"};                                             // register_cat (from register_verbs)
  return verbs;
}

bool Cli::progress() const { return !quiet && Progress::stderr_is_terminal(); }

void example(CLI::App& verb, std::string_view example) {
  verb.footer(fmt::format("Example: {}\nGlobal options (anywhere): -q, --json, --threads N. Exit codes: 0 ok, "
                          "1 problems in the data, 2 usage or I/O (docs/cli.md).",
                          example));
}

int exit_code_for(const Error& e) {
  return e.kind == ErrorKind::data || e.kind == ErrorKind::unsupported ? kExitProblems : kExitUsage;
}

int report(const Error& e) {
  std::fprintf(stderr, "assay: %s\n", escape_terminal(e.str()).c_str());
  return exit_code_for(e);
}

// "@FILE" arguments become the lines of FILE (blank lines and "#" comments skipped).
Result<std::vector<std::string>> expand_listfiles(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (const auto& a : args) {
    if (a.size() < 2 || a.front() != '@') {
      out.push_back(a);
      continue;
    }
    std::ifstream f(a.substr(1));
    if (!f) return io_error(a.substr(1), "cannot read the list file");
    bool first = true;
    for (std::string line; std::getline(f, line); first = false) {
      if (first && line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);  // a UTF-8 BOM (Windows editors)
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
      if (!line.empty() && line.front() != '#') out.push_back(line);
    }
  }
  return out;
}

Result<Input> open_input(const std::string& spec) {
  ReadOptions ro;
  ASSAY_TRY(ContainerOptions opt, container_options(ro));
  return resolve_path(spec, opt);
}

Result<const Family*> require_family(const Input& in) {
  const Family* f = identify_family(in);
  if (f == nullptr) return unrecognised_error(in.name);
  return f;
}

// Strings that are not UTF-8 are escaped by the one rule of docs/cli.md#escaping (core/text.h).
void print_json(const Json& j) { std::cout << dump_json(j, 2) << '\n'; }

void print_fields(const Json& j) {
  detail::TextPrinter text(std::cout);
  detail::print_json_fields(text, j);
}

void print_table(const Json& entries, const std::vector<std::string>& columns) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::size_t> width(columns.size());
  for (std::size_t c = 0; c < columns.size(); ++c) width[c] = columns[c].size();
  for (const auto& e : entries) {
    std::vector<std::string> row;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      row.push_back(e.contains(columns[c]) ? detail::scalar_text(e[columns[c]]) : "-");
      width[c] = std::max(width[c], row.back().size());
    }
    rows.push_back(std::move(row));
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string s;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const bool last = c + 1 == cells.size();
      s += last ? cells[c] : fmt::format("{:<{}}  ", cells[c], width[c]);
    }
    std::cout << s << '\n';
  };
  line(columns);
  for (const auto& r : rows) line(r);
}

Json diagnostic_json(const Diagnostic& d) {
  Json j;
  j["severity"] = to_string(d.severity);
  j["structure"] = d.where.structure;
  if (d.where.offset == kNoOffset) j["offset"] = nullptr;
  else j["offset"] = d.where.offset;
  j["message"] = d.where.message;
  return j;
}

std::string diagnostic_text(const Diagnostic& d) {
  Error e = d.where;
  e.file.clear();
  return fmt::format("{}: {}", to_string(d.severity), escape_terminal(e.str()));
}

}  // namespace assay::cli
