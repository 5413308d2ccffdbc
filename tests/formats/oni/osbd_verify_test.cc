// verify reads every OSBD binding as extract --sounds does (issue 27): a damaged sound group in
// the .raw is a verify error coded oni.osbd, where verify used to say ok and extract then failed.
// The golden level (../shared/goldens/oni/sounds/GameDataFolder, built by OniSplit) holds the
// group OSBDgrp_sine whose OSGr chunk ("rGSO", size 0x80, version 6) starts at .raw offset 0x20:
// after the tag, size, version, volume, pitch, two u16 and channels, its permutation count (2) is
// at 0x20 + 28 = 0x3C; the first permutation's name "sine440_m22" at 0x54.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "assay/core/bytes.h"
#include "assay/formats/oni/oni.h"
#include "assay/formats/oni/sound.h"
#include "testing/testing.h"

namespace assay::oni {
namespace {

namespace fs = std::filesystem;
constexpr std::uint64_t kGroup = 0x20, kCount = kGroup + 28;

// The golden level copied to `dir` with its .raw changed by `damage`.
void copy_level(const fs::path& from, const fs::path& dir, const std::function<void(ByteBuffer&)>& damage) {
  testing::write_file(dir / "level0_Final.dat", testing::read_file(from / "level0_Final.dat"));
  ByteBuffer raw = testing::read_file(from / "level0_Final.raw");
  damage(raw);
  testing::write_file(dir / "level0_Final.raw", raw);
}

std::vector<Diagnostic> osbd_errors(const fs::path& dat) {
  auto f = load_file(dat, LayoutSource{});
  EXPECT_TRUE(f->opened);
  Diagnostics out;
  verify_sounds(*f, out);
  std::vector<Diagnostic> r;
  for (const Diagnostic& d : out.items())
    if (d.severity == Severity::error && d.where.code == "oni.osbd") r.push_back(d);
  return r;
}

TEST(OniOsbdVerify, GoldenLayoutAsDescribed) {
  ASSAY_REQUIRE_GOLDEN(dir, "oni/sounds/GameDataFolder");
  const ByteBuffer raw = testing::read_file(dir / "level0_Final.raw");
  ASSERT_GT(raw.size(), kCount + 4);
  EXPECT_EQ(std::string(raw.begin() + kGroup, raw.begin() + kGroup + 4), "rGSO");
  EXPECT_EQ(load<std::uint32_t>(raw.data() + kGroup + 4, Endian::little), 0x80u);
  EXPECT_EQ(load<std::uint32_t>(raw.data() + kCount, Endian::little), 2u);
  EXPECT_EQ(std::string(raw.begin() + 0x54, raw.begin() + 0x54 + 11), "sine440_m22");
  EXPECT_TRUE(osbd_errors(dir / "level0_Final.dat").empty());
}

// A permutation count of 0x100 (0x34 bytes each) does not fit the 0x88-byte chunk.
TEST(OniOsbdVerify, PermutationCountPastTheChunk) {
  ASSAY_REQUIRE_GOLDEN(dir, "oni/sounds/GameDataFolder");
  testing::TempDir t;
  copy_level(dir, t.path(), [](ByteBuffer& raw) { store<std::uint32_t>(raw.data() + kCount, 0x100, Endian::little); });
  const auto e = osbd_errors(t / "level0_Final.dat");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].where.offset, kCount);
  EXPECT_NE(e[0].where.message.find("256 permutations"), std::string::npos) << e[0].where.str();
  EXPECT_NE(e[0].where.structure.find("OSBDgrp_sine"), std::string::npos) << e[0].where.str();
}

// The OSGr size past the chunk: verify exits 1 with oni.osbd, as extract --sounds exits 1.
TEST(OniOsbdVerify, GroupSizePastTheChunkOnTheCli) {
  ASSAY_REQUIRE_GOLDEN(dir, "oni/sounds/GameDataFolder");
  testing::TempDir t;
  copy_level(dir, t.path(), [](ByteBuffer& raw) { store<std::uint32_t>(raw.data() + kGroup + 4, 0x1000, Endian::little); });
  const std::string dat = testing::quote_path(t / "level0_Final.dat");
  auto v = testing::run_cli("verify --json " + dat);
  EXPECT_EQ(v.exit_code, 1) << v.out << v.err;
  const auto j = nlohmann::json::parse(v.out);
  bool found = false;
  for (const auto& p : j["files"][0]["problems"])
    if (p["code"] == "oni.osbd") {
      found = true;
      EXPECT_EQ(p["severity"], "error");
      EXPECT_EQ(p["offset"], kGroup + 4);
      EXPECT_NE(p["message"].get<std::string>().find("past the chunk"), std::string::npos) << p;
    }
  EXPECT_TRUE(found) << v.out;
  EXPECT_EQ(testing::run_cli("extract --sounds " + dat + " -o " + testing::quote_path(t / "o")).exit_code, 1);
}

// The chunk's size in the .dat past the .raw's end: the walk's error, said once (not again as a
// binding that does not read). The OSBD instance: 8 header bytes, then the chunk's size (0x88)
// and its .raw offset (0x20).
TEST(OniOsbdVerify, ChunkOutsideTheRawReportedOnce) {
  ASSAY_REQUIRE_GOLDEN(dir, "oni/sounds/GameDataFolder");
  testing::TempDir t;
  copy_level(dir, t.path(), [](ByteBuffer&) {});
  const std::string dat = testing::quote_path(t / "level0_Final.dat");
  const auto ls = nlohmann::json::parse(testing::run_cli("list --json " + dat).out);
  std::uint64_t at = 0;
  for (const auto& e : ls["entries"])
    if (e["name"] == "OSBDgrp_sine") at = e["offset"];
  ASSERT_NE(at, 0u);
  ByteBuffer b = testing::read_file(t / "level0_Final.dat");
  ASSERT_EQ(load<std::uint32_t>(b.data() + at + 8, Endian::little), 0x88u);
  ASSERT_EQ(load<std::uint32_t>(b.data() + at + 12, Endian::little), kGroup);
  store<std::uint32_t>(b.data() + at + 8, 0x100000, Endian::little);
  testing::write_file(t / "level0_Final.dat", b);
  auto v = testing::run_cli("verify --json " + dat);
  EXPECT_EQ(v.exit_code, 1) << v.out << v.err;
  const auto j = nlohmann::json::parse(v.out);
  int errors = 0;
  for (const auto& p : j["files"][0]["problems"]) errors += p["severity"] == "error";
  EXPECT_EQ(errors, 1) << v.out;
  EXPECT_TRUE(osbd_errors(t / "level0_Final.dat").empty());
}

}  // namespace
}  // namespace assay::oni
