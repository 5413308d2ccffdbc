// `--help` of every verb, nested ones included (issue 11 item 5, docs/cli.md#conventions): it
// succeeds, shows an example starting with `assay VERB`, and lists the verb's own options only
// (the global --max-memory stays in `assay --help`). The verbs are read from the help itself, so
// a verb added later is checked too.
#include <gtest/gtest.h>

#include <cstdlib>
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

// main.cc builds only the verb a command line names (Cli::only, for start-up time); its table of
// verb names must match the verbs built when none is named, and each verb must work when built
// alone: its --help (above, every verb) and a run.
TEST(CliHelp, TheVerbTableMatchesTheVerbsBuilt) {
  ::setenv("ASSAY_DEBUG_VERB_TABLE", "1", 1);
  auto all = run_cli("--help");
  auto one = run_cli("formats");  // a verb named: the table is not checked, the verb runs alone
  ::unsetenv("ASSAY_DEBUG_VERB_TABLE");
  EXPECT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(one.exit_code, 0) << one.err;
  EXPECT_NE(one.out.find("oni"), std::string::npos) << one.out;
  // global options before the verb, one with its value, do not hide the verb
  auto g = run_cli("--threads 1 -q hash crc32 123456789");
  EXPECT_EQ(g.exit_code, 0) << g.err;
  EXPECT_EQ(g.out, "cbf43926\n");  // CRC-32 check value of "123456789"
  // a misspelt verb still builds them all and suggests the nearest
  auto m = run_cli("lsit x");
  EXPECT_EQ(m.exit_code, 2);
  EXPECT_NE(m.err.find("did you mean 'list'"), std::string::npos) << m.err;
}

}  // namespace
}  // namespace assay
