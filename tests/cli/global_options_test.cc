// The global options anywhere on the line for the family verbs and the edit verbs too
// (issue 11 item 5, docs/cli.md#conventions): `assay --json VERB ...` prints the same JSON as
// `assay VERB ... --json`, and `-q` after the verb is accepted.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "testing/testing.h"

namespace assay {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::run_cli;
using testing::shell_quote;

TEST(GlobalOptions, JsonBeforeTheVerbForEveryFamilyVerb) {
  testing::TempDir t;
  ASSERT_EQ(run_cli("make-samples " + shell_quote(t.path().string())).exit_code, 0);
  auto s = [&](const std::string& rel) { return shell_quote((t / rel).string()); };
  const std::vector<std::string> verbs = {"rw tree " + s("rw_ps2.txd"),
                                          "oni check " + s("level0_Final.dat"),
                                          "warriors classify " + s("warriors"),
                                          "warriors load " + shell_quote((t / "warriors").string() + "::level1.lev"),
                                          "igz dump " + s("sample_v9_be.igz")};
  for (const std::string& v : verbs) {
    SCOPED_TRACE(v);
    auto before = run_cli("--json " + v);
    auto after = run_cli(v + " --json");
    ASSERT_EQ(after.exit_code, before.exit_code) << before.err;
    const json a = json::parse(after.out, nullptr, false);
    ASSERT_FALSE(a.is_discarded()) << after.out;
    EXPECT_EQ(json::parse(before.out, nullptr, false), a) << before.out;
  }
  // an edit verb: the report as JSON, -q after the verb
  auto r = run_cli("--json remove " + s("demo_v8_lzma.bld") + " -o " + s("out.bld") + " -q " +
                   shell_quote(json::parse(run_cli("list --json " + s("demo_v8_lzma.bld")).out)["entries"][0]["name"].get<std::string>()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j["format"], "igarchive");
  EXPECT_EQ(j["changes"][0]["op"], "remove");
}

}  // namespace
}  // namespace assay
