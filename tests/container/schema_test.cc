// Every family's `info/list/verify/identify --json` against docs/schema/<verb>.json and the
// normalisation rules of docs/cli.md#json (family in "format", null for missing values, no
// integer above 2^53), including inner files (A::B and A::B::C paths).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "schema.h"
#include "testing/testing.h"

namespace assay {
namespace {

using testing::run_cli;
using testing::shell_quote;
using nlohmann::json;

std::vector<std::string> problems_of(const std::string& verb, const json& doc) {
  std::vector<std::string> errors;
  testing::validate_schema(testing::load_schema(verb), doc, errors);
  testing::check_normalised(doc, errors);
  return errors;
}

TEST(ContainerSchema, ValidatorRejectsWhatTheRulesForbid) {
  // The validator must be able to fail: each document breaks one rule.
  EXPECT_FALSE(problems_of("list", json{{"format", "igarchive"}}).empty());  // no entries
  EXPECT_FALSE(problems_of("list", json{{"format", "flat"}, {"entries", json::array()}}).empty());  // not a family
  json e = {{"index", 0}, {"name", "a"}, {"path", "a"}, {"offset", 0}, {"size", 1}, {"stored_size", 1}, {"kind", "file"}};
  EXPECT_TRUE(problems_of("list", json{{"format", "igz"}, {"entries", {e}}}).empty());
  json bad = e;
  bad.erase("path");
  EXPECT_FALSE(problems_of("list", json{{"format", "igz"}, {"entries", {bad}}}).empty());
  bad = e;
  bad["name"] = "";
  EXPECT_FALSE(problems_of("list", json{{"format", "igz"}, {"entries", {bad}}}).empty());  // empty, not null
  bad = e;
  bad["offset"] = (std::uint64_t{1} << 53) + 1;
  EXPECT_FALSE(problems_of("list", json{{"format", "igz"}, {"entries", {bad}}}).empty());
  json v = {{"files", {{{"file", "x"}, {"format", "oni"}, {"ok", true}, {"errors", 0}, {"warnings", 0},
                        {"problems", {{{"severity", "fatal"}, {"code", nullptr}, {"structure", nullptr},
                                       {"offset", nullptr}, {"message", "m"}}}}}}}};
  EXPECT_FALSE(problems_of("verify", v).empty());  // severity outside the enum
  v["files"][0]["problems"][0]["severity"] = "error";
  EXPECT_TRUE(problems_of("verify", v).empty());
  v["files"][0]["diagnostics"] = json::array();
  EXPECT_FALSE(problems_of("verify", v).empty());  // the old name is not allowed
}

class ContainerSchemaCli : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(run_cli("make-samples " + shell_quote(dir.path().string())).exit_code, 0);
    // an archive holding an archive holding igz files: A::B::C
    ASSERT_EQ(run_cli("pack igarchive -o " + shell_quote((dir / "nest" / "inner.bld").string()) + " " +
                      shell_quote((dir / "igz_src").string()))
                  .exit_code,
              2);  // no such folder yet: a usage/I/O error
    std::filesystem::create_directories(dir / "igz_src");
    std::filesystem::create_directories(dir / "nest");
    std::filesystem::copy_file(dir / "sample_v9_be.igz", dir / "igz_src" / "x.igz");
    ASSERT_EQ(run_cli("pack igarchive -o " + shell_quote((dir / "nest" / "inner.bld").string()) + " " +
                      shell_quote((dir / "igz_src").string()))
                  .exit_code,
              0);
    ASSERT_EQ(run_cli("pack igarchive -o " + shell_quote((dir / "outer.arc").string()) + " " +
                      shell_quote((dir / "nest").string()))
                  .exit_code,
              0);
  }
  testing::TempDir dir;
};

TEST_F(ContainerSchemaCli, EveryFamilyEveryVerbMatchesTheSchema) {
  const std::map<std::string, std::string> files = {
      {"demo_v8_lzma.bld", "igarchive"},   {"demo_v11_be_deflate.arc", "igarchive"},
      {"sample_v9_be.igz", "igz"},         {"sample_v8_le64.igz", "igz"},
      {"rw_ps2.txd", "renderware"},        {"rw_model.dff", "renderware"},
      {"rw_pc_dxt1.txd", "renderware"},    {"warriors", "warriors"},
      {"warriors_level1.lev", "warriors"}, {"level0_Final.dat", "oni"},
      {"level1_X.dat", "oni"},             {"outer.arc::inner.bld", "igarchive"},
      {"outer.arc::inner.bld::x.igz", "igz"},
  };
  for (const auto& [rel, family] : files) {
    SCOPED_TRACE(rel);
    const std::string f = shell_quote((dir / rel).string());
    for (const std::string verb : {"info", "list", "verify", "identify"}) {
      SCOPED_TRACE(verb);
      auto r = run_cli(verb + " --json " + f);
      EXPECT_EQ(r.exit_code, 0) << r.err;
      const json doc = json::parse(r.out, nullptr, false);
      ASSERT_FALSE(doc.is_discarded()) << r.out;
      for (const auto& p : problems_of(verb, doc)) ADD_FAILURE() << p;
      if (verb == "info" || verb == "list") EXPECT_EQ(doc["format"], family);
      else EXPECT_EQ(doc["files"][0]["format"], family);
    }
  }
}

TEST_F(ContainerSchemaCli, ProblemsCarryCodeAndOffset) {
  // An igArchive whose file count (header offset 0x0C, spec: alchemy.md#iga-header-v8) is
  // 0xFFFFFFFF: the problem has an offset of 0x0C; a junk file has a null format and a problem.
  auto bytes = testing::read_file(dir / "demo_v8_lzma.bld");
  for (int i = 0; i < 4; ++i) bytes[0x0C + i] = 0xFF;
  testing::write_file(dir / "bad.bld", bytes);
  const std::string junk = "not a container";
  testing::write_file(dir / "junk.bin", ByteView(reinterpret_cast<const std::uint8_t*>(junk.data()), junk.size()));
  auto r = run_cli("verify --json " + shell_quote((dir / "bad.bld").string()) + " " + shell_quote((dir / "junk.bin").string()));
  EXPECT_EQ(r.exit_code, 1);
  const json doc = json::parse(r.out);
  for (const auto& p : problems_of("verify", doc)) ADD_FAILURE() << p;
  ASSERT_EQ(doc["files"].size(), 2u);
  EXPECT_TRUE(doc["files"][1]["format"].is_null());
  EXPECT_EQ(doc["files"][0]["format"], "igarchive");
  EXPECT_FALSE(doc["files"][0]["ok"].get<bool>());
  bool at_0c = false;
  for (const auto& p : doc["files"][0]["problems"]) at_0c = at_0c || (p["severity"] == "error" && p["offset"] == 0x0C);
  EXPECT_TRUE(at_0c) << doc.dump(1);
  EXPECT_EQ(doc["files"][1]["problems"][0]["message"], "unrecognised file format");
}

}  // namespace
}  // namespace assay
