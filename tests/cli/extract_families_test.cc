// `extract` behaves the same for every family (issue 11 item 5, docs/cli.md#extract): RenderWare
// and Oni write decoded textures / exported .oni files through the same per-entry loop as the
// archives, so --exclude, --skip-existing, keep-going past a bad entry, --stop-on-error and a filter
// that matches nothing work and read the same.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "assay/family.h"
#include "assay/ops.h"
#include "assay/options.h"
#include "assay/formats/oni/oni.h"
#include "assay/formats/renderware/texture.h"
#include "assay/formats/renderware/writer.h"
#include "assay/image/dxt.h"
#include "testing/testing.h"

namespace assay {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;
using testing::quote_path;
using testing::shell_quote;

// ---- RenderWare: a dictionary of three 8 x 8 DXT1 textures built by our writer ----------------
ByteBuffer dxt1_native(const std::string& name) {
  rw::writer::D3d9Texture t;
  t.name = name;
  t.width = t.height = 8;
  t.d3d_format = rw::d3d::kDxt1;
  t.levels = {ByteBuffer(4 * 8, 0x55)};  // 2 x 2 blocks of 8 bytes (spec: renderware.md#rw-10-4)
  auto n = rw::writer::d3d9_texture_native(t);
  EXPECT_TRUE(n.ok());
  return n ? *n : ByteBuffer{};
}

// "first", "middle", "last"; with `break_middle` the middle one's D3D format is not one RenderWare knows.
ByteBuffer three_texture_txd(bool break_middle) {
  const ByteBuffer first = dxt1_native("first");
  ByteBuffer middle = dxt1_native("middle");
  if (break_middle) {
    // the native's Struct body starts 24 bytes in (two 12-byte headers); the D3D format is at +0x4C
    EXPECT_EQ(load<std::uint32_t>(middle.data() + 24 + 0x4C, Endian::little), rw::d3d::kDxt1);
    store<std::uint32_t>(middle.data() + 24 + 0x4C, 0x58585858, Endian::little);  // "XXXX"
  }
  return rw::writer::texture_dictionary({first, middle, dxt1_native("last")}, 2, rw::kStampGtaSa);
}

TEST(ExtractFamilies, RenderWareExcludeAndSkipExisting) {
  testing::TempDir t;
  testing::write_file(t / "three.txd", three_texture_txd(false));
  auto r = run_cli("extract " + quote_path(t / "three.txd") + " -o " + quote_path(t / "x") + " --exclude middle");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(t / "x" / "first.png"));
  EXPECT_TRUE(fs::exists(t / "x" / "last.png"));
  EXPECT_FALSE(fs::exists(t / "x" / "middle.png"));
  // the existing first.png is left as it is and counted; the others are written
  testing::write_file(t / "x" / "first.png", ByteBuffer{'k', 'e', 'e', 'p'});
  fs::remove(t / "x" / "last.png");
  r = run_cli("extract " + quote_path(t / "three.txd") + " -o " + quote_path(t / "x") + " --skip-existing");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::read_file(t / "x" / "first.png"), (ByteBuffer{'k', 'e', 'e', 'p'}));
  EXPECT_TRUE(fs::exists(t / "x" / "middle.png"));
  EXPECT_TRUE(fs::exists(t / "x" / "last.png"));
  EXPECT_NE(r.err.find("extracted 2 files"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("1 existing skipped"), std::string::npos) << r.err;
}

TEST(ExtractFamilies, RenderWareGoesPastABadTextureAndNamesIt) {
  testing::TempDir t;
  testing::write_file(t / "bad.txd", three_texture_txd(true));
  auto r = run_cli("extract " + quote_path(t / "bad.txd") + " -o " + quote_path(t / "x"));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("middle: not extracted"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(t / "x" / "first.png"));
  EXPECT_TRUE(fs::exists(t / "x" / "last.png"));
  EXPECT_FALSE(fs::exists(t / "x" / "middle.png"));
  r = run_cli("extract " + quote_path(t / "bad.txd") + " -o " + quote_path(t / "s") + " --stop-on-error");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(fs::exists(t / "s" / "first.png"));
  EXPECT_FALSE(fs::exists(t / "s" / "last.png"));  // after the bad one: not started
}

TEST(ExtractFamilies, RenderWareSampleExclude) {
  ASSAY_REQUIRE_SAMPLE(p, "renderware/rw-parser/dxtDecoding.txd");
  testing::TempDir t;
  auto r = run_cli("extract " + quote_path(p) + " -o " + quote_path(t / "o") + " --exclude DXT3");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(t / "o" / "DXT1.png"));
  EXPECT_TRUE(fs::exists(t / "o" / "DXT5.png"));
  EXPECT_FALSE(fs::exists(t / "o" / "DXT3.png"));
}

// ---- Oni: the sample level made by OniSplit, and our own sample files ------------------------
TEST(ExtractFamilies, OniSampleExcludeAndSkipExisting) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  testing::TempDir t;
  const std::string dat = quote_path(dir / "level0_Final.dat");
  auto r = run_cli("extract " + dat + " -o " + quote_path(t / "x") + " --exclude 'TXMP*'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(t / "x" / "M3GMcube.oni"));  // the README's OBJ cube (-create:m3gm)
  for (const auto& e : fs::directory_iterator(t / "x"))
    EXPECT_NE(e.path().filename().string().rfind("TXMP", 0), 0u) << e.path();
  // TStrgreeting.oni exists already: left alone and counted
  testing::write_file(t / "x" / "TStrgreeting.oni", ByteBuffer{'k'});
  fs::remove(t / "x" / "M3GMcube.oni");
  r = run_cli("extract " + dat + " -o " + quote_path(t / "x") + " --exclude 'TXMP*' --skip-existing");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::read_file(t / "x" / "TStrgreeting.oni"), ByteBuffer{'k'});
  EXPECT_TRUE(fs::exists(t / "x" / "M3GMcube.oni"));
  EXPECT_NE(r.err.find("existing skipped"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("extracted 1 files"), std::string::npos) << r.err;  // only M3GMcube.oni was missing
}

TEST(ExtractFamilies, OniTexturesGoPastABadTxmpAndNameIt) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  testing::TempDir t;  // a copy to corrupt (outside the repository)
  for (const char* n : {"level0_Final.dat", "level0_Final.raw"}) fs::copy_file(dir / n, t / n);
  ByteBuffer b = testing::read_file(t / "level0_Final.dat");
  auto f = oni::InstanceFile::open(b, "x");
  ASSERT_TRUE(f.ok());
  std::vector<std::uint32_t> txmps;  // named TXMPs with data, in instance order
  for (std::uint32_t i = 0; i < f->instance_count(); ++i) {
    const oni::Descriptor d = f->descriptor(i);
    if (d.tag == oni::make_tag("TXMP") && !d.unnamed() && !d.placeholder()) txmps.push_back(i);
  }
  ASSERT_GE(txmps.size(), 3u);  // the README: 16 TXMPs in level 0
  const std::string bad(*f->name(txmps[1]));
  // TXMP format field (+0x90, spec: oni.md#oni-9-1) set to 3: not a format Oni stores
  store<std::uint32_t>(b.data() + f->instance_file_offset(f->descriptor(txmps[1])) + 0x90, 3, Endian::little);
  testing::write_file(t / "level0_Final.dat", b);
  const std::string dat = quote_path(t / "level0_Final.dat");
  auto png = [&](const fs::path& out, std::uint32_t i) { return out / (std::string(*f->name(i)) + ".png"); };
  auto r = run_cli("extract --textures " + dat + " -o " + quote_path(t / "x"));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find(bad + ": not extracted"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("unsupported TXMP format 3"), std::string::npos) << r.err;
  for (std::size_t k = 0; k < txmps.size(); ++k) EXPECT_EQ(fs::exists(png(t / "x", txmps[k])), k != 1) << k;
  r = run_cli("extract --textures --stop-on-error " + dat + " -o " + quote_path(t / "s"));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  for (std::size_t k = 0; k < txmps.size(); ++k) EXPECT_EQ(fs::exists(png(t / "s", txmps[k])), k == 0) << k;
}

TEST(ExtractFamilies, OniOneBlockedFileDoesNotStopTheOthers) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  testing::TempDir t;
  fs::create_directories(t / "x" / "M3GMcube.oni");  // a folder where the file goes: that write fails
  auto r = run_cli("extract " + quote_path(dir / "level0_Final.dat") + " -o " + quote_path(t / "x"));
  EXPECT_EQ(r.exit_code, 2) << r.err;  // an I/O error (docs/cli.md#exit-codes)
  EXPECT_NE(r.err.find("M3GMcube: not extracted"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(t / "x" / "TStrgreeting.oni"));
}

// ---- a filter that matches nothing, for every family ------------------------------------------
// `make-samples DIR/s`, then one input per family from its "family: file" lines (the Warriors disc
// is its folder): family -> path.
std::map<std::string, std::string> sample_per_family(const fs::path& dir) {
  std::map<std::string, std::string> inputs;
  auto made = run_cli("make-samples " + quote_path(dir / "s"));
  EXPECT_EQ(made.exit_code, 0) << made.err;
  std::istringstream lines(made.out);
  for (std::string line; std::getline(lines, line);) {
    const auto colon = line.find(": ");
    if (colon == std::string::npos) continue;
    const std::string family = line.substr(0, colon), file = line.substr(colon + 2);
    if (!inputs.count(family)) inputs[family] = (dir / "s" / (family == "warriors" ? "warriors" : file)).string();
  }
  return inputs;
}

TEST(ExtractFamilies, AFilterMatchingNothingSaysSoForEveryFamily) {
  testing::TempDir t;
  const std::map<std::string, std::string> inputs = sample_per_family(t.path());
  ASSERT_EQ(inputs.size(), 5u);  // igarchive, igz, warriors, oni, renderware
  for (const auto& [family, in] : inputs) {
    SCOPED_TRACE(family);
    auto r = run_cli("extract " + shell_quote(in) + " -o " + quote_path(t / "none") + " 'no-such-*'");
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("no entry matches 'no-such-*'"), std::string::npos) << r.err;
    r = run_cli("extract " + shell_quote(in) + " -o " + quote_path(t / "none") + " --exclude '*'");
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("nothing selected"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(fs::exists(t / "none") && !fs::is_empty(t / "none"));
}

// The library's extract (what the CLI, the viewer and the Python module call) goes through the
// same loop for every family: the selectors that matched nothing come back named, an --exclude of
// everything selects nothing, and nothing is written.
TEST(ExtractFamilies, EveryFamilyReportsItsSelection) {
  testing::TempDir t;
  const std::map<std::string, std::string> inputs = sample_per_family(t.path());
  ASSERT_EQ(inputs.size(), 5u);
  for (const auto& [family, path] : inputs) {
    SCOPED_TRACE(family);
    ASSERT_NE(find_family(family), nullptr);
    auto in = Input::open(path);
    ASSERT_TRUE(in) << in.error().str();
    auto c = open(*in, ContainerOptions{}, family);
    ASSERT_TRUE(c) << c.error().str();
    Diagnostics diags;
    ExtractOptions x;
    x.globs = {"no-such-*"};
    auto st = extract(**c, x, OutputDir(t / "none", false), diags);
    ASSERT_TRUE(st) << st.error().str();
    EXPECT_EQ(st->unmatched, std::vector<std::string>{"no-such-*"});
    EXPECT_EQ(st->selected, 0u);
    x.globs.clear();
    x.excludes = {"*"};
    st = extract(**c, x, OutputDir(t / "none", false), diags);
    ASSERT_TRUE(st) << st.error().str();
    EXPECT_TRUE(st->unmatched.empty());
    EXPECT_EQ(st->selected, 0u);
    EXPECT_EQ(st->files, 0u);
  }
  EXPECT_FALSE(fs::exists(t / "none") && !fs::is_empty(t / "none"));
}

}  // namespace
}  // namespace assay
