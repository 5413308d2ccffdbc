// pack oni folds copies of a shared unnamed instance that holds links (issue 12 gap "shared unnamed
// instances holding links are still duplicated on export/pack"). Known by construction: the level
// below has 5 instances and 4 links; export writes the unnamed ZLST (and the ZPTS it links) into
// both named lists' .oni files.
#include <gtest/gtest.h>

#include "fixtures.h"
#include "testing/testing.h"

namespace assay::oni {
namespace {

test::Bytes zlst(std::vector<std::uint32_t> targets) {
  test::Bytes z(0x20 + 4 * targets.size());
  z.u16(0x1E, static_cast<std::uint16_t>(targets.size()));
  for (std::size_t k = 0; k < targets.size(); ++k) z.u32(0x20 + 4 * k, test::link_to(targets[k]));
  return z;
}

TEST(OniPack, SharedUnnamedInstanceWithLinksIsNotDuplicated) {
  testing::TempDir dir;
  LevelFileSpec spec;
  spec.template_checksums = {{make_tag("ZPTS"), 0xa1}, {make_tag("ZLST"), 0xa3}, {make_tag("ZANM"), 0xa4}};
  test::Bytes pts(0x2C);
  pts.u32(0x1C, 1).u32(0x20, 0x3F800000);
  // 0 ZLSTa -> 2; 1 ZLSTb -> 2; 2 unnamed ZLST -> 3 (named), 4 (unnamed); 3 ZANMx; 4 unnamed ZPTS.
  spec.instances = {{make_tag("ZLST"), "ZLSTa", 0, zlst({2}).b},
                    {make_tag("ZLST"), "ZLSTb", 0, zlst({2}).b},
                    {make_tag("ZLST"), "", 0, zlst({3, 4}).b},
                    {make_tag("ZANM"), "ZANMx", 0, test::Bytes(0x20).b},
                    {make_tag("ZPTS"), "", 0, pts.b}};
  auto b = write_level_file(spec);
  ASSERT_TRUE(b.ok()) << b.error().str();
  testing::write_file(dir / "level0_Final.dat", *b);
  const LayoutSet layouts = test::sample_layouts();
  auto f = load_file(dir / "level0_Final.dat", &layouts);
  ASSERT_FALSE(f->diags.has_errors());
  Diagnostics d;
  ASSERT_TRUE(export_oni_files(*f, {}, OutputDir(dir / "oni", false), d).ok());
  std::filesystem::create_directories(dir / "out");
  auto st = pack_level(dir / "oni", dir / "out" / "level0_Final.dat", layouts, {}, d);
  ASSERT_TRUE(st.ok()) << st.error().str();
  EXPECT_EQ(st->instances, 5u);  // not 7: the unnamed ZLST and its ZPTS once each
  auto p = check_level_set({dir / "out" / "level0_Final.dat"}, layouts, 1);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->levels[0].instances, 5u);
  EXPECT_EQ(p->levels[0].links, 4u);
  EXPECT_EQ(p->levels[0].unresolved, 0u);
  EXPECT_TRUE(p->ok());
  // Copies that differ (another link target) stay apart: ZLSTb's unnamed list now links ZANMy.
  spec.instances[1] = {make_tag("ZLST"), "ZLSTb", 0, zlst({5}).b};
  spec.instances.push_back({make_tag("ZLST"), "", 0, zlst({6, 4}).b});
  spec.instances.push_back({make_tag("ZANM"), "ZANMy", 0, test::Bytes(0x20).b});
  auto b2 = write_level_file(spec);
  ASSERT_TRUE(b2.ok());
  std::filesystem::create_directories(dir / "two");
  testing::write_file(dir / "two" / "level0_Final.dat", *b2);
  auto f2 = load_file(dir / "two" / "level0_Final.dat", &layouts);
  ASSERT_FALSE(f2->diags.has_errors());
  ASSERT_TRUE(export_oni_files(*f2, {}, OutputDir(dir / "oni2", false), d).ok());
  std::filesystem::create_directories(dir / "out2");
  auto st2 = pack_level(dir / "oni2", dir / "out2" / "level0_Final.dat", layouts, {}, d);
  ASSERT_TRUE(st2.ok()) << st2.error().str();
  EXPECT_EQ(st2->instances, 7u);  // both lists kept, the ZPTS they share folded
}

}  // namespace
}  // namespace assay::oni
