// extract --textures --stored through the container: each TXMP entry is written as its
// instance's .oni (spec: oni.md#oni-8), a VR32 file whose first instance is that TXMP.
#include <gtest/gtest.h>

#include "assay/container.h"
#include "assay/formats/oni/instance_file.h"
#include "assay/ops.h"
#include "testing/testing.h"

namespace assay::oni {
namespace {

TEST(OniContainer, StoredTexturesAreTheTxmpInstancesOniFiles) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  assay::ContainerOptions opt;
  opt.textures = true;
  auto c = open_path((dir / "level1_Final.dat").string(), opt);
  ASSERT_TRUE(c.ok()) << c.error().message;
  testing::TempDir out;
  OutputDir od(out / "s", false);
  ExtractOptions x;
  x.stored = true;
  Diagnostics d;
  auto st = assay::extract(**c, x, od, d);
  ASSERT_TRUE(st.ok()) << st.error().message;
  int named = 0;
  for (const Entry& e : (*c)->entries()) {
    if (e.path.empty() || !e.name) continue;
    ++named;
    const ByteBuffer b = testing::read_file(out / "s" / (*e.name + ".oni"));
    auto f = InstanceFile::open(b, *e.name);
    ASSERT_TRUE(f.ok()) << *e.name;
    EXPECT_EQ(tag_string(f->descriptor(0).tag), "TXMP");
    EXPECT_EQ(f->name(0).value(), *e.name);
  }
  EXPECT_GT(named, 0);
  EXPECT_EQ(st->failed.size(), 0u);
}

}  // namespace
}  // namespace assay::oni
