// The two game-made archives in ../shared/samples/alchemy, read in place. Facts from their README
// and from spec: alchemy.md#corrections (C1, C6, C7); none is taken from our own output.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "assay/core/hash.h"
#include "assay/formats/igarchive/archive.h"
#include "assay/formats/igarchive/extract.h"
#include "../../../src/formats/igarchive/json.h"
#include "assay/formats/igarchive/verify.h"
#include "testing/testing.h"
#include "formats/serialise.h"

namespace assay::igarchive {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;
using testing::shell_quote;

ArchiveFile open_sample(const fs::path& p) {
  auto a = open_file(p.string());
  EXPECT_TRUE(a.ok()) << (a.ok() ? "" : a.error().str());
  if (!a.ok()) throw std::runtime_error("open failed");
  return std::move(*a);
}

bool ends_with(std::string_view s, std::string_view t) { return s.size() >= t.size() && s.substr(s.size() - t.size()) == t; }

// README: Skylanders "zap", igArchive 0x0A big-endian, 88 files, 59 igz of version 7 inside;
// spec C1: each name entry is the path, a NUL and a 4-byte word.
TEST(IgArchiveRealFiles, SkylandersZapHeaderAndNames) {
  ASSAY_REQUIRE_SAMPLE(path, "alchemy/skylanders_zap.pak");
  ASSERT_EQ(fs::file_size(path), 3959652u);
  const ArchiveFile af = open_sample(path);
  const Archive& a = af.archive;
  EXPECT_EQ(a.version(), 0x0Au);
  EXPECT_EQ(a.endian(), Endian::big);
  ASSERT_EQ(a.files().size(), 88u);
  EXPECT_EQ(a.header().flags & kFlagCaseInsensitive, kFlagCaseInsensitive);
  EXPECT_TRUE(a.names_ok());
  std::size_t igz = 0, suffix = 0;
  for (const FileEntry& f : a.files()) {
    EXPECT_EQ(f.name_layout, NameLayout::string_time) << f.index;  // C1
    EXPECT_TRUE(f.has_time);
    // path + NUL + u32: the entry is the stored string plus 5 bytes
    const std::string_view stored = f.path.empty() ? f.name : f.path;
    EXPECT_EQ(f.name_raw.size(), stored.size() + 5) << f.index;
    EXPECT_EQ(f.name_raw[stored.size()], 0) << f.index;
    // the hash is FNV-1a of the lower-cased name with '\' turned into '/' (C7)
    std::string folded(f.name);
    for (char& c : folded) c = c == '\\' ? '/' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_EQ(f.hash, fnv1a32(folded)) << f.name;
    if (ends_with(f.name, ".igz")) ++igz;
    if (f.name_match == NameMatch::suffix) ++suffix;
    else EXPECT_EQ(f.name_match, NameMatch::exact) << f.name;
  }
  EXPECT_EQ(igz, 59u);
  // One entry stores its build root: "u:\temporary\ps3\packages\generated\characters\zap.pkgb",
  // whose hash is that of "packages/generated/characters/zap.pkgb" (checked on the bytes).
  EXPECT_EQ(suffix, 1u);
  const FileEntry* pkg = a.find("packages/generated/characters/zap.pkgb");
  ASSERT_NE(pkg, nullptr);
  EXPECT_EQ(pkg->hash, fnv1a32("packages/generated/characters/zap.pkgb"));
  EXPECT_EQ(pkg->path, "u:\\temporary\\ps3\\packages\\generated\\characters\\zap.pkgb");
  // reported, not guessed: one layout for the whole table
  const Json j = name_table_json(a);
  EXPECT_EQ(j["name_layout"], "string_time");
  EXPECT_EQ(j["name_layouts"]["string_time"], 88);
  EXPECT_EQ(name_entry_json(*pkg)["name_match"], "suffix");
  Diagnostics d;
  verify(a.data(), "zap", {}, d);
  EXPECT_FALSE(d.has_errors()) << (d.items().empty() ? "" : d.items().front().where.str());
  EXPECT_EQ(d.count(Severity::warning), 0u);
}

// igArchiveExtractor reads and extracts all 88 (README); every igz inside is version 7, big-endian.
TEST(IgArchiveRealFiles, SkylandersZapEveryFileDecodes) {
  ASSAY_REQUIRE_SAMPLE(path, "alchemy/skylanders_zap.pak");
  const ArchiveFile af = open_sample(path);
  std::size_t igz = 0;
  for (const FileEntry& f : af.archive.files()) {
    ByteBuffer out;
    auto r = af.archive.read(f, out, 1);
    ASSERT_TRUE(r.ok()) << f.name << ": " << r.error().str();
    ASSERT_EQ(out.size(), f.length);
    if (ends_with(f.name, ".igz")) {
      ++igz;
      ASSERT_GE(out.size(), 8u);
      EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(out.data()), 4), std::string_view("IGZ\x01", 4)) << f.name;
      EXPECT_EQ(load<std::uint32_t>(out.data() + 4, Endian::big), 7u) << f.name;
    }
  }
  EXPECT_EQ(igz, 59u);
}

TEST(IgArchiveRealFiles, SkylandersZapCli) {
  ASSAY_REQUIRE_SAMPLE(path, "alchemy/skylanders_zap.pak");
  testing::TempDir t;
  auto v = run_cli("verify " + shell_quote(path.string()));
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  auto l = run_cli("list --json " + shell_quote(path.string()));
  ASSERT_EQ(l.exit_code, 0) << l.err;
  const auto lj = nlohmann::json::parse(l.out);
  EXPECT_EQ(lj["entries"].size(), 88u);
  // C1: every entry is one path + NUL + u32; the CLI says which layout it read, per entry and
  // for the whole table.
  for (const auto& e : lj["entries"]) EXPECT_EQ(e["name_layout"], "string_time") << e.dump();
  auto i = run_cli("info --json " + shell_quote(path.string()));
  ASSERT_EQ(i.exit_code, 0) << i.err;
  const auto ij = nlohmann::json::parse(i.out);
  EXPECT_EQ(ij["name_layout"], "string_time");
  EXPECT_EQ(ij["name_layouts"]["string_time"], 88);
  auto x = run_cli("extract " + shell_quote(path.string()) + " -o " + shell_quote((t / "out").string()));
  ASSERT_EQ(x.exit_code, 0) << x.err;
  std::size_t files = 0, igz = 0;
  for (const auto& e : fs::recursive_directory_iterator(t / "out"))
    if (e.is_regular_file()) ++files, igz += e.path().extension() == ".igz";
  EXPECT_EQ(files, 88u);
  EXPECT_EQ(igz, 59u);
}

// README: Crash NST, igArchive 0x0B little-endian, 2 LZMA files (a Havok .hkx and a v10 igz);
// C7: flags 1, names hashed lower-cased with '/' separators; the level editor's build root is
// "temporary/mack/data/win64/output/"; C6: the first file's ordinal is 0xFFFFFF.
TEST(IgArchiveRealFiles, CrashNstArchive) {
  ASSAY_REQUIRE_SAMPLE(path, "alchemy/crash_nst_L332_CollisionTemplate.pak");
  ASSERT_EQ(fs::file_size(path), 10568u);
  const ArchiveFile af = open_sample(path);
  const Archive& a = af.archive;
  EXPECT_EQ(a.version(), 0x0Bu);
  EXPECT_EQ(a.endian(), Endian::little);
  EXPECT_EQ(a.header().flags, 1u);
  ASSERT_EQ(a.files().size(), 2u);
  const std::vector<std::string> names = {"models/maps/Crash1/Custom_Level/StaticCollision_Custom_Level.hkx",
                                          "maps/Crash1/Custom_Level/StaticCollision_Custom_Level.igz"};
  for (std::size_t i = 0; i < 2; ++i) {
    const FileEntry& f = a.files()[i];
    EXPECT_EQ(f.name, names[i]);
    EXPECT_EQ(f.path, "temporary/mack/data/win64/output/" + names[i]);
    EXPECT_EQ(f.name_layout, NameLayout::path_name_time);
    EXPECT_EQ(f.name_match, NameMatch::exact);
    EXPECT_EQ(f.hash, fnv1a32(names[i], true));
    EXPECT_EQ(f.compression, Compression::lzma);
    EXPECT_EQ(f.time, 0u);
    // build path + NUL + logical name + NUL + u32
    EXPECT_EQ(f.name_raw.size(), f.path.size() + f.name.size() + 6);
  }
  EXPECT_EQ(a.files()[0].ordinal, 0xFFFFFFu);
  ByteBuffer igz;
  ASSERT_TRUE(a.read(a.files()[1], igz).ok());
  ASSERT_GE(igz.size(), 8u);
  EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(igz.data()), 4), std::string_view("\x01ZGI", 4));
  EXPECT_EQ(load<std::uint32_t>(igz.data() + 4, Endian::little), 10u);
  EXPECT_EQ(name_table_json(a)["name_layout"], "path_name_time");
  Diagnostics d;
  verify(a.data(), "nst", {}, d);
  EXPECT_FALSE(d.has_errors());
  EXPECT_EQ(d.count(Severity::warning), 0u);
}

}  // namespace
}  // namespace assay::igarchive
