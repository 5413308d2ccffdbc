// Name-table layouts (spec: alchemy.md#iga-name-table, #corrections C1, C7): each entry's layout is
// decided from its bytes, the logical name is the string whose hash is in the table, the raw bytes
// are kept, and a name that matches no hash is an error in every version. Fixtures: archives from
// our writer whose name table is replaced by entries in the forms the game tools (C1) and
// igArchiveExtractor write (docs/alchemy-readers.md): path + 4 zero bytes with no NUL (0x0A, Trap
// Team 0x0B), path and logical tail run together (SuperChargers 0x0B, both byte orders), names
// with no NUL at all (version 4).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "assay/core/hash.h"
#include "assay/formats/igarchive/extract.h"
#include "assay/formats/igarchive/names.h"
#include "assay/formats/igarchive/verify.h"
#include "helpers.h"

namespace assay::igarchive {
namespace {

using test::build;
using test::text;

struct LayoutCase {
  std::uint32_t version;
  Endian endian;
  NameLayout layout;
  std::uint32_t flags = kFlagCaseInsensitive;
};

std::string label(const LayoutCase& c) {
  return fmt::format("v{:x} {} {}", c.version, c.endian == Endian::big ? "be" : "le", to_string(c.layout));
}

const std::vector<std::string> kNames = {"characters/zap.igz", "levels/a.bin", "ui/fonts.txt", "Sounds/Zap.FSB"};

// igArchiveExtractor's SuperChargers build path: the logical name is the path from its fifth
// component on (IGA_File.cs Build(): dirs[4..] joined by '/').
std::string build_path(const std::string& name) { return "temporary/buildserver/ps3/output/" + name; }

struct Fixture {
  ByteBuffer bytes;
  std::vector<ByteBuffer> entries;  // as written, hash order
  std::vector<WriterFile> files;
};

Fixture make(const LayoutCase& c) {
  Fixture fx;
  WriterOptions o;
  o.version = c.version;
  o.endian = c.endian;
  o.flags = c.flags;
  o.lzma_preset = 1;
  for (std::size_t i = 0; i < kNames.size(); ++i)
    fx.files.push_back({.name = kNames[i], .data = text(300 + 900 * i, static_cast<std::uint32_t>(i)),
                        .compression = i % 2 ? Compression::stored : Compression::lzma});
  const ByteBuffer plain = build(fx.files, o);
  const Archive a = test::open_ok(plain);
  for (const FileEntry& f : a.files()) {
    NameLayout l = c.layout;
    // igArchiveExtractor's version 4: no NUL anywhere but after the last name
    if (l == NameLayout::string_unterminated && f.index + 1 == a.files().size()) l = NameLayout::string;
    fx.entries.push_back(name_entry(l, f.name, build_path(std::string(f.name)), 0x19987900u + f.index, c.endian));
  }
  auto swapped = with_name_entries(plain, fx.entries);
  EXPECT_TRUE(swapped.ok()) << (swapped.ok() ? "" : swapped.error().str());
  fx.bytes = swapped.ok() ? *swapped : plain;
  return fx;
}

std::vector<LayoutCase> cases() {
  std::vector<LayoutCase> v;
  for (Endian e : {Endian::big, Endian::little}) {
    v.push_back({0x0A, e, NameLayout::string_time});       // C1: skylanders_zap.pak's form
    v.push_back({0x0A, e, NameLayout::string_zero_word});  // igArchiveExtractor, Swap Force
    v.push_back({0x0A, e, NameLayout::name_path_time});    // igRewrite8
    v.push_back({0x0A, e, NameLayout::path_name_time});
    v.push_back({0x0B, e, NameLayout::path_tail_time});    // igArchiveExtractor, SuperChargers
    v.push_back({0x0B, e, NameLayout::string_zero_word});  // igArchiveExtractor, Trap Team
    v.push_back({0x0B, e, NameLayout::path_name_time});    // the game, Crash NST
    v.push_back({0x0D, e, NameLayout::path_name_time});
    v.push_back({8, e, NameLayout::string_time});
    v.push_back({8, e, NameLayout::string_zero_word});
    v.push_back({4, e, NameLayout::string});
    v.push_back({4, e, NameLayout::string_unterminated});  // igArchiveExtractor, version 4
  }
  return v;
}

TEST(IgArchiveNames, EveryLayoutReadsTheHashedName) {
  for (const LayoutCase& c : cases()) {
    SCOPED_TRACE(label(c));
    const Fixture fx = make(c);
    const Archive a = test::open_ok(fx.bytes);
    ASSERT_EQ(a.files().size(), kNames.size());
    std::vector<std::string> got;
    for (const FileEntry& f : a.files()) {
      got.emplace_back(f.name);
      const bool last = f.index + 1 == a.files().size();
      const NameLayout want =
          c.layout == NameLayout::string_unterminated && last ? NameLayout::string : c.layout;
      EXPECT_EQ(to_string(f.name_layout), to_string(want)) << f.name;
      EXPECT_EQ(f.name_match, NameMatch::exact) << f.name;
      EXPECT_EQ(f.hash, fnv1a32(f.name, true)) << f.name;  // flags 1: lower-cased FNV-1a (spec #iga-hash)
      // the raw entry is exactly what was written, a view into the archive
      EXPECT_TRUE(std::equal(f.name_raw.begin(), f.name_raw.end(), fx.entries[f.index].begin(),
                             fx.entries[f.index].end()));
      EXPECT_EQ(f.name_raw.size(), fx.entries[f.index].size());
      const bool two = want == NameLayout::path_name_time || want == NameLayout::name_path_time ||
                       want == NameLayout::path_tail_time;
      EXPECT_EQ(f.path, two ? build_path(std::string(f.name)) : "") << f.name;
      EXPECT_EQ(f.path_first, want == NameLayout::path_name_time);
      const bool timed = want == NameLayout::string_time || two;
      EXPECT_EQ(f.has_time, timed);
      if (timed) {
        EXPECT_EQ(f.time, 0x19987900u + f.index);
      }
      const ByteBuffer data = test::read_ok(a, f);
      const auto it = std::find_if(fx.files.begin(), fx.files.end(), [&](const WriterFile& w) { return w.name == f.name; });
      ASSERT_NE(it, fx.files.end()) << f.name;
      EXPECT_EQ(data, it->data);
    }
    std::sort(got.begin(), got.end());
    std::vector<std::string> want = kNames;
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got, want);
    Diagnostics d;
    verify(fx.bytes, "x", {}, d);
    EXPECT_FALSE(d.has_errors()) << (d.items().empty() ? "" : d.items().front().where.str());
    // version 4 always carries its "layout uncertain" warning; nothing else warns
    EXPECT_EQ(d.count(Severity::warning), c.version == 4 ? 1u : 0u)
        << (d.items().empty() ? "" : d.items().front().where.str());
    EXPECT_TRUE(open_strict(fx.bytes, "x", nullptr).ok());
  }
}

// A reader that takes "build path first, logical name second" on igArchiveExtractor's 0x0B form
// gets an empty name (issue 9); ours picks the string the hash names.
TEST(IgArchiveNames, ZeroWordFormHasANonEmptyName) {
  const Fixture fx = make({0x0B, Endian::big, NameLayout::string_zero_word});
  const Archive a = test::open_ok(fx.bytes);
  for (const FileEntry& f : a.files()) {
    EXPECT_FALSE(f.name.empty());
    EXPECT_NE(a.find(f.name), nullptr);
    // the bytes: the name, then exactly 4 zero bytes, no NUL of its own
    ASSERT_EQ(f.name_raw.size(), f.name.size() + 4);
    EXPECT_EQ(std::count(f.name_raw.begin(), f.name_raw.end(), 0), 4);
  }
}

// skylanders_zap.pak's file 19: the stored string carries the build root "u:\temporary\ps3\";
// the hash is of the rest (spec C7 folding). Read as a suffix match: a note, not an error.
TEST(IgArchiveNames, BuildRootSuffixIsMatchedAndReported) {
  WriterOptions o;
  o.version = 0x0A;
  o.endian = Endian::big;
  o.flags = 5;  // as skylanders_zap.pak
  std::vector<WriterFile> files = {{.name = "packages\\generated\\characters\\zap.pkgb", .data = text(100, 1)},
                                   {.name = "vfx\\zap.igz", .data = text(100, 2)}};
  const ByteBuffer plain = build(files, o);
  const Archive p = test::open_ok(plain);
  std::vector<ByteBuffer> entries;
  for (const FileEntry& f : p.files()) {
    const std::string stored = f.name.starts_with("packages") ? "u:\\temporary\\ps3\\" + std::string(f.name) : std::string(f.name);
    entries.push_back(name_entry(NameLayout::string_time, stored, {}, 7, Endian::big));
  }
  auto bytes = with_name_entries(plain, entries);
  ASSERT_TRUE(bytes.ok());
  const Archive a = test::open_ok(*bytes);
  const FileEntry* f = a.find("packages/generated/characters/zap.pkgb");  // found under flags bit 0
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->name, "packages\\generated\\characters\\zap.pkgb");
  EXPECT_EQ(f->path, "u:\\temporary\\ps3\\packages\\generated\\characters\\zap.pkgb");
  EXPECT_EQ(f->name_match, NameMatch::suffix);
  EXPECT_EQ(f->hash, fnv1a32("packages/generated/characters/zap.pkgb"));
  Diagnostics d;
  verify(*bytes, "x", {}, d);
  EXPECT_FALSE(d.has_errors());
  EXPECT_EQ(d.count(Severity::warning), 0u);
  bool noted = false;
  for (const auto& x : d.items()) noted |= x.where.message.find("build root") != std::string::npos;
  EXPECT_TRUE(noted);
}

// When neither string of a two-string entry is the hashed one, the reader still chooses (the
// version's order) and verify reports it; the choice is the same in every version: an error.
TEST(IgArchiveNames, MismatchIsAnErrorInEveryVersion) {
  for (const LayoutCase& c : {LayoutCase{4, Endian::little, NameLayout::string}, LayoutCase{8, Endian::big, NameLayout::string_time},
                        LayoutCase{0x0A, Endian::big, NameLayout::string_time},
                        LayoutCase{0x0B, Endian::little, NameLayout::path_name_time},
                        LayoutCase{0x0C, Endian::little, NameLayout::path_name_time}}) {
    SCOPED_TRACE(label(c));
    const Fixture fx = make(c);
    std::vector<ByteBuffer> entries = fx.entries;
    entries[1] = name_entry(c.layout, "nobody/has/this.name", "temporary/x/y/z/nobody/has/this.name", 1, c.endian);
    auto bytes = with_name_entries(fx.bytes, entries);
    ASSERT_TRUE(bytes.ok());
    const Archive a = test::open_ok(*bytes);
    EXPECT_EQ(a.files()[1].name_match, NameMatch::none);
    Diagnostics d;
    verify(*bytes, "x", {}, d);
    ASSERT_EQ(d.count(Severity::error), 1u);
    for (const auto& x : d.items())
      if (x.severity == Severity::error) {
        EXPECT_NE(x.where.message.find("hashes to"), std::string::npos);
      }
  }
}

// An offset word past the table must not stretch the entry before it past the table's end.
TEST(IgArchiveNames, OffsetPastTableDoesNotWidenItsNeighbour) {
  const Fixture fx = make({0x0B, Endian::little, NameLayout::path_name_time});
  const Archive a = test::open_ok(fx.bytes);
  const std::uint64_t nto = a.header().name_table_offset;
  for (std::size_t k = 0; k < a.files().size(); ++k) {
    ByteBuffer m = fx.bytes;
    store<std::uint32_t>(m.data() + nto + 4 * k, 0xFF000000u | a.files()[k].name_offset, Endian::little);
    Diagnostics d;
    auto b = Archive::open(m, "m", d.sink());
    ASSERT_TRUE(b.ok());
    EXPECT_TRUE(d.has_errors());
    const ByteView table = b->name_table();
    for (const FileEntry& f : b->files()) {
      if (f.name_raw.empty()) continue;
      EXPECT_GE(f.name_raw.data(), table.data());
      EXPECT_LE(f.name_raw.data() + f.name_raw.size(), table.data() + table.size()) << k << " " << f.index;
    }
  }
}

// Truncation and mutation sweeps over the name tables of every layout fixture: never a crash;
// a cut name table is an error.
TEST(IgArchiveNames, TruncationAndMutationSweep) {
  for (const LayoutCase& c : cases()) {
    SCOPED_TRACE(label(c));
    const Fixture fx = make(c);
    const Archive a = test::open_ok(fx.bytes);
    const std::uint64_t nto = a.header().name_table_offset;
    for (std::uint64_t n = nto; n < fx.bytes.size(); ++n) {
      const ByteView cut(fx.bytes.data(), n);
      EXPECT_FALSE(open_strict(cut, "cut", nullptr).ok()) << n;
      Diagnostics d;
      verify(cut, "cut", {}, d);
      EXPECT_TRUE(d.has_errors()) << n;
    }
    for (std::uint64_t i = nto; i < fx.bytes.size(); ++i)
      for (std::uint8_t x : {std::uint8_t{0xFF}, std::uint8_t{0x01}, std::uint8_t{0x5C}}) {
        ByteBuffer m = fx.bytes;
        m[i] ^= x;
        Diagnostics d;
        verify(m, "m", {}, d);
        if (auto s = Archive::open(m, "m", d.sink()))
          for (const FileEntry& f : s->files()) (void)s->find(f.name);
      }
  }
}

}  // namespace
}  // namespace assay::igarchive
