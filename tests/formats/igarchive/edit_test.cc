// Targeted igArchive edits (issue 10): round trips that change nothing are byte-identical, and a
// replaced file leaves every other file's stored bytes as they were (spec: alchemy.md#corrections
// C6). Facts come from the real archives in ../shared/samples/alchemy/ and from the spec's layout
// rules, not from the editor's own output alone.
#include <algorithm>
#include <filesystem>

#include "assay/core/mapped_file.h"
#include "assay/formats/igarchive/edit.h"
#include "assay/formats/igarchive/extract.h"
#include "helpers.h"
#include "testing/testing.h"

namespace assay::igarchive {
namespace {

using test::noise;
using test::text;
namespace fs = std::filesystem;

ByteBuffer slurp(const fs::path& p) {
  auto m = MappedFile::open(p);
  EXPECT_TRUE(m.ok());
  return ByteBuffer(m->bytes().begin(), m->bytes().end());
}

EditResult edit_ok(const Archive& a, const EditPlan& p) {
  auto r = edit_archive(a, p);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().str());
  if (!r.ok()) throw std::runtime_error("edit failed");
  return std::move(r).value();
}

// A file's stored bytes as the spec lays them out (#iga-assembly): for a codec file, each block
// from its start up to the next entry's sector; for a stored file, its `length` bytes.
std::vector<ByteBuffer> stored_bytes(const Archive& a, const FileEntry& f) {
  std::vector<ByteBuffer> out;
  if (f.compression == Compression::stored) {
    out.emplace_back(a.data().begin() + f.offset, a.data().begin() + f.offset + f.length);
    return out;
  }
  auto blocks = a.blocks(f);
  EXPECT_TRUE(blocks.ok());
  for (const Block& b : *blocks) out.emplace_back(a.data().begin() + b.offset, a.data().begin() + b.offset + b.span);
  return out;
}

std::vector<std::uint32_t> run_of(const Archive& a, const FileEntry& f) {
  std::vector<std::uint32_t> r;
  if (f.compression == Compression::stored) return r;
  for (std::uint32_t k = 0; k <= f.num_blocks; ++k) r.push_back(a.table_entry(f.table, f.first_entry + k));
  return r;
}

const FileEntry* by_hash(const Archive& a, std::uint32_t h) {
  auto i = a.lookup(h);
  return i ? &a.files()[*i] : nullptr;
}

// Every file of `before` except `skip` has, in `after`, the same length, codec word bits,
// ordinal, name-table bytes, block-table run and stored bytes.
void expect_others_kept(const Archive& before, const Archive& after, std::uint32_t skip_hash) {
  for (const FileEntry& f : before.files()) {
    if (f.hash == skip_hash) continue;
    const FileEntry* g = by_hash(after, f.hash);
    ASSERT_NE(g, nullptr) << f.name;
    EXPECT_EQ(g->length, f.length) << f.name;
    EXPECT_EQ(g->word >> 28, f.word >> 28) << f.name;
    EXPECT_EQ(g->ordinal, f.ordinal) << f.name;
    EXPECT_TRUE(std::equal(f.name_raw.begin(), f.name_raw.end(), g->name_raw.begin(), g->name_raw.end())) << f.name;
    EXPECT_EQ(run_of(after, *g), run_of(before, f)) << f.name;
    EXPECT_EQ(stored_bytes(after, *g), stored_bytes(before, f)) << f.name;
  }
}

ByteBuffer read_all(const Archive& a, const FileEntry& f) { return test::read_ok(a, f); }

class IgArchiveEditSample : public ::testing::TestWithParam<const char*> {};

TEST_P(IgArchiveEditSample, RoundTripsAndReplaceKeepOthers) {
  ASSAY_REQUIRE_SAMPLE(path, std::string("alchemy/") + GetParam());
  const ByteBuffer orig = slurp(path);
  Diagnostics d;
  auto a = open_strict(orig, GetParam(), &d);
  ASSERT_TRUE(a.ok()) << a.error().str();

  // Nothing asked: byte-identical (spec C6: another tool's archive, blocks not re-encoded).
  EXPECT_EQ(edit_ok(*a, {}).bytes, orig);

  // Replacing a file with its own bytes keeps its stored bytes: identical again.
  const FileEntry& first = a->files().front();
  EditPlan same;
  same.replace.push_back({.name = std::string(first.name), .data = read_all(*a, first)});
  const EditResult rs = edit_ok(*a, same);
  EXPECT_EQ(rs.bytes, orig);
  EXPECT_TRUE(rs.changes.at(0).unchanged);

  // pack --like of the extracted folder: identical.
  testing::TempDir tmp;
  auto x = test::extract_archive(orig, OutputDir(tmp.path(), false), {}, 0);
  ASSERT_TRUE(x.ok()) << x.error().str();
  ASSERT_TRUE(x->failed.empty());
  auto like = plan_like(*a, tmp.path(), std::nullopt, 0);
  ASSERT_TRUE(like.ok()) << like.error().str();
  EXPECT_TRUE(like->replace.empty());
  EXPECT_TRUE(like->add.empty());
  EXPECT_EQ(edit_ok(*a, *like).bytes, orig);

  // Replace the file with the largest offset's predecessor... every file in turn for small
  // archives, the first few otherwise: all other stored bytes stay.
  const std::size_t n = std::min<std::size_t>(a->files().size(), 3);
  for (std::size_t i = 0; i < n; ++i) {
    const FileEntry& f = a->files()[i];
    EditPlan p;
    const ByteBuffer fresh = text(70000 + 1000 * i, static_cast<std::uint32_t>(i));
    p.replace.push_back({.name = std::string(f.name), .data = fresh});
    const EditResult r = edit_ok(*a, p);
    ASSERT_TRUE(check_edited(r.bytes, p, a->files().size()).ok());
    auto b = open_strict(r.bytes, "edited", nullptr);
    ASSERT_TRUE(b.ok()) << b.error().str();
    EXPECT_EQ(b->version(), a->version());
    EXPECT_EQ(b->endian(), a->endian());
    EXPECT_EQ(b->header().flags, a->header().flags);
    EXPECT_EQ(b->header().sector_size, a->header().sector_size);
    expect_others_kept(*a, *b, f.hash);
    const FileEntry* g = by_hash(*b, f.hash);
    ASSERT_NE(g, nullptr);
    EXPECT_EQ(read_all(*b, *g), fresh);
    EXPECT_EQ(g->compression, f.compression);  // the file's own codec
    EXPECT_EQ(g->offset % b->header().sector_size, 0u);
  }

  // Add then remove: the original again.
  EditPlan add;
  add.add.push_back({.name = "assay_added/new_file.bin", .data = noise(40000, 7)});
  const EditResult ra = edit_ok(*a, add);
  auto b = open_strict(ra.bytes, "added", nullptr);
  ASSERT_TRUE(b.ok()) << b.error().str();
  EXPECT_EQ(b->files().size(), a->files().size() + 1);
  expect_others_kept(*a, *b, 0);
  EditPlan rm;
  rm.remove.push_back("assay_added/new_file.bin");
  EXPECT_EQ(edit_ok(*b, rm).bytes, orig);
}

INSTANTIATE_TEST_SUITE_P(Samples, IgArchiveEditSample,
                         ::testing::Values("crash_nst_L332_CollisionTemplate.pak", "skylanders_zap.pak"));

// The NST archive (spec #corrections C6, C7): the hkx at 0x800 and the igz at 0x2000 keep their
// offsets when the igz is replaced, since data keeps its offset order.
TEST(IgArchiveEdit, CrashNstKeepsOffsetOrder) {
  ASSAY_REQUIRE_SAMPLE(path, "alchemy/crash_nst_L332_CollisionTemplate.pak");
  const ByteBuffer orig = slurp(path);
  auto a = open_strict(orig, "nst", nullptr);
  ASSERT_TRUE(a.ok());
  ASSERT_EQ(a->files().size(), 2u);
  EXPECT_EQ(a->version(), 0x0Bu);
  EXPECT_EQ(a->header().flags, 1u);
  EditPlan p;
  p.replace.push_back({.name = "maps/Crash1/Custom_Level/StaticCollision_Custom_Level.igz", .data = text(100000, 3)});
  const EditResult r = edit_ok(*a, p);
  auto b = open_strict(r.bytes, "edited", nullptr);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->files()[0].offset, 0x800u);  // hkx: unchanged place
  EXPECT_EQ(b->files()[1].offset, 0x2000u);  // igz: replaced in place, still after the hkx
  EXPECT_EQ(b->files()[1].num_blocks, 4u);   // ceil(100000 / 0x8000)
  // 100,000 bytes <= 0x7F x 0x800 use the small table (u8 entries, spec #iga-block-tables): the
  // run grows from 1 block + terminator to 4 + terminator, so tocSize grows by 3.
  EXPECT_EQ(b->files()[1].table, BlockTable::small);
  EXPECT_EQ(b->header().toc_size, a->header().toc_size + 3);
  // Prefix and properties of the new blocks: spec #iga-lzma "5D 00 80 00 00" after a u16 LE C.
  auto blocks = b->blocks(b->files()[1]);
  ASSERT_TRUE(blocks.ok());
  ASSERT_TRUE(blocks->front().compressed);
  const std::uint8_t* p0 = r.bytes.data() + blocks->front().offset;
  const std::uint8_t props[5] = {0x5D, 0x00, 0x80, 0x00, 0x00};
  EXPECT_TRUE(std::equal(props, props + 5, p0 + 2));
}

struct Build {
  std::uint32_t version;
  Endian endian;
  std::uint32_t flags;
};

class IgArchiveEditOwn : public ::testing::TestWithParam<Build> {};

ByteBuffer own_archive(const Build& b) {
  WriterOptions o;
  o.version = b.version;
  o.endian = b.endian;
  o.flags = b.flags;
  o.lzma_preset = 1;
  std::vector<WriterFile> files = {
      {.name = "a/one.igz", .data = text(50000, 1), .compression = Compression::lzma},
      {.name = "b/two.bin", .data = noise(3000, 2), .compression = Compression::stored},
      {.name = "c/three.igz", .data = text(300000, 3), .compression = b.version == 4 ? Compression::lzma : Compression::deflate},
      {.name = "d/empty", .data = {}, .compression = Compression::lzma},
      {.name = "e/raw.igz", .data = noise(70000, 4), .compression = Compression::none},
  };
  return test::build(files, o);
}

TEST_P(IgArchiveEditOwn, EditsKeepEverythingElse) {
  const ByteBuffer orig = own_archive(GetParam());
  const Archive a = test::open_ok(orig);
  EXPECT_EQ(edit_ok(a, {}).bytes, orig);
  for (const FileEntry& f : a.files()) {
    EditPlan p;
    const ByteBuffer fresh = text(f.length / 2 + 40000, f.index + 9);
    p.replace.push_back({.name = std::string(f.name), .data = fresh});
    const EditResult r = edit_ok(a, p);
    ASSERT_TRUE(check_edited(r.bytes, p, a.files().size()).ok()) << f.name;
    const Archive b = test::open_ok(r.bytes);
    expect_others_kept(a, b, f.hash);
    // Remove it: the others still stay as stored, the lookup still finds each (spec #iga-lookup).
    EditPlan rm;
    rm.remove.push_back(std::string(f.name));
    const EditResult rr = edit_ok(a, rm);
    const Archive c = test::open_ok(rr.bytes);
    EXPECT_EQ(c.files().size(), a.files().size() - 1);
    EXPECT_EQ(c.header().divider, divider_for(a.files().size() - 1));
    for (const FileEntry& g : c.files()) EXPECT_EQ(c.lookup(g.hash), g.index);
    expect_others_kept(a, c, f.hash);
  }
  // Add two, remove them again: identical.
  EditPlan add;
  add.add.push_back({.name = "z/new1.igz", .data = text(90000, 11)});
  add.add.push_back({.name = "0/new0.bin", .data = noise(10, 12), .compression = Compression::stored});
  const EditResult ra = edit_ok(a, add);
  ASSERT_TRUE(check_edited(ra.bytes, add, a.files().size() + 2).ok());
  const Archive b = test::open_ok(ra.bytes);
  expect_others_kept(a, b, 0);
  EXPECT_EQ(b.find("z/new1.igz")->compression, Compression::lzma);  // the archive's usual codec
  EditPlan rm;
  rm.remove = {"z/new1.igz", "0/new0.bin"};
  EXPECT_EQ(edit_ok(b, rm).bytes, orig);
  // Remove everything: a valid empty archive (spec #iga-writer rule 3: divider 0xFFFFFFFF).
  EditPlan all;
  for (const FileEntry& f : a.files()) all.remove.push_back(std::string(f.name));
  const Archive e = test::open_ok(edit_ok(a, all).bytes);
  EXPECT_EQ(e.files().size(), 0u);
  EXPECT_EQ(e.header().divider, 0xFFFFFFFFu);
}

INSTANTIATE_TEST_SUITE_P(Versions, IgArchiveEditOwn,
                         ::testing::Values(Build{4, Endian::little, 0}, Build{8, Endian::little, 0},
                                           Build{0x0A, Endian::big, 0}, Build{0x0B, Endian::little, 1},
                                           Build{0x0C, Endian::big, 0}, Build{0x0D, Endian::little, 1}));

TEST(IgArchiveEdit, RefusesBadRequests) {
  const ByteBuffer orig = own_archive({0x0B, Endian::little, 0});
  const Archive a = test::open_ok(orig);
  auto fails = [&](EditPlan p) { return !edit_archive(a, p).ok(); };
  for (const char* bad : {"../x", "/abs/x", "\\abs", "C:x", "a/../../b", "a\\..\\b", ""}) {
    EditPlan p;
    p.add.push_back({.name = bad, .data = {1}});
    EXPECT_TRUE(fails(p)) << bad;
    EditPlan q;
    q.remove.push_back(bad);
    EXPECT_TRUE(fails(q)) << bad;
  }
  EditPlan missing;
  missing.replace.push_back({.name = "nope", .data = {1}});
  EXPECT_TRUE(fails(missing));
  EditPlan exists;
  exists.add.push_back({.name = "a/one.igz", .data = {1}});
  EXPECT_TRUE(fails(exists));
  EditPlan twice;
  twice.remove = {"a/one.igz", "a/one.igz"};
  EXPECT_TRUE(fails(twice));
  EXPECT_TRUE(name_escapes(".."));
  EXPECT_FALSE(name_escapes("a/..b/c"));
  EXPECT_FALSE(name_escapes("temporary/mack/x.igz"));
}

// Mutated and truncated archives from our writer: an edit either fails with an Error or gives an
// archive that opens; never a crash (run under ASan/UBSan).
TEST(IgArchiveEdit, MutationSweepNeverCrashes) {
  for (const Build& bld : {Build{0x0B, Endian::little, 0}, Build{8, Endian::big, 0}}) {
    WriterOptions o;
    o.version = bld.version;
    o.endian = bld.endian;
    o.lzma_preset = 0;
    const ByteBuffer orig = test::build({{.name = "a.igz", .data = text(40000, 1)},
                                         {.name = "b.bin", .data = noise(100, 2), .compression = Compression::stored},
                                         {.name = "c.igz", .data = text(3000, 3)}},
                                        o);
    EditPlan p;
    p.replace.push_back({.name = "a.igz", .data = text(1000, 4)});
    p.add.push_back({.name = "d.igz", .data = text(500, 5)});
    p.remove.push_back("b.bin");
    p.threads = 1;
    p.lzma_preset = 0;
    std::size_t edited = 0;
    auto attempt = [&](const ByteBuffer& bytes) {
      auto a = open_strict(bytes, "mutated", nullptr);
      if (!a) return;
      auto r = edit_archive(*a, p);
      if (!r) return;
      ++edited;
      (void)check_edited(r->bytes, p, 3, 1);
    };
    for (std::size_t cut = 0; cut < orig.size(); cut += 331) attempt(ByteBuffer(orig.begin(), orig.begin() + cut));
    const std::size_t toc_end = 0x200;  // header, TOC and the start of the name table carry the structure
    for (std::size_t i = 0; i < std::min(orig.size(), toc_end); ++i)
      for (std::uint8_t x : {0x01, 0xFF}) {
        ByteBuffer m = orig;
        m[i] ^= x;
        attempt(m);
      }
    for (std::size_t i = orig.size() - 64; i < orig.size(); ++i) {  // the name table
      ByteBuffer m = orig;
      m[i] ^= 0xFF;
      attempt(m);
    }
    EXPECT_GT(edited, 0u);
  }
}

TEST(IgArchiveEdit, WriteCheckedLeavesNothingOnFailure) {
  testing::TempDir tmp;
  const fs::path target = tmp / "out.pak";
  const ByteBuffer old = {1, 2, 3};
  testing::write_file(target, old);
  const ByteBuffer data(5000, 7);
  // Exists without force: refused, untouched.
  EXPECT_FALSE(write_checked(target, data, false, {}).ok());
  EXPECT_EQ(testing::read_file(target), old);
  // The read-back check fails: untouched, no temporary left.
  auto r = write_checked(target, data, true, [](ByteView) -> Result<void> { return usage_error("no"); });
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(testing::read_file(target), old);
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator()), 1);
  // A folder that does not exist: an error, nothing created.
  EXPECT_FALSE(write_checked(tmp / "no/such/x.pak", data, false, {}).ok());
  // Success replaces it.
  ASSERT_TRUE(write_checked(target, data, true, [](ByteView) -> Result<void> { return {}; }).ok());
  EXPECT_EQ(testing::read_file(target), data);
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator()), 1);
}

}  // namespace
}  // namespace assay::igarchive
