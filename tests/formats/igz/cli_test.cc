// The igz verbs through the built CLI: identify, info/list/dump --json, verify exit codes,
// ARCHIVE::INNER and verify --deep over an igArchive of igz files (docs/cli.md#igz).
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "assay/formats/igarchive/writer.h"
#include "assay/formats/igz/writer.h"
#include "testing/testing.h"
#include "igz_testing.h"

namespace assay::igz {
namespace {

using testing::run_cli;
using testing::shell_quote;
using nlohmann::json;

using fixtures::sample;

TEST(IgzCli, SampleInfoListDump) {
  ASSAY_REQUIRE_SAMPLE(path, "alchemy/igModelTool_test_img.igz");
  const std::string p = shell_quote(path.string());
  auto id = run_cli("identify " + p);
  EXPECT_EQ(id.exit_code, 0);
  EXPECT_NE(id.out.find(": igz"), std::string::npos);

  auto info = run_cli("info --json " + p);
  ASSERT_EQ(info.exit_code, 0) << info.err;
  const json i = json::parse(info.out);
  EXPECT_EQ(i["format"], "igz");
  EXPECT_EQ(i["version"], 9);
  EXPECT_EQ(i["platform"], 9);
  EXPECT_EQ(i["byte_order"], "big");
  EXPECT_EQ(i["pointer_size"], 4);
  ASSERT_EQ(i["pools"].size(), 4u);
  EXPECT_EQ(i["pools"][1]["name"], "ImageObject");
  EXPECT_EQ(i["pools"][1]["offset"], 0x958);
  EXPECT_EQ(i["pools"][1]["size"], 0x60);
  EXPECT_EQ(i["pools"][1]["alignment"], 0x10);
  ASSERT_EQ(i["fixups"].size(), 11u);
  EXPECT_EQ(i["fixups"][4]["tag"], "RVTB");
  EXPECT_EQ(i["fixups"][4]["count"], 3);

  auto list = run_cli("list --json " + p);
  ASSERT_EQ(list.exit_code, 0) << list.err;
  const json l = json::parse(list.out);
  EXPECT_EQ(l["format"], "igz");
  ASSERT_EQ(l["entries"].size(), 3u);
  EXPECT_EQ(l["entries"][2]["type"], "igImage2");
  EXPECT_EQ(l["entries"][2]["pool"], "ImageObject");
  EXPECT_EQ(l["entries"][2]["offset"], 0x958);
  EXPECT_EQ(l["entries"][2]["size"], 0x60);
  EXPECT_EQ(l["entries"][1]["index"], 1);

  for (const char* verb : {"igz dump --json ", "dump --json "}) {
    auto dump = run_cli(verb + p);
    ASSERT_EQ(dump.exit_code, 0) << dump.err;
    const json d = json::parse(dump.out);
    EXPECT_EQ(d["root"]["object"], 0);
    EXPECT_EQ(d["root"]["list"], json::array({2}));
    EXPECT_EQ(d["names"][0]["name"], "image");
    EXPECT_EQ(d["externals"]["ids"][0]["name"], "843cd0c2::61455ac9");
    EXPECT_EQ(d["types"][1]["name"], "igImage2");
    EXPECT_EQ(d["strings"]["referenced"], json::array({"image", "_magsstaff_diffuse"}));
  }
  auto v = run_cli("verify " + p);
  EXPECT_EQ(v.exit_code, 0) << v.out;
}

TEST(IgzCli, VerifyExitCodes) {
  testing::TempDir dir;
  ByteBuffer good = sample();
  testing::write_file(dir / "good.igz", good);
  ByteBuffer bad = good;
  bad.resize(bad.size() - 1);  // the last pool now runs past the end
  testing::write_file(dir / "bad.igz", bad);
  auto ok = run_cli("verify --json " + shell_quote((dir / "good.igz").string()));
  EXPECT_EQ(ok.exit_code, 0);
  EXPECT_TRUE(json::parse(ok.out)["files"][0]["ok"].get<bool>());
  auto fail = run_cli("verify --json " + shell_quote((dir / "bad.igz").string()));
  EXPECT_EQ(fail.exit_code, 1);
  const json j = json::parse(fail.out);
  EXPECT_FALSE(j["files"][0]["ok"].get<bool>());
  EXPECT_GT(j["files"][0]["errors"].get<int>(), 0);
  auto dump = run_cli("igz dump " + shell_quote((dir / "bad.igz").string()));
  EXPECT_EQ(dump.exit_code, 1);
  // unknown platform and no MTSZ list size to go by: error, fixed by --igz-pointer-size
  ByteBuffer plat = good;
  store<std::uint32_t>(plat.data() + 0x0C, 40, Endian::big);
  {
    auto f = igz::IgzFile::open(plat);
    ASSERT_TRUE(f.ok());
    const igz::FixupRecord* mtsz = f->find(igz::tag::MTSZ);
    ASSERT_NE(mtsz, nullptr);
    for (std::uint64_t k = 0; k < 2; ++k)  // igObjectList, igNameList
      store<std::uint32_t>(plat.data() + mtsz->offset + mtsz->data_offset + 4 * k, 0x20, Endian::big);
  }
  testing::write_file(dir / "plat.igz", plat);
  EXPECT_EQ(run_cli("info " + shell_quote((dir / "plat.igz").string())).exit_code, 1);
  EXPECT_EQ(run_cli("verify --igz-pointer-size 4 " + shell_quote((dir / "plat.igz").string())).exit_code, 0);
}

TEST(IgzCli, InsideAnArchive) {
  testing::TempDir dir;
  igarchive::WriterOptions o;
  o.version = 0x0B;
  o.endian = Endian::big;
  std::vector<igarchive::WriterFile> files;
  files.push_back({.name = "x.igz", .data = sample(9, Endian::big)});
  files.push_back({.name = "y.igz", .data = sample(8, Endian::little)});
  ByteBuffer broken = sample(9, Endian::big);
  store<std::uint32_t>(broken.data() + 0x10, 0xFFFFFFFF, Endian::big);  // numFixups
  files.push_back({.name = "z.igz", .data = broken});
  auto archive = igarchive::write_archive(files, o);
  ASSERT_TRUE(archive.ok()) << archive.error().str();
  testing::write_file(dir / "bootstrap.bld", *archive);
  const std::string a = (dir / "bootstrap.bld").string();

  auto dump = run_cli("dump --json " + shell_quote(a + "::x.igz"));
  ASSERT_EQ(dump.exit_code, 0) << dump.err;
  const json d = json::parse(dump.out);
  EXPECT_EQ(d["version"], 9);
  EXPECT_EQ(d["root"]["list"].size(), 2u);
  auto info = run_cli("info --json " + shell_quote(a + "::y.igz"));
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_EQ(json::parse(info.out)["byte_order"], "little");
  EXPECT_EQ(run_cli("verify " + shell_quote(a + "::x.igz")).exit_code, 0);

  auto deep = run_cli("verify --deep --json " + shell_quote(a));
  const json j = json::parse(deep.out);
  bool names_z = false, names_x = false;
  for (const auto& p : j["files"][0]["problems"]) {
    const std::string s = p["structure"];
    if (p["severity"] == "error" && s.find("z.igz") != std::string::npos) names_z = true;
    if (p["severity"] == "error" && s.find("x.igz") != std::string::npos) names_x = true;
  }
  EXPECT_TRUE(names_z) << deep.out;
  EXPECT_FALSE(names_x);
  EXPECT_EQ(deep.exit_code, 1);
}

// A TSTR string that is not UTF-8 (as 9 of the zap igz showed through misread igNames, issue 9):
// dump, info, list and verify print it without aborting (the CLI escapes it; nothing in the igz
// library serialises or keys JSON by it), and the igName hash check names it.
TEST(IgzCli, InvalidUtf8NameNeverAborts) {
  Layout l{7, Endian::big, 6};
  l.names_as_tstr = true;
  auto b = build_sample(l);
  ASSERT_TRUE(b.ok());
  ByteBuffer m = *b;
  const std::string needle = "Demo_Object_0";
  auto it = std::search(m.begin(), m.end(), needle.begin(), needle.end());
  ASSERT_NE(it, m.end());
  it[4] = 0xFF;  // "Demo\xFFObject_0"
  it[5] = 0xC0;
  testing::TempDir dir;
  testing::write_file(dir / "bad_utf8.igz", m);
  const std::string f = shell_quote((dir / "bad_utf8.igz").string());
  for (const char* verb : {"dump --json ", "dump ", "info --json ", "list --json ", "verify --json "}) {
    auto r = run_cli(std::string(verb) + f);
    EXPECT_LT(r.exit_code, 2) << verb << r.err;  // 0 or 1: never an abort or internal error
    if (std::string_view(verb).find("--json") != std::string_view::npos) {
      EXPECT_NO_THROW((void)json::parse(r.out)) << verb;
    }
  }
  auto r = run_cli("dump --json " + f);
  const json j = json::parse(r.out);
  ASSERT_EQ(j["names"].size(), 2u);
  EXPECT_FALSE(j["names"][0]["hash_ok"].get<bool>());  // the hash was of "demo_object_0"
  EXPECT_TRUE(j["names"][1]["hash_ok"].get<bool>());
}

// A file cut inside its fixup section: every verb's error names the file (a user saw
// "assay: igz: section[0] ..." with no file in it), exit 1.
TEST(IgzCli, AnOpenErrorNamesTheFile) {
  testing::TempDir dir;
  ByteBuffer b = sample();
  b.resize(100);
  const std::string path = (dir / "cut.igz").string();
  testing::write_file(path, b);
  for (const char* verb : {"info ", "list ", "extract -o out "}) {
    auto r = run_cli(std::string(verb) + shell_quote(path));
    EXPECT_EQ(r.exit_code, 1) << verb << r.err;
    EXPECT_NE(r.err.find(path), std::string::npos) << verb << r.err;
  }
}

}  // namespace
}  // namespace assay::igz
