// `--help` of every verb, nested ones included (issue 11 item 5, docs/cli.md#conventions): it
// succeeds, shows an example starting with `assay VERB`, and lists the verb's own options only
// (the global --max-memory stays in `assay --help`). The verbs are read from the help itself, so
// a verb added later is checked too.
#include <gtest/gtest.h>

#include <sstream>

#include "testing/testing.h"

namespace assay {
namespace {

using testing::run_cli;

// The names under "Subcommands:" in a help text.
std::vector<std::string> subcommands(const std::string& help) {
  std::vector<std::string> names;
  std::istringstream in(help);
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("Subcommands:", 0) == 0) {
      inside = true;
    } else if (inside && line.rfind("  ", 0) == 0 && line.size() > 2 && line[2] != ' ') {
      names.push_back(line.substr(2, line.find(' ', 2) - 2));
    } else if (inside && !line.empty()) {
      inside = false;
    }
  }
  return names;
}

void expect_verb_help(const std::string& verb) {
  SCOPED_TRACE(verb);
  auto r = run_cli(verb + " --help");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Example: assay " + verb.substr(0, verb.find(' '))), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("--max-memory"), std::string::npos) << r.out;
  for (const std::string& sub : subcommands(r.out)) expect_verb_help(verb + " " + sub);
}

TEST(CliHelp, EveryVerbHasAnExampleAndOnlyItsOptions) {
  auto top = run_cli("--help");
  ASSERT_EQ(top.exit_code, 0);
  EXPECT_NE(top.out.find("--max-memory"), std::string::npos);  // the global options are listed here
  const auto verbs = subcommands(top.out);
  for (const char* v : {"identify", "list", "extract", "verify", "pack", "replace"})
    EXPECT_NE(std::find(verbs.begin(), verbs.end(), v), verbs.end()) << v;
  for (const std::string& verb : verbs)
    if (verb != "serve") expect_verb_help(verb);  // serve hands --help to the assay-serve companion
  // a verb's own options, not another verb's
  auto x = run_cli("pack igarchive --help");
  EXPECT_NE(x.out.find("--compression"), std::string::npos);
  EXPECT_EQ(x.out.find("--skip-existing"), std::string::npos);
}

}  // namespace
}  // namespace assay
