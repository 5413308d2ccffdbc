// DIR/WAD edits (issue 10 item 4). Expected offsets are computed from the spec's rules
// (warriors.md#wr-2-6: slots of align2048(size), later rows shift by the slot difference; adding
// at align2048(end of last entry); removing takes the slot out), not from the editor's output.
#include <sys/wait.h>

#include <filesystem>

#include "assay/formats/warriors/edit.h"
#include "assay/formats/warriors/writer.h"
#include "../../../src/formats/warriors/family_parts.h"
#include "helpers.h"
#include "formats/serialise.h"

namespace assay::warriors {
namespace {

namespace fs = std::filesystem;
using test::get32;

ByteBuffer bytes(std::size_t n, std::uint8_t seed) {
  ByteBuffer b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(seed + i * 7);
  return b;
}

// Four entries of 100, 5000 (3 sectors), 0 and 2048 bytes; the game's names for two of them.
DiscImage fixture() {
  return write_disc({{name_hash("global.lua"), bytes(100, 1)},
                     {name_hash("a.bin"), bytes(5000, 2)},
                     {0x11111111, {}},
                     {name_hash("b.bin"), bytes(2048, 3)}});
}

struct Edited {
  ByteBuffer dir, wad;
};
Edited run(const DiscImage& d, const DiscEdit& e) {
  auto disc = Disc::from_views(d.dir, d.wad);
  EXPECT_TRUE(disc.ok());
  Edited out;
  auto dir = edit_disc(*disc, e, [&](ByteView b) -> Result<void> {
    out.wad.insert(out.wad.end(), b.begin(), b.end());
    return {};
  });
  EXPECT_TRUE(dir.ok()) << (dir.ok() ? "" : dir.error().str());
  if (dir.ok()) out.dir = std::move(*dir);
  return out;
}

std::uint32_t row(const ByteBuffer& dir, std::uint32_t i, std::uint32_t word) { return get32(dir, 16 + 12 * i + 4 * word); }

TEST(WarriorsEdit, AddThenRemoveGivesTheOriginalBack) {
  const DiscImage d = fixture();
  // Facts of the fixture (spec #wr-2-3): offsets 0, 2048, 8192, 8192; WAD 10,240 bytes.
  ASSERT_EQ(get32(d.dir, 0), 4u);
  ASSERT_EQ(d.wad.size(), 10240u);
  const ByteBuffer extra = bytes(3000, 9);
  DiscEdit add;
  add.add.push_back({name_hash("new.lua"), extra});
  const Edited a = run(d, add);
  EXPECT_EQ(a.dir.size(), d.dir.size() + 12);  // the DIR grows by one row
  EXPECT_EQ(get32(a.dir, 0), 5u);
  EXPECT_EQ(row(a.dir, 4, 0), 10240u);          // align2048(8192 + 2048)
  EXPECT_EQ(row(a.dir, 4, 1), 3000u);
  EXPECT_EQ(row(a.dir, 4, 2), name_hash("./ee_files/new.lua"));
  EXPECT_EQ(a.wad.size(), 10240u + 4096u);      // 3,000 bytes padded to two sectors
  EXPECT_TRUE(std::equal(d.wad.begin(), d.wad.end(), a.wad.begin()));  // the old WAD is a prefix
  EXPECT_TRUE(std::equal(d.dir.begin() + 16, d.dir.end(), a.dir.begin() + 16));  // old rows kept
  DiscEdit rm;
  rm.remove.insert(4);
  const Edited b = run(DiscImage{a.dir, a.wad}, rm);
  EXPECT_EQ(b.dir, d.dir);
  EXPECT_EQ(b.wad, d.wad);
}

TEST(WarriorsEdit, ReplaceAndRemoveShiftLaterRows) {
  const DiscImage d = fixture();
  // Replace row 1 (5,000 bytes, slot 6,144) with 100 bytes (slot 2,048): delta -4,096.
  DiscEdit rep;
  const ByteBuffer hundred = bytes(100, 5);
  rep.replace[1] = hundred;
  const Edited r = run(d, rep);
  EXPECT_EQ(row(r.dir, 1, 0), 2048u);
  EXPECT_EQ(row(r.dir, 1, 1), 100u);
  EXPECT_EQ(row(r.dir, 2, 0), 8192u - 4096u);
  EXPECT_EQ(row(r.dir, 3, 0), 8192u - 4096u);
  EXPECT_EQ(r.wad.size(), 10240u - 4096u);
  EXPECT_EQ(row(r.dir, 1, 2), row(d.dir, 1, 2));  // hash unchanged
  // Remove row 0 (slot 2,048): every later offset moves down by 2,048; hashes keep their order.
  DiscEdit rm;
  rm.remove.insert(0);
  const Edited m = run(d, rm);
  EXPECT_EQ(get32(m.dir, 0), 3u);
  for (std::uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(row(m.dir, i, 0), row(d.dir, i + 1, 0) - 2048u);
    EXPECT_EQ(row(m.dir, i, 1), row(d.dir, i + 1, 1));
    EXPECT_EQ(row(m.dir, i, 2), row(d.dir, i + 1, 2));
  }
  EXPECT_TRUE(std::equal(d.wad.begin() + 2048, d.wad.end(), m.wad.begin(), m.wad.end()));
}

// Mutated DIRs: the edit refuses a DIR that breaks a rule (D1-D10 errors) or works; never a crash.
TEST(WarriorsEdit, MutationSweepNeverCrashes) {
  const DiscImage d = fixture();
  const ByteBuffer extra = bytes(700, 3);
  std::size_t edited = 0;
  for (std::size_t i = 0; i < d.dir.size(); ++i)
    for (std::uint8_t x : {0x01, 0x08, 0x80, 0xFF}) {
      ByteBuffer dir = d.dir;
      dir[i] ^= x;
      auto disc = Disc::from_views(dir, d.wad);
      if (!disc) continue;
      DiscEdit e;
      e.replace[0] = extra;
      e.remove.insert(disc->count() - 1);
      e.add.push_back({0x22222222, extra});
      std::uint64_t n = 0;
      auto r = edit_disc(*disc, e, [&](ByteView b) -> Result<void> {
        n += b.size();
        return {};
      });
      edited += r.ok();
    }
  EXPECT_GT(edited, 0u);
}

// Through the Format record, on files: -o OUTDIR, --in-place, refusals, nothing left on failure.
struct WarriorsEditCli : ::testing::Test {
  testing::TempDir tmp;
  fs::path in = tmp / "disc";
  DiscImage d = fixture();
  void SetUp() override { test::write_disc_folder(in, d); }
  Result<Json> edit(std::vector<EditChange> c, fs::path out, bool in_place = false) {
    auto input = Input::open(in);
    EXPECT_TRUE(input.ok());
    EditRequest req;
    req.changes = std::move(c);
    req.output = std::move(out);
    req.in_place = in_place;
    return edit_format(*input, req);
  }
  void expect_input_untouched() {
    EXPECT_EQ(testing::read_file(in / "WARRIORS.DIR"), d.dir);
    EXPECT_EQ(testing::read_file(in / "WARRIORS.WAD"), d.wad);
    EXPECT_EQ(std::distance(fs::directory_iterator(in), fs::directory_iterator()), 2);
  }
};

TEST_F(WarriorsEditCli, WarriorsEditOutputFolderAndInPlace) {
  auto j = edit({{EditOp::replace, "GLOBAL.LUA", bytes(10, 4)}}, tmp / "out");
  ASSERT_TRUE(j.ok()) << j.error().str();
  EXPECT_EQ((*j)["changes"][0]["index"], 0);
  EXPECT_EQ((*j)["changes"][0]["old_size"], 100);
  EXPECT_EQ((*j)["changes"][0]["hash"], 0x7E23A6F2u);  // spec #wr-2-2 worked example
  expect_input_untouched();
  EXPECT_EQ(row(testing::read_file(tmp / "out" / "WARRIORS.DIR"), 0, 1), 10u);
  // In place: the input changes, no temporary is left.
  ASSERT_TRUE(edit({{EditOp::remove, "0x11111111", {}}}, {}, true).ok());
  EXPECT_EQ(get32(testing::read_file(in / "WARRIORS.DIR"), 0), 3u);
  EXPECT_EQ(std::distance(fs::directory_iterator(in), fs::directory_iterator()), 2);
}

TEST_F(WarriorsEditCli, WarriorsEditRefusals) {
  EXPECT_FALSE(edit({{EditOp::replace, "a.bin", bytes(1, 1)}}, in).ok());  // OUT is the input folder
  EXPECT_FALSE(edit({{EditOp::add, "../x.lua", bytes(1, 1)}}, tmp / "o1").ok());
  EXPECT_FALSE(edit({{EditOp::add, "/abs.lua", bytes(1, 1)}}, tmp / "o2").ok());
  EXPECT_FALSE(edit({{EditOp::add, "a.bin", bytes(1, 1)}}, tmp / "o3").ok());     // exists
  EXPECT_FALSE(edit({{EditOp::remove, "nope.bin", {}}}, tmp / "o4").ok());        // missing
  // A later change failing after an earlier one was accepted: nothing written anywhere.
  EXPECT_FALSE(edit({{EditOp::replace, "a.bin", bytes(9, 1)}, {EditOp::remove, "nope", {}}}, tmp / "o5").ok());
  EXPECT_FALSE(fs::exists(tmp / "o5" / "WARRIORS.DIR"));
  EXPECT_FALSE(edit({{EditOp::remove, "nope", {}}}, {}, true).ok());
  expect_input_untouched();
}

// A full disk mid-way (the WAD write hits RLIMIT_FSIZE): the input is untouched, nothing is left.
TEST_F(WarriorsEditCli, WarriorsEditFullDiskLeavesInputUntouched) {
  testing::write_file(tmp / "big.bin", bytes(200000, 1));
  const std::string cmd = "ulimit -f 40; trap '' XFSZ; exec " + testing::shell_quote(ASSAY_CLI) + " replace " +
                          testing::shell_quote(in.string()) + " --in-place a.bin=" +
                          testing::shell_quote((tmp / "big.bin").string()) + " 2>/dev/null";
  const int st = std::system(("sh -c " + testing::shell_quote(cmd)).c_str());
  ASSERT_TRUE(WIFEXITED(st));
  EXPECT_EQ(WEXITSTATUS(st), 2);
  expect_input_untouched();
}

}  // namespace
}  // namespace assay::warriors
