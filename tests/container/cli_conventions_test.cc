// The CLI conventions of docs/cli.md (issue 11 item 5): exit codes per verb, suggestions, global
// options anywhere, extract past a bad entry, @listfile, --exclude, --skip-existing, a filter
// that matches nothing, size suffixes, per-verb --help, hints that point to the fix.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "assay/container.h"
#include "assay/formats/igarchive/writer.h"
#include "testing/testing.h"

namespace assay {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::run_cli;
using testing::shell_quote;

ByteBuffer text_bytes(std::size_t n, std::uint32_t seed) {
  ByteBuffer b(n);
  std::uint32_t x = seed;
  for (auto& c : b) x = x * 1103515245u + 12345u, c = static_cast<std::uint8_t>('a' + (x >> 16) % 26);
  return b;
}

class CliConventions : public ::testing::Test {
 protected:
  void SetUp() override {
    files = {{"a.txt", text_bytes(70000, 1)}, {"b.bin", text_bytes(90000, 2)}, {"c.txt", text_bytes(300, 3)},
             {"d.txt", text_bytes(5000, 4)}};
    std::vector<igarchive::WriterFile> w;
    for (const auto& [n, d] : files) w.push_back({.name = n, .data = d});
    good = *igarchive::write_archive(w, {});
    testing::write_file(t / "good.arc", good);
    // b.bin's LZMA stream overwritten in its middle: that member cannot be decoded
    auto c = open(Input::from_buffer("good.arc", good));
    ASSERT_TRUE(c.ok());
    const Entry* b = (*c)->find("b.bin");
    ASSERT_TRUE(b && b->offset && b->stored_size);
    ByteBuffer bad = good;
    for (std::uint64_t k = *b->offset + 40; k < *b->offset + 240; ++k) bad[k] = 0xFF;
    testing::write_file(t / "bad.arc", bad);
    for (const Entry& e : (*c)->entries()) order.push_back(*e.name);
  }
  std::string q(const std::string& rel) const { return shell_quote((t / rel).string()); }
  ByteBuffer out_file(const std::string& dir, const std::string& name) const { return testing::read_file(t / dir / name); }

  testing::TempDir t;
  std::map<std::string, ByteBuffer> files;
  ByteBuffer good;
  std::vector<std::string> order;  // entry order (hash order)
};

TEST_F(CliConventions, ExitCodesPerVerb) {
  // 0 ok, 1 problems in the data, 2 usage or I/O (docs/cli.md#exit-codes)
  for (const std::string verb : {"identify", "info", "list", "verify"}) {
    SCOPED_TRACE(verb);
    EXPECT_EQ(run_cli(verb + " " + q("good.arc")).exit_code, 0);
    EXPECT_EQ(run_cli(verb + " " + q("missing.arc")).exit_code, 2);
    EXPECT_EQ(run_cli(verb + " " + q("good.arc") + " --no-such-option").exit_code, 2);
  }
  EXPECT_EQ(run_cli("verify " + q("bad.arc")).exit_code, 1);
  EXPECT_EQ(run_cli("extract " + q("good.arc") + " -o " + q("x")).exit_code, 0);
  EXPECT_EQ(run_cli("extract " + q("good.arc") + " -o " + q("x")).exit_code, 2);  // exists, no --force
  EXPECT_EQ(run_cli("extract " + q("bad.arc") + " -o " + q("y")).exit_code, 1);
  EXPECT_EQ(run_cli("extract " + q("missing.arc") + " -o " + q("z")).exit_code, 2);
  EXPECT_EQ(run_cli("list " + q("good.arc") + "::nothing.txt").exit_code, 2);  // no such inner file
}

TEST_F(CliConventions, SuggestionsForMistypedVerbsAndOptions) {
  auto r = run_cli("lsit " + q("good.arc"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("did you mean 'list'"), std::string::npos) << r.err;
  r = run_cli("verfiy " + q("good.arc"));
  EXPECT_NE(r.err.find("did you mean 'verify'"), std::string::npos) << r.err;
  r = run_cli("extract " + q("good.arc") + " -o " + q("o") + " --forse");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("did you mean '--force'"), std::string::npos) << r.err;
}

TEST_F(CliConventions, GlobalOptionsAnywhere) {
  for (const std::string args : {"--json list " + q("good.arc"), "list " + q("good.arc") + " --json",
                                 "list --json " + q("good.arc") + " -q", "-q list " + q("good.arc") + " --json --threads 1",
                                 "list " + q("good.arc") + " --threads 2 --json"}) {
    SCOPED_TRACE(args);
    auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(json::parse(r.out, nullptr, false)["entries"].size(), 4u);
  }
  auto r = run_cli("extract " + q("good.arc") + " -o " + q("o") + " -q");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(r.err.empty()) << r.err;  // quiet: no summary line
}

TEST_F(CliConventions, ExtractGoesPastABadEntryAndNamesIt) {
  auto r = run_cli("extract " + q("bad.arc") + " -o " + q("out"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("b.bin"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(t / "out" / "b.bin"));  // no partial file
  for (const char* n : {"a.txt", "c.txt", "d.txt"}) EXPECT_EQ(out_file("out", n), files[n]) << n;
  // --stop-on-error (one thread: entries in order): nothing after b.bin is written
  r = run_cli("extract " + q("bad.arc") + " -o " + q("stop") + " --stop-on-error --threads 1");
  EXPECT_EQ(r.exit_code, 1);
  bool after = false;
  for (const auto& n : order) {
    if (n == "b.bin") after = true;
    else EXPECT_EQ(fs::exists(t / "stop" / n), !after) << n;
  }
}

TEST_F(CliConventions, ListFilesExcludeSkipExistingAndEmptyFilters) {
  const std::string list = "# wanted\na.txt\n\nd.txt\n";
  testing::write_file(t / "want.lst", ByteView(reinterpret_cast<const std::uint8_t*>(list.data()), list.size()));
  auto r = run_cli("extract " + q("good.arc") + " -o " + q("l") + " @" + (t / "want.lst").string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(out_file("l", "a.txt"), files["a.txt"]);
  EXPECT_EQ(out_file("l", "d.txt"), files["d.txt"]);
  EXPECT_FALSE(fs::exists(t / "l" / "c.txt"));
  auto j = json::parse(run_cli("list --json " + q("good.arc") + " --exclude '*.txt'").out);
  ASSERT_EQ(j["entries"].size(), 1u);
  EXPECT_EQ(j["entries"][0]["name"], "b.bin");
  // --skip-existing leaves a changed file alone and extracts the rest; beside --force it is refused
  testing::write_file(t / "l" / "a.txt", ByteBuffer{'x'});
  r = run_cli("extract " + q("good.arc") + " -o " + q("l") + " --skip-existing");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(out_file("l", "a.txt"), ByteBuffer{'x'});
  EXPECT_EQ(out_file("l", "c.txt"), files["c.txt"]);
  EXPECT_NE(r.err.find("skipped"), std::string::npos) << r.err;
  EXPECT_EQ(run_cli("extract " + q("good.arc") + " -o " + q("l") + " --skip-existing --force").exit_code, 2);
  // a filter matching nothing says so and exits 1
  r = run_cli("list " + q("good.arc") + " '*.png'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no entry matches '*.png'"), std::string::npos) << r.err;
  r = run_cli("extract " + q("good.arc") + " -o " + q("none") + " '*.png'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("*.png"), std::string::npos) << r.err;
}

TEST_F(CliConventions, SizeSuffixes) {
  // 1K = 1024 bytes: a.txt (70000 bytes) is over the cap, c.txt (300) is not
  auto r = run_cli("extract " + q("good.arc") + " -o " + q("cap") + " --igarchive-max-member 1K");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("a.txt"), std::string::npos) << r.err;
  EXPECT_EQ(out_file("cap", "c.txt"), files["c.txt"]);
  EXPECT_FALSE(fs::exists(t / "cap" / "a.txt"));
  EXPECT_EQ(run_cli("extract " + q("good.arc") + " -o " + q("cap2") + " --igarchive-max-member 1M").exit_code, 0);
  r = run_cli("verify " + q("good.arc") + " --igarchive-max-member 1Q");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--igarchive-max-member"), std::string::npos) << r.err;
}

TEST_F(CliConventions, HelpListsOnlyTheVerbsOptionsWithAnExample) {
  auto x = run_cli("extract --help");
  EXPECT_EQ(x.exit_code, 0);
  EXPECT_NE(x.out.find("--skip-existing"), std::string::npos);
  EXPECT_NE(x.out.find("Example: assay extract"), std::string::npos);
  EXPECT_EQ(x.out.find("--deep"), std::string::npos);
  auto v = run_cli("verify --help");
  EXPECT_NE(v.out.find("--deep"), std::string::npos);
  EXPECT_EQ(v.out.find("--skip-existing"), std::string::npos);
}

TEST_F(CliConventions, MessagesPointToTheFix) {
  fs::create_directories(t / "notadisc");
  auto r = run_cli("list " + q("notadisc"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("WARRIORS.DIR"), std::string::npos) << r.err;
  testing::write_file(t / "WARRIORS.WAD", ByteBuffer(4096, 0));
  r = run_cli("identify " + q("WARRIORS.WAD"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("WARRIORS.DIR"), std::string::npos) << r.err;
  r = run_cli("extract " + shell_quote((t / "good.arc").string() + "::*.txt") + " -o " + q("g"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'*.txt' -o DIR"), std::string::npos) << r.err;
}

TEST_F(CliConventions, WarriorsLoadTakesDoubleColonLikeEveryVerb) {
  ASSERT_EQ(run_cli("make-samples " + q("s")).exit_code, 0);
  const std::string disc = (t / "s" / "warriors").string();
  for (const std::string sep : {"::", ":"}) {
    auto r = run_cli("warriors load --json " + shell_quote(disc + sep + "level1.lev"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(json::parse(r.out)["chunks"], 18);  // spec: warriors.md#wr-6-3, the 18 chunks of a level
  }
  // and the same entry as a container path, one level further down
  auto l = run_cli("list --json " + shell_quote(disc + "::level1.lev::0002_47.bin"));
  ASSERT_EQ(l.exit_code, 0) << l.err;
  EXPECT_EQ(json::parse(l.out)["format"], "renderware");
}

// One rule for where an edit writes (include/assay/formats/edit_target.h): -o naming the input is
// refused before anything is written, in every family that edits one file, and the input stays.
TEST_F(CliConventions, EditOutputThatIsTheInputIsRefusedInEveryFamily) {
  ASSERT_EQ(run_cli("make-samples " + q("s")).exit_code, 0);
  testing::write_file(t / "x.bin", ByteBuffer{1, 2, 3});
  for (const char* f : {"rw_ps2.txd", "demo_v8_lzma.bld", "level0_Final.dat"}) {
    const std::string in = (t / "s" / f).string();
    const ByteBuffer before = testing::read_file(in);
    auto r = run_cli("replace " + shell_quote(in) + " -o " + shell_quote(in) + " name=" + q("x.bin"));
    EXPECT_EQ(r.exit_code, 2) << f;
    EXPECT_NE(r.err.find("is the input; use --in-place to rewrite it"), std::string::npos) << f << ": " << r.err;
    EXPECT_TRUE(testing::read_file(in) == before) << f;
  }
}

}  // namespace
}  // namespace assay
