#include "cli.h"

int main(int argc, char** argv) {
  using namespace assay::cli;
  Cli cli;
  cli.app.require_subcommand(1);
  cli.app.set_version_flag("--version", "assay 0.1.0");
  register_common(cli);
  register_igarchive(cli);
  register_igz(cli);
  register_renderware(cli);
  register_warriors(cli);
  register_oni(cli);
  register_verbs(cli);
  try {
    cli.app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = cli.app.exit(e);
    return rc == 0 ? 0 : kExitUsage;
  }
  return cli.exit_code;
}
