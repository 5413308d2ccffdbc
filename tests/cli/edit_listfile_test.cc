// `assay replace|add|remove ARCHIVE ... @LIST` (issue 11 item 5): the items come from a file, one a
// line, blank lines and "#" comments skipped, as for list/extract.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "testing/testing.h"

namespace assay::testing {
namespace {

void write_text(const std::filesystem::path& p, const std::string& text) { std::ofstream(p) << text; }

std::vector<std::string> names_in(const std::filesystem::path& archive) {
  const auto r = run_cli("list --json " + shell_quote(archive.string()));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> names;
  const auto listing = nlohmann::json::parse(r.out);
  for (const auto& e : listing["entries"]) names.push_back(e["name"].get<std::string>());
  return names;
}

class EditListFile : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(run_cli("make-samples " + shell_quote(t.path().string())).exit_code, 0);
    bld = t / "demo_v8_lzma.bld";  // JAPANESE.pak, levels.txt, readme.txt
    ASSERT_EQ(names_in(bld), (std::vector<std::string>{"JAPANESE.pak", "levels.txt", "readme.txt"}));
  }
  TempDir t;
  std::filesystem::path bld;
};

TEST_F(EditListFile, RemoveTakesNamesFromTheListSkippingCommentsAndBlankLines) {
  write_text(t / "names.txt", "readme.txt\n# levels.txt stays? no:\n\nlevels.txt\r\n");
  const auto r = run_cli("remove " + shell_quote(bld.string()) + " -o " + shell_quote((t / "out.bld").string()) + " @" +
                         shell_quote((t / "names.txt").string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(names_in(t / "out.bld"), std::vector<std::string>{"JAPANESE.pak"});
}

TEST_F(EditListFile, ReplaceTakesNameFilePairsFromTheList) {
  write_text(t / "new.txt", "hello\n");
  write_text(t / "pairs.txt", "readme.txt=" + (t / "new.txt").string() + "\n");
  auto r = run_cli("replace " + shell_quote(bld.string()) + " -o " + shell_quote((t / "out.bld").string()) + " @" +
                   shell_quote((t / "pairs.txt").string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_cli("extract " + shell_quote((t / "out.bld").string()) + " readme.txt -o " + shell_quote((t / "x").string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const ByteBuffer got = read_file(t / "x" / "readme.txt");
  EXPECT_EQ(std::string(got.begin(), got.end()), "hello\n");
}

TEST_F(EditListFile, AMissingListIsAnIoError) {
  const auto r = run_cli("remove " + shell_quote(bld.string()) + " -o " + shell_quote((t / "out.bld").string()) + " @" +
                         shell_quote((t / "none.txt").string()));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("none.txt"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(t / "out.bld"));
}

}  // namespace
}  // namespace assay::testing
