// spec: alchemy.md#bootstrap and #vectors-synthetic 1-2: an archive rebuilt from the seed's
// bootstrap.bld numbers, checked through the reader against the figures the seed observed.
#include <fmt/format.h>

#include <cstring>

#include "assay/core/hash.h"
#include "assay/formats/igarchive/verify.h"
#include "helpers.h"

namespace assay::igarchive {
namespace {

using test::build;
using test::noise;
using test::open_ok;
using test::read_ok;

constexpr std::uint32_t kLen0 = 2805;       // 0xAF5, seed: "+0x40 00000af5"
constexpr std::uint32_t kLen1 = 1118636;    // 1,121,441 - 2,805 (spec #bootstrap-files)

// A 9-character name for file 1 whose hash is >= 0x7FFFFFFF (so slop 0 finds it, spec #bootstrap-rest).
std::string file1_name() {
  for (int i = 0;; ++i) {
    std::string n = fmt::format("a{:04d}.igz", i);
    if (fnv1a32(n) >= 0x80000000u) return n;
  }
}

// File 1: 35 blocks; blocks 0-24 compress to 3 sectors, blocks 25-34 to 2: 95 sectors in all.
ByteBuffer file1_data() {
  ByteBuffer d(kLen1, 0);
  for (std::uint32_t j = 0; j < 35; ++j) {
    const std::size_t n = j < 25 ? 5000 : 3000;
    ByteBuffer r = noise(n, 100 + j);
    std::memcpy(d.data() + j * 0x8000, r.data(), std::min<std::size_t>(n, kLen1 - j * 0x8000));
  }
  std::memcpy(d.data(), "IGZ\x01", 4);
  return d;
}

ByteBuffer file0_data() {
  ByteBuffer d = test::text(kLen0, 7);
  std::memcpy(d.data(), "IGZ\x01", 4);
  return d;
}

std::vector<WriterFile> bootstrap_files() {
  return {{.name = "JAPANESE.pak", .data = file0_data(), .time = 0x12345678},
          {.name = file1_name(), .data = file1_data(), .time = 0x9ABCDEF0}};
}

WriterOptions v8() {
  WriterOptions o;
  o.version = 8;
  o.endian = Endian::little;
  return o;
}

TEST(IgArchiveBootstrap, ReproducesEverySeedFigure) {
  const ByteBuffer bytes = build(bootstrap_files(), v8());
  // File size 198,695 = nameTableOffset 0x30800 + nameTableSize 39.
  EXPECT_EQ(bytes.size(), 198695u);
  // The seed's raw dump (little-endian words).
  auto le = [&](std::size_t at) { return load<std::uint32_t>(bytes.data() + at, Endian::little); };
  EXPECT_EQ(std::memcmp(bytes.data(), "IGA\x1A", 4), 0);
  EXPECT_EQ(le(0x04), 8u);
  EXPECT_EQ(le(0x08), 0x6Au);
  EXPECT_EQ(le(0x0C), 2u);
  EXPECT_EQ(le(0x10), 0x800u);
  EXPECT_EQ(le(0x14), 0x7FFFFFFFu);
  EXPECT_EQ(le(0x1C), 0x30800u);
  EXPECT_EQ(le(0x20), 0x27u);
  EXPECT_EQ(le(0x28), 0x24u);
  EXPECT_EQ(le(0x34), 0x4D44506Cu);
  EXPECT_EQ(le(0x3C), 0x800u);
  EXPECT_EQ(le(0x40), 0xAF5u);
  EXPECT_EQ(le(0x44), 0x20000000u);
  EXPECT_EQ(le(0x48), 0x1000u);
  // The runtime log's view: the same bytes read as big-endian words.
  EXPECT_EQ(load<std::uint32_t>(bytes.data(), Endian::big), 0x4947411Au);
  EXPECT_EQ(load<std::uint32_t>(bytes.data() + 4, Endian::big), 0x08000000u);
  EXPECT_EQ(load<std::uint32_t>(bytes.data() + 8, Endian::big), 0x6A000000u);

  const Archive a = open_ok(bytes);
  const Header& h = a.header();
  EXPECT_EQ(h.endian, Endian::little);
  EXPECT_EQ(h.version, 8u);
  EXPECT_EQ(h.toc_size, 106u);  // 8 + 24 + 72 + 2 (spec #bootstrap-toc)
  EXPECT_EQ(h.num_files, 2u);
  EXPECT_EQ(h.sector_size, 0x800u);
  EXPECT_EQ(h.divider, 0x7FFFFFFFu);
  EXPECT_EQ(h.slop, 0u);
  EXPECT_EQ(h.name_table_offset, 0x30800u);
  EXPECT_EQ(h.name_table_size, 39u);
  EXPECT_EQ(h.num_large, 0u);
  EXPECT_EQ(h.num_medium, 36u);
  EXPECT_EQ(h.num_small, 2u);
  EXPECT_EQ(h.flags, 0u);
  EXPECT_EQ(a.table_offset(BlockTable::medium), 0x54u);  // the seed's "block table at +0x54"
  EXPECT_EQ(a.table_offset(BlockTable::small), 0x9Cu);
  EXPECT_EQ(a.toc_end(), 0x9Eu);

  ASSERT_EQ(a.files().size(), 2u);
  const FileEntry& f0 = a.files()[0];
  EXPECT_EQ(f0.name, "JAPANESE.pak");
  EXPECT_EQ(f0.hash, 0x4D44506Cu);
  EXPECT_EQ(f0.offset, 0x800u);
  EXPECT_EQ(f0.length, 2805u);
  EXPECT_EQ(f0.word, 0x20000000u);
  EXPECT_EQ(f0.compression, Compression::lzma);
  EXPECT_EQ(f0.table, BlockTable::small);
  EXPECT_EQ(f0.num_blocks, 1u);
  EXPECT_EQ(f0.time, 0x12345678u);
  EXPECT_EQ(a.table_entry(BlockTable::small, 0), 0x80u);  // compressed, sector 0
  EXPECT_EQ(a.table_entry(BlockTable::small, 1), 1u);     // terminator: one sector

  const FileEntry& f1 = a.files()[1];
  EXPECT_EQ(f1.name.size(), 9u);
  EXPECT_EQ(f1.offset, 0x1000u);
  EXPECT_EQ(f1.length, 1118636u);
  EXPECT_EQ(f1.word, 0x20000000u);
  EXPECT_EQ(f1.table, BlockTable::medium);
  EXPECT_EQ(f1.num_blocks, 35u);
  EXPECT_EQ(a.table_entry(BlockTable::medium, 0), 0x8000u);  // "restarts at 0x8000": a file's first entry
  EXPECT_EQ(a.table_entry(BlockTable::medium, 35), 95u);     // terminator = total sectors
  EXPECT_EQ(f1.offset + 95u * 0x800u, h.name_table_offset);  // 0x1000 + 0x2F800 = 0x30800
  auto blocks = a.blocks(f1);
  ASSERT_TRUE(blocks.ok());
  ASSERT_EQ(blocks->size(), 35u);
  EXPECT_EQ(blocks->back().usize, 4524u);  // 1,118,636 & 0x7FFF
  int compressed = 1;                       // file 0's block
  for (const Block& b : *blocks) compressed += b.compressed;
  EXPECT_EQ(compressed, 36);  // the seed's "36 LZMA streams"
  // Payload: 97 sectors = 1 header/TOC + 1 file 0 + 95 file 1.
  EXPECT_EQ(h.name_table_offset / 0x800, 97u);

  const ByteBuffer d0 = read_ok(a, f0), d1 = read_ok(a, f1, 2);
  EXPECT_EQ(d0, file0_data());
  EXPECT_EQ(d1, file1_data());
  EXPECT_EQ(d0.size() + d1.size(), 1121441u);
  EXPECT_EQ(std::memcmp(d0.data(), "IGZ\x01", 4), 0);
  EXPECT_EQ(std::memcmp(d1.data(), "IGZ\x01", 4), 0);

  // Lookup with the stored divider/slop (spec #vectors-hash: window [0, 1), index 0).
  EXPECT_EQ(a.lookup(0x4D44506C), std::optional<std::size_t>(0));
  EXPECT_EQ(a.find("JAPANESE.pak"), &f0);
  EXPECT_EQ(a.find("japanese.pak"), nullptr);  // flags bit 0 clear: names are case-sensitive

  Diagnostics diags;
  verify(bytes, "bootstrap.bld", {}, diags);
  EXPECT_FALSE(diags.has_errors()) << (diags.items().empty() ? "" : diags.items()[0].where.str());
  EXPECT_EQ(diags.count(Severity::warning), 0u);
}

TEST(IgArchiveBootstrap, RoundTripIsByteIdentical) {
  const ByteBuffer bytes = build(bootstrap_files(), v8());
  const Archive a = open_ok(bytes);
  auto entries = entries_like(a);
  for (auto& e : entries) e.data = read_ok(a, *a.find(e.name));
  EXPECT_EQ(build(entries, options_like(a)), bytes);
}

// spec #vectors-synthetic 2: one block stored raw (flag clear), one file stored whole.
TEST(IgArchiveBootstrap, RawBlockAndStoredFile) {
  auto files = bootstrap_files();
  files[0].compression = Compression::stored;
  ByteBuffer n = noise(0x8000, 555);
  std::memcpy(files[1].data.data() + 5 * 0x8000, n.data(), n.size());
  const ByteBuffer bytes = build(files, v8());
  const Archive a = open_ok(bytes);
  EXPECT_EQ(a.files()[0].word, kStoredWord);
  EXPECT_EQ(a.files()[0].compression, Compression::stored);
  EXPECT_EQ(a.header().num_small, 0u);
  auto blocks = a.blocks(a.files()[1]);
  ASSERT_TRUE(blocks.ok());
  EXPECT_FALSE((*blocks)[5].compressed);
  EXPECT_TRUE((*blocks)[4].compressed);
  EXPECT_EQ((*blocks)[6].offset - (*blocks)[5].offset, 0x8000u);  // 16 raw sectors
  EXPECT_EQ(a.table_entry(BlockTable::medium, 5) & 0x8000u, 0u);
  EXPECT_EQ(read_ok(a, a.files()[0]), files[0].data);
  EXPECT_EQ(read_ok(a, a.files()[1]), files[1].data);
  Diagnostics diags;
  verify(bytes, "x", {}, diags);
  EXPECT_FALSE(diags.has_errors());
}

}  // namespace
}  // namespace assay::igarchive
