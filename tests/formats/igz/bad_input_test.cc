// Bad input: truncation and mutation sweeps over writer-built files, and targeted corruptions
// (spec: alchemy.md#verify-igz): clear errors, never a crash or an unchecked allocation.
#include <gtest/gtest.h>

#include "assay/formats/igz/graph.h"
#include "../../../src/formats/igz/json.h"
#include "assay/formats/igz/writer.h"
#include "igz_testing.h"

namespace assay::igz {
namespace {

using fixtures::exercise;
using fixtures::sample;

bool has_error(const Diagnostics& d, std::string_view text) {
  for (const auto& x : d.items())
    if (x.severity == Severity::error && x.where.str().find(text) != std::string::npos) return true;
  return false;
}

Diagnostics run_verify(ByteView b, OpenOptions o = {}) {
  Diagnostics d;
  verify(b, o, d);
  return d;
}

TEST(IgzBadInput, TruncationSweep) {
  for (auto [v, e, p, step] : {std::tuple{9u, Endian::big, 9u, 1u}, std::tuple{8u, Endian::little, 8u, 3u}}) {
    const ByteBuffer good = sample(v, e, p);
    ASSERT_FALSE(run_verify(good).has_errors());
    for (std::size_t n = 0; n < good.size(); n += (n < 0x800 ? 13 : step)) {
      const ByteView cut(good.data(), n);
      const Diagnostics d = run_verify(cut);
      EXPECT_TRUE(d.has_errors()) << "prefix " << n;  // the last pool always runs past the end
      exercise(cut);
    }
  }
}

TEST(IgzBadInput, MutationSweep) {
  const ByteBuffer good = sample(9, Endian::big, 9);
  std::size_t flagged = 0, runs = 0;
  // every byte of the used descriptors, the pool names, the fixups and the pools; a sample of
  // the (zero) rest of the header
  auto dense = [](std::size_t i) { return i < 0x60 || (i >= 0x224 && i < 0x240) || i >= 0x800; };
  for (std::size_t i = 0; i < good.size(); i += dense(i) ? 1 : 37) {
    for (std::uint8_t x : {std::uint8_t{0xFF}, std::uint8_t{0x01}}) {
      ByteBuffer m = good;
      m[i] ^= x;
      flagged += exercise(m) != 0;
      ++runs;
    }
  }
  EXPECT_GT(flagged, runs / 4);  // most bytes matter; all runs finished without a crash
}

// Positions inside a good file, found through the reader.
struct Located {
  ByteBuffer b;
  std::uint64_t record(std::uint32_t t) const {
    auto f = IgzFile::open(b);
    return f->find(t)->offset;
  }
  void put(std::uint64_t at, std::uint32_t v) { store<std::uint32_t>(b.data() + at, v, Endian::big); }
  std::uint32_t get(std::uint64_t at) const { return load<std::uint32_t>(b.data() + at, Endian::big); }
};

TEST(IgzBadInput, FixupCountsAndLengthsPastTheSection) {
  Located l{sample()};
  {
    Located m = l;
    m.put(0x10, 0xFFFFFFFF);  // numFixups
    auto f = IgzFile::open(m.b);
    ASSERT_FALSE(f.ok());
    EXPECT_NE(f.error().message.find("fixup records need"), std::string::npos) << f.error().str();
  }
  {
    Located m = l;
    m.put(m.record(tag::TMET) + 8, 0x10000);  // TMET length past the section
    auto f = IgzFile::open(m.b);
    ASSERT_FALSE(f.ok());
    EXPECT_EQ(f.error().offset, l.record(tag::TMET));
    EXPECT_NE(f.error().message.find("past the fixup section end"), std::string::npos);
  }
  {
    Located m = l;
    m.put(m.record(tag::MTSZ) + 12, 0x8);  // dataOffset < 0x10
    EXPECT_FALSE(IgzFile::open(m.b).ok());
  }
  {
    Located m = l;
    m.put(m.record(tag::TMET) + 4, 0x7FFFFFFF);  // string count
    EXPECT_TRUE(has_error(run_verify(m.b), "TMET"));
  }
  {
    Located m = l;
    m.put(m.record(tag::EXID) + 4, 0x20000000);  // count x 8 wraps 32 bits
    EXPECT_TRUE(has_error(run_verify(m.b), "EXID"));
  }
  {
    Located m = l;
    m.put(m.record(tag::TMHN) + 4, 0x40000000);
    EXPECT_TRUE(has_error(run_verify(m.b), "TMHN"));
  }
  {
    Located m = l;
    m.put(m.record(tag::TDEP) + 4, 1000);
    EXPECT_TRUE(has_error(run_verify(m.b), "TDEP"));
  }
}

TEST(IgzBadInput, PackedListsThatNeverEnd) {
  Located l{sample()};
  Located m = l;
  const std::uint64_t r = m.record(tag::ROFS);
  const std::uint32_t len = m.get(r + 8);
  for (std::uint64_t i = r + 0x10; i < r + len; ++i) m.b[i] = 0xFF;  // continuation bits only
  EXPECT_TRUE(has_error(run_verify(m.b), "ROFS packed list"));
  Located c = l;
  c.put(c.record(tag::RVTB) + 4, 5000);  // more values than the data holds
  EXPECT_TRUE(has_error(run_verify(c.b), "RVTB"));
}

TEST(IgzBadInput, PointersIntoMissingPools) {
  Located l{sample()};
  auto f = IgzFile::open(l.b);
  auto fx = decode_fixups(*f);
  ASSERT_TRUE(fx.ok());
  // a ROFS field pointing at pool 9 (the file has 3)
  const std::uint64_t field = *resolve(*f, fx->list(tag::ROFS).front(), 4, "");
  Located m = l;
  m.put(field, encode_pointer(9, {9, 0x10}));
  EXPECT_TRUE(has_error(run_verify(m.b), "names pool 9"));
  // a pool whose range lies past the file: pointers into it are refused
  Located p = l;
  p.put(0x14 + 3 * 16 + 4, 0x7FFFFF00);  // pool 2 (Image) offset
  const Diagnostics d = run_verify(p.b);
  EXPECT_TRUE(has_error(d, "runs past the file end"));
  EXPECT_TRUE(has_error(d, "lies outside the file"));  // TMHN data in that pool
  // an RSTR pointing past the String pool
  Located s = l;
  const std::uint64_t sfield = *resolve(*f, fx->list(tag::RSTR).front(), 4, "");
  s.put(sfield, encode_pointer(9, {1, 0x4000}));
  EXPECT_TRUE(has_error(run_verify(s.b), "RSTR[0]"));
}

TEST(IgzBadInput, IndexChecks) {
  Located l{sample()};
  auto f = IgzFile::open(l.b);
  auto fx = decode_fixups(*f);
  ASSERT_TRUE(fx.ok());
  auto pos = [&](std::uint32_t t, std::size_t i = 0) { return *resolve(*f, fx->list(t)[i], 4, ""); };
  struct Case {
    std::uint64_t at;
    std::uint32_t value;
    const char* expect;
  } cases[] = {
      {pos(tag::RVTB, 2), 77, "TMET index 77"},
      {pos(tag::REXT), 0x80000005, "EXID index 5"},
      {pos(tag::RNEX), 3, "named-external index 3"},
      {pos(tag::RHND), 0x80000009, "named-handle index 9"},
      {pos(tag::RMHN), 4, "TMHN index 4"},
      {pos(tag::RSTT), 9, "TSTR index 9"},
      {*resolve(*f, fx->list(tag::ROFS)[0], 4, "") , 0x07FFFFFF, "outside pool 0"},
  };
  for (const auto& c : cases) {
    Located m = l;
    m.put(c.at, c.value);
    EXPECT_TRUE(has_error(run_verify(m.b), c.expect)) << c.expect;
  }
  // EXNM name index past TSTR (both orders invalid)
  Located e = l;
  e.put(e.record(tag::EXNM) + 0x10 + 4, 40);
  e.put(e.record(tag::EXNM) + 0x10, 41);
  EXPECT_TRUE(has_error(run_verify(e.b), "EXNM[0]"));
  // ROOT not an object
  Located r = l;
  r.put(r.record(tag::ROOT) + 0x10, 0xFFFFFFF0);  // neither reading names an object
  EXPECT_TRUE(has_error(run_verify(r.b), "ROOT"));
  // an igObjectList element that is not an object
  Located o = l;
  const Graph g = build_graph(*f, *fx, nullptr);
  std::uint64_t element = 0;
  for (const auto& ed : g.edges)
    if (ed.from == kNoObject && ed.to == 2) element = *resolve(*f, ed.field, 4, "");
  ASSERT_NE(element, 0u);
  o.put(element, 0x8);
  EXPECT_TRUE(has_error(run_verify(o.b), "is not an RVTB object"));
}

TEST(IgzBadInput, HeaderProblems) {
  const ByteBuffer good = sample();
  {
    ByteBuffer m = good;
    m[0] = 'X';
    EXPECT_FALSE(IgzFile::open(m).ok());
  }
  {
    ByteBuffer m = good;
    store<std::uint32_t>(m.data() + 4, 11, Endian::big);
    auto f = IgzFile::open(m);
    ASSERT_FALSE(f.ok());
    EXPECT_NE(f.error().message.find("unknown igz version 11"), std::string::npos);
  }
  {  // unknown platform: MTSZ's igObjectList / igNameList sizes (0x18) decide (spec C3)
    ByteBuffer m = good;
    store<std::uint32_t>(m.data() + 0x0C, 40, Endian::big);
    auto f = IgzFile::open(m);
    ASSERT_TRUE(f.ok()) << f.error().str();
    EXPECT_EQ(f->header().pointer_size, 4u);
    EXPECT_EQ(f->header().pointer_source, PointerSource::bytes);
    // without that evidence: an error unless the caller supplies the pointer size (spec Q15)
    const FixupRecord* mtsz = f->find(tag::MTSZ);
    ASSERT_NE(mtsz, nullptr);
    const std::uint64_t at = mtsz->offset + mtsz->data_offset;
    store<std::uint32_t>(m.data() + at, 0x20, Endian::big);      // igObjectList
    store<std::uint32_t>(m.data() + at + 4, 0x20, Endian::big);  // igNameList
    EXPECT_FALSE(IgzFile::open(m).ok());
    Diagnostics d = run_verify(m, OpenOptions{4});
    EXPECT_FALSE(d.has_errors());
  }
  {  // a known platform that disagrees with MTSZ: MTSZ wins, with a warning (spec C3)
    ByteBuffer m = good;
    store<std::uint32_t>(m.data() + 0x0C, 8, Endian::big);  // win64: 8-byte pointers
    Diagnostics d;
    auto f = IgzFile::open(m, {}, d.sink());
    ASSERT_TRUE(f.ok());
    EXPECT_EQ(f->header().pointer_size, 4u);
    EXPECT_EQ(f->header().platform_pointer_size, 8u);
    EXPECT_EQ(d.count(Severity::warning), 1u);
  }
  {  // descriptor 0 offset 0
    ByteBuffer m = good;
    store<std::uint32_t>(m.data() + 0x18, 0, Endian::big);
    EXPECT_FALSE(IgzFile::open(m).ok());
  }
  {  // overlapping pools, and a pool-name offset outside the name area
    ByteBuffer m = good;
    const std::uint32_t pool0 = load<std::uint32_t>(m.data() + 0x28, Endian::big);
    store<std::uint32_t>(m.data() + 0x38, pool0 + 4, Endian::big);
    store<std::uint32_t>(m.data() + 0x34, 0x7000, Endian::big);
    const Diagnostics d = run_verify(m);
    EXPECT_TRUE(has_error(d, "overlaps"));
    EXPECT_TRUE(has_error(d, "pool name"));
  }
  EXPECT_FALSE(IgzFile::open(ByteView{}).ok());
}

// A hand-built version 6 file (spec: #igz-header-v6): it parses, always with a warning.
TEST(IgzBadInput, Version6BestEffort) {
  ByteWriter w(Endian::big);
  w.u32(kMagic), w.u32(6), w.u32(0x1234);
  const std::uint32_t fix = 0x800, pool = 0x900;
  // descriptor 0 at 0x0C, pool 0 at 0x1C, names at 0x56C
  ByteWriter fx(Endian::big);
  fx.u32(kMagic), fx.u32(6), fx.u16(1), fx.u16(0), fx.u32(0x1C), fx.u32(4), fx.u32(0x1C), fx.u32(0);
  auto rec = [&](std::uint32_t id, std::uint32_t count, ByteView data) {
    fx.u32(id), fx.u32(0), fx.u32(0), fx.u32(count);
    fx.u32(static_cast<std::uint32_t>(0x18 + (data.size() + 3) / 4 * 4)), fx.u32(0x18);
    fx.bytes(data);
    fx.align(4);
  };
  const std::string_view tmet("igObjectList\0", 13);
  rec(0x00, 1, ByteView(reinterpret_cast<const std::uint8_t*>(tmet.data()), tmet.size()));
  const std::uint8_t mtsz[] = {0, 0, 0, 0x18};
  rec(0x0C, 1, mtsz);
  const std::uint8_t rvtb[] = {0x00};  // value 4 with the +4 bias
  rec(0x05, 1, rvtb);
  const std::uint8_t root[] = {0, 0, 0, 4};
  rec(0x08, 1, root);
  w.u32(0), w.u32(fix), w.u32(static_cast<std::uint32_t>(fx.size())), w.u32(0x800);
  w.u32(0), w.u32(pool), w.u32(4 + 0x18), w.u32(4);
  w.zeros(0x56C - w.size());
  w.cstr("Default");
  w.zeros(fix - w.size());
  w.bytes(fx.buffer());
  w.zeros(pool - w.size());
  w.zeros(4 + 0x18);
  const ByteBuffer b = w.take();
  Diagnostics d;
  auto f = IgzFile::open(b, {}, d.sink());
  ASSERT_TRUE(f.ok()) << f.error().str();
  EXPECT_EQ(f->header().platform, 1u);
  EXPECT_EQ(f->header().num_fixups, 4u);
  EXPECT_EQ(f->pool(0).name, "Default");
  auto fixups = decode_fixups(*f);
  ASSERT_TRUE(fixups.ok()) << fixups.error().str();
  EXPECT_EQ(fixups->types.at(0), "igObjectList");
  EXPECT_EQ(fixups->list(tag::RVTB), (std::vector<std::uint32_t>{4}));
  Diagnostics v = run_verify(b);
  EXPECT_FALSE(v.has_errors());
  bool warned = false;
  for (const auto& x : v.items()) warned = warned || x.where.message.find("uncertain") != std::string::npos;
  EXPECT_TRUE(warned);
}

}  // namespace
}  // namespace assay::igz
