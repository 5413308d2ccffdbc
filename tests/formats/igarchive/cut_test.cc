// A cut igArchive (issue 29 item 4): list and extract what is intact, name what is lost, exit 1
// (7-Zip's "unexpected end of data"); a file cut inside its tables still fails with the offset.
// The expected sets are computed here from the UNCUT file's own table, read by hand at the
// offsets of spec alchemy.md#iga-header-v10 and #iga-file-info (numFiles 0x0C, nameTableOffset
// u64 at 0x28, hashes at 0x38, 16-byte file infos after them: 40-bit offset, length), with each
// file's data running to the next file's offset (the writers pack them in sector order, the name
// table last): a file is intact when that extent ends at or before the cut.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "assay/core/hash.h"
#include "assay/formats/igarchive/extract.h"
#include "assay/formats/igarchive/salvage.h"
#include "helpers.h"
#include "testing/testing.h"

namespace assay::igarchive {
namespace {

namespace fs = std::filesystem;
using assay::testing::quote_path;
using assay::testing::read_file;
using assay::testing::run_cli;
using assay::testing::TempDir;
using assay::testing::write_file;

struct Row {
  std::uint32_t hash = 0;
  std::uint64_t offset = 0, extent_end = 0;
  std::uint32_t length = 0;
};

// The TOC of a version 0x0A-0x0D archive, by hand (spec: alchemy.md#iga-header-v10, #iga-toc,
// #iga-file-info), sorted by data offset; extent_end = the next file's offset or the name table.
std::vector<Row> read_toc_by_hand(const ByteBuffer& b, Endian e) {
  const std::uint32_t n = load<std::uint32_t>(b.data() + 0x0C, e);
  const std::uint64_t nto = load<std::uint64_t>(b.data() + 0x28, e);
  std::vector<Row> rows;
  for (std::uint32_t i = 0; i < n; ++i) {
    Row r;
    r.hash = load<std::uint32_t>(b.data() + 0x38 + 4 * i, e);
    const std::uint8_t* info = b.data() + 0x38 + 4ull * n + 16ull * i;
    r.offset = load<std::uint64_t>(info, e) & 0xFFFFFFFFFFull;
    r.length = load<std::uint32_t>(info + 8, e);
    rows.push_back(r);
  }
  std::sort(rows.begin(), rows.end(), [](const Row& x, const Row& y) { return x.offset < y.offset; });
  for (std::size_t i = 0; i < rows.size(); ++i) {
    rows[i].extent_end = nto;
    for (std::size_t j = i + 1; j < rows.size(); ++j)
      if (rows[j].offset > rows[i].offset && rows[j].length > 0) {
        rows[i].extent_end = rows[j].offset;
        break;
      }
  }
  return rows;
}

// A cut in the middle of the file, inside the data of the first file (in data order) that starts
// at or after the middle and spans at least two sectors: halfway through its extent, which is
// before its last block's payload ends (that lies in its last sector).
std::uint64_t middle_cut(const std::vector<Row>& rows, std::uint64_t size) {
  for (const Row& r : rows)
    if (r.offset >= size / 2 && r.length > 0 && r.extent_end - r.offset >= 0x1000) return r.offset + (r.extent_end - r.offset) / 2;
  ADD_FAILURE() << "no file of two sectors after the middle";
  return size / 2;
}

struct Expected {
  std::set<std::uint32_t> intact, lost;  // by hash
};

Expected expected_at(const std::vector<Row>& rows, std::uint64_t cut) {
  Expected x;
  for (const Row& r : rows) (r.length == 0 || r.extent_end <= cut ? x.intact : x.lost).insert(r.hash);
  return x;
}

std::string hash_file(std::uint32_t h) { return fmt::format("{:08x}.bin", h); }

std::set<std::uint32_t> hashes_of(const nlohmann::json& arr) {
  std::set<std::uint32_t> s;
  for (const auto& e : arr) s.insert(e["hash"].get<std::uint32_t>());
  return s;
}

std::set<std::string> files_under(const fs::path& dir) {
  std::set<std::string> s;
  if (!fs::exists(dir)) return s;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) s.insert(fs::relative(e.path(), dir).generic_string());
  return s;
}

// list/extract/verify of FILE cut at `cut`: the intact files listed and written, each lost one named
// on stderr with its offset and the file end, exit 1. `content` (hash -> bytes) checks what is written.
void check_cut_cli(const fs::path& cut_file, const Expected& x, std::uint64_t cut,
                   const std::map<std::uint32_t, ByteBuffer>& content, const fs::path& out) {
  auto lj = run_cli("list --json " + quote_path(cut_file));
  EXPECT_EQ(lj.exit_code, 1) << lj.err;
  auto j = nlohmann::json::parse(lj.out);
  EXPECT_EQ(hashes_of(j["entries"]), x.intact);
  ASSERT_TRUE(j.contains("truncated")) << lj.out;
  EXPECT_EQ(j["truncated"]["file_end"], cut);
  EXPECT_EQ(j["truncated"]["names_lost"], true);  // the name table is last
  EXPECT_EQ(hashes_of(j["truncated"]["lost"]), x.lost);
  for (const auto& l : j["truncated"]["lost"]) {
    EXPECT_GE(l["end"].get<std::uint64_t>(), cut);
    EXPECT_EQ(l["name"], hash_file(l["hash"].get<std::uint32_t>()));
  }
  for (const auto& e : j["entries"]) EXPECT_EQ(e["path"], hash_file(e["hash"].get<std::uint32_t>()));

  auto lt = run_cli("list " + quote_path(cut_file));
  EXPECT_EQ(lt.exit_code, 1);
  EXPECT_NE(lt.err.find(fmt::format("file end 0x{:x}", cut)), std::string::npos) << lt.err;
  EXPECT_NE(lt.err.find("unexpected end of data"), std::string::npos) << lt.err;
  for (std::uint32_t h : x.intact) EXPECT_NE(lt.out.find(hash_file(h)), std::string::npos) << hash_file(h);

  auto ex = run_cli("extract " + quote_path(cut_file) + " -o " + quote_path(out));
  EXPECT_EQ(ex.exit_code, 1) << ex.err;
  std::set<std::string> want;
  for (std::uint32_t h : x.intact) want.insert(hash_file(h));
  EXPECT_EQ(files_under(out), want);
  for (std::uint32_t h : x.lost) EXPECT_NE(ex.err.find("'" + hash_file(h) + "' lost"), std::string::npos) << hash_file(h) << ex.err;
  for (const auto& [h, bytes] : content)
    if (x.intact.count(h)) EXPECT_EQ(read_file(out / hash_file(h)), bytes) << hash_file(h);

  auto v = run_cli("verify " + quote_path(cut_file));
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_NE(v.out.find(fmt::format("{} of {} files lost", x.lost.size(), x.lost.size() + x.intact.size())), std::string::npos)
      << v.out;
}

std::vector<WriterFile> writer_files() {
  return {
      {.name = "actors/a.igz", .data = test::text(70000, 1)},  // LZMA, 3 blocks
      {.name = "actors/b.igz", .data = test::text(3000, 2), .compression = Compression::deflate},
      {.name = "sounds/c.bin", .data = test::noise(9000, 3), .compression = Compression::stored},
      {.name = "levels/d.igz", .data = test::text(40000, 4), .compression = Compression::lz4},
      {.name = "levels/e.bin", .data = test::noise(50000, 5), .compression = Compression::deflate},  // raw blocks
      {.name = "levels/f.igz", .data = test::text(20000, 6), .compression = Compression::deflate},
      {.name = "empty.txt", .data = {}, .compression = Compression::stored},
  };
}

TEST(IgArchiveCut, WriterArchiveCutInTheMiddle) {
  WriterOptions o;
  o.version = 0x0B;
  o.endian = Endian::little;
  o.lzma_preset = 1;
  const auto files = writer_files();
  const ByteBuffer full = test::build(files, o);
  const auto rows = read_toc_by_hand(full, Endian::little);
  const std::uint64_t cut = middle_cut(rows, full.size());
  const Expected x = expected_at(rows, cut);
  ASSERT_FALSE(x.lost.empty());
  ASSERT_GE(x.intact.size(), 2u);  // the empty file and at least one with data
  std::map<std::uint32_t, ByteBuffer> content;
  for (const WriterFile& f : files) content[fnv1a32(f.name)] = f.data;  // spec #iga-hash, flags 0

  // The library: the same sets, in the cut's words.
  const ByteBuffer cut_bytes(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(cut));
  auto s = open_salvage(cut_bytes, "cut.arc", nullptr);
  ASSERT_TRUE(s.ok()) << s.error().str();
  EXPECT_TRUE(s->cut.names_lost);
  std::set<std::uint32_t> intact, lost;
  for (std::uint32_t i : s->cut.intact) intact.insert(s->archive.files()[i].hash);
  for (const LostFile& l : s->cut.lost) {
    lost.insert(s->archive.files()[l.index].hash);
    EXPECT_EQ(l.at.offset, s->archive.files()[l.index].offset);
  }
  EXPECT_EQ(intact, x.intact);
  EXPECT_EQ(lost, x.lost);
  // The strict open still refuses it (edits, pack --like).
  EXPECT_FALSE(open_strict(cut_bytes, "cut.arc", nullptr).ok());

  TempDir t;
  write_file(t / "cut.arc", cut_bytes);
  check_cut_cli(t / "cut.arc", x, cut, content, t / "out");
}

// Only the name table cut: every file intact, named by its hash, exit 1.
TEST(IgArchiveCut, NameTableCutKeepsEveryFile) {
  WriterOptions o;
  o.version = 0x0C;
  o.endian = Endian::big;
  o.lzma_preset = 1;
  const auto files = writer_files();
  const ByteBuffer full = test::build(files, o);
  const std::uint64_t nto = load<std::uint64_t>(full.data() + 0x28, Endian::big);
  ASSERT_LT(nto, full.size());
  const std::uint64_t cut = nto + 6;
  const auto rows = read_toc_by_hand(full, Endian::big);
  const Expected x = expected_at(rows, cut);
  EXPECT_EQ(x.intact.size(), files.size());
  std::map<std::uint32_t, ByteBuffer> content;
  for (const WriterFile& f : files) content[fnv1a32(f.name)] = f.data;
  TempDir t;
  write_file(t / "cut.arc", ByteView(full.data(), cut));
  auto ex = run_cli("extract " + quote_path(t / "cut.arc") + " -o " + quote_path(t / "out"));
  EXPECT_EQ(ex.exit_code, 1) << ex.err;
  EXPECT_NE(ex.err.find(fmt::format("name table (0x{:x} bytes at 0x{:x}) lies past the file end 0x{:x}",
                                    load<std::uint32_t>(full.data() + 0x30, Endian::big), nto, cut)),
            std::string::npos)
      << ex.err;
  EXPECT_EQ(files_under(t / "out").size(), files.size());
  for (const auto& [h, bytes] : content) EXPECT_EQ(read_file(t / "out" / hash_file(h)), bytes);
}

// A cut inside the header or the TOC (hash table, file infos, block tables) still fails, naming
// the structure and offset, and extracts nothing.
TEST(IgArchiveCut, CutInsideTheTablesStillFails) {
  WriterOptions o;
  o.version = 0x0B;
  o.lzma_preset = 1;
  const ByteBuffer full = test::build(writer_files(), o);
  const std::uint32_t toc_size = load<std::uint32_t>(full.data() + 0x08, Endian::little);
  TempDir t;
  for (std::uint64_t cut : {std::uint64_t{0x20}, std::uint64_t{0x38} + toc_size / 2, std::uint64_t{0x38} + toc_size - 1}) {
    write_file(t / "cut.arc", ByteView(full.data(), cut));
    EXPECT_FALSE(open_salvage(ByteView(full.data(), cut), "cut", nullptr).ok()) << cut;
    auto l = run_cli("list " + quote_path(t / "cut.arc"));
    EXPECT_EQ(l.exit_code, 1) << cut;
    // "... needs 0x38 bytes but the file has 0x20" / "TOC of 0x.. bytes at 0x38 runs past the file end 0x..".
    EXPECT_NE(l.err.find(fmt::format("0x{:x}", cut)), std::string::npos) << l.err;
    EXPECT_EQ(l.out.find(".bin"), std::string::npos) << l.out;
    auto x = run_cli("extract " + quote_path(t / "cut.arc") + " -o " + quote_path(t / "o"));
    EXPECT_EQ(x.exit_code, 1);
    EXPECT_TRUE(files_under(t / "o").empty());
  }
}

// The Skylanders archive (README: version 0x0A, big-endian, 88 deflate files) cut at its middle.
TEST(IgArchiveCut, SkylandersZapCutInTheMiddle) {
  ASSAY_REQUIRE_SAMPLE(path, "alchemy/skylanders_zap.pak");
  const ByteBuffer full = read_file(path);
  ASSERT_EQ(full.size(), 3959652u);
  const auto rows = read_toc_by_hand(full, Endian::big);
  ASSERT_EQ(rows.size(), 88u);
  const std::uint64_t cut = middle_cut(rows, full.size());
  const Expected x = expected_at(rows, cut);
  EXPECT_GE(x.intact.size(), 10u);
  EXPECT_GE(x.lost.size(), 10u);
  EXPECT_EQ(x.intact.size() + x.lost.size(), 88u);
  TempDir t;
  // What the whole archive extracts (igArchiveExtractor reads all 88, README), by hash.
  ASSERT_EQ(run_cli("extract " + quote_path(path) + " -o " + quote_path(t / "whole")).exit_code, 0);
  auto whole = nlohmann::json::parse(run_cli("list --json " + quote_path(path)).out);
  std::map<std::uint32_t, ByteBuffer> content;
  for (const auto& e : whole["entries"])
    if (x.intact.count(e["hash"].get<std::uint32_t>()))
      content[e["hash"].get<std::uint32_t>()] = read_file(t / "whole" / e["path"].get<std::string>());
  write_file(t / "zap_cut.pak", ByteView(full.data(), cut));
  check_cut_cli(t / "zap_cut.pak", x, cut, content, t / "out");
}

}  // namespace
}  // namespace assay::igarchive
