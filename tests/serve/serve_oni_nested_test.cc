// The viewer's Oni links for a level inside an archive (`x.pak::level1_Final.dat::INSTANCE`): the
// level takes its .raw and level 0 from the archive's other entries, so its links are OniSplit's
// count for the shared level 1 (samples/oni/README.md: 18 links of its own, 6 of them into level
// 0), and the links into level 0 open the archive's level0_Final.dat.
#include <gtest/gtest.h>
#include <httplib.h>

#include <nlohmann/json.hpp>
#include <thread>

#include "assay/serve/server.h"
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
  ServeOptions opt;
  opt.roots = {(t / "root").string()};
  auto s = Server::create(opt);
  ASSERT_TRUE(s) << s.error().str();
  std::unique_ptr<Server> server = std::move(*s);
  std::thread run([&] { server->run(); });
  httplib::Client c("127.0.0.1", server->port());
  c.set_read_timeout(20, 0);
  for (int i = 0; i < 100 && !c.Get("/api/roots?token=" + server->token()); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  int links = 0, into0 = 0;
  for (int i = 0; i < 19; ++i) {  // level 1's 19 instances
    auto r = c.Get("/api/oni?token=" + server->token() + "&path=root/x.pak::level1_Final.dat::%23" + std::to_string(i));
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
  server->stop();
  run.join();
}

}  // namespace
}  // namespace serve_oni_nested_test
}  // namespace assay::serve
