// A --layouts FILE or --exe FILE that cannot be opened is an I/O error naming the path, with the
// system's reason, exit 2 (docs/cli.md#codes), for every verb that reads an Oni level, never
// ignored (list once printed the level, exit 0) or reported without the path (verify once said
// "LEVEL: error: cannot open", exit 1). The level is make-samples' own level0_Final.dat.
#include <gtest/gtest.h>

#include <string>

#include "assay/container.h"
#include "assay/options.h"
#include "testing/testing.h"

namespace assay {
namespace option_files_test {
namespace {

using testing::quote_path;
using testing::run_cli;

TEST(CliOptionFiles, MissingLayoutsOrExeIsAnIoErrorNamingThePath) {
  testing::TempDir t;
  ASSERT_EQ(run_cli("make-samples " + quote_path(t / "s")).exit_code, 0);
  const std::string level = quote_path(t / "s" / "level0_Final.dat");
  ASSERT_EQ(run_cli("list " + level).exit_code, 0);  // the level itself is fine
  const std::string missing = (t / "nonexist").string();
  const std::string want = "assay: " + missing + ": cannot open: No such file or directory";
  for (const char* option : {"--layouts", "--exe"}) {
    for (const std::string verb : {"list", "info", "verify", "verify --json", "cat"}) {
      SCOPED_TRACE(std::string(option) + " " + verb);
      const std::string file = verb == "cat" ? quote_path(t / "s" / "level0_Final.dat::#0") : level;
      const auto r = run_cli(verb + " " + file + " " + option + " " + quote_path(missing));
      EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
      EXPECT_NE(r.err.find(want), std::string::npos) << r.err;
    }
    const auto x = run_cli("extract " + level + " -o " + quote_path(t / "out") + " " + option + " " + quote_path(missing));
    EXPECT_EQ(x.exit_code, 2) << x.err;
    EXPECT_NE(x.err.find(want), std::string::npos) << x.err;
    EXPECT_FALSE(std::filesystem::exists(t / "out" / "level0_Final"));
    const auto c = run_cli("oni check " + level + " " + option + " " + quote_path(missing));
    EXPECT_EQ(c.exit_code, 2) << c.out << c.err;
    EXPECT_NE(c.err.find(missing), std::string::npos) << c.err;
  }
  // a folder is no layouts file either
  const auto d = run_cli("list " + level + " --layouts " + quote_path(t / "s"));
  EXPECT_EQ(d.exit_code, 2) << d.err;
  EXPECT_NE(d.err.find("cannot open: Is a directory"), std::string::npos) << d.err;
  // the layouts file make-samples writes is one: still read
  EXPECT_EQ(run_cli("list " + level + " --layouts " + quote_path(t / "s" / "oni-layouts.txt")).exit_code, 0);
}

// The library's side, which Python's assay.open(p, layouts=...) goes through
// (python/src/convert.cc container_options_of): an io Error (OSError there, ENOENT from the text).
TEST(CliOptionFiles, ContainerOptionsRefuseAMissingFile) {
  testing::TempDir t;
  ReadOptions ro;
  ro.family["layouts"] = (t / "nonexist").string();
  auto o = container_options(ro);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.error().kind, ErrorKind::io);
  EXPECT_EQ(o.error().file, (t / "nonexist").string());
  EXPECT_EQ(o.error().message, "cannot open: No such file or directory");
  ro.family.erase("layouts");
  ro.family["exe"] = (t / "nonexist").string();
  EXPECT_FALSE(container_options(ro).ok());
}

}  // namespace
}  // namespace option_files_test
}  // namespace assay
