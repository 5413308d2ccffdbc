// Every version x byte order x compression, edge sizes, the three block tables, prefix widths,
// terminator forms, LZMA with and without an end marker. Facts from spec: alchemy.md#iga.
#include <lzma.h>
#include <zlib.h>

#include <fmt/format.h>

#include <algorithm>
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
using test::text;

std::vector<WriterFile> edge_files(Compression c) {
  std::vector<WriterFile> f;
  f.push_back({.name = "empty.bin", .data = {}, .compression = c});
  f.push_back({.name = "one.txt", .data = text(1, 1), .compression = c});
  f.push_back({.name = "exact_8000.txt", .data = text(0x8000, 2), .compression = c});
  f.push_back({.name = "exact_8001.txt", .data = text(0x8001, 3), .compression = c});
  f.push_back({.name = "dir/noise.bin", .path = "Temporary/BuildServer/wiiu/Output/dir/noise.bin",
               .data = noise(70000, 4), .compression = c, .time = 77});
  f.push_back({.name = "dir/mixed.igz", .data = text(100000, 5), .compression = c, .time = 0xFFFFFFFF});
  std::memcpy(f.back().data.data() + 0x8000, noise(0x8000, 9).data(), 0x8000);  // one raw block
  return f;
}

struct Case {
  std::uint32_t version;
  Endian endian;
  Compression c;
};

class IgArchiveMatrix : public ::testing::TestWithParam<Case> {};

TEST_P(IgArchiveMatrix, WritesReadsAndVerifies) {
  const Case k = GetParam();
  WriterOptions o;
  o.version = k.version;
  o.endian = k.endian;
  o.lzma_preset = 1;
  const auto files = edge_files(k.c);
  const ByteBuffer bytes = build(files, o);
  const Archive a = open_ok(bytes);
  EXPECT_EQ(a.version(), k.version);
  EXPECT_EQ(a.endian(), k.endian);
  EXPECT_EQ(a.files().size(), files.size());
  // Magic bytes on disk by byte order (spec #overview-byteorder).
  const std::uint8_t le[4] = {0x49, 0x47, 0x41, 0x1A}, be[4] = {0x1A, 0x41, 0x47, 0x49};
  EXPECT_EQ(std::memcmp(bytes.data(), k.endian == Endian::little ? le : be, 4), 0);
  EXPECT_EQ(a.prefix_width(), k.version >= 0x0C ? 4u : 2u);
  for (std::size_t i = 1; i < a.hashes().size(); ++i) EXPECT_LT(a.hashes()[i - 1], a.hashes()[i]);
  for (const WriterFile& w : files) {
    const FileEntry* f = a.find(w.name);
    ASSERT_NE(f, nullptr) << w.name;
    EXPECT_EQ(f->hash, fnv1a32(w.name));
    EXPECT_EQ(f->compression, k.c);
    EXPECT_EQ(f->length, w.data.size());
    EXPECT_EQ(f->num_blocks, k.c == Compression::stored ? 0u : (w.data.size() + 0x7FFF) / 0x8000);
    EXPECT_EQ(f->offset % 0x800, 0u);
    if (k.version >= 8) EXPECT_EQ(f->time, w.time);
    if (k.version >= 0x0A) EXPECT_EQ(f->path, w.path.empty() ? w.name : w.path);
    EXPECT_EQ(read_ok(a, *f, 2), w.data) << w.name;
  }
  if (k.c != Compression::stored && k.c != Compression::none) {
    auto bl = a.blocks(*a.find("dir/mixed.igz"));
    ASSERT_TRUE(bl.ok());
    EXPECT_TRUE((*bl)[0].compressed);
    EXPECT_FALSE((*bl)[1].compressed);  // noise: stored raw (writer rule 7)
  }
  Diagnostics d;
  verify(bytes, "m", {}, d);
  std::string all;
  for (const auto& x : d.items()) all += x.where.str() + "\n";
  EXPECT_FALSE(d.has_errors()) << all;
  EXPECT_EQ(d.count(Severity::warning), k.version == 4 ? 1u : 0u) << all;  // v4: layout uncertain
  // --like rebuild is byte-identical.
  auto entries = entries_like(a);
  for (auto& e : entries) e.data = read_ok(a, *a.find(e.name));
  WriterOptions lo = options_like(a);
  lo.lzma_preset = 1;
  EXPECT_EQ(build(entries, lo), bytes);
}

std::vector<Case> all_cases() {
  std::vector<Case> v;
  for (std::uint32_t ver : {4u, 8u, 0x0Au, 0x0Bu, 0x0Cu, 0x0Du})
    for (Endian e : {Endian::little, Endian::big})
      for (Compression c : {Compression::none, Compression::deflate, Compression::lzma, Compression::lz4,
                            Compression::stored})
        v.push_back({ver, e, c});
  return v;
}

INSTANTIATE_TEST_SUITE_P(All, IgArchiveMatrix, ::testing::ValuesIn(all_cases()), [](const auto& info) {
  return fmt::format("v{:x}_{}_{}", info.param.version, info.param.endian == Endian::little ? "le" : "be",
                     to_string(info.param.c));
});

// The three block tables: a small sector size (16) scales the limits (spec #iga-block-tables)
// so that every table is used by a file of modest size.
TEST(IgArchiveTables, EachOfTheThreeTables) {
  WriterOptions o;
  o.version = 0x0B;
  o.sector_size = 16;
  std::vector<WriterFile> files = {
      {.name = "small", .data = text(0x7F * 16, 1)},        // <= 0x7F x S: small
      {.name = "medium", .data = text(0x7F * 16 + 1, 2)},   // medium
      {.name = "medium_top", .data = text(0x7FFF * 16, 3)}, // still medium
      {.name = "large", .data = text(0x7FFF * 16 + 1, 4)},  // large
  };
  const ByteBuffer bytes = build(files, o);
  const Archive a = open_ok(bytes);
  EXPECT_EQ(a.find("small")->table, BlockTable::small);
  EXPECT_EQ(a.find("medium")->table, BlockTable::medium);
  EXPECT_EQ(a.find("medium_top")->table, BlockTable::medium);
  EXPECT_EQ(a.find("large")->table, BlockTable::large);
  EXPECT_EQ(a.header().num_small, 1u + 1u);
  EXPECT_EQ(a.header().num_medium, (1u + 1u) + (16u + 1u));
  EXPECT_EQ(a.header().num_large, 16u + 1u);
  EXPECT_EQ(a.table_entry(BlockTable::large, 0), 0x80000000u);  // compressed, sector 0
  for (const auto& w : files) EXPECT_EQ(read_ok(a, *a.find(w.name)), w.data) << w.name;
  Diagnostics d;
  verify(bytes, "t", {}, d);
  EXPECT_FALSE(d.has_errors());
  EXPECT_EQ(d.count(Severity::warning), 1u);  // sectorSize is not 0x800
}

// The real limits with sector 0x800: a 67,106,817-byte file uses the large table.
TEST(IgArchiveTables, LargeTableAtRealSectorSize) {
  WriterOptions o;
  o.version = 8;
  std::vector<WriterFile> files = {{.name = "big.bin", .data = ByteBuffer(67106817, 0x5A), .compression = Compression::lz4}};
  const ByteBuffer bytes = build(files, o);
  const Archive a = open_ok(bytes);
  const FileEntry& f = a.files()[0];
  EXPECT_EQ(f.table, BlockTable::large);
  EXPECT_EQ(f.num_blocks, 2048u);  // ceil(67,106,817 / 0x8000)
  EXPECT_EQ(a.header().num_large, 2049u);
  ByteBuffer out;
  ASSERT_TRUE(a.read(f, out, 2).ok());
  EXPECT_EQ(out.size(), 67106817u);
  EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](std::uint8_t b) { return b == 0x5A; }));
}

// spec #vectors-synthetic 3: v0x0B big-endian, both strings, each codec, both terminator forms.
TEST(IgArchiveVariants, V11BigEndianBothTerminators) {
  for (bool zero : {false, true}) {
    WriterOptions o;
    o.version = 0x0B;
    o.endian = Endian::big;
    o.zero_terminator = zero;
    std::vector<WriterFile> files = {
        {.name = "a.igz", .path = "temporary/mack/data/wiiu/output/a.igz", .data = text(90000, 1), .compression = Compression::deflate},
        {.name = "b.igz", .path = "temporary/mack/data/wiiu/output/b.igz", .data = text(70000, 2), .compression = Compression::lzma},
        {.name = "c.igz", .path = "temporary/mack/data/wiiu/output/c.igz", .data = text(50000, 3), .compression = Compression::lz4},
    };
    const ByteBuffer bytes = build(files, o);
    const Archive a = open_ok(bytes);
    for (const auto& w : files) {
      const FileEntry* f = a.find(w.name);
      ASSERT_NE(f, nullptr);
      EXPECT_EQ(f->path, w.path);
      EXPECT_TRUE(f->path_first);  // v0x0B: build path first (spec #iga-name-table)
      const std::uint32_t term = a.table_entry(f->table, f->first_entry + f->num_blocks);
      if (zero) EXPECT_EQ(term, 0u);
      else EXPECT_GT(term, 0u);
      EXPECT_EQ(read_ok(a, *f), w.data);
      EXPECT_EQ(a.find(w.path), f);  // by build path too
    }
    Diagnostics d;
    verify(bytes, "v", {}, d);
    EXPECT_FALSE(d.has_errors());
    EXPECT_EQ(d.count(Severity::note), zero ? 3u : 0u);  // "terminator 0" notes
    EXPECT_EQ(options_like(a).zero_terminator, zero);
  }
}

// spec #vectors-synthetic 4 and #open Q2: prefix width detection for 0x0C / 0x0D.
TEST(IgArchiveVariants, PrefixWidthDetection) {
  for (std::uint32_t ver : {0x0Cu, 0x0Du}) {
    for (unsigned pw : {2u, 4u}) {
      for (Compression c : {Compression::lzma, Compression::deflate, Compression::lz4}) {
        WriterOptions o;
        o.version = ver;
        o.prefix_width = pw;
        std::vector<WriterFile> files = {{.name = "x", .data = text(40000, 8), .compression = c}};
        const ByteBuffer bytes = build(files, o);
        const Archive a = open_ok(bytes);
        EXPECT_EQ(a.prefix_width(), pw) << ver << " " << to_string(c);
        EXPECT_EQ(read_ok(a, a.files()[0]), files[0].data);
        EXPECT_EQ(options_like(a).prefix_width, pw);
      }
    }
  }
  // Version 4: u16 big-endian per ig-workshop by default; little-endian also detected.
  for (bool little : {false, true}) {
    WriterOptions o;
    o.version = 4;
    o.prefix_little = little;
    std::vector<WriterFile> files = {{.name = "x", .data = text(40000, 9)}};
    const ByteBuffer bytes_a = build(files, o);
  const Archive a = open_ok(bytes_a);
    EXPECT_EQ(a.prefix_little(), little);
    EXPECT_EQ(read_ok(a, a.files()[0]), files[0].data);
  }
}

// spec #iga-hash: flags bit 0 lower-cases and maps '\' to '/'; bit 1 keeps the name only.
TEST(IgArchiveVariants, FlagsChangeHashingAndLookup) {
  WriterOptions o;
  o.version = 0x0A;
  o.flags = kFlagCaseInsensitive;
  std::vector<WriterFile> files = {{.name = "JAPANESE.pak", .data = text(100, 1)}};
  const ByteBuffer bytes_a = build(files, o);
  const Archive a = open_ok(bytes_a);
  EXPECT_EQ(a.files()[0].hash, 0x9B61A3ACu);  // fnv1a32("japanese.pak")
  EXPECT_EQ(a.find("japanese.PAK"), &a.files()[0]);
  EXPECT_FALSE(a.files()[0].path_first);  // v0x0A: logical name first (igRewrite8)
  o.flags = kFlagNameOnly;
  files[0].name = "dir\\sub/image";
  const ByteBuffer bytes_b = build(files, o);
  const Archive b = open_ok(bytes_b);
  EXPECT_EQ(b.files()[0].hash, 0xB35135FAu);  // fnv1a32("image")
  EXPECT_EQ(b.files()[0].name, "dir\\sub/image");
  // v0x0A with the other name order: detected by hash (spec #open Q6).
  o.flags = 0;
  o.v10_path_first = true;
  files[0] = {.name = "igsceneinfo0", .path = "build/igsceneinfo0.igz", .data = text(10, 2)};
  const ByteBuffer bytes_c = build(files, o);
  const Archive c = open_ok(bytes_c);
  EXPECT_EQ(c.files()[0].hash, 0xCF3B3889u);
  EXPECT_TRUE(c.files()[0].path_first);
  EXPECT_EQ(c.files()[0].name, "igsceneinfo0");
  EXPECT_EQ(c.files()[0].path, "build/igsceneinfo0.igz");
}

TEST(IgArchiveVariants, DuplicateHashIsAWriterError) {
  WriterOptions o;
  o.flags = kFlagCaseInsensitive;
  std::vector<WriterFile> files = {{.name = "A.txt", .data = {}}, {.name = "a.txt", .data = {}}};
  EXPECT_FALSE(write_archive(files, o).ok());
}

TEST(IgArchiveVariants, EmptyArchive) {
  const ByteBuffer bytes = build({}, WriterOptions{});
  const Archive a = open_ok(bytes);
  EXPECT_EQ(a.files().size(), 0u);
  EXPECT_EQ(a.header().divider, 0xFFFFFFFFu);
  EXPECT_EQ(a.header().slop, 0u);
}

// spec #iga-lzma: blocks with and without an end marker both decode.
ByteBuffer lzma_raw(ByteView raw, bool eopm) {
  lzma_options_lzma opt{};
  lzma_lzma_preset(&opt, 6);
  opt.dict_size = 0x8000;
  opt.ext_flags = eopm ? LZMA_LZMA1EXT_ALLOW_EOPM : 0;
  lzma_filter f[2] = {{LZMA_FILTER_LZMA1EXT, &opt}, {LZMA_VLI_UNKNOWN, nullptr}};
  lzma_stream s = LZMA_STREAM_INIT;
  EXPECT_EQ(lzma_raw_encoder(&s, f), LZMA_OK);
  ByteBuffer out(raw.size() * 2 + 100);
  s.next_in = raw.data(), s.avail_in = raw.size(), s.next_out = out.data(), s.avail_out = out.size();
  EXPECT_EQ(lzma_code(&s, LZMA_FINISH), LZMA_STREAM_END);
  out.resize(out.size() - s.avail_out);
  lzma_end(&s);
  return out;
}

TEST(IgArchiveCodecs, LzmaWithAndWithoutEndMarker) {
  const ByteBuffer raw = text(0x8000, 3);
  const ByteBuffer with = lzma_raw(raw, true), without = lzma_raw(raw, false);
  EXPECT_GT(with.size(), without.size());
  for (const ByteBuffer* p : {&with, &without}) {
    ByteBuffer src = {0x5D, 0x00, 0x80, 0x00, 0x00};
    src.insert(src.end(), p->begin(), p->end());
    BlockDecoder dec;
    ByteBuffer out(raw.size());
    auto r = dec.decode(Compression::lzma, src, out, 0, "block");
    ASSERT_TRUE(r.ok()) << r.error().str();
    EXPECT_EQ(out, raw);
    EXPECT_EQ(*r, p->size());  // every payload byte consumed, end marker included
  }
  // Too little data: an error, not a short block.
  ByteBuffer src = {0x5D, 0x00, 0x80, 0x00, 0x00};
  src.insert(src.end(), without.begin(), without.begin() + without.size() / 2);
  BlockDecoder dec;
  ByteBuffer out(raw.size());
  EXPECT_FALSE(dec.decode(Compression::lzma, src, out, 0, "block").ok());
  // Property byte >= 225 and dictionary 0 are errors (spec #verify-iga).
  src[0] = 225;
  EXPECT_FALSE(dec.decode(Compression::lzma, src, out, 0, "block").ok());
  src[0] = 0x5D, src[1] = src[2] = src[3] = src[4] = 0;
  EXPECT_FALSE(dec.decode(Compression::lzma, src, out, 0, "block").ok());
}

// Raw deflate (window bits -15) made by zlib, independently of the decoder's libdeflate.
ByteBuffer deflate_raw(const ByteBuffer& raw) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY), Z_OK);
  ByteBuffer out(deflateBound(&z, raw.size()));
  z.next_in = const_cast<Bytef*>(raw.data()), z.avail_in = static_cast<uInt>(raw.size());
  z.next_out = out.data(), z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(out.size() - z.avail_out);
  deflateEnd(&z);
  return out;
}

// spec #iga-deflate: the block is exactly its size. libdeflate decodes what it gives exactly; what
// it does not (a longer stream, a short one, bad data) gets zlib's result: a longer stream is cut
// at the block's size as zlib's Z_FINISH stops there, a short one names how far it got.
TEST(IgArchiveCodecs, DeflateExactLongerShortAndBad) {
  const ByteBuffer raw = text(0x8000, 5);
  ByteBuffer z = deflate_raw(raw);
  BlockDecoder dec;
  ByteBuffer out(raw.size());
  auto r = dec.decode(Compression::deflate, z, out, 0, "block");
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(out, raw);
  EXPECT_EQ(*r, z.size());
  ByteBuffer padded = z;  // bytes after the stream's end are not consumed
  padded.insert(padded.end(), {0xAA, 0xBB, 0xCC});
  r = dec.decode(Compression::deflate, padded, out, 0, "block");
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(*r, z.size());
  ByteBuffer first(0x7000);  // the stream holds more than the block: the first 0x7000 bytes
  r = dec.decode(Compression::deflate, z, first, 0, "block");
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_TRUE(std::equal(first.begin(), first.end(), raw.begin()));
  ByteBuffer more(0x9000);  // the block is longer than the stream
  r = dec.decode(Compression::deflate, z, more, 0x40, "block 3");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().str().find("deflate data ends after 0x8000 of 0x9000 bytes"), std::string::npos) << r.error().str();
  ByteBuffer bad = z;  // block type 3 is reserved (RFC 1951 3.2.3)
  bad[0] = 0x07;
  r = dec.decode(Compression::deflate, bad, out, 0x40, "block 3");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().str().find("deflate data error"), std::string::npos) << r.error().str();
  // After the errors the decoder still decodes.
  r = dec.decode(Compression::deflate, z, out, 0, "block");
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(out, raw);
}

TEST(IgArchiveCodecs, EncodedBlockLayout) {
  // spec #iga-prefix: prefix | 5 property bytes | C payload bytes; C counts only the payload.
  const ByteBuffer raw = text(0x8000, 4);
  const ByteBuffer b = encode_block(Compression::lzma, raw, 2, true, 6);
  ASSERT_GT(b.size(), 7u);
  const std::uint16_t c = load<std::uint16_t>(b.data(), Endian::little);
  EXPECT_EQ(c + 7u, b.size());
  const std::uint8_t props[5] = {0x5D, 0x00, 0x80, 0x00, 0x00};
  EXPECT_EQ(std::memcmp(b.data() + 2, props, 5), 0);
  // Incompressible: not worth it, so the block is stored raw (empty result).
  EXPECT_TRUE(encode_block(Compression::lzma, noise(0x8000, 1), 2, true, 6).empty());
  EXPECT_TRUE(encode_block(Compression::deflate, noise(0x8000, 1), 2, true, 6).empty());
  EXPECT_TRUE(encode_block(Compression::lz4, noise(0x8000, 1), 2, true, 6).empty());
}

}  // namespace
}  // namespace assay::igarchive
