// Shared CLI plumbing: the app, the exit-code policy, input opening (with ARCHIVE::INNER),
// JSON and text printing. No format logic lives here or anywhere under tools/.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "assay/family.h"
#include "assay/options.h"
#include "formats/serialise.h"

namespace assay::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitProblems = 1;
inline constexpr int kExitUsage = 2;

struct Cli {
  CLI::App app{"assay: open, list, verify, extract and repack game asset containers", "assay"};
  CLI::App* pack = nullptr;
  CLI::App* hash = nullptr;
  bool quiet = false;
  bool json = false;  // the global --json (a verb's own --json works too)
  int exit_code = kExitOk;
  // Shared reading options, filled by the verbs' flags.
  ReadOptions read;
  // `assay hash ALGO STRING...`: algorithm name -> string to printed hash.
  std::map<std::string, std::function<std::string(const std::string&)>> hashes;
  // Families add their own options (e.g. --layouts) to every reading verb through these.
  std::vector<std::function<void(CLI::App&, ReadOptions&)>> read_option_hooks;
  // The one top-level verb to build, when the command line names it (verb_on_command_line):
  // building every verb's options costs about 0.3 ms of each run. Empty: build them all.
  std::string only;
  [[nodiscard]] bool wants(std::string_view verb) const { return only.empty() || only == verb; }

  // Adds --names, --threads and the families' hooks to a reading verb.
  void add_read_options(CLI::App& sub);
  // Sets exit_code to the worse of the current and `code`.
  void fail(int code) { exit_code = std::max(exit_code, code); }
  [[nodiscard]] bool progress() const;
};

// The top-level verb argv names (its first word that is not one of app's global options or the
// value of one) when it is one of `known`; "" otherwise (then every verb is built and CLI11
// reports the line).
std::string verb_on_command_line(int argc, const char* const* argv, const CLI::App& app, const std::vector<std::string>& known);
// The names of every top-level verb (tests check it against the verbs built without Cli::only).
const std::vector<std::string>& top_level_verbs();

// Opens PATH or A::B::C to any depth (each container parsed once; no temporary files).
Result<Input> open_input(const std::string& spec);
// The format of `in`, or an error naming the file.
Result<const Family*> require_family(const Input& in);

// "@FILE" arguments become the lines of FILE (blank lines and "#" comments skipped); others stay.
Result<std::vector<std::string>> expand_listfiles(const std::vector<std::string>& args);

// The footer of a verb's --help: "Example: <example>", the global options and the exit codes.
void example(CLI::App& verb, std::string_view example);

// Help by family: a family option goes in its family's help group, named by
// its description's "<family>: " prefix ("igarchive: ...", "oni: ...", "textures...: " for the
// renderware and oni texture options); family_help makes `assay VERB FILE --help` show only the
// groups of FILE's family (every group without a FILE). `file` returns the FILE given or "".
CLI::Option* in_family_group(CLI::Option* o);
void family_help(CLI::App& verb, std::function<std::string()> file);

// Sizes for people (`list -h`): below 1024 the number of bytes, else one decimal below 10 and
// none above, in K, M, G, T, P (powers of 1024), as `ls -h` and `du -h`: 1536 -> "1.5K",
// 10240 -> "10K", 1048576 -> "1.0M".
std::string human_size(std::uint64_t n);

// Prints "assay: <error>" on stderr; returns the exit code for it (1 data, 2 io/usage).
int report(const Error& e);
int exit_code_for(const Error& e);

void print_json(const Json& j);
// Prints a JSON object as "key: value" lines (nested values compact).
void print_fields(const Json& j);
// Prints entries as aligned columns.
void print_table(const Json& entries, const std::vector<std::string>& columns);
Json diagnostic_json(const Diagnostic& d);
std::string diagnostic_text(const Diagnostic& d);

// Family registration (tools/assay/family_<name>.cc).
// Order (main.cc): add_global_options, register_common (pack, hash), then the families (which add
// pack subcommands, hashes and read-option hooks), then register_verbs (the common verbs).
// The global options (-q, --threads, --json, anywhere on the line); before Cli::only is chosen.
void add_global_options(Cli& cli);
void register_common(Cli& cli);
// "did you mean" for mistyped verbs and options (CLI11 failure message).
void install_suggestions(Cli& cli);
// The closest of `known` to `word` (edit distance at most 2, or a prefix), or "".
std::string closest(std::string_view word, const std::vector<std::string>& known);
void register_verbs(Cli& cli);
void register_cat(Cli& cli);  // tools/assay/cat.cc: `assay cat A::B`; from register_verbs
void register_igarchive(Cli& cli);
void register_igz(Cli& cli);
void register_renderware(Cli& cli);
void register_warriors(Cli& cli);
void register_oni(Cli& cli);
void register_edit(Cli& cli);  // tools/assay/edit.cc: replace, add, remove
void register_serve(Cli& cli);  // tools/assay/serve.cc: the web viewer

}  // namespace assay::cli
