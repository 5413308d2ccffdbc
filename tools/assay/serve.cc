// `assay serve`: hands the command line to the companion executable `assay-serve` beside this
// one (tools/assay-serve/handoff.h, docs/serve.md#companion). The subcommand is registered here
// (so --help lists it) with its arguments left unparsed: the companion parses them with the
// real options and reports any usage error itself.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "../assay-serve/handoff.h"
#include "assay/core/text.h"
#include "cli.h"

namespace assay::cli {

namespace {

// The companion's path: beside the running executable (/proc/self/exe resolves symlinks).
std::filesystem::path companion_path() {
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  return self.parent_path() / kServeCompanion;
}

}  // namespace

void register_serve(Cli& cli) {
  if (!cli.wants("serve")) return;
  auto* sub = cli.app.add_subcommand("serve", kServeDescription);
  sub->prefix_command();  // everything after `serve` goes to the companion untouched
  sub->set_help_flag();   // so is --help: the companion prints the real options
  sub->allow_extras();
  sub->fallthrough(false);  // not even the global options: the companion parses the whole line
}

int serve_handoff(const Cli& cli, int /*argc*/, char** argv) {
  bool serve = false;
  for (const CLI::App* sub : cli.app.get_subcommands()) serve = serve || sub->get_name() == "serve";
  if (!serve) return -1;
  const auto path = companion_path();
  if (!path.empty()) {
    ::execv(path.c_str(), argv);  // returns only on failure
  }
  const int err = errno;
  std::fprintf(stderr, "assay: serve: cannot run the viewer's companion executable %s: %s (it is built and installed beside assay)\n",
               escape_terminal(path.empty() ? std::string(kServeCompanion) : path.string()).c_str(),
               path.empty() ? "cannot find this executable's folder" : std::strerror(err));
  return kExitUsage;
}

}  // namespace assay::cli
