// Issue 29 item 3: names as users type them. On an archive whose names are stored with `\` and
// compare without case (Skylanders), `'textures/*'`, `'textures\*'` and `'*WAVE*'` select what
// the names say; `--json` `path` is written with `/`, as extract writes it; a name or glob that
// selects nothing gets "did you mean". docs/cli.md#selection.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "assay/formats/igarchive/writer.h"
#include "testing/testing.h"

namespace assay {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::quote_path;
using testing::run_cli;
using testing::shell_quote;

using testing::bytes_of;

// A small archive written by our own writer with names as a Windows build stores them.
fs::path write_archive(const testing::TempDir& t, std::uint32_t flags) {
  std::vector<igarchive::WriterFile> files;
  for (const char* n : {"Textures\\Wall_A.igz", "Textures\\wall_b.igz", "Actors\\Zap.igz", "vfx\\ZapWaveFX.igz"})
    files.push_back({.name = n, .data = bytes_of(std::string("content of ") + n)});
  igarchive::WriterOptions o;
  o.flags = flags;
  auto a = igarchive::write_archive(files, o);
  EXPECT_TRUE(a.ok()) << a.error().str();
  const fs::path p = t / (flags ? "folded.arc" : "exact.arc");
  testing::write_file(p, a ? *a : ByteBuffer{});
  return p;
}

std::set<std::string> listed_names(const std::string& args, int expect_exit = 0) {
  auto r = run_cli("list --json " + args);
  EXPECT_EQ(r.exit_code, expect_exit) << args << "\n" << r.err;
  std::set<std::string> names;
  if (r.exit_code != 0) return names;
  const json j = json::parse(r.out);  // kept alive for the loop
  for (const auto& e : j["entries"]) names.insert(e["name"].get<std::string>());
  return names;
}

TEST(GlobNames, BothSeparatorsAndFoldedCaseOnACaseInsensitiveArchive) {
  testing::TempDir t;
  const std::string f = quote_path(write_archive(t, igarchive::kFlagCaseInsensitive));
  auto info = run_cli("info --json " + f);
  ASSERT_EQ(info.exit_code, 0) << info.err;
  ASSERT_EQ(json::parse(info.out)["case_insensitive"], true);
  const std::set<std::string> textures = {"Textures\\Wall_A.igz", "Textures\\wall_b.igz"};
  EXPECT_EQ(listed_names(f + " 'textures/*'"), textures);
  EXPECT_EQ(listed_names(f + " 'textures\\*'"), textures);
  EXPECT_EQ(listed_names(f + " 'TEXTURES/WALL_?.IGZ'"), textures);
  EXPECT_EQ(listed_names(f + " '*WAVE*'"), (std::set<std::string>{"vfx\\ZapWaveFX.igz"}));
  EXPECT_EQ(listed_names(f + " '*' --exclude 'textures/*' --exclude '*wave*'"), (std::set<std::string>{"Actors\\Zap.igz"}));
  // extract selects the same way and writes with '/'
  auto x = run_cli("extract " + f + " -o " + quote_path(t / "x") + " 'textures\\*'");
  ASSERT_EQ(x.exit_code, 0) << x.err;
  EXPECT_EQ(testing::read_file(t / "x" / "Textures" / "Wall_A.igz"), bytes_of("content of Textures\\Wall_A.igz"));
  EXPECT_TRUE(fs::exists(t / "x" / "Textures" / "wall_b.igz"));
  EXPECT_FALSE(fs::exists(t / "x" / "Actors"));
}

// A bracket expression that is the whole selector stays a glob: "[*]" is a literal '*' (no entry
// here), not "*" (CLI11 would read "[...]" as a list); "[Av]*" the names starting A or v.
TEST(GlobNames, ABracketSelectorIsAGlob) {
  testing::TempDir t;
  const std::string f = quote_path(write_archive(t, 0));
  EXPECT_EQ(listed_names(f + " '[*]'", 1), std::set<std::string>{});
  EXPECT_EQ(listed_names(f + " '[?]'", 1), std::set<std::string>{});
  EXPECT_EQ(listed_names(f + " '[Av]*'"), (std::set<std::string>{"Actors\\Zap.igz", "vfx\\ZapWaveFX.igz"}));
  EXPECT_EQ(listed_names(f + " '*' --exclude '[*]'").size(), 4u);
}

TEST(GlobNames, CaseIsKeptWhereTheArchiveKeepsIt) {
  testing::TempDir t;
  const std::string f = quote_path(write_archive(t, 0));
  auto info = run_cli("info --json " + f);
  ASSERT_EQ(json::parse(info.out)["case_insensitive"], false);
  // separators are alike in every archive; case is not folded here
  EXPECT_EQ(listed_names(f + " 'Textures/*'"), (std::set<std::string>{"Textures\\Wall_A.igz", "Textures\\wall_b.igz"}));
  EXPECT_EQ(listed_names(f + " '*wave*'", 1), std::set<std::string>{});
  auto r = run_cli("list " + f + " 'textures/*'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no entry matches 'textures/*'; did you mean 'Textures/*'?"), std::string::npos) << r.err;
}

TEST(GlobNames, JsonPathIsWhatExtractWrites) {
  testing::TempDir t;
  const fs::path arc = write_archive(t, igarchive::kFlagCaseInsensitive);
  auto l = run_cli("list --json " + quote_path(arc));
  ASSERT_EQ(l.exit_code, 0) << l.err;
  auto x = run_cli("extract " + quote_path(arc) + " -o " + quote_path(t / "x"));
  ASSERT_EQ(x.exit_code, 0) << x.err;
  std::set<std::string> written;
  for (const auto& e : fs::recursive_directory_iterator(t / "x"))
    if (e.is_regular_file()) written.insert(e.path().lexically_relative(t / "x").generic_string());
  std::set<std::string> paths;
  const json listed = json::parse(l.out);
  for (const auto& e : listed["entries"]) {
    const std::string name = e["name"], path = e["path"];
    std::string expected = name;
    std::replace(expected.begin(), expected.end(), '\\', '/');
    EXPECT_EQ(path, expected) << name;  // the name kept as stored; the path as written
    paths.insert(path);
  }
  EXPECT_EQ(paths, written);
  EXPECT_EQ(paths, (std::set<std::string>{"Textures/Wall_A.igz", "Textures/wall_b.igz", "Actors/Zap.igz", "vfx/ZapWaveFX.igz"}));
}

TEST(GlobNames, DidYouMeanForNamesAndGlobs) {
  testing::TempDir t;
  const fs::path arc = write_archive(t, igarchive::kFlagCaseInsensitive);
  const std::string f = quote_path(arc);
  auto r = run_cli("list " + f + " 'texture/*'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no entry matches 'texture/*'; did you mean 'textures/*'?"), std::string::npos) << r.err;
  r = run_cli("extract " + f + " -o " + quote_path(t / "x") + " 'actors/zapp.igz'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no entry matches 'actors/zapp.igz'; did you mean 'Actors/Zap.igz'?"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(t / "x" / "Actors"));
  r = run_cli("list " + f + " '*.igzz'");
  EXPECT_NE(r.err.find("did you mean '*.igz'?"), std::string::npos) << r.err;
  // A::B naming no entry: the same suggestion (exit 2 as before)
  r = run_cli("info " + shell_quote(arc.string() + "::Actors/Zapp.igz"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("did you mean 'Actors/Zap.igz'?"), std::string::npos) << r.err;
  // nothing close: the old hint
  r = run_cli("list " + f + " '*.png'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("shows the names"), std::string::npos) << r.err;
}

// The real Skylanders archive (samples/alchemy/README.md: version 0x0A, 88 files, 22
// `textures\*.igz`). The ten names holding "wave" are read off its name table (strings(1)).
TEST(GlobNames, SkylandersZap) {
  ASSAY_REQUIRE_SAMPLE(pak, "alchemy/skylanders_zap.pak");
  const std::string f = quote_path(pak);
  auto info = run_cli("info --json " + f);
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_EQ(json::parse(info.out)["case_insensitive"], true);
  const auto slash = listed_names(f + " 'textures/*'");
  EXPECT_EQ(slash.size(), 22u);
  for (const auto& n : slash) EXPECT_EQ(n.rfind("textures\\", 0), 0u) << n;
  EXPECT_EQ(listed_names(f + " 'textures\\*'"), slash);
  EXPECT_EQ(listed_names(f + " '*WAVE*'"),
            (std::set<std::string>{"vfx\\characters\\skylanders\\zap\\zap_wavemodelfx.igz",
                                   "materialinstances\\zapminiwave_igb_materials.igz",
                                   "vfx\\characters\\skylanders\\zap\\zap_waveexpires.igz",
                                   "vfx\\characters\\skylanders\\zap\\zap_wavefx.igz",
                                   "models\\characters\\skylanders\\zap\\zapwave.igz",
                                   "vfx\\characters\\skylanders\\zap\\zap_miniwavefx.igz",
                                   "vfx\\characters\\skylanders\\zap\\zap_miniwavemodelfx.igz",
                                   "vfx\\characters\\skylanders\\zap\\zap_wowpow_wavemodel.igz",
                                   "materialinstances\\zapwave_igb_materials.igz",
                                   "models\\characters\\skylanders\\zap\\zapminiwave.igz"}));
  // README.md's edit loop, `assay list game.pak 'maps/*'`, in this archive's terms (text output)
  auto r = run_cli("list " + f + " 'actors/*'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("actors\\zap.igz"), std::string::npos) << r.out;
  // `path` with '/', as extract writes it (was "vfx\\characters\\...")
  auto l = run_cli("list --json " + f);
  ASSERT_EQ(l.exit_code, 0);
  const auto entries = json::parse(l.out)["entries"];
  ASSERT_EQ(entries.size(), 88u);
  for (const auto& e : entries) EXPECT_EQ(e["path"].get<std::string>().find('\\'), std::string::npos) << e["path"];
  r = run_cli("list " + f + " 'textures/colormap_zap_c_12.igz'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("did you mean 'textures/colormap_zap_c_11.igz'?"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace assay
