// Writer-built igz for versions 7-10 x both byte orders x 4- and 8-byte pointers: read back
// and checked against the on-disk rules of spec: alchemy.md#igz (bytes, not only our reader).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "assay/core/hash.h"
#include "assay/formats/igz/graph.h"
#include "assay/formats/igz/writer.h"

namespace assay::igz {
namespace {

struct Config {
  std::uint32_t version;
  Endian endian;
  unsigned ps;
};

std::vector<Config> all_configs() {
  std::vector<Config> v;
  for (std::uint32_t version : {7u, 8u, 9u, 10u})
    for (Endian e : {Endian::big, Endian::little})
      for (unsigned ps : {4u, 8u}) v.push_back({version, e, ps});
  return v;
}

std::string name(const Config& c) {
  return "v" + std::to_string(c.version) + (c.endian == Endian::big ? "_be_" : "_le_") + std::to_string(c.ps);
}

// win64 / cafe; the pointer size is explicit (version 10 has no platform table, spec C3)
Layout layout(const Config& c) { return {c.version, c.endian, c.ps == 8 ? 8u : 9u, c.ps}; }

bool contains(ByteView hay, std::string_view needle) {
  return std::search(hay.begin(), hay.end(), needle.begin(), needle.end()) != hay.end();
}

TEST(IgzWriter, EveryVersionByteOrderAndPointerSize) {
  for (const Config& c : all_configs()) {
    SCOPED_TRACE(name(c));
    auto b = build_sample(layout(c));
    ASSERT_TRUE(b.ok()) << b.error().str();
    const ByteView bytes = *b;
    // magic bytes: "IGZ\x01" means big-endian (spec: #overview-byteorder)
    const char* magic = c.endian == Endian::big ? "IGZ\x01" : "\x01ZGI";
    EXPECT_EQ(std::memcmp(bytes.data(), magic, 4), 0);
    EXPECT_EQ(load<std::uint32_t>(bytes.data() + 4, c.endian), c.version);
    // the first record is TDEP; its tag reads "PEDT" on disk in big-endian files
    EXPECT_EQ(std::memcmp(bytes.data() + 0x800, c.endian == Endian::big ? "PEDT" : "TDEP", 4), 0);
    // TMET strings padded to even length from version 8 (spec: #igz-strings)
    const std::string_view padded("igObjectList\0\0igNameList\0\0igDemoObject\0\0", 40);
    const std::string_view plain("igObjectList\0igNameList\0igDemoObject\0", 37);
    EXPECT_TRUE(contains(bytes, c.version >= 8 ? padded : plain));
    if (c.version < 8) {
      EXPECT_FALSE(contains(bytes, padded));
    }

    Diagnostics d;
    auto f = IgzFile::open(bytes, {}, d.sink());
    ASSERT_TRUE(f.ok()) << f.error().str();
    EXPECT_EQ(f->header().endian, c.endian);
    EXPECT_EQ(f->header().pointer_size, c.ps);
    ASSERT_EQ(f->pool_count(), 3u);
    EXPECT_EQ(f->pool(0).name, "Default");
    EXPECT_EQ(f->pool(1).name, "String");
    EXPECT_EQ(f->pool(2).name, "Image");
    std::vector<std::string> tags;
    for (const auto& r : f->records()) tags.push_back(tag_name(r.tag));
    EXPECT_EQ(tags, (std::vector<std::string>{"TDEP", "TSTR", "TMET", "MTSZ", "EXID", "EXNM", "TMHN",
                                               "RVTB", "RSTT", "RSTR", "ROFS", "RPID", "REXT", "RNEX",
                                               "RHND", "RMHN", "ROOT", "ONAM"}));
    // EXNM: one u64 in file order, namespace (bit 31 = handle) in the high half (spec Q9)
    const FixupRecord* exnm = f->find(tag::EXNM);
    ASSERT_NE(exnm, nullptr);
    const std::uint32_t first = load<std::uint32_t>(exnm->data.data() + 8, c.endian);
    EXPECT_EQ(first, c.endian == Endian::big ? 0x80000000u : 2u);  // entry 1: ns 0 (handle), name 2

    const Fixups fx = decode_fixups(*f, d.sink());
    EXPECT_EQ(fx.types[2], "igDemoObject");
    EXPECT_EQ(fx.type_sizes[2], (c.ps == 8 ? 0x10u : 0x08u) + 8 * c.ps);
    EXPECT_EQ(fx.type_sizes[0], c.ps == 8 ? 0x28u : 0x18u);
    EXPECT_EQ(fx.strings, (std::vector<std::string_view>{"demo_materials", "metal", "chrome"}));
    ASSERT_EQ(fx.dependencies.size(), 1u);
    EXPECT_EQ(fx.dependencies[0].path, "materials/demo_materials.igz");
    EXPECT_EQ(fx.external_ids[0].name_hash, fnv1a32("texture"));
    EXPECT_FALSE(fx.external_names[0].handle());
    EXPECT_TRUE(fx.external_names[1].handle());
    // for version < 9 every pool reserves its first 4 bytes, so no value is 0 (spec: #igz-packed)
    for (const auto& [t, values] : fx.lists)
      for (auto v : values)
        if (c.version < 9 && t != tag::ROOT) {
          EXPECT_NE(decode_pointer(c.version, v).offset, 0u);
        }

    const Graph g = build_graph(*f, fx, d.sink());
    ASSERT_EQ(g.objects.size(), 4u);
    EXPECT_EQ(g.objects[0].type_name, "igObjectList");
    EXPECT_EQ(g.objects[1].type_name, "igNameList");
    ASSERT_TRUE(g.root.has_value());
    EXPECT_EQ(*g.root, 0u);
    EXPECT_EQ(g.root_list, (std::vector<std::size_t>{2, 3}));
    ASSERT_EQ(g.names.size(), 2u);
    EXPECT_EQ(g.names[1].text.value(), "Demo_Object_1");
    EXPECT_EQ(g.names[1].hash, fnv1a32("demo_object_1"));
    // the demo objects point at each other
    std::size_t cross = 0;
    for (const auto& e : g.edges)
      if ((e.from == 2 && e.to == 3) || (e.from == 3 && e.to == 2)) ++cross;
    EXPECT_EQ(cross, 2u);
    std::vector<std::string> ext;
    for (const auto& x : g.externals) ext.push_back(tag_name(x.tag) + " " + x.name);
    const std::string exid = fmt::format("{:08x}::{:08x}", fnv1a32("textures"), fnv1a32("texture"));
    EXPECT_EQ(ext, (std::vector<std::string>{"REXT " + exid, "REXT " + exid,
                                              "RNEX demo_materials::metal", "RNEX demo_materials::metal",
                                              "RHND demo_materials::chrome", "RHND " + exid}));
    EXPECT_EQ(d.count(Severity::error), 0u);
    // nothing warns: the pointer size comes from MTSZ (spec C3) and agrees with the platform
    EXPECT_EQ(d.count(Severity::warning), 0u);
    for (const auto& x : d.items()) EXPECT_EQ(x.severity, Severity::note) << x.where.str();
    EXPECT_EQ(f->header().pointer_source, PointerSource::bytes);
    EXPECT_EQ(f->header().bytes_pointer_size, c.ps);
  }
}

TEST(IgzWriter, PoolsAlignedAndRecordsFillSection) {
  auto b = build_sample({9, Endian::big, 9});
  ASSERT_TRUE(b.ok());
  auto f = IgzFile::open(*b);
  ASSERT_TRUE(f.ok());
  for (std::size_t k = 0; k < f->pool_count(); ++k) EXPECT_EQ(f->pool(k).offset % f->pool(k).alignment, 0u);
  const auto& last = f->records().back();
  EXPECT_EQ(last.offset + last.length, f->header().sections[0].offset + f->header().sections[0].length);
  EXPECT_EQ(f->header().sections[0].offset, 0x800u);
}

TEST(IgzWriter, ManyObjectsAndBadWrites) {
  auto b = build_sample({8, Endian::little, 8}, 300);
  ASSERT_TRUE(b.ok());
  Diagnostics d;
  verify(*b, {}, d);
  EXPECT_EQ(d.count(Severity::error), 0u);
  EXPECT_EQ(d.count(Severity::warning), 0u);
  Writer w({9, Endian::big, 9});
  w.add_pool("Default", 4);
  w.put_u32(0x40, 1);  // outside the pool
  EXPECT_FALSE(w.finish().ok());
  EXPECT_FALSE(Writer({9, Endian::big, 99}).finish().ok());  // unknown platform, no pointer size
  EXPECT_FALSE(Writer({6, Endian::big, 9}).finish().ok());   // the writer covers 7 to 10
}

}  // namespace
}  // namespace assay::igz

namespace assay::igz {
namespace {

// spec Q8: version 7 strings are read unpadded; padded ones are detected, read and warned about.
TEST(IgzQuirks, Version7PaddedStrings) {
  auto b = build_sample({8, Endian::big, 9});
  ASSERT_TRUE(b.ok());
  ByteBuffer m = *b;
  store<std::uint32_t>(m.data() + 4, 7, Endian::big);  // v8 bytes (padded strings), read as v7
  Diagnostics d;
  auto f = IgzFile::open(m, {}, d.sink());
  ASSERT_TRUE(f.ok());
  const Fixups fx = decode_fixups(*f, d.sink());
  EXPECT_EQ(fx.types, (std::vector<std::string_view>{"igObjectList", "igNameList", "igDemoObject"}));
  std::size_t q8 = 0;
  for (const auto& x : d.items()) q8 += x.where.message.find("spec Q8") != std::string::npos;
  EXPECT_EQ(q8, 2u);  // TSTR and TMET
}

// spec Q9: EXNM words in the saver's order in a little-endian file (namespace word first on disk)
// put the handle bit in the name half; the swapped reading is valid, so it is used with a warning.
TEST(IgzQuirks, ExnmSwappedWordsLittleEndian) {
  auto b = build_sample({9, Endian::little, 1});
  ASSERT_TRUE(b.ok());
  ByteBuffer m = *b;
  auto f0 = IgzFile::open(m);
  ASSERT_TRUE(f0.ok());
  const std::uint64_t at = f0->find(tag::EXNM)->offset + 0x10;
  for (std::uint64_t e = at; e < at + 16; e += 8) {  // swap the two words of both entries
    const std::uint32_t lo = load<std::uint32_t>(m.data() + e, Endian::little);
    const std::uint32_t hi = load<std::uint32_t>(m.data() + e + 4, Endian::little);
    store<std::uint32_t>(m.data() + e, hi, Endian::little);
    store<std::uint32_t>(m.data() + e + 4, lo, Endian::little);
  }
  Diagnostics d;
  auto f = IgzFile::open(m, {}, d.sink());
  ASSERT_TRUE(f.ok());
  const Fixups fx = decode_fixups(*f, d.sink());
  ASSERT_EQ(fx.external_names.size(), 2u);
  EXPECT_TRUE(fx.external_names[1].handle());
  EXPECT_EQ(external_name_name(fx, 1), "demo_materials::chrome");
  std::size_t q9 = 0;
  for (const auto& x : d.items()) q9 += x.where.message.find("spec Q9") != std::string::npos;
  EXPECT_EQ(q9, 1u);  // entry 0 (no handle bit, indices 0/1) reads validly both ways: kept
  Diagnostics v;
  verify(m, {}, v);
  EXPECT_FALSE(v.has_errors());
}

}  // namespace
}  // namespace assay::igz
