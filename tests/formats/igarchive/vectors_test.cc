// spec: alchemy.md#vectors-hash and #vectors-iga, asserted against the library's arithmetic.
#include <lzma.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "assay/core/hash.h"
#include "helpers.h"

namespace assay::igarchive {
namespace {

TEST(IgArchiveVectors, Hashes) {
  EXPECT_EQ(fnv1a32(""), 0x811C9DC5u);
  EXPECT_EQ(fnv1a32("a"), 0xE40C292Cu);
  EXPECT_EQ(hash_name("JAPANESE.pak", 0), 0x4D44506Cu);
  EXPECT_EQ(hash_name("JAPANESE.pak", kFlagCaseInsensitive), 0x9B61A3ACu);
  EXPECT_EQ(hash_name("image", 0), 0xB35135FAu);
  EXPECT_EQ(hash_name("igsceneinfo0", 0), 0xCF3B3889u);
  EXPECT_EQ(hash_name("cmaterialhandletableinfo", 0), 0x35EDF337u);
  // Flag rules (spec #iga-hash): '\' to '/' and lower case; name only; leading separators.
  EXPECT_EQ(hash_name("Dir\\IMAGE", kFlagCaseInsensitive), fnv1a32("dir/image"));
  EXPECT_EQ(hash_name("a/b\\image", kFlagNameOnly), 0xB35135FAu);
  EXPECT_EQ(hash_name("//image", 0), 0xB35135FAu);
  EXPECT_EQ(hash_name("\\IMAGE", kFlagCaseInsensitive), 0xB35135FAu);
}

TEST(IgArchiveVectors, DividerAndLookup) {
  EXPECT_EQ(divider_for(1), 0xFFFFFFFFu);
  EXPECT_EQ(divider_for(2), 0x7FFFFFFFu);
  EXPECT_EQ(divider_for(3), 0x55555555u);
  EXPECT_EQ(divider_for(0), 0xFFFFFFFFu);
  // lookup 0x4D44506C, N = 2, divider 0x7FFFFFFF, slop 0: window [0, 1), found at 0.
  const std::array<std::uint32_t, 2> h = {0x4D44506Cu, 0x90000000u};
  EXPECT_EQ(hash_search(h, 0x7FFFFFFF, 0, 0x4D44506C), std::optional<std::size_t>(0));
  EXPECT_EQ(hash_search(h, 0x7FFFFFFF, 0, 0x90000000), std::optional<std::size_t>(1));
  EXPECT_EQ(minimal_slop(h, 0x7FFFFFFF), 0u);
  // A hash just past the window is still found: the binary search over [lo, hi) ends on hi
  // and step 5 compares hash[hi] (the original HashSearcher reads it too). So a second file
  // below 0x7FFFFFFF is found with slop 0 (spec #bootstrap-rest's "needs slop 1" disagrees).
  const std::array<std::uint32_t, 2> h2 = {0x4D44506Cu, 0x60000000u};
  EXPECT_EQ(hash_search(h2, 0x7FFFFFFF, 0, 0x60000000), std::optional<std::size_t>(1));
  EXPECT_EQ(minimal_slop(h2, 0x7FFFFFFF), 0u);
  // Two places past the window is not found; slop 1 finds it.
  const std::array<std::uint32_t, 3> h3 = {0x10u, 0x20u, 0x30u};  // all q = 0 with divider 0x55555555
  EXPECT_EQ(hash_search(h3, 0x55555555, 0, 0x30), std::nullopt);
  EXPECT_EQ(hash_search(h3, 0x55555555, 1, 0x30), std::optional<std::size_t>(2));
  EXPECT_EQ(minimal_slop(h3, 0x55555555), 1u);
  // Below the window: q = 2 for 0xFFFFFFF0, index 0 needs slop 2.
  const std::array<std::uint32_t, 3> h4 = {0xFFFFFFF0u, 0xFFFFFFF1u, 0xFFFFFFF2u};
  EXPECT_EQ(hash_search(h4, 0x55555555, 1, 0xFFFFFFF0), std::nullopt);
  EXPECT_EQ(hash_search(h4, 0x55555555, 2, 0xFFFFFFF0), std::optional<std::size_t>(0));
  EXPECT_EQ(minimal_slop(h4, 0x55555555), 2u);
  EXPECT_EQ(hash_search(h, 0x7FFFFFFF, 0, 0x12345678), std::nullopt);
}

// Writer rule 4: the minimal slop finds every file, and one less does not.
TEST(IgArchiveVectors, MinimalSlopIsMinimal) {
  for (std::uint32_t seed = 1; seed < 40; ++seed) {
    std::vector<std::uint32_t> h;
    std::uint32_t x = seed;
    for (int i = 0; i < 50; ++i) h.push_back(hash_name(fmt::format("file{}_{}", seed, x = x * 1664525u + 1013904223u), 0));
    std::sort(h.begin(), h.end());
    h.erase(std::unique(h.begin(), h.end()), h.end());
    const std::uint32_t d = divider_for(h.size()), s = minimal_slop(h, d);
    for (std::size_t i = 0; i < h.size(); ++i) EXPECT_EQ(hash_search(h, d, s, h[i]), std::optional<std::size_t>(i));
    if (s > 0) {
      bool missed = false;
      for (std::size_t i = 0; i < h.size(); ++i) missed |= !hash_search(h, d, s - 1, h[i]).has_value();
      EXPECT_TRUE(missed) << seed;
    }
  }
}

TEST(IgArchiveVectors, TablesAndBlocks) {
  EXPECT_EQ(table_for_length(260096, 0x800), BlockTable::small);
  EXPECT_EQ(table_for_length(260097, 0x800), BlockTable::medium);
  EXPECT_EQ(table_for_length(67106816, 0x800), BlockTable::medium);
  EXPECT_EQ(table_for_length(67106817, 0x800), BlockTable::large);
  EXPECT_EQ(block_count(2805), 1u);
  EXPECT_EQ(block_usize(2805, 0), 2805u);
  EXPECT_EQ(block_count(1118636), 35u);
  EXPECT_EQ(block_usize(1118636, 34), 4524u);
  EXPECT_EQ(block_count(0x10000), 2u);
  EXPECT_EQ(block_usize(0x10000, 1), 0x8000u);
  EXPECT_EQ(block_count(0), 0u);
  EXPECT_EQ(flag_bit(BlockTable::small), 0x80u);
  EXPECT_EQ(flag_bit(BlockTable::medium), 0x8000u);
  EXPECT_EQ(flag_bit(BlockTable::large), 0x80000000u);
  // bootstrap tocSize for N = 2, medium 36, small 2, large 0, F = 12: 106.
  EXPECT_EQ(2 * (4 + file_info_size(8)) + 2 * 36 + 2, 106u);
  EXPECT_EQ(header_size(4), 0x30u);
  EXPECT_EQ(header_size(8), 0x34u);
  EXPECT_EQ(header_size(0x0B), 0x38u);
  EXPECT_EQ(file_info_size(0x0A), 16u);
  EXPECT_EQ(0x1000u + 95u * 0x800u, 0x30800u);
  for (std::uint32_t v : {4u, 8u, 0xAu, 0xBu, 0xCu, 0xDu}) EXPECT_TRUE(is_known_version(v));
  for (std::uint32_t v : {0u, 5u, 9u, 0xEu, 0xFFFFFFFFu}) EXPECT_FALSE(is_known_version(v));
}

TEST(IgArchiveVectors, LzmaProperties) {
  // 0x5D: lc 3, lp 0, pb 2 (liblzma's own decoder of the .lzma properties agrees).
  const std::uint8_t props[5] = {0x5D, 0x00, 0x80, 0x00, 0x00};
  lzma_filter f{LZMA_FILTER_LZMA1, nullptr};
  ASSERT_EQ(lzma_properties_decode(&f, nullptr, props, 5), LZMA_OK);
  auto* o = static_cast<lzma_options_lzma*>(f.options);
  EXPECT_EQ(o->lc, 3u);
  EXPECT_EQ(o->lp, 0u);
  EXPECT_EQ(o->pb, 2u);
  EXPECT_EQ(o->dict_size, 0x8000u);
  free(o);  // NOLINT: liblzma allocates with malloc
  // The synthesised .lzma header of a full block decodes a writer block with lzma_alone_decoder.
  const ByteBuffer raw = test::text(0x8000, 11);
  const ByteBuffer blk = encode_block(Compression::lzma, raw, 2, true, 6);
  ASSERT_FALSE(blk.empty());
  const std::uint8_t hdr[13] = {0x5D, 0x00, 0x80, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  ByteBuffer alone(hdr, hdr + 13);
  alone.insert(alone.end(), blk.begin() + 7, blk.end());
  lzma_stream s = LZMA_STREAM_INIT;
  ASSERT_EQ(lzma_alone_decoder(&s, UINT64_MAX), LZMA_OK);
  ByteBuffer out(0x8000);
  s.next_in = alone.data(), s.avail_in = alone.size(), s.next_out = out.data(), s.avail_out = out.size();
  EXPECT_EQ(lzma_code(&s, LZMA_FINISH), LZMA_STREAM_END);
  lzma_end(&s);
  EXPECT_EQ(out, raw);
}

TEST(IgArchiveVectors, CompressionWord) {
  // 0x20000000: LZMA, first entry 0; 0x1000002A: deflate, first entry 42. Built by the writer
  // (entry runs follow the data order: 21 one-block files own entries 0..41) and read back.
  std::vector<WriterFile> files;
  for (std::uint32_t i = 0; i < 22; ++i)
    files.push_back({.name = fmt::format("f{:02d}", i), .data = test::text(1000, i), .compression = Compression::deflate,
                     .ordinal = i});
  files.push_back({.name = "lz", .data = test::text(1000, 99), .compression = Compression::lzma, .ordinal = 22});
  WriterOptions o;
  const ByteBuffer bytes = test::build(files, o);
  const Archive a = test::open_ok(bytes);
  const FileEntry* f21 = a.find("f21");
  ASSERT_NE(f21, nullptr);
  EXPECT_EQ(f21->ordinal, 21u);
  EXPECT_EQ(f21->word, 0x1000002Au);
  EXPECT_EQ(f21->compression, Compression::deflate);
  EXPECT_EQ(f21->first_entry, 42u);
  EXPECT_EQ(a.find("lz")->word, 0x2000002Cu);
  EXPECT_EQ(test::read_ok(a, *f21), files[21].data);
  EXPECT_EQ(compression_from_string("lz4"), Compression::lz4);
  EXPECT_EQ(compression_from_string("zip"), std::nullopt);
}

}  // namespace
}  // namespace assay::igarchive
