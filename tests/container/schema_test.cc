// Every family's `info/list/verify/identify --json` against docs/schema/<verb>.json and the
// normalisation rules of docs/cli.md#json (family in "format", null for missing values, no
// integer above 2^53), including inner files (A::B and A::B::C paths).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "assay/container.h"
#include "schema.h"
#include "testing/testing.h"
#include "formats/serialise.h"

namespace assay {
namespace {

using testing::run_cli;
using testing::shell_quote;
using nlohmann::json;

std::vector<std::string> problems_of(const std::string& verb, const json& doc) {
  return testing::schema_problems(verb, doc);
}

using Ledgers = std::map<std::string, std::unique_ptr<testing::SchemaLedger>>;

// info/list/verify/identify --json of `arg` (shell-quoted; `rel` names it), each exit 0, checked
// against its verb's schema, and naming `family` as the file's format.
void check_reading_verbs(Ledgers& ledgers, const std::string& arg, const std::string& rel, const std::string& family) {
  for (const std::string verb : {"info", "list", "verify", "identify"}) {
    SCOPED_TRACE(verb);
    auto r = run_cli(verb + " --json " + arg);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const json doc = json::parse(r.out, nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << r.out;
    ledgers[verb]->check(doc, verb + " --json " + rel);
    EXPECT_EQ(verb == "info" || verb == "list" ? doc["format"] : doc["files"][0]["format"], family);
  }
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
  v["files"][0].erase("diagnostics");
  // a code is a rule id (upper-case letters then digits) or a lower-case dotted id
  for (const char* bad_code : {"V13:", "v 13", "Igarchive.toc", "igarchive..toc", ""}) {
    v["files"][0]["problems"][0]["code"] = bad_code;
    EXPECT_FALSE(problems_of("verify", v).empty()) << bad_code;
  }
  for (const char* good_code : {"unrecognised", "igarchive.toc-bounds", "R5"}) {
    v["files"][0]["problems"][0]["code"] = good_code;
    EXPECT_TRUE(problems_of("verify", v).empty()) << good_code;
  }
  v["files"][0]["problems"][0]["code"] = "V13";
  v["files"][0]["problems"][0]["offset"] = "12";  // an offset string is hex ("0x...")
  EXPECT_FALSE(problems_of("verify", v).empty());
  v["files"][0]["problems"][0]["offset"] = "0x20000000000001";
  EXPECT_TRUE(problems_of("verify", v).empty());
  v["files"][0]["problems"][0].erase("severity");  // through $ref: problem.json requires it
  EXPECT_FALSE(problems_of("verify", v).empty());
  // `entries` is a list wherever it appears, never a count; `diagnostics` is nowhere.
  EXPECT_FALSE(problems_of("info", json{{"format", "warriors"}, {"entries", 23}}).empty());
  EXPECT_FALSE(problems_of("info", json{{"format", "oni"}, {"diagnostics", json::array()}}).empty());
  EXPECT_TRUE(problems_of("info", json{{"format", "oni"}, {"version", "VR32"}}).empty());
  // additionalProperties as a schema (warriors classify counts), the boolean schemas
  const json classify = {{"format", "warriors"}, {"counts", {{"pack", 1}}}, {"bytes", {{"pack", 800}}}};
  EXPECT_TRUE(problems_of("warriors-classify", classify).empty());
  json bad_count = classify;
  bad_count["counts"]["pack"] = "one";
  EXPECT_FALSE(problems_of("warriors-classify", bad_count).empty());
  std::vector<std::string> errors;
  testing::validate_schema(json(true), json{{"x", 1}}, errors);
  EXPECT_TRUE(errors.empty());
  testing::validate_schema(json(false), json(nullptr), errors);
  EXPECT_EQ(errors.size(), 1u);
  testing::validate_schema(json{{"$ref", "no-such-schema.json"}}, json(nullptr), errors);
  EXPECT_EQ(errors.size(), 2u);
  testing::validate_schema(json{{"oneOf", json::array()}}, json(nullptr), errors);
  EXPECT_EQ(errors.size(), 3u);  // a keyword outside the subset is reported, never ignored
  EXPECT_EQ(testing::without_indices("$.a[12].b[0]: 3 is below the minimum"), "$.a[].b[]: 3 is below the minimum");
  // A problem whose message names a rule carries it as its code (at the start or, in
  // parentheses, at the end of the message).
  json p = {{"severity", "note"}, {"code", nullptr}, {"structure", nullptr}, {"offset", nullptr},
            {"message", "8 zero bytes of padding (R5)"}};
  errors.clear();
  testing::check_problem_codes(p, errors);
  EXPECT_EQ(errors.size(), 1u);
  p["code"] = "R5";
  errors.clear();
  testing::check_problem_codes(p, errors);
  EXPECT_TRUE(errors.empty());
  p["message"] = "V13: hash order";
  testing::check_problem_codes(p, errors);
  EXPECT_EQ(errors.size(), 1u);
}

// problem_json's code is the one set where the error was made, else the rule id the message names,
// at its start ("V13: ...", Warriors and Oni) or at its end ("... (R5)", RenderWare's messages),
// else "<family>.<structure>"; anything else in parentheses is no rule.
TEST(ContainerSchema, ProblemCodeFromEitherEndOfTheMessage) {
  auto code = [](const std::string& message) {
    return problem_json({Severity::warning, make_error("renderware", "Texture Native", 0x40, message)})["code"];
  };
  EXPECT_EQ(code("D5: entry lies past the WAD's end"), "D5");
  EXPECT_EQ(code("body of 96 bytes runs past the end of the data at 0x2c (R1)"), "R1");
  EXPECT_EQ(code("frame 3 out of range (2 frames, 1 geometries) (R20)"), "R20");
  EXPECT_EQ(code("(ABCD12)"), "ABCD12");
  // anything else is no rule: the code is then named after the structure (core/codes.h)
  const std::string fallback = "renderware.texture-native";
  EXPECT_EQ(code("padding of 4 bytes (R5) follows"), fallback);    // not at the end
  EXPECT_EQ(code("a tail of 12 bytes (0x20)"), fallback);          // a number, not a rule
  EXPECT_EQ(code("unknown section (ABCDE1)"), fallback);           // five capitals
  EXPECT_EQ(code("mip levels (R)"), fallback);                     // no digits
  EXPECT_EQ(code("raster (r5)"), fallback);                        // lower case
  EXPECT_EQ(code("no rule here)"), fallback);                      // no opening parenthesis
  EXPECT_EQ(code("()"), fallback);
  // check_problem_codes agrees with what problem_json now writes for an "(R5)" message.
  std::vector<std::string> errors;
  testing::check_problem_codes(problem_json({Severity::error, make_error("renderware", "Struct", 8, "x (R5)")}), errors);
  EXPECT_TRUE(errors.empty());
}

// Every subschema of every docs/schema file uses only the validator's keywords, every $ref names
// a file there, and docs/cli.md links every file (the schema files and the docs stay one set).
TEST(ContainerSchema, SchemaFilesAreInTheSubsetAndDocumented) {
  const std::filesystem::path dir = std::filesystem::path(ASSAY_SOURCE_DIR) / "docs" / "schema";
  const auto cli_md = testing::read_file(std::filesystem::path(ASSAY_SOURCE_DIR) / "docs" / "cli.md");
  const std::string doc(cli_md.begin(), cli_md.end());
  std::size_t files = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir)) {
    const std::string name = f.path().filename().string();
    SCOPED_TRACE(name);
    ++files;
    const json schema = testing::load_schema(f.path().stem().string());
    ASSERT_FALSE(schema.is_discarded());
    EXPECT_NE(doc.find("schema/" + name), std::string::npos) << "docs/cli.md does not link schema/" << name;
    std::vector<const json*> todo = {&schema};
    while (!todo.empty()) {
      const json& s = *todo.back();
      todo.pop_back();
      if (!s.is_object()) continue;
      std::vector<std::string> errors;
      testing::validate_schema(s, json(nullptr), errors);
      for (const auto& e : errors)
        if (e.find("outside the supported subset") != std::string::npos || e.find("names no schema") != std::string::npos)
          ADD_FAILURE() << e;
      for (const char* k : {"items", "additionalProperties"})
        if (s.contains(k)) todo.push_back(&s[k]);
      for (const char* k : {"properties", "patternProperties"})
        if (s.contains(k))
          for (const auto& [name, v] : s[k].items()) todo.push_back(&v);
    }
  }
  EXPECT_GE(files, 14u);  // identify info list verify, entry problem, the edit verbs, five family verbs
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
  Ledgers ledgers;
  for (const std::string verb : {"info", "list", "verify", "identify"})
    ledgers[verb] = std::make_unique<testing::SchemaLedger>(verb);
  const std::map<std::string, std::string> files = {
      {"demo_v8_lzma.bld", "igarchive"},   {"demo_v11_be_deflate.arc", "igarchive"},
      {"sample_v9_be.igz", "igz"},         {"sample_v8_le64.igz", "igz"},
      {"rw_ps2.txd", "renderware"},        {"rw_model.dff", "renderware"},
      {"rw_pc_dxt1.txd", "renderware"},    {"warriors", "warriors"},
      {"warriors_level1.lev", "warriors"}, {"level0_Final.dat", "oni"},
      {"level1_X.dat", "oni"},             {"outer.arc::inner.bld", "igarchive"},
      {"outer.arc::inner.bld::x.igz", "igz"},
      {"warriors::0xa564c2ad", "warriors"},  // a pack on the disc: a grouped chunk container
      {"warriors_level1.lev::0002_47.bin", "renderware"},  // a clump chunk of a level
  };
  for (const auto& [rel, family] : files) {
    SCOPED_TRACE(rel);
    check_reading_verbs(ledgers, shell_quote((dir / rel).string()), rel, family);
  }
  // verify --deep: inner files' problems in the same list, each structure naming the inner file.
  for (const std::string rel : {"outer.arc", "warriors", "warriors_level1.lev", "demo_v8_lzma.bld"}) {
    SCOPED_TRACE(rel);
    auto r = run_cli("verify --deep --depth 3 --json " + shell_quote((dir / rel).string()));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const json doc = json::parse(r.out, nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << r.out;
    ledgers["verify"]->check(doc, "verify --deep --json " + rel);
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
  EXPECT_EQ(doc["files"][1]["problems"][0]["code"], "unrecognised");  // docs/cli.md#codes
  // identify names the damaged archive's family from its magic, the junk file null (exit 1).
  r = run_cli("identify --json " + shell_quote((dir / "bad.bld").string()) + " " + shell_quote((dir / "junk.bin").string()));
  EXPECT_EQ(r.exit_code, 1);
  const json id = json::parse(r.out, nullptr, false);
  for (const auto& p : problems_of("identify", id)) ADD_FAILURE() << p;
  ASSERT_EQ(id["files"].size(), 2u);
  EXPECT_EQ(id["files"][0]["format"], "igarchive");
  EXPECT_TRUE(id["files"][1]["format"].is_null());
}

// The real files under ../shared/samples (third-party bytes) through the same schemas: every
// family assay reads there, and inner files of the real igArchives.
TEST(ContainerSchemaSamples, RealFilesMatchTheSchema) {
  ASSAY_REQUIRE_SAMPLE(alchemy, "alchemy/skylanders_zap.pak");
  const std::vector<std::pair<std::string, std::string>> files = {
      {"alchemy/skylanders_zap.pak", "igarchive"},
      {"alchemy/skylanders_zap.pak::#0", "igz"},
      {"alchemy/crash_nst_L332_CollisionTemplate.pak", "igarchive"},
      {"alchemy/crash_nst_L332_CollisionTemplate.pak::maps/Crash1/Custom_Level/StaticCollision_Custom_Level.igz", "igz"},
      {"alchemy/igModelTool_model.igz", "igz"},
      {"alchemy/igModelTool_test_img.igz", "igz"},
      {"renderware/rw-parser/infernus.txd", "renderware"},
      {"renderware/rw-parser/dxtDecoding.txd", "renderware"},
      {"renderware/rw-parser/wuzimu.dff", "renderware"},
      {"renderware/librw/teapot.dff", "renderware"},
      {"renderware/librw/camera_clump.dff", "renderware"},
      {"renderware/librw-ps2/ps2_v36003.txd", "renderware"},
      {"renderware/more/mh1_ps2_MODELS.DFF", "renderware"},
      {"renderware/more/imgfactory_generic.txd", "renderware"},
      {"oni/GameDataFolder/level0_Final.dat", "oni"},
      {"oni/GameDataFolder/level1_Final.dat", "oni"},
  };
  Ledgers ledgers;
  for (const std::string verb : {"info", "list", "verify", "identify"})
    ledgers[verb] = std::make_unique<testing::SchemaLedger>(verb, false);
  for (const auto& [rel, family] : files) {
    SCOPED_TRACE(rel);
    const std::string outer = rel.substr(0, rel.find("::"));
    const auto path = testing::shared_sample(outer);
    if (path.empty()) continue;  // each sample folder may be absent on its own
    check_reading_verbs(ledgers, shell_quote(path.string() + rel.substr(outer.size())), rel, family);
  }
  // Manhunt 2's DSFE.TXD is not RenderWare (spec: the samples' README): format null, a problem.
  const auto mh2 = testing::shared_sample("renderware/more/mh2_ps2_DSFE.TXD");
  if (mh2.empty()) return;
  auto r = run_cli("verify --json " + testing::quote_path(mh2));
  EXPECT_EQ(r.exit_code, 1);
  const json doc = json::parse(r.out, nullptr, false);
  ledgers["verify"]->check(doc, "verify --json mh2_ps2_DSFE.TXD");
  EXPECT_TRUE(doc["files"][0]["format"].is_null());
}

}  // namespace
}  // namespace assay
