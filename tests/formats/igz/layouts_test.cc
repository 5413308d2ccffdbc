// The igz forms the real files showed (spec: alchemy.md#corrections C2-C5), built by our writer:
// igName as {TSTR index, hash} through RSTT (version 7, Crash NST), the 64-bit version 10 layouts
// (igMemory {u32 size, u32 flags, u64 pointer}; igDataList count at 0x10 for NST, 0x0C for CTR;
// igName {u64 string, u64 hash}), NSPC, and the pointer size taken from MTSZ. Plus truncation and
// mutation sweeps over each form.
#include <gtest/gtest.h>

#include "assay/core/hash.h"
#include "assay/formats/igz/graph.h"
#include "../../../src/formats/igz/json.h"
#include "assay/formats/igz/writer.h"
#include "igz_testing.h"
#include "core/json_text.h"

namespace assay::igz {
namespace {

struct Form {
  const char* label;
  Layout layout;
  ListLayout lists;
};

std::vector<Form> forms() {
  std::vector<Form> v;
  Layout v7{7, Endian::big, 6};  // ps3: 32-bit, as skylanders_zap.pak's igz
  v7.names_as_tstr = true;
  v.push_back({"v7 be tstr names", v7, ListLayout::ptr32});
  Layout nst{10, Endian::little, 6};  // NST says platform 6 and is 64-bit (C3)
  nst.names_as_tstr = true;
  nst.name_space = "StaticCollision_Custom_Level";
  v.push_back({"v10 le nst", nst, ListLayout::nst64});
  Layout ctr = nst;
  ctr.ctr = true;
  v.push_back({"v10 le ctr", ctr, ListLayout::ctr64});
  Layout nst_be = nst;
  nst_be.endian = Endian::big;
  v.push_back({"v10 be nst", nst_be, ListLayout::nst64});
  Layout ptr_names{10, Endian::little, 6};  // string pointers (RSTR) on 64-bit v10
  ptr_names.name_space = "ns";
  v.push_back({"v10 le rstr names", ptr_names, ListLayout::nst64});
  return v;
}

ByteBuffer build(const Layout& l) {
  auto b = build_sample(l);
  EXPECT_TRUE(b.ok()) << (b.ok() ? "" : b.error().str());
  return b.ok() ? *b : ByteBuffer{};
}

TEST(IgzLayouts, RealFileFormsReadBack) {
  for (const Form& form : forms()) {
    SCOPED_TRACE(form.label);
    const Layout& l = form.layout;
    const ByteBuffer b = build(l);
    Diagnostics d;
    auto f = IgzFile::open(b, {}, d.sink());
    ASSERT_TRUE(f.ok()) << f.error().str();
    const unsigned ps = l.version >= 10 ? 8 : 4;
    EXPECT_EQ(f->header().pointer_size, ps);
    EXPECT_EQ(f->header().pointer_source, PointerSource::bytes);
    if (l.version >= 10) EXPECT_TRUE(platform_name(l.version, l.platform).empty());  // C3
    const Fixups fx = decode_fixups(*f, d.sink());
    EXPECT_EQ(fx.type_sizes[0], ps == 8 ? 0x28u : 0x18u);  // igObjectList (C3)
    const Graph g = build_graph(*f, fx, d.sink());
    EXPECT_FALSE(d.has_errors());
    EXPECT_EQ(d.count(Severity::warning), 0u);
    for (const auto& x : d.items()) EXPECT_EQ(x.severity, Severity::note) << x.where.str();
    EXPECT_EQ(g.list_layouts, std::vector<ListLayout>{form.lists});
    ASSERT_EQ(g.root_list.size(), 2u);
    ASSERT_EQ(g.names.size(), 2u);
    for (std::size_t k = 0; k < 2; ++k) {
      const std::string want = "Demo_Object_" + std::to_string(k);
      EXPECT_EQ(g.names[k].text.value_or(""), want);
      EXPECT_EQ(g.names[k].hash, fnv1a32("demo_object_" + std::to_string(k)));
      EXPECT_TRUE(g.names[k].hash_ok);
      EXPECT_EQ(g.names[k].tstr_index.has_value(), l.names_as_tstr);
      if (l.names_as_tstr) {
        EXPECT_EQ(fx.strings.at(*g.names[k].tstr_index), want);
      }
    }
    // the igName record itself: {index or pointer, hash}; 16 bytes with a u64 hash on v10 64-bit
    const std::uint64_t at = *resolve(*f, g.names[1].field, ps == 8 ? 16 : 8, "igName");
    if (l.names_as_tstr) {
      const std::uint64_t idx = ps == 8 ? load<std::uint64_t>(b.data() + at, l.endian)
                                        : load<std::uint32_t>(b.data() + at, l.endian);
      EXPECT_EQ(idx, *g.names[1].tstr_index);
    }
    const std::uint64_t h = ps == 8 ? load<std::uint64_t>(b.data() + at + 8, l.endian)
                                    : load<std::uint32_t>(b.data() + at + 4, l.endian);
    EXPECT_EQ(h, fnv1a32("demo_object_1"));
    if (!l.name_space.empty()) {
      ASSERT_NE(f->find(tag::NSPC), nullptr);
      ASSERT_EQ(g.namespace_names.size(), 1u);
      EXPECT_EQ(g.namespace_names[0].text.value_or(""), l.name_space);
      EXPECT_TRUE(g.namespace_names[0].hash_ok);
      Diagnostics dd;
      auto j = fixtures::dump_document(b, dd);
      ASSERT_TRUE(j.ok());
      EXPECT_EQ((*j)["namespace"]["name"], l.name_space);
    }
    if (ps == 8 && l.version >= 10) {
      // the root list's igMemory: {u32 size = 2 pointers, u32 flags 0x01100000} (C4)
      const std::uint64_t root = f->pool(0).offset + g.objects[*g.root].offset;
      const MemoryV10 m = split_memory_v10(load<std::uint64_t>(b.data() + root + 0x18, l.endian), l.endian);
      EXPECT_EQ(m.size, 16u);
      EXPECT_EQ(m.flags, 0x01100000u);
      EXPECT_EQ(load<std::uint32_t>(b.data() + root + (l.ctr ? 0x0C : 0x10), l.endian), 2u);
    }
  }
}

// A name whose hash does not match is a warning naming both hashes.
TEST(IgzLayouts, TstrNameHashIsChecked) {
  Layout l{7, Endian::big, 6};
  l.names_as_tstr = true;
  ByteBuffer b = build(l);
  auto f = IgzFile::open(b);
  ASSERT_TRUE(f.ok());
  const Fixups fx = decode_fixups(*f, nullptr);
  const Graph g = build_graph(*f, fx, nullptr);
  ASSERT_EQ(g.names.size(), 2u);
  const std::uint64_t at = *resolve(*f, g.names[0].field, 8, "igName");
  store<std::uint32_t>(b.data() + at + 4, 0x12345678u, Endian::big);
  Diagnostics d;
  verify(b, {}, d);
  EXPECT_EQ(d.count(Severity::warning), 1u);
  bool found = false;
  for (const auto& x : d.items()) found |= x.where.message.find("0x12345678") != std::string::npos;
  EXPECT_TRUE(found);
}

// The pointer size comes from MTSZ, not the platform, and a disagreement is reported (C3).
TEST(IgzLayouts, PointerSizeFromBytesAgainstPlatform) {
  Layout l{9, Endian::little, 8};  // win64 in the v9 table: 8-byte pointers
  l.pointer_size = 4;              // but the file is written 32-bit
  const ByteBuffer b = build(l);
  Diagnostics d;
  auto f = IgzFile::open(b, {}, d.sink());
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->header().pointer_size, 4u);
  EXPECT_EQ(f->header().platform_pointer_size, 8u);
  EXPECT_EQ(d.count(Severity::warning), 1u);
  // the caller's size still wins, with a warning when MTSZ disagrees
  Diagnostics d2;
  auto g = IgzFile::open(b, OpenOptions{8}, d2.sink());
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->header().pointer_size, 8u);
  EXPECT_EQ(g->header().pointer_source, PointerSource::caller);
  EXPECT_GE(d2.count(Severity::warning), 1u);
}

// Version 10 without MTSZ evidence: 8-byte pointers (every known v10 game is 64-bit), with a warning.
TEST(IgzLayouts, Version10WithoutMtszEvidenceIs64Bit) {
  Layout l{10, Endian::little, 6};
  ByteBuffer b = build(l);
  auto f = IgzFile::open(b);
  ASSERT_TRUE(f.ok());
  const FixupRecord* mtsz = f->find(tag::MTSZ);
  ASSERT_NE(mtsz, nullptr);
  for (std::uint64_t k = 0; k < 2; ++k)  // igObjectList, igNameList
    store<std::uint32_t>(b.data() + mtsz->offset + mtsz->data_offset + 4 * k, 0x30, Endian::little);
  Diagnostics d;
  auto g = IgzFile::open(b, {}, d.sink());
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->header().pointer_size, 8u);
  EXPECT_EQ(d.count(Severity::warning), 1u);
}

using fixtures::exercise;

TEST(IgzLayouts, TruncationAndMutationSweep) {
  for (const Form& form : forms()) {
    SCOPED_TRACE(form.label);
    const ByteBuffer good = build(form.layout);
    ASSERT_EQ(exercise(good), 0u);
    for (std::size_t n = 0; n < good.size(); n += n < 0x800 ? 61 : 7) {
      const ByteView cut(good.data(), n);
      EXPECT_GT(exercise(cut), 0u) << "prefix " << n;  // the last pool runs past the end
    }
    std::size_t flagged = 0, runs = 0;
    for (std::size_t i = 0x800; i < good.size(); i += 5)
      for (std::uint8_t x : {std::uint8_t{0xFF}, std::uint8_t{0x01}}) {
        ByteBuffer m = good;
        m[i] ^= x;
        flagged += exercise(m) != 0;
        ++runs;
      }
    EXPECT_GT(flagged, runs / 5);
  }
}

}  // namespace
}  // namespace assay::igz
