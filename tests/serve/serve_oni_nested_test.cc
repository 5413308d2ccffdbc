// The viewer's Oni links for a level inside an archive (`x.pak::level1_Final.dat::INSTANCE`): the
// level takes its .raw and level 0 from the archive's other entries, so its links are OniSplit's
// count for the shared level 1 (samples/oni/README.md: 18 links of its own, 6 of them into level
// 0), and the links into level 0 open the archive's level0_Final.dat.
#include <gtest/gtest.h>
#include <httplib.h>

#include <nlohmann/json.hpp>
#include <thread>

#include "running_server.h"
#include "testing/testing.h"

namespace assay::serve {
namespace serve_oni_nested_test {
namespace {

namespace fs = std::filesystem;

TEST(ServeOniNested, PackedLevelLinksIntoItsArchivesLevel0) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  testing::TempDir t;
  fs::create_directories(t / "in");
  for (const char* f : {"level0_Final.dat", "level0_Final.raw", "level1_Final.dat", "level1_Final.raw"})
    fs::copy_file(dir / f, t / "in" / f);
  fs::create_directories(t / "root");
  auto p = testing::run_cli("pack igarchive -o " + testing::quote_path(t / "root" / "x.pak") + " " + testing::quote_path(t / "in"));
  ASSERT_EQ(p.exit_code, 0) << p.err;
  const RunningServer server({(t / "root").string()});
  ASSERT_TRUE(server.ok());
  int links = 0, into0 = 0;
  for (int i = 0; i < 19; ++i) {  // level 1's 19 instances
    auto r = server.api("oni", "root/x.pak::level1_Final.dat::%23" + std::to_string(i));
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200) << r->body;
    const auto j = nlohmann::json::parse(r->body);
    EXPECT_EQ(j["file"], "root/x.pak::level1_Final.dat");
    for (const auto& l : j["links"]) {
      if (l["target"].get<std::uint32_t>() == 0 && !l.contains("tag")) continue;  // a null link
      ++links;
      if (l["path"].is_string() && l["path"].get<std::string>().starts_with("root/x.pak::level0_Final.dat::")) ++into0;
    }
  }
  EXPECT_EQ(links, 18);
  EXPECT_EQ(into0, 6);
}

}  // namespace
}  // namespace serve_oni_nested_test
}  // namespace assay::serve
