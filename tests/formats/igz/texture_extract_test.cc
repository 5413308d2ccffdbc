// `extract --textures` of zap.pak's 22 textures (issue #28 items 1 and 5): the PNGs are the same
// bytes on one thread and on two (the writer's deflate depends on the pixels only, whatever ran
// before on a thread), and each, read back by libspng, is the texture the library decodes.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "assay/container.h"
#include "assay/image/png.h"
#include "testing/testing.h"

namespace assay::igz {
namespace {

namespace fs = std::filesystem;
using testing::quote_path;
using testing::run_cli;

std::map<std::string, ByteBuffer> files_under(const fs::path& dir) {
  std::map<std::string, ByteBuffer> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out[fs::relative(e.path(), dir).generic_string()] = testing::read_file(e.path());
  return out;
}

TEST(IgzTextureExtract, SamePngBytesOnOneAndTwoThreadsAndTheDecodedPixels) {
  ASSAY_REQUIRE_SAMPLE(zap, "alchemy/skylanders_zap.pak");
  testing::TempDir t;
  for (const char* threads : {"1", "2"}) {
    auto r = run_cli(std::string("extract -q --textures --threads ") + threads + " " + quote_path(zap) +
                     " 'textures\\*' -o " + quote_path(t / threads));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const auto one = files_under(t / "1"), two = files_under(t / "2");
  ASSERT_EQ(one.size(), 22u);
  ASSERT_EQ(one, two);

  auto pak = open_path(zap.string());
  ASSERT_TRUE(pak.ok());
  std::size_t checked = 0;
  for (const Entry& m : (*pak)->entries()) {
    if (!m.name || !m.name->starts_with("textures\\")) continue;
    const std::string stem = m.name->substr(9, m.name->size() - 9 - 4);  // textures\NAME.igz
    auto it = one.find("textures/" + stem + ".png");
    ASSERT_NE(it, one.end()) << *m.name;
    auto png = image::decode_png(it->second);
    ASSERT_TRUE(png.ok()) << stem << ": " << png.error().str();
    auto igz = (*pak)->open(m);
    ASSERT_TRUE(igz.ok()) << *m.name;
    for (const Entry& e : (*igz)->entries()) {
      if (e.kind != EntryKind::texture) continue;
      auto want = (*igz)->texture(e);
      ASSERT_TRUE(want.ok()) << stem;
      EXPECT_EQ(png->width, want->width) << stem;
      EXPECT_EQ(png->height, want->height) << stem;
      EXPECT_TRUE(png->pixels == want->pixels) << stem;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 22u);
}

}  // namespace
}  // namespace assay::igz
