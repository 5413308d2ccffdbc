// Issue 15 item 5 (remainder): a truncated WARRIORS.WAD is reported by `list` as a warning (text:
// on stderr, the table unchanged; --json: a "warning" field and the same in "problems"), as `info`
// does; `verify` fails.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "assay/formats/warriors/writer.h"
#include "testing/testing.h"

namespace assay {
namespace {

using testing::run_cli;
using testing::shell_quote;

// Four entries of 3000 bytes, each on a 2,048-byte boundary (writer.h write_disc): at 0, 4096,
// 8192 and 12288, so the DIR's rows need 12288 + 3000 = 15288 bytes of WAD. Cut to 5000 bytes,
// entries 1-3 are cut or absent and 10288 bytes are missing from offset 5000 = 0x1388.
constexpr const char* kWarning =
    "WAD truncated: the DIR's rows need 15288 bytes, the WAD has 5000: 10288 bytes missing from offset 0x1388 (3 of 4 "
    "entries cut or absent)";

std::string truncated_disc(const testing::TempDir& t) {
  std::vector<warriors::DiscEntrySpec> e;
  for (std::uint32_t i = 0; i < 4; ++i) e.push_back({0x1000u + i, ByteBuffer(3000, static_cast<std::uint8_t>(i))});
  const warriors::DiscImage d = warriors::write_disc(e);
  testing::write_file(t / "WARRIORS.DIR", d.dir);
  testing::write_file(t / "WARRIORS.WAD", ByteBuffer(d.wad.begin(), d.wad.begin() + 5000));
  return shell_quote(t.path().string());
}

TEST(ListWarning, TruncatedWadWarnsInTextList) {
  testing::TempDir t;
  const std::string disc = truncated_disc(t);
  auto r = run_cli("list " + disc);
  EXPECT_EQ(r.exit_code, 0) << r.err;  // a warning alone does not change the exit code
  EXPECT_NE(r.err.find(std::string("warning: ") + kWarning), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 6) << r.out;  // header + 4 rows + totals, no warning inside
}

TEST(ListWarning, TruncatedWadWarnsInJsonListLikeInfo) {
  testing::TempDir t;
  const std::string disc = truncated_disc(t);
  auto r = run_cli("list --json " + disc);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.contains("warning")) << r.out;
  EXPECT_EQ(j["warning"].get<std::string>(), kWarning);
  EXPECT_EQ(j["entries"].size(), 4u);
  const auto info = nlohmann::json::parse(run_cli("info --json " + disc).out);
  EXPECT_EQ(info["warning"], j["warning"]);
  // and as one problem (docs/schema/problem.json), as every verb lists them: a warning about the
  // WAD at its end, offset 5000
  for (const auto& doc : {j, info}) {
    ASSERT_TRUE(doc.contains("problems")) << doc;
    ASSERT_EQ(doc["problems"].size(), 1u) << doc;
    EXPECT_EQ(doc["problems"][0]["severity"], "warning");
    EXPECT_EQ(doc["problems"][0]["structure"], "WAD");
    EXPECT_EQ(doc["problems"][0]["offset"], 5000);
    EXPECT_EQ(doc["problems"][0]["message"], kWarning);
  }
  EXPECT_EQ(run_cli("verify " + disc).exit_code, 1);
}

TEST(ListWarning, WholeWadHasNoWarning) {
  testing::TempDir t;
  std::vector<warriors::DiscEntrySpec> e = {{0x1000u, ByteBuffer(3000, 1)}};
  const warriors::DiscImage d = warriors::write_disc(e);
  testing::write_file(t / "WARRIORS.DIR", d.dir);
  testing::write_file(t / "WARRIORS.WAD", d.wad);
  auto r = run_cli("list --json " + shell_quote(t.path().string()));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(nlohmann::json::parse(r.out).contains("warning")) << r.out;
  EXPECT_FALSE(nlohmann::json::parse(r.out).contains("problems")) << r.out;
  r = run_cli("list " + shell_quote(t.path().string()));
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace assay
