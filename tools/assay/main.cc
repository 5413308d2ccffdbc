#include <sys/resource.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "assay/container.h"
#include "assay/core/interrupt.h"
#include "assay/core/memory.h"
#include "assay/core/text.h"
#include "../assay-serve/handoff.h"
#include "cli.h"

namespace {

// The positional arguments (the files) of the verbs on the command line, for naming the input
// in an internal error.
std::string files_of(const CLI::App& app) {
  std::string out;
  for (const CLI::App* sub = &app;;) {
    for (const CLI::Option* o : sub->get_options())
      if (o->get_positional())
        for (const auto& r : o->results()) out += (out.empty() ? "" : " ") + r;
    auto subs = sub->get_subcommands();
    if (subs.empty()) break;
    sub = subs.back();
  }
  return out;
}

int internal_error(const CLI::App& app, const char* what) {
  std::string files;
  try {
    files = files_of(app);
  } catch (...) {
  }
  std::fprintf(stderr, "assay: internal error%s%s: %s (please report this with the file)\n",
               files.empty() ? "" : " on ", assay::escape_terminal(files).c_str(),
               assay::escape_terminal(what).c_str());
  return assay::cli::kExitUsage;
}

// --max-memory SIZE: the one memory budget shared by every thread (docs/cli.md#memory).
void add_memory_option(CLI::App& app) {
  app.add_option_function<std::string>(
         "--max-memory",
         [](const std::string& v) {
           auto n = assay::parse_size(v);
           if (!n) throw CLI::ValidationError("--max-memory", n.error().message);
           assay::MemoryBudget::process().set_limit(*n);
         },
         "memory for decoded inner files, all threads together (default 1G; K/M/G suffixes)")
      ->type_name("SIZE");
}

// ASSAY_REPORT_MEMORY=1: the budget's peak and the process's peak RSS on stderr at exit (tests).
void report_memory() {
  if (std::getenv("ASSAY_REPORT_MEMORY") == nullptr) return;
  rusage ru{};
  ::getrusage(RUSAGE_SELF, &ru);
  const auto& b = assay::MemoryBudget::process();
  std::fprintf(stderr, "assay: memory: budget peak %llu of %llu bytes, max RSS %ld KiB\n",
               static_cast<unsigned long long>(b.peak()), static_cast<unsigned long long>(b.limit()), ru.ru_maxrss);
}

// ASSAY_DEBUG_VERB_TABLE=1 (tests): with every verb built, exit 2 unless their names are exactly
// top_level_verbs() (a verb missing there is always built with all the others: slower start-up).
int check_verb_table(const assay::cli::Cli& cli) {
  if (std::getenv("ASSAY_DEBUG_VERB_TABLE") == nullptr || !cli.only.empty()) return 0;
  std::vector<std::string> built;
  for (const CLI::App* sub : cli.app.get_subcommands({})) built.push_back(sub->get_name());
  std::vector<std::string> known = assay::cli::top_level_verbs();
  std::sort(built.begin(), built.end());
  std::sort(known.begin(), known.end());
  if (built == known) return 0;
  std::fprintf(stderr, "assay: the verbs built differ from top_level_verbs()\n");
  return assay::cli::kExitUsage;
}

// ASSAY_DEBUG_THROW=exception|bad_alloc|other: a test hook (docs/reliability.md#internal-errors)
// that throws once the command line is parsed, before the verb's callback runs, so tests can
// prove the top-level catch reports an internal error naming the files (exit 2) instead of an
// abort. Unset in normal use; it changes nothing else.
void debug_throw_hook(CLI::App& app) {
  app.parse_complete_callback([] {
    const char* what = std::getenv("ASSAY_DEBUG_THROW");
    if (what == nullptr || *what == '\0') return;
    const std::string_view w(what);
    if (w == "bad_alloc") throw std::bad_alloc();
    if (w == "other") throw 42;  // not a std::exception
    throw std::runtime_error("ASSAY_DEBUG_THROW test hook");
  });
}

// CLI11 reads a value written "[a,b]" as the list a, b, so the glob "[*]" (a literal '*',
// docs/cli.md#selection) would become "*". Such an argument is marked before the parse and the
// mark taken off again by a transform on every option that takes values.
constexpr char kBracketMark = '\x01';

std::vector<std::string> mark_brackets(int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  for (std::size_t i = 1; i < args.size(); ++i)
    if (args[i].size() >= 2 && args[i].front() == '[' && args[i].back() == ']') args[i].insert(0, 1, kBracketMark);
  return args;
}

void unmark_brackets(CLI::App& app) {
  for (CLI::Option* o : app.get_options([](const CLI::Option*) { return true; }))
    if (o->get_type_size() != 0)  // flags take no value
      o->transform([](std::string v) { return !v.empty() && v.front() == kBracketMark ? v.substr(1) : v; });
  for (CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) unmark_brackets(*sub);
}

int run(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) {
  // Ctrl-C, SIGTERM, SIGHUP: temporaries removed, progress line cleared, "assay: interrupted",
  // exit 130 (core/interrupt.h, docs/cli.md#interrupted).
  assay::install_interrupt_handlers();
  const int rc = run(argc, argv);
  report_memory();
  return rc;
}

namespace {

int run(int argc, char** argv) {
  using namespace assay::cli;
  Cli cli;
  // Every exception reaching here is reported as an internal error naming the input (exit 2),
  // never an abort.
  try {
    cli.app.require_subcommand(1);
    cli.app.set_version_flag("--version", "assay 0.1.0");
    add_memory_option(cli.app);
    add_global_options(cli);
    cli.only = verb_on_command_line(argc, argv, cli.app, top_level_verbs());  // build that verb alone
    register_common(cli);
    register_igarchive(cli);
    register_igz(cli);
    register_renderware(cli);
    register_warriors(cli);
    register_oni(cli);
    register_edit(cli);
    register_serve(cli);
    register_verbs(cli);
    debug_throw_hook(cli.app);
    if (const int rc = check_verb_table(cli); rc != 0) return rc;
    unmark_brackets(cli.app);
    std::vector<std::string> args = mark_brackets(argc, argv);
    std::vector<char*> marked;
    for (auto& a : args) marked.push_back(a.data());
    cli.app.parse(static_cast<int>(marked.size()), marked.data());
    if (const int rc = serve_handoff(cli, argc, argv); rc >= 0) return rc;  // `serve`: exec assay-serve
  } catch (const CLI::ParseError& e) {
    const int rc = cli.app.exit(e);
    return rc == 0 ? 0 : kExitUsage;
  } catch (const std::bad_alloc&) {
    return internal_error(cli.app, "out of memory");
  } catch (const std::exception& e) {
    return internal_error(cli.app, e.what());
  } catch (...) {
    return internal_error(cli.app, "unknown exception");
  }
  return cli.exit_code;
}

}  // namespace
