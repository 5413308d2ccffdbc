// A WARRIORS.DIR read from inside another container finds its WAD among the entries beside it
// (assay/family.h Siblings; spec: warriors.md#wr-1-2): a DIR+WAD packed into an igArchive lists,
// shows, verifies and extracts as the loose pair does, and a DIR packed without its WAD gives the
// loose DIR's error. The disc is the family's sample disc (one entry of every kind of #wr-8-1).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "assay/formats/warriors/disc.h"
#include "helpers.h"

namespace assay::warriors {
namespace {

using assay::testing::quote_path;
using assay::testing::run_cli;
using nlohmann::json;
namespace fs = std::filesystem;

struct PackedDisc : ::testing::Test {
  assay::testing::TempDir tmp;
  std::vector<samples::SampleEntry> entries = samples::disc_entries();
  DiscImage image = samples::disc(entries);
  fs::path names = tmp / "names.txt";

  void SetUp() override {
    std::string text;
    for (const auto& e : entries) text += e.name + "\n";
    assay::testing::write_file(names, ByteView(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  }
  // Packs the files of `folder` into `pak` with `assay pack igarchive`.
  void pack(const fs::path& folder, const fs::path& pak) {
    auto r = run_cli("pack igarchive -o " + quote_path(pak) + " " + quote_path(folder));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  json run_json(const std::string& args, int want_rc) {
    auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, want_rc) << args << "\n" << r.err << r.out;
    return json::parse(r.out, nullptr, false);
  }
  std::string names_arg() const { return " --names " + quote_path(names); }
};

// The DIR rows as the sample writer laid them out: hash, size and kind by row, offsets on 2,048.
void expect_sample_rows(const json& list, const std::vector<samples::SampleEntry>& entries) {
  ASSERT_EQ(list["entries"].size(), entries.size());
  std::uint64_t offset = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const json& e = list["entries"][i];
    EXPECT_EQ(e["hash"].get<std::uint32_t>(), name_hash(entries[i].name)) << i;
    EXPECT_EQ(e["name"], entries[i].name);
    EXPECT_EQ(e["offset"], offset);
    EXPECT_EQ(e["size"], entries[i].data.size());
    EXPECT_EQ(e["kind"], to_string(entries[i].kind)) << entries[i].name;
    offset = align2048(offset + entries[i].data.size());
  }
}

TEST_F(PackedDisc, ListInfoVerifyExtractAsTheLoosePair) {
  test::write_disc_folder(tmp / "in", image);
  pack(tmp / "in", tmp / "PACK.pak");
  const std::string loose = quote_path(tmp / "in" / "WARRIORS.DIR");
  const std::string inner = quote_path(fs::path((tmp / "PACK.pak").string() + "::WARRIORS.DIR"));

  const json l1 = run_json("list --json " + loose + names_arg(), 0);
  const json l2 = run_json("list --json " + inner + names_arg(), 0);
  expect_sample_rows(l2, entries);
  EXPECT_EQ(l2["entries"], l1["entries"]);

  const json i1 = run_json("info --json " + loose, 0);
  const json i2 = run_json("info --json " + inner, 0);
  EXPECT_EQ(i2["format"], "warriors");
  EXPECT_EQ(i2["source"], "dir_file");
  EXPECT_EQ(i2["entry_count"], entries.size());
  EXPECT_EQ(i2["dir_size"], 16 + 12 * entries.size());  // spec: #wr-2-1
  EXPECT_EQ(i2["wad_size"], image.wad.size());
  for (const char* k : {"source", "entry_count", "dir_size", "wad_size"}) EXPECT_EQ(i2[k], i1[k]) << k;

  const auto v1 = run_cli("verify --json " + loose + names_arg());
  const auto v2 = run_cli("verify --json " + inner + names_arg());
  EXPECT_EQ(v2.exit_code, v1.exit_code) << v2.err;
  const json p1 = json::parse(v1.out, nullptr, false)["files"][0], p2 = json::parse(v2.out, nullptr, false)["files"][0];
  EXPECT_EQ(p2["format"], "warriors");
  EXPECT_EQ(p2["ok"], true);
  EXPECT_EQ(p2["problems"], p1["problems"]);

  ASSERT_EQ(run_cli("extract " + inner + " -o " + quote_path(tmp / "out") + names_arg()).exit_code, 0);
  for (const auto& e : entries) EXPECT_EQ(assay::testing::read_file(tmp / "out" / e.name), e.data) << e.name;
  EXPECT_EQ(static_cast<std::size_t>(std::distance(fs::directory_iterator(tmp / "out"), {})), entries.size());
}

// The WAD is looked up in the DIR's own folder of the archive, without case.
TEST_F(PackedDisc, DirInAFolderOfTheArchive) {
  fs::create_directories(tmp / "in" / "disc");
  assay::testing::write_file(tmp / "in" / "disc" / "warriors.dir", image.dir);
  assay::testing::write_file(tmp / "in" / "disc" / "Warriors.Wad", image.wad);
  assay::testing::write_file(tmp / "in" / "readme.txt", image.dir);
  pack(tmp / "in", tmp / "PACK.pak");
  const json l = run_json("list --json " + quote_path(fs::path((tmp / "PACK.pak").string() + "::disc/warriors.dir")) +
                              names_arg(),
                          0);
  expect_sample_rows(l, entries);
}

TEST_F(PackedDisc, DirWithoutWadGivesTheLooseError) {
  fs::create_directories(tmp / "in");
  assay::testing::write_file(tmp / "in" / "WARRIORS.DIR", image.dir);
  pack(tmp / "in", tmp / "PACK.pak");
  const std::string loose = quote_path(tmp / "in" / "WARRIORS.DIR");
  const std::string inner = quote_path(fs::path((tmp / "PACK.pak").string() + "::WARRIORS.DIR"));
  for (const std::string& verb : std::vector<std::string>{"list ", "info ", "extract -o " + quote_path(tmp / "x") + " "}) {
    const auto r1 = run_cli(verb + loose);
    const auto r2 = run_cli(verb + inner);
    EXPECT_EQ(r1.exit_code, 2) << verb << r1.err;  // an I/O error, as a missing file
    EXPECT_EQ(r2.exit_code, r1.exit_code) << verb << r2.err;
    EXPECT_NE(r1.err.find("no WARRIORS.WAD beside this WARRIORS.DIR"), std::string::npos) << r1.err;
    EXPECT_NE(r2.err.find("no WARRIORS.WAD beside this WARRIORS.DIR"), std::string::npos) << r2.err;
  }
  const auto v1 = run_cli("verify --json " + loose);
  const auto v2 = run_cli("verify --json " + inner);
  EXPECT_EQ(v1.exit_code, 1);
  EXPECT_EQ(v2.exit_code, v1.exit_code);
  const json p1 = json::parse(v1.out, nullptr, false)["files"][0], p2 = json::parse(v2.out, nullptr, false)["files"][0];
  ASSERT_EQ(p2["problems"].size(), 1u) << v2.out;
  EXPECT_EQ(p2["problems"][0]["message"], p1["problems"][0]["message"]);
  EXPECT_NE(p2["problems"][0]["message"].get<std::string>().find("no WARRIORS.WAD beside"), std::string::npos);
}

}  // namespace
}  // namespace assay::warriors
