// Progress on the long verbs (issue 11 item 5, docs/cli.md#conventions): drawn on stderr when it
// is a terminal (run here under a pseudo-terminal through script(1)), nothing when it is a file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "assay/formats/igarchive/writer.h"
#include "assay/formats/oni/oni.h"
#include "assay/formats/renderware/verify.h"
#include "assay/formats/renderware/writer.h"
#include "assay/formats/warriors/disc.h"
#include "assay/formats/warriors/writer.h"
#include "assay/image/png.h"
#include "testing/testing.h"

namespace assay {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;
using testing::quote_path;
using testing::shell_quote;

using testing::run_in_terminal;

ByteBuffer noise(std::size_t n, std::uint32_t seed) {
  ByteBuffer b(n);
  for (auto& c : b) seed = seed * 1664525u + 1013904223u, c = static_cast<std::uint8_t>(seed >> 24);
  return b;
}

// The lines the bar drew, one a line: each starts "\rLABEL: " and ends with "\033[K" (clear to the
// end of the line; core/progress.h), so the verb's own output is not in them.
std::string bars(const std::string& shown, const std::string& label) {
  std::string out;
  const std::string start = "\r" + label + ": ";
  for (auto at = shown.find(start); at != std::string::npos; at = shown.find(start, at + 1))
    out += shown.substr(at + 1, shown.find("\033[K", at) - at - 1) + "\n";
  return out;
}
bool drew(const std::string& shown, const std::string& label) { return !bars(shown, label).empty(); }
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A 64 x 64 image of four colours (a PAL8 texture holds it exactly).
image::Rgba four_colours() {
  image::Rgba img{64, 64, ByteBuffer(64 * 64 * 4)};
  for (std::size_t i = 0; i < 64 * 64; ++i)
    for (int c = 0; c < 4; ++c) img.pixels[i * 4 + c] = c == 3 ? 255 : static_cast<std::uint8_t>(((i >> 3) % 4) * 60 + c);
  return img;
}

class ProgressCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::have_terminal()) GTEST_SKIP() << "no script(1)";
    fs::create_directories(t / "in");
    testing::write_file(t / "in" / "alpha.bin", noise(300000, 1));
    testing::write_file(t / "in" / "beta.bin", noise(200000, 2));
    testing::write_file(t / "new.bin", noise(250000, 3));
  }
  testing::TempDir t;
};

TEST_F(ProgressCli, PackAndReplaceDrawInATerminal) {
  std::string shown = run_in_terminal("pack igarchive -o " + quote_path(t / "a.arc") + " " + quote_path(t / "in"), t.path());
  ASSERT_TRUE(fs::exists(t / "a.arc")) << shown;
  EXPECT_NE(shown.find("\rpack: "), std::string::npos) << shown;
  EXPECT_NE(shown.find("% "), std::string::npos) << shown;
  EXPECT_NE(shown.find("KiB"), std::string::npos) << shown;  // byte counts as units, not raw numbers
  EXPECT_TRUE(has(bars(shown, "pack"), "alpha.bin") || has(bars(shown, "pack"), "beta.bin")) << shown;
  shown = run_in_terminal("replace " + quote_path(t / "a.arc") + " -o " + quote_path(t / "b.arc") + " alpha.bin=" + quote_path(t / "new.bin"), t.path());
  ASSERT_TRUE(fs::exists(t / "b.arc")) << shown;
  EXPECT_NE(shown.find("\rreplace: "), std::string::npos) << shown;
  EXPECT_TRUE(has(bars(shown, "replace"), "alpha.bin")) << shown;  // in the bar, not only in the report
  // with -q: nothing drawn
  shown = run_in_terminal("-q pack igarchive -o " + quote_path(t / "c.arc") + " " + quote_path(t / "in"), t.path());
  EXPECT_EQ(shown.find("pack: "), std::string::npos) << shown;
}

TEST_F(ProgressCli, SilentWhenStderrIsAFile) {
  auto r = run_cli("pack igarchive -o " + quote_path(t / "a.arc") + " " + quote_path(t / "in"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("%"), std::string::npos) << r.err;
  r = run_cli("replace " + quote_path(t / "a.arc") + " -o " + quote_path(t / "b.arc") + " alpha.bin=" + quote_path(t / "new.bin"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
  r = run_cli("extract " + quote_path(t / "a.arc") + " -o " + quote_path(t / "x"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
}

TEST_F(ProgressCli, ExtractAndVerifyDrawInATerminal) {
  ASSERT_EQ(run_cli("pack igarchive -o " + quote_path(t / "a.arc") + " " + quote_path(t / "in")).exit_code, 0);
  std::string shown = run_in_terminal("extract " + quote_path(t / "a.arc") + " -o " + quote_path(t / "x") + " --threads 1", t.path());
  EXPECT_NE(shown.find("\rextract: "), std::string::npos) << shown;
  EXPECT_NE(shown.find("% "), std::string::npos) << shown;
  EXPECT_TRUE(fs::exists(t / "x" / "alpha.bin"));
  shown = run_in_terminal("verify " + quote_path(t / "a.arc"), t.path());  // every block decoded
  EXPECT_NE(shown.find("\rverify: "), std::string::npos) << shown;
  EXPECT_NE(shown.find("ok (0 errors"), std::string::npos) << shown;
  const auto v = run_cli("verify " + quote_path(t / "a.arc"));
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.err.find('\r'), std::string::npos) << v.err;
}

// A Warriors disc of two entries named alpha.bin (300,000 bytes) and beta.bin (200,000), in that
// row order. spec: warriors.md#wr-2-1: each entry starts on a 2,048-byte boundary.
void write_warriors_disc(const fs::path& dir, const fs::path& in) {
  const auto d = warriors::write_disc({{warriors::name_hash("alpha.bin"), testing::read_file(in / "alpha.bin")},
                                       {warriors::name_hash("beta.bin"), testing::read_file(in / "beta.bin")}});
  fs::create_directories(dir);
  testing::write_file(dir / "WARRIORS.DIR", d.dir);
  testing::write_file(dir / "WARRIORS.WAD", d.wad);
}

TEST_F(ProgressCli, WarriorsPackReplaceAndContainerDrawInATerminal) {
  write_warriors_disc(t / "disc", t / "in");
  fs::create_directories(t / "rep");
  testing::write_file(t / "rep" / "alpha.bin", noise(250000, 3));
  // pack warriors: over the original WAD, 300,000 and 200,000 bytes each padded to 2,048:
  // 301,056 + 200,704 = 501,760 bytes = 490.0 KiB; the first slot is alpha's replacement.
  std::string shown = run_in_terminal("pack warriors -o " + quote_path(t / "pd") + " --like " + quote_path(t / "disc") + " " +
                                          quote_path(t / "rep"), t.path());
  ASSERT_TRUE(fs::exists(t / "pd" / "WARRIORS.WAD")) << shown;
  EXPECT_TRUE(drew(shown, "pack")) << shown;
  EXPECT_TRUE(has(bars(shown, "pack"), "/490.0 KiB")) << shown;
  EXPECT_TRUE(has(bars(shown, "pack"), "alpha.bin")) << shown;
  // replace: over the new data (250,000 bytes = 244.1 KiB), named as given.
  shown = run_in_terminal("replace " + quote_path(t / "disc") + " -o " + quote_path(t / "rd") + " alpha.bin=" + quote_path(t / "new.bin"), t.path());
  ASSERT_TRUE(fs::exists(t / "rd" / "WARRIORS.WAD")) << shown;
  EXPECT_TRUE(drew(shown, "replace")) << shown;
  EXPECT_TRUE(has(bars(shown, "replace"), "/244.1 KiB")) << shown;
  EXPECT_TRUE(has(bars(shown, "replace"), "alpha.bin")) << shown;
  // replace by raw hash (spec: warriors.md#wr-2-2, "0x" + hex): the bar names it as given; the
  // report names no file (the name is unknown) but exits 0.
  const std::string raw = fmt::format("0x{:08x}", warriors::name_hash("alpha.bin"));
  shown = run_in_terminal("replace " + quote_path(t / "disc") + " -o " + quote_path(t / "rh") + " " + raw + "=" + quote_path(t / "new.bin"), t.path());
  ASSERT_TRUE(fs::exists(t / "rh" / "WARRIORS.WAD")) << shown;
  EXPECT_TRUE(has(bars(shown, "replace"), raw)) << shown;
  EXPECT_FALSE(has(shown, "internal error")) << shown;
  shown = run_in_terminal("add " + quote_path(t / "disc") + " -o " + quote_path(t / "ad") + " gamma.bin=" + quote_path(t / "new.bin"), t.path());
  ASSERT_TRUE(fs::exists(t / "ad" / "WARRIORS.WAD")) << shown;
  EXPECT_TRUE(drew(shown, "add")) << shown;
  EXPECT_TRUE(has(bars(shown, "add"), "gamma.bin")) << shown;
  // pack warriors-container: over the input files (300,000 bytes = 293.0 KiB).
  shown = run_in_terminal("pack warriors-container -o " + quote_path(t / "res.bin") + " 0x28=" + quote_path(t / "in" / "alpha.bin"), t.path());
  ASSERT_TRUE(fs::exists(t / "res.bin")) << shown;
  EXPECT_TRUE(drew(shown, "pack")) << shown;
  EXPECT_TRUE(has(bars(shown, "pack"), "/293.0 KiB")) << shown;
  EXPECT_TRUE(has(bars(shown, "pack"), "alpha.bin")) << shown;
}

TEST_F(ProgressCli, RenderWareReplaceAndVerifyDrawInATerminal) {
  auto tex = rw::writer::ps2_texture_from_rgba("stonewall", {four_colours()}, false);
  ASSERT_TRUE(tex) << tex.error().str();
  auto native = rw::writer::ps2_texture_native(*tex);
  ASSERT_TRUE(native) << native.error().str();
  testing::write_file(t / "walls.txd", rw::writer::texture_dictionary({*native}, 6));
  auto png = image::encode_png(four_colours());
  ASSERT_TRUE(png) << png.error().str();
  testing::write_file(t / "wall.png", *png);
  std::string shown = run_in_terminal("replace " + quote_path(t / "walls.txd") + " -o " + quote_path(t / "out.txd") + " stonewall=" +
                                          quote_path(t / "wall.png"), t.path());
  ASSERT_TRUE(fs::exists(t / "out.txd")) << shown;
  EXPECT_TRUE(drew(shown, "replace")) << shown;
  EXPECT_TRUE(has(bars(shown, "replace"), "stonewall")) << shown;
  // verify: over the stream's bytes; a top-level dictionary is named while its textures are checked.
  shown = run_in_terminal("verify " + quote_path(t / "walls.txd"), t.path());
  EXPECT_TRUE(drew(shown, "verify")) << shown;
  EXPECT_TRUE(has(bars(shown, "verify"), "% ")) << shown;
  EXPECT_TRUE(has(bars(shown, "verify"), "Texture Dictionary")) << shown;
  EXPECT_TRUE(has(shown, "ok (0 errors")) << shown;
}

// What the library reports through a ProgressFn: the units summed, and the items in order.
struct Reported {
  std::uint64_t sum = 0;
  std::vector<std::string> items;
  ProgressFn fn() {
    return [this](std::uint64_t n, std::string_view item) {
      sum += n;
      if (!item.empty()) items.emplace_back(item);
    };
  }
};

TEST_F(ProgressCli, LibraryProgressAddsUpToTheWholeInput) {
  // verify_stream: a dictionary, a String and 64 zero bytes of padding (R5): every byte once.
  auto tex = rw::writer::ps2_texture_from_rgba("stonewall", {four_colours()}, false);
  ASSERT_TRUE(tex);
  auto native = rw::writer::ps2_texture_native(*tex);
  ASSERT_TRUE(native);
  ByteBuffer stream = rw::writer::texture_dictionary({*native}, 6);
  const std::uint64_t txd = stream.size();
  const ByteBuffer str = rw::writer::string_section("walls");
  stream.insert(stream.end(), str.begin(), str.end());
  stream.resize(stream.size() + 64, 0);
  Reported r;
  rw::VerifyOptions vo;
  vo.progress = r.fn();
  Diagnostics d;
  EXPECT_TRUE(rw::verify_stream(stream, 0, d.sink(), vo));
  EXPECT_EQ(r.sum, txd + str.size() + 64);
  EXPECT_NE(std::find(r.items.begin(), r.items.end(), "Texture Dictionary"), r.items.end());
  // repack: the original WAD once, 301,056 + 200,704 bytes (2,048-byte slots, warriors.md#wr-2-1),
  // the first slot named by its replacement file.
  write_warriors_disc(t / "disc", t / "in");
  auto in = Input::open(t / "disc");
  ASSERT_TRUE(in);
  auto disc = warriors::Disc::open(*in);
  ASSERT_TRUE(disc) << disc.error().str();
  Reported w;
  auto st = warriors::repack(*disc, {{warriors::name_hash("alpha.bin"), t / "new.bin"}}, t / "pd", false, w.fn());
  ASSERT_TRUE(st) << st.error().str();
  EXPECT_EQ(w.sum, 301056u + 200704u);
  ASSERT_FALSE(w.items.empty());
  EXPECT_EQ(w.items.front(), "new.bin");
}

TEST_F(ProgressCli, OniPackReplaceAndVerifyDrawInATerminal) {
  fs::create_directories(t / "s");
  ASSERT_TRUE(oni::write_sample_files(t / "s"));  // level0_Final.dat/.raw, level1_X.dat, oni-layouts.txt
  const std::string layouts = " --layouts " + quote_path(t / "s" / "oni-layouts.txt");
  // verify level1_X.dat: the bar counts it and level0_Final.dat beside it (linked with it).
  const std::uint64_t both = fs::file_size(t / "s" / "level1_X.dat") + fs::file_size(t / "s" / "level0_Final.dat");
  std::string shown = run_in_terminal("verify " + quote_path(t / "s" / "level1_X.dat") + layouts, t.path());
  EXPECT_TRUE(drew(shown, "verify")) << shown;
  EXPECT_TRUE(has(bars(shown, "verify"), "level1_X.dat")) << shown;
  EXPECT_TRUE(has(bars(shown, "verify"), both < 1024 ? fmt::format("/{} B", both) : fmt::format("/{:.1f} KiB", both / 1024.0))) << shown;
  // pack oni from the level's exported .oni files (TXMPbrick, ZANMlevel1_only, ZLSTlist: samples.cc).
  ASSERT_EQ(run_cli("extract " + quote_path(t / "s" / "level1_X.dat") + " -o " + quote_path(t / "oni") + layouts).exit_code, 0);
  ASSERT_TRUE(fs::exists(t / "oni" / "TXMPbrick.oni"));
  shown = run_in_terminal("pack oni -o " + quote_path(t / "level1_Y.dat") + layouts + " " + quote_path(t / "oni"), t.path());
  ASSERT_TRUE(fs::exists(t / "level1_Y.dat")) << shown;
  EXPECT_TRUE(drew(shown, "pack")) << shown;
  EXPECT_TRUE(has(bars(shown, "pack"), "TXMPbrick.oni")) << shown;  // the first file in name order
  shown = run_in_terminal("replace " + quote_path(t / "s" / "level1_X.dat") + " -o " + quote_path(t / "level1_X.dat") + layouts +
                              " ZLSTlist=" + quote_path(t / "oni" / "ZLSTlist.oni"), t.path());
  ASSERT_TRUE(fs::exists(t / "level1_X.dat")) << shown;
  EXPECT_TRUE(drew(shown, "replace")) << shown;
  EXPECT_TRUE(has(bars(shown, "replace"), "ZLSTlist")) << shown;
}

TEST_F(ProgressCli, NewVerbsSilentWhenStderrIsAFileOrQuiet) {
  write_warriors_disc(t / "disc", t / "in");
  fs::create_directories(t / "s");
  ASSERT_TRUE(oni::write_sample_files(t / "s"));
  const std::string layouts = " --layouts " + quote_path(t / "s" / "oni-layouts.txt");
  ASSERT_EQ(run_cli("extract " + quote_path(t / "s" / "level1_X.dat") + " -o " + quote_path(t / "oni") + layouts).exit_code, 0);
  for (const std::string& args :
       {"replace " + quote_path(t / "disc") + " -o " + quote_path(t / "rd") + " alpha.bin=" + quote_path(t / "new.bin"),
        "pack warriors-container -o " + quote_path(t / "res.bin") + " 0x28=" + quote_path(t / "in" / "alpha.bin"),
        "pack oni -o " + quote_path(t / "level1_Y.dat") + layouts + " " + quote_path(t / "oni"),
        "verify " + quote_path(t / "s" / "level1_X.dat") + layouts}) {
    const auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
    EXPECT_EQ(r.err.find('\r'), std::string::npos) << args << "\n" << r.err;
    EXPECT_EQ(r.err.find('%'), std::string::npos) << args << "\n" << r.err;
  }
  // -q in a terminal: no bar
  std::string shown = run_in_terminal("-q pack warriors-container -o " + quote_path(t / "res2.bin") + " 0x28=" + quote_path(t / "in" / "alpha.bin"), t.path());
  ASSERT_TRUE(fs::exists(t / "res2.bin")) << shown;
  EXPECT_FALSE(drew(shown, "pack")) << shown;
  shown = run_in_terminal("-q verify " + quote_path(t / "s" / "level1_X.dat") + layouts, t.path());
  EXPECT_FALSE(drew(shown, "verify")) << shown;
  EXPECT_TRUE(has(shown, "ok (0 errors")) << shown;
}

}  // namespace
}  // namespace assay
