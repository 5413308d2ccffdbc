// The CLI as 7-Zip users type it (issue 29 item 6, docs/cli.md#extract-many, #list-text, #cat):
// several archives to one extract, one summary line for files already there, `cat A::B`, the
// text list's packed column / totals / -h, per-family --help, and replace refusing a JPEG or a
// PNG of another size. Fixtures are built by our writers with contents chosen here, so every
// byte count and name asserted is known independently of the code under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "assay/formats/igarchive/writer.h"
#include "assay/formats/renderware/texture.h"
#include "assay/formats/renderware/writer.h"
#include "assay/image/png.h"
#include "testing/testing.h"

namespace assay {
namespace {

namespace fs = std::filesystem;
using testing::quote_path;
using testing::run_cli;

using testing::bytes_of;

// An igArchive (v0x0B, little-endian) of `files` (name -> bytes), all compressed with `comp`.
void write_pak(const fs::path& p, const std::vector<std::pair<std::string, ByteBuffer>>& files,
               igarchive::Compression comp = igarchive::Compression::lzma) {
  std::vector<igarchive::WriterFile> w;
  for (const auto& [n, d] : files) w.push_back({.name = n, .data = d, .compression = comp});
  auto a = igarchive::write_archive(w, {});
  ASSERT_TRUE(a.ok()) << a.error().str();
  testing::write_file(p, *a);
}

std::size_t files_under(const fs::path& dir) {
  std::size_t n = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); it != fs::recursive_directory_iterator(); ++it)
    n += it->is_regular_file() ? 1 : 0;
  return n;
}

using testing::lines_of;

std::size_t count_lines_with(const std::string& text, std::string_view needle) {
  const auto ls = lines_of(text);
  return static_cast<std::size_t>(std::count_if(ls.begin(), ls.end(), [&](const std::string& l) { return l.find(needle) != std::string::npos; }));
}

// ---- (a) several archives: each into OUT/<its file name>/ ----

TEST(SevenZipCli, ExtractSeveralArchivesEachIntoItsOwnFolder) {
  testing::TempDir t;
  write_pak(t / "a.pak", {{"one.txt", bytes_of("first archive\n")}, {"dir/two.txt", bytes_of("2")}});
  write_pak(t / "b.pak", {{"three.txt", bytes_of("second archive\n")}});
  auto r = run_cli("extract " + quote_path(t / "a.pak") + " " + quote_path(t / "b.pak") + " -o " + quote_path(t / "out"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::read_file(t / "out" / "a.pak" / "one.txt"), bytes_of("first archive\n"));
  EXPECT_EQ(testing::read_file(t / "out" / "a.pak" / "dir" / "two.txt"), bytes_of("2"));
  EXPECT_EQ(testing::read_file(t / "out" / "b.pak" / "three.txt"), bytes_of("second archive\n"));
  EXPECT_EQ(files_under(t / "out"), 3u);
  // archives, then a pattern applied to each (`*` crosses '/')
  r = run_cli("extract " + quote_path(t / "a.pak") + " " + quote_path(t / "b.pak") + " 'dir/*' -o " + quote_path(t / "sel"));
  EXPECT_EQ(r.exit_code, 1) << r.err;  // b.pak has nothing under dir/: named, exit 1 (docs/cli.md#exit-codes)
  EXPECT_TRUE(fs::exists(t / "sel" / "a.pak" / "dir" / "two.txt"));
  EXPECT_EQ(files_under(t / "sel"), 1u);
  EXPECT_NE(r.err.find("b.pak: no entry matches 'dir/*'"), std::string::npos) << r.err;
  // one archive: straight into OUT, as before
  r = run_cli("extract " + quote_path(t / "b.pak") + " -o " + quote_path(t / "single"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(t / "single" / "three.txt"));
}

// The rule for an argument that is both: an exact entry name of the first archive stays a name.
TEST(SevenZipCli, AnEntryNameOfTheFirstArchiveStaysAName) {
  testing::TempDir t;
  write_pak(t / "inner.pak", {{"x.txt", bytes_of("x")}});
  write_pak(t / "a.pak", {{"inner.pak", testing::read_file(t / "inner.pak")}, {"other.txt", bytes_of("o")}});
  const fs::path cwd = fs::current_path();
  fs::current_path(t.path());  // relative names, as typed in a shell
  auto r = run_cli("extract a.pak inner.pak -o out");
  fs::current_path(cwd);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::read_file(t / "out" / "inner.pak"), testing::read_file(t / "inner.pak"));  // the entry
  EXPECT_EQ(files_under(t / "out"), 1u);
}

TEST(SevenZipCli, SeveralArchivesWithTheSameFileNameAreRefused) {
  testing::TempDir t;
  write_pak(t / "x" / "game.pak", {{"a.txt", bytes_of("a")}});
  write_pak(t / "y" / "game.pak", {{"b.txt", bytes_of("b")}});
  auto r = run_cli("extract " + quote_path(t / "x" / "game.pak") + " " + quote_path(t / "y" / "game.pak") + " -o " +
                   quote_path(t / "out"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("game.pak/"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(t / "out" / "game.pak"));
}

// Real archives (samples/alchemy/README.md): the Crash NST pak holds 2 files, zap.pak 88.
TEST(SevenZipCli, ExtractBothAlchemySamples) {
  ASSAY_REQUIRE_SAMPLE(crash, "alchemy/crash_nst_L332_CollisionTemplate.pak");
  ASSAY_REQUIRE_SAMPLE(zap, "alchemy/skylanders_zap.pak");
  testing::TempDir t;
  auto r = run_cli("-q extract " + quote_path(crash) + " " + quote_path(zap) + " -o " + quote_path(t / "out"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(files_under(t / "out" / "crash_nst_L332_CollisionTemplate.pak"), 2u);
  EXPECT_EQ(files_under(t / "out" / "skylanders_zap.pak"), 88u);
}

// ---- (b) a folder where the files exist: one summary line naming --force and --skip-existing ----

TEST(SevenZipCli, ReextractingPrintsOneSummaryLine) {
  testing::TempDir t;
  write_pak(t / "a.pak", {{"one.txt", bytes_of("1")}, {"two.txt", bytes_of("2")}, {"sub/three.txt", bytes_of("3")}});
  const std::string cmd = "extract " + quote_path(t / "a.pak") + " -o " + quote_path(t / "out");
  ASSERT_EQ(run_cli(cmd).exit_code, 0);
  testing::write_file(t / "out" / "one.txt", bytes_of("mine"));
  auto r = run_cli(cmd);
  EXPECT_EQ(r.exit_code, 2) << r.err;  // docs/cli.md#exit-codes: an existing file without --force
  EXPECT_EQ(count_lines_with(r.err, "exist"), 2u) << r.err;  // the hint + the summary's count
  EXPECT_EQ(count_lines_with(r.err, "3 files exist in"), 1u) << r.err;
  EXPECT_EQ(count_lines_with(r.err, "use --force to overwrite or --skip-existing to keep them"), 1u) << r.err;
  EXPECT_EQ(r.err.find("not extracted"), std::string::npos) << r.err;  // no line per file
  EXPECT_EQ(testing::read_file(t / "out" / "one.txt"), bytes_of("mine"));
  // -q: the one hint line alone
  r = run_cli("-q " + cmd);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
  // the two ways out the line names
  EXPECT_EQ(run_cli(cmd + " --skip-existing").exit_code, 0);
  EXPECT_EQ(testing::read_file(t / "out" / "one.txt"), bytes_of("mine"));
  EXPECT_EQ(run_cli(cmd + " --force").exit_code, 0);
  EXPECT_EQ(testing::read_file(t / "out" / "one.txt"), bytes_of("1"));
}

// ---- (c) cat A::B: one entry's bytes on stdout ----

TEST(SevenZipCli, CatWritesOneEntryToStdout) {
  testing::TempDir t;
  ByteBuffer all(256);
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint8_t>(i);  // NUL, CR, LF, 0xFF...
  write_pak(t / "a.pak", {{"hello.txt", bytes_of("hello, world\n")}, {"dir/bytes.bin", all}});
  const std::string a = quote_path(t / "a.pak");
  auto r = run_cli("cat " + a + "::hello.txt");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "hello, world\n");
  EXPECT_TRUE(lines_of(r.err).empty()) << r.err;
  r = run_cli("cat " + a + "::dir/bytes.bin");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ByteBuffer(r.out.begin(), r.out.end()), all);
  r = run_cli("cat " + a + "::hello.txt " + a + "::hello.txt");  // several, one after another
  EXPECT_EQ(r.out, "hello, world\nhello, world\n");
  EXPECT_EQ(run_cli("cat " + a + "::nope.txt").exit_code, 2);  // A::B naming no inner file
  r = run_cli("cat " + a);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("ARCHIVE::ENTRY"), std::string::npos) << r.err;
}

// ---- (d) list: packed column, totals, -h ----

TEST(SevenZipCli, ListShowsPackedTotalsAndHumanSizes) {
  testing::TempDir t;
  // 1 MiB of zeros (LZMA packs it to a few hundred bytes), 1,000 and 2,000 bytes of text.
  ByteBuffer text(3000);
  for (std::size_t i = 0; i < text.size(); ++i) text[i] = static_cast<std::uint8_t>('a' + (i * 7919 + i / 13) % 26);
  write_pak(t / "a.pak", {{"zeros.bin", ByteBuffer(std::size_t{1} << 20, 0)},
                          {"small.txt", ByteBuffer(text.begin(), text.begin() + 1000)},
                          {"two.txt", ByteBuffer(text.begin() + 1000, text.end())}});
  auto r = run_cli("list " + quote_path(t / "a.pak"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto ls = lines_of(r.out);
  ASSERT_EQ(ls.size(), 5u) << r.out;  // header, 3 rows, totals
  const auto size_at = ls[0].find("size "), packed_at = ls[0].find(" packed "), codec_at = ls[0].find(" compression ");
  ASSERT_NE(packed_at, std::string::npos) << r.out;  // the column, right after size
  EXPECT_LT(size_at, packed_at);
  EXPECT_LT(packed_at, codec_at);
  // 1,048,576 + 1,000 + 2,000 = 1,051,576 bytes
  EXPECT_EQ(ls[4].rfind("total: 3 entries, size 1051576, packed ", 0), 0u) << r.out;
  const std::uint64_t packed = std::stoull(ls[4].substr(ls[4].rfind(' ') + 1));
  EXPECT_LT(packed, 1051576u / 4) << r.out;  // the zeros pack to almost nothing
  const auto j = nlohmann::json::parse(run_cli("list --json " + quote_path(t / "a.pak")).out);
  std::uint64_t stored = 0;
  for (const auto& e : j["entries"]) stored += e["stored_size"].get<std::uint64_t>();
  EXPECT_EQ(packed, stored);
  // -h: powers of 1024, one decimal below 10 (1,048,576 = 1.0M; 2,000 = 1.95K = 2.0K; 1,000 stays)
  r = run_cli("list -h " + quote_path(t / "a.pak"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto hs = lines_of(r.out);
  ASSERT_EQ(hs.size(), 5u) << r.out;
  auto row = [&](const std::string& name) {
    for (const auto& l : hs)
      if (l.size() >= name.size() && l.compare(l.size() - name.size(), name.size(), name) == 0) return l;
    return std::string();
  };
  EXPECT_NE(row("zeros.bin").find(" 1.0M "), std::string::npos) << r.out;
  EXPECT_NE(row("two.txt").find(" 2.0K "), std::string::npos) << r.out;
  EXPECT_NE(row("small.txt").find(" 1000 "), std::string::npos) << r.out;
  EXPECT_EQ(hs[4].rfind("total: 3 entries, size 1.0M, packed ", 0), 0u) << r.out;  // 1,051,576 / 2^20 = 1.003
  // stored data: no packed column (nothing is smaller than its size); the totals stay
  write_pak(t / "s.pak", {{"a.bin", ByteBuffer(10, 1)}, {"b.bin", ByteBuffer(20, 2)}}, igarchive::Compression::stored);
  r = run_cli("list " + quote_path(t / "s.pak"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("packed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("total: 2 entries, size 30\n"), std::string::npos) << r.out;
  EXPECT_EQ(run_cli("list --help").exit_code, 0);  // --help still is help
}

// ---- (e) per-verb --help: the verb's options and its file's family ----

TEST(SevenZipCli, HelpShowsTheFamilyOfTheFileGiven) {
  testing::TempDir t;
  write_pak(t / "a.pak", {{"a.txt", bytes_of("a")}});
  auto all = run_cli("extract --help");
  ASSERT_EQ(all.exit_code, 0);
  EXPECT_NE(all.out.find("oni options"), std::string::npos) << all.out;  // grouped by family
  EXPECT_NE(all.out.find("--layouts"), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("--igarchive-max-member"), std::string::npos) << all.out;
  auto pak = run_cli("extract " + quote_path(t / "a.pak") + " --help");
  ASSERT_EQ(pak.exit_code, 0) << pak.err;
  EXPECT_NE(pak.out.find("an igarchive file"), std::string::npos) << pak.out;
  EXPECT_NE(pak.out.find("--igarchive-max-member"), std::string::npos) << pak.out;
  // the options of the igz files an igArchive converts: the README's `assay extract zap.pak
  // --textures` (igz images as PNG), --mips (every mip level), their pointer size
  for (const char* inner : {"--textures", "--mips", "--igz-pointer-size"})
    EXPECT_NE(pak.out.find(inner), std::string::npos) << inner << "\n" << pak.out;
  for (const char* other : {"--layouts", "--exe", "--sounds"})
    EXPECT_EQ(pak.out.find(other), std::string::npos) << other << "\n" << pak.out;
  EXPECT_NE(pak.out.find("--skip-existing"), std::string::npos) << pak.out;  // the verb's own stay
  auto rep = run_cli("replace " + quote_path(t / "a.pak") + " --help");
  ASSERT_EQ(rep.exit_code, 0) << rep.err;
  EXPECT_NE(rep.out.find("--compression"), std::string::npos) << rep.out;
  for (const char* other : {"--dither", "--resize", "--layouts"}) EXPECT_EQ(rep.out.find(other), std::string::npos) << other;
  // identify reads no family option; list has no extract-only option
  auto id = run_cli("identify --help");
  EXPECT_EQ(id.out.find("--layouts"), std::string::npos) << id.out;
  EXPECT_EQ(id.out.find("--names"), std::string::npos) << id.out;
  auto list = run_cli("list --help");
  EXPECT_EQ(list.out.find("--textures"), std::string::npos) << list.out;
  EXPECT_EQ(list.out.find("--skip-existing"), std::string::npos) << list.out;
}

// ---- (f), (g) replace into a texture dictionary: a JPEG, a PNG of another size ----

// A D3D9 dictionary of one 8 x 8 DXT1 texture "tex" (spec: renderware.md#rw-10-4: 4 blocks of 8 bytes).
ByteBuffer one_texture_txd() {
  rw::writer::D3d9Texture t;
  t.name = "tex";
  t.width = t.height = 8;
  t.d3d_format = rw::d3d::kDxt1;
  t.levels = {ByteBuffer(4 * 8, 0x55)};
  auto n = rw::writer::d3d9_texture_native(t);
  EXPECT_TRUE(n.ok());
  return rw::writer::texture_dictionary({n ? *n : ByteBuffer{}}, 2, rw::kStampGtaSa);
}

ByteBuffer png_of(std::uint32_t w, std::uint32_t h) {
  image::Rgba img{w, h, ByteBuffer(std::size_t{w} * h * 4)};
  for (std::size_t i = 0; i < img.pixels.size(); ++i) img.pixels[i] = i % 4 == 3 ? 255 : static_cast<std::uint8_t>(i * 5);
  auto p = image::encode_png(img);
  EXPECT_TRUE(p.ok());
  return p ? *p : ByteBuffer{};
}

TEST(SevenZipCli, ReplaceSaysAJpegIsNotAPng) {
  testing::TempDir t;
  testing::write_file(t / "in.txd", one_texture_txd());
  // JPEG: SOI FF D8, then an APP0 "JFIF" segment (ITU T.81 / JFIF 1.02); GIF: "GIF89a".
  testing::write_file(t / "x.jpg", ByteBuffer{0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 'J', 'F', 'I', 'F', 0x00, 0x01, 0x02, 0x00,
                                              0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xFF, 0xD9});
  testing::write_file(t / "x.gif", bytes_of("GIF89a\x08\x00\x08\x00\x00\x00\x00;"));
  auto r = run_cli("replace " + quote_path(t / "in.txd") + " -o " + quote_path(t / "out.txd") + " tex=" + quote_path(t / "x.jpg"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find((t / "x.jpg").string() + " is a JPEG, not a PNG"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(t / "out.txd"));
  r = run_cli("add " + quote_path(t / "in.txd") + " -o " + quote_path(t / "out.txd") + " new=" + quote_path(t / "x.gif"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("x.gif is a GIF, not a PNG"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(t / "out.txd"));
}

TEST(SevenZipCli, ReplaceRefusesAnotherSizeUnlessResizeOrPngSize) {
  testing::TempDir t;
  testing::write_file(t / "in.txd", one_texture_txd());
  testing::write_file(t / "big.png", png_of(16, 16));
  testing::write_file(t / "same.png", png_of(8, 8));
  const std::string in = quote_path(t / "in.txd");
  auto r = run_cli("replace " + in + " -o " + quote_path(t / "o1.txd") + " tex=" + quote_path(t / "big.png"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("big.png is 16 x 16, the texture 'tex' is 8 x 8"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--resize"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(t / "o1.txd"));
  // the same size needs no option
  ASSERT_EQ(run_cli("replace " + in + " -o " + quote_path(t / "o2.txd") + " tex=" + quote_path(t / "same.png")).exit_code, 0);
  // --resize: scaled to the texture's 8 x 8; --png-size: the texture becomes 16 x 16
  for (const auto& [opt, side] : {std::pair{"--resize", 8u}, std::pair{"--png-size", 16u}}) {
    SCOPED_TRACE(opt);
    const fs::path out = t / (std::string(opt + 2) + ".txd");
    r = run_cli("replace " + in + " -o " + quote_path(out) + " tex=" + quote_path(t / "big.png") + " " + opt);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(run_cli("list --json " + quote_path(out) + " tex").out);
    ASSERT_EQ(j["entries"].size(), 1u) << j.dump();
    EXPECT_EQ(j["entries"][0]["width"], side) << j.dump();
    EXPECT_EQ(j["entries"][0]["height"], side) << j.dump();
  }
  EXPECT_EQ(run_cli("replace " + in + " -o " + quote_path(t / "o3.txd") + " tex=" + quote_path(t / "big.png") +
                    " --resize --png-size").exit_code,
            2);
}

}  // namespace
}  // namespace assay
