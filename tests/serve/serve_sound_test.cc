// `assay serve`'s sound endpoint: /api/sound gives an SNDD as 16-bit PCM WAV, over the Oni sound
// goldens (../shared/goldens/oni/sounds, README there; MS ADPCM and PCM in the PC level, IMA4 in the
// .sep level): the RIFF header's channels and rate are the goldens' stored fields, the data is
// FFmpeg's reference decode byte for byte.
#include <gtest/gtest.h>
#include <httplib.h>

#include <nlohmann/json.hpp>
#include <thread>

#include "running_server.h"
#include "testing/testing.h"

namespace assay::serve {
namespace serve_sound_test {
namespace {

namespace fs = std::filesystem;

std::uint32_t le(const std::string& b, std::size_t at, int n) {
  std::uint32_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = v << 8 | static_cast<std::uint8_t>(b[at + i]);
  return v;
}

TEST(ServeSound, WavIsFfmpegsDecodeAtTheStoredFormat) {
  ASSAY_REQUIRE_GOLDEN(dir, "oni/sounds");
  const RunningServer server({dir.string()});
  ASSERT_TRUE(server.ok());
  const std::string root = dir.filename().string();
  int checked = 0;
  // every SNDD the goldens describe: the PC level's (MS ADPCM, PCM) and the .sep level's (IMA4)
  for (const auto& f : fs::directory_iterator(dir / "json")) {
    const std::string file = f.path().filename().string();
    const auto sep = file.find("__SNDD");
    if (sep == std::string::npos) continue;
    const std::string folder = file.substr(0, sep), name = file.substr(sep + 2, file.size() - sep - 2 - 5);
    const std::string what = folder + "/" + name;
    const auto g = nlohmann::json::parse(testing::read_file(f.path()));
    auto r = server.api("sound", root + "/" + folder + "/level0_Final.dat::" + name);
    ASSERT_TRUE(r) << what;
    ASSERT_EQ(r->status, 200) << what << ": " << r->body;
    EXPECT_EQ(r->get_header_value("Content-Type"), "audio/wav");
    const std::string& b = r->body;
    ASSERT_GE(b.size(), 44u);
    EXPECT_EQ(b.substr(0, 4), "RIFF");
    EXPECT_EQ(le(b, 20, 2), 1u);  // PCM
    EXPECT_EQ(le(b, 22, 2), g["stored"]["channels"].get<std::uint32_t>()) << what;
    EXPECT_EQ(le(b, 24, 4), g["reference_pcm"]["rate"].get<std::uint32_t>()) << what;
    const ByteBuffer ref = testing::read_file(dir / g["reference_pcm"]["file"].get<std::string>());
    EXPECT_EQ(b.substr(36, 4), "data");
    EXPECT_EQ(le(b, 40, 4), ref.size()) << what;  // the data chunk's length: the reference PCM's
    EXPECT_TRUE(b.compare(44, std::string::npos, std::string(ref.begin(), ref.end())) == 0) << what;
    ++checked;
  }
  EXPECT_EQ(checked, 9);  // goldens/oni/sounds/summary.json: six PC SNDDs, three .sep ones
  // not a sound: the group binding is a 4xx with the reason
  auto bad = server.api("sound", root + "/GameDataFolder/level0_Final.dat::OSBDgrp_sine");
  ASSERT_TRUE(bad);
  EXPECT_GE(bad->status, 400);
  EXPECT_LT(bad->status, 500);
  EXPECT_NE(bad->body.find("is not a sound"), std::string::npos) << bad->body;
}

}  // namespace
}  // namespace serve_sound_test
}  // namespace assay::serve
