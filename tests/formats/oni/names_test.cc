// File names and ids: the vectors of spec oni.md#oni-11 and oni.md#oni-2-2.
#include <gtest/gtest.h>

#include "assay/formats/oni/names.h"
#include "testing/testing.h"

namespace assay::oni {
namespace {

std::uint32_t id_of(const std::string& n) {
  auto r = parse_level_file_name(n);
  EXPECT_TRUE(r.ok()) << n;
  return r.ok() ? r->file_id : 0;
}

TEST(OniNames, SpecFileIdVectors) {
  EXPECT_EQ(id_of("level0_Final.dat"), 0x00000001u);
  EXPECT_EQ(id_of("level1_Final.dat"), 0x02000001u);
  EXPECT_EQ(id_of("level19_Final.dat"), 0x26000001u);
  EXPECT_EQ(id_of("level127_Final.dat"), 0xFE000001u);
  EXPECT_EQ(suffix_hash("HD1"), 0xFFFFFFE3u);
  EXPECT_EQ(id_of("level0_HD1.dat"), 0x01FFFFC7u);
  EXPECT_EQ(id_of("level0_HD1.x.dat"), 0x01FFFFC7u);
  EXPECT_EQ(parse_level_file_name("level0_HD1.x.dat")->suffix, "HD1");
  EXPECT_EQ(suffix_hash("0H"), 0u);
  EXPECT_EQ(id_of("level0_0H.dat"), 0x00000001u);  // collides with level0_Final.dat
  EXPECT_EQ(id_of("level0_AB.dat"), 0x0000000Bu);
  EXPECT_EQ(id_of("level0_CA.dat"), 0x0000000Bu);
  EXPECT_EQ(suffix_hash("final"), 130u);
  EXPECT_EQ(id_of("level0_final.dat"), 0x00000105u);
  EXPECT_FALSE(parse_level_file_name("level0_final.dat")->final);
  EXPECT_TRUE(parse_level_file_name("level0_Final.dat")->final);
  EXPECT_EQ(suffix_hash("Test"), 167u);
  EXPECT_EQ(id_of("level2_Test.dat"), 0x0400014Fu);
  EXPECT_EQ(suffix_hash("my_mod"), 307u);
  EXPECT_EQ(id_of("level3_my_mod.dat"), 0x06000267u);
  EXPECT_EQ(file_id_level(0x26000001u), 19u);
  EXPECT_EQ(make_file_id(1, 0), 0x02000001u);
}

TEST(OniNames, Refusals) {
  EXPECT_FALSE(parse_level_file_name("level128_Final.dat").ok());
  EXPECT_NE(parse_level_file_name("level128_Final.dat").error().message.find("above 127"), std::string::npos);
  EXPECT_FALSE(parse_level_file_name("level1_Final").ok());   // no '.' after the suffix
  EXPECT_FALSE(parse_level_file_name("level_Final.dat").ok()); // no digits
  EXPECT_FALSE(parse_level_file_name("level1234_A.dat").ok()); // 4 digits
  EXPECT_FALSE(parse_level_file_name("levelx_A.dat").ok());
  EXPECT_FALSE(parse_level_file_name("lev1_A.dat").ok());
  EXPECT_FALSE(parse_level_file_name("level1_\xC3\xA9.dat").ok());  // not ASCII
}

TEST(OniNames, ToolsFilesSkipped) {
  EXPECT_TRUE(is_tools_file("level1_tools.dat"));
  EXPECT_TRUE(is_tools_file("level1_Tools.dat"));
  EXPECT_FALSE(is_tools_file("level1_TOOLS.dat"));  // case-sensitive, as the engine
  EXPECT_FALSE(is_tools_file("level1_Final.dat"));
}

TEST(OniNames, Tags) {
  EXPECT_EQ(make_tag("TXMP"), 0x54584D50u);
  EXPECT_EQ(tag_string(0x54584D50u), "TXMP");
}

TEST(OniNames, HashCli) {
  auto r = testing::run_cli("hash oni-file-id level0_HD1.dat level19_Final.dat level3_my_mod.dat");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "01ffffc7\n26000001\n06000267\n");
  auto bad = testing::run_cli("hash oni-file-id level128_Final.dat");
  EXPECT_EQ(bad.exit_code, 1);
}

}  // namespace
}  // namespace assay::oni

#include "assay/formats/oni/oni.h"

namespace assay::oni {
namespace {

TEST(OniNames, OniFileNames) {
  EXPECT_EQ(oni_file_name("TXMPbrick"), "TXMPbrick.oni");
  EXPECT_EQ(oni_file_name("TXMPa:b/c\\d*e?f\"g<h>i|j%k"), "TXMPa%3Ab%2Fc%5Cd%2Ae%3Ff%22g%3Ch%3Ei%7Cj%25k.oni");
  EXPECT_EQ(oni_file_name(std::string("TXMP\x01\xC3", 6)), "TXMP%01%C3.oni");
  EXPECT_EQ(oni_file_name(".."), "%2E..oni");
  EXPECT_EQ(oni_name_from_file("TXMPa%3Ab%2Fc%25k"), "TXMPa:b/c%k");
  EXPECT_EQ(oni_name_from_file("TXMP%zz%4"), "TXMP%zz%4");  // bad escapes kept
}

}  // namespace
}  // namespace assay::oni
