// The two real samples (../shared/samples/alchemy, read in place): every fact their README and
// spec: alchemy.md#samples-test-img / #samples-model state.
#include <gtest/gtest.h>

#include "assay/core/hash.h"
#include "assay/formats/igz/graph.h"
#include "testing/testing.h"

namespace assay::igz {
namespace {

ByteBuffer load_sample(const std::filesystem::path& p) { return testing::read_file(p); }

std::vector<std::string> tags_of(const IgzFile& f) {
  std::vector<std::string> out;
  for (const auto& r : f.records()) out.push_back(tag_name(r.tag));
  return out;
}

std::vector<std::string_view> type_names(const Graph& g, const std::vector<std::size_t>& idx) {
  std::vector<std::string_view> out;
  for (auto i : idx) out.push_back(i == kNoObject ? "<none>" : g.objects[i].type_name);
  return out;
}

TEST(IgzSample, TestImgHeaderAndPools) {
  ASSAY_REQUIRE_SAMPLE(path, "alchemy/igModelTool_test_img.igz");
  const ByteBuffer b = load_sample(path);
  ASSERT_EQ(b.size(), 2638u);
  auto f = IgzFile::open(b);
  ASSERT_TRUE(f.ok()) << f.error().str();
  const Header& h = f->header();
  EXPECT_EQ(h.endian, Endian::big);
  EXPECT_EQ(h.version, 9u);
  EXPECT_EQ(h.fields_hash, 0u);
  EXPECT_EQ(h.platform, 9u);
  EXPECT_EQ(platform_name(9, h.platform), "cafe");
  EXPECT_EQ(h.pointer_size, 4u);
  EXPECT_EQ(h.num_fixups, 11u);
  EXPECT_EQ(h.sections[0].offset, 0x800u);
  EXPECT_EQ(h.sections[0].length, 0x11Cu);
  EXPECT_EQ(h.sections[0].alignment, 0x800u);
  ASSERT_EQ(f->pool_count(), 4u);
  const struct {
    const char* name;
    std::uint32_t name_offset, offset, length, alignment;
  } pools[] = {{"Default", 0x00, 0x91C, 0x3C, 4},
               {"ImageObject", 0x08, 0x958, 0x60, 0x10},
               {"String", 0x14, 0x9B8, 0x1A, 2},
               {"Image", 0x1B, 0x9D2, 0x7C, 4}};
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(f->pool(k).name, pools[k].name);
    EXPECT_EQ(f->pool(k).name_offset, pools[k].name_offset);
    EXPECT_EQ(f->pool(k).offset, pools[k].offset);
    EXPECT_EQ(f->pool(k).length, pools[k].length);
    EXPECT_EQ(f->pool(k).alignment, pools[k].alignment);
  }
  EXPECT_EQ(f->pool(3).offset + f->pool(3).length, b.size());
  EXPECT_EQ(tags_of(*f), (std::vector<std::string>{"TMET", "MTSZ", "EXID", "TMHN", "RVTB", "RSTR",
                                                    "ROFS", "REXT", "RMHN", "ROOT", "ONAM"}));
  const std::uint32_t counts[] = {3, 3, 1, 1, 3, 2, 3, 1, 1, 1, 1};
  for (std::size_t i = 0; i < 11; ++i) EXPECT_EQ(f->records()[i].count, counts[i]) << i;
  // the records fill section 0 exactly (spec: #samples-model)
  const auto& last = f->records().back();
  EXPECT_EQ(last.offset + last.length, f->pool(0).offset);
  // the tag bytes on disk read reversed in this big-endian file
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(b.data() + 0x800), 4), "TEMT");
}

TEST(IgzSample, TestImgFixupValues) {
  ASSAY_REQUIRE_SAMPLE(path, "alchemy/igModelTool_test_img.igz");
  const ByteBuffer b = load_sample(path);
  auto f = IgzFile::open(b);
  ASSERT_TRUE(f.ok());
  auto fx = decode_fixups(*f);
  ASSERT_TRUE(fx.ok()) << fx.error().str();
  EXPECT_EQ(fx->types, (std::vector<std::string_view>{"igObjectList", "igImage2", "igNameList"}));
  EXPECT_EQ(f->find(tag::TMET)->length, 0x34u);
  EXPECT_EQ(fx->type_sizes, (std::vector<std::uint32_t>{0x18, 0x60, 0x18}));
  ASSERT_EQ(fx->external_ids.size(), 1u);
  EXPECT_EQ(fx->external_ids[0].name_hash, 0x61455AC9u);
  EXPECT_EQ(fx->external_ids[0].namespace_hash, 0x843CD0C2u);
  ASSERT_EQ(fx->memory_handles.size(), 1u);
  EXPECT_EQ(fx->memory_handles[0].size_word, 0x7Cu);
  EXPECT_EQ(fx->memory_handles[0].data, 0x18000000u);
  using V = std::vector<std::uint32_t>;
  EXPECT_EQ(fx->list(tag::RVTB), (V{0x0, 0x1C, 0x08000000}));
  EXPECT_EQ(fx->list(tag::RSTR), (V{0x34, 0x08000008}));
  EXPECT_EQ(fx->list(tag::ROFS), (V{0x14, 0x18, 0x30}));
  EXPECT_EQ(fx->list(tag::REXT), (V{0x08000040}));
  EXPECT_EQ(fx->list(tag::RMHN), (V{0x0800004C}));
  ASSERT_TRUE(fx->root_raw.has_value());
  EXPECT_EQ(*fx->root_raw, 0u);
  EXPECT_EQ(fx->list(tag::ROOT), (V{0x0}));
  ASSERT_TRUE(fx->name_list.has_value());
  EXPECT_EQ(*fx->name_list, 0x1Cu);
  // re-encoding the decoded lists reproduces the bytes on disk
  for (std::uint32_t t : {tag::RVTB, tag::RSTR, tag::ROFS, tag::REXT, tag::RMHN}) {
    const FixupRecord* r = f->find(t);
    auto packed = pack_list(fx->list(t), 9);
    ASSERT_TRUE(packed.ok());
    EXPECT_TRUE(std::equal(packed->begin(), packed->end(), r->data.begin())) << tag_name(t);
  }
  EXPECT_EQ(resolve(*f, 0x10000014, 1, "x").value(), 0x9B8u + 0x14);
}

TEST(IgzSample, TestImgGraph) {
  ASSAY_REQUIRE_SAMPLE(path, "alchemy/igModelTool_test_img.igz");
  const ByteBuffer b = load_sample(path);
  auto f = IgzFile::open(b);
  ASSERT_TRUE(f.ok());
  auto fx = decode_fixups(*f);
  ASSERT_TRUE(fx.ok());
  Diagnostics d;
  const Graph g = build_graph(*f, *fx, d.sink());
  EXPECT_FALSE(d.has_errors());
  ASSERT_EQ(g.objects.size(), 3u);
  EXPECT_EQ(g.objects[2].type_name, "igImage2");
  EXPECT_EQ(g.objects[2].pool, 1u);
  EXPECT_EQ(g.objects[2].size, 0x60u);
  ASSERT_TRUE(g.root.has_value());
  EXPECT_EQ(*g.root, 0u);
  EXPECT_EQ(type_names(g, g.root_list), (std::vector<std::string_view>{"igImage2"}));
  ASSERT_TRUE(g.name_list_object.has_value());
  EXPECT_EQ(g.objects[*g.name_list_object].type_name, "igNameList");
  ASSERT_EQ(g.names.size(), 1u);
  EXPECT_EQ(g.names[0].text.value(), "image");
  EXPECT_EQ(g.names[0].hash, 0xB35135FAu);
  EXPECT_EQ(fnv1a32("image"), 0xB35135FAu);
  // strings: "_magsstaff_diffuse" at String+0 (from the igImage2), "image" at String+0x14
  std::vector<std::string_view> texts;
  for (const auto& s : g.strings) texts.push_back(s.text.value());
  EXPECT_EQ(texts, (std::vector<std::string_view>{"image", "_magsstaff_diffuse"}));
  ASSERT_EQ(g.externals.size(), 1u);
  EXPECT_EQ(g.externals[0].value, 0x80000000u);  // EXID 0
  EXPECT_EQ(g.externals[0].index, 0u);
  EXPECT_EQ(g.externals[0].name, "843cd0c2::61455ac9");
  // ROFS 0x18 holds 0x08000000 (the igImage2): an edge to object 2
  ASSERT_EQ(g.edges.size(), 3u);
  EXPECT_EQ(g.edges[1].target, 0x08000000u);
  EXPECT_EQ(g.edges[1].to, 2u);
  EXPECT_EQ(g.edges[0].from, 0u);  // the igObjectList's memory pointer at +0x14
  EXPECT_EQ(g.edges[0].target, 0x18u);
}

TEST(IgzSample, ModelFacts) {
  ASSAY_REQUIRE_SAMPLE(path, "alchemy/igModelTool_model.igz");
  const ByteBuffer b = load_sample(path);
  ASSERT_EQ(b.size(), 253469u);
  auto f = IgzFile::open(b);
  ASSERT_TRUE(f.ok()) << f.error().str();
  EXPECT_EQ(f->header().version, 9u);
  EXPECT_EQ(f->header().num_fixups, 16u);
  EXPECT_EQ(f->header().sections[0].length, 0x328u);
  ASSERT_EQ(f->pool_count(), 3u);
  EXPECT_EQ(f->pool(0).name, "Default");
  EXPECT_EQ(f->pool(0).offset, 0xB28u);
  EXPECT_EQ(f->pool(0).length, 0x578u);
  EXPECT_EQ(f->pool(1).name, "String");
  EXPECT_EQ(f->pool(1).offset, 0x10A0u);
  EXPECT_EQ(f->pool(1).length, 0x6Du);
  EXPECT_EQ(f->pool(2).name, "Vertex");
  EXPECT_EQ(f->pool(2).offset, 0x110Du);
  EXPECT_EQ(f->pool(2).length, 0x3CD10u);
  EXPECT_EQ(f->pool(2).alignment, 1u);
  EXPECT_EQ(tags_of(*f), (std::vector<std::string>{"TDEP", "TSTR", "TMET", "MTSZ", "EXID", "EXNM",
                                                    "TMHN", "RVTB", "RSTR", "ROFS", "RPID", "REXT",
                                                    "RHND", "RMHN", "ROOT", "ONAM"}));
  const std::uint32_t counts[] = {1, 2, 12, 12, 2, 1, 4, 18, 5, 32, 8, 4, 2, 4, 1, 1};
  for (std::size_t i = 0; i < 16; ++i) EXPECT_EQ(f->records()[i].count, counts[i]) << i;

  auto fx = decode_fixups(*f);
  ASSERT_TRUE(fx.ok()) << fx.error().str();
  ASSERT_EQ(fx->dependencies.size(), 1u);
  EXPECT_EQ(fx->dependencies[0].name_space, "Maggs_Staff_materials,Maggs_Staff,1");
  EXPECT_EQ(fx->dependencies[0].path, "materialInstances/Maggs_Staff_materials,Maggs_Staff,1.igz");
  EXPECT_EQ(fx->strings, (std::vector<std::string_view>{"Maggs_Staff_materials,Maggs_Staff,1", "metal"}));
  EXPECT_EQ(fx->types,
            (std::vector<std::string_view>{"igObjectList", "igModelInfo", "igModelData", "igModelDrawCallData",
                                           "igGraphicsVertexBuffer", "igVertexBuffer", "igVertexFormat",
                                           "igGraphicsIndexBuffer", "igIndexBuffer", "CMaterialHandleTableInfo",
                                           "igStringInsensitiveStringHashTable", "igNameList"}));
  EXPECT_EQ(fx->type_sizes, (std::vector<std::uint32_t>{0x18, 0x18, 0x80, 0x70, 0x18, 0x30, 0x48, 0x14,
                                                        0x2C, 0x18, 0x24, 0x18}));
  ASSERT_EQ(fx->external_names.size(), 1u);
  EXPECT_EQ(fx->external_names[0].namespace_word, 0x80000000u);
  EXPECT_EQ(fx->external_names[0].name_word, 0x00000001u);
  EXPECT_TRUE(fx->external_names[0].handle());
  EXPECT_EQ(external_name_name(*fx, 0), "Maggs_Staff_materials,Maggs_Staff,1::metal");
  ASSERT_EQ(fx->external_ids.size(), 2u);
  EXPECT_EQ(fx->external_ids[0].name_hash, 0x956D0371u);
  EXPECT_EQ(fx->external_ids[0].namespace_hash, 0x02278D90u);
  EXPECT_EQ(fx->external_ids[1].name_hash, 0x76F482E9u);
  EXPECT_EQ(fx->external_ids[1].namespace_hash, 0xC3927E65u);
  const std::uint64_t sizes[] = {0x800333E0, 0x80005200, 0x800040B0, 0x80000680};
  const std::uint64_t data[] = {0x10000000, 0x100333E0, 0x100385E0, 0x1003C690};
  ASSERT_EQ(fx->memory_handles.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(fx->memory_handles[i].size_word, sizes[i]);
    EXPECT_EQ(fx->memory_handles[i].data, data[i]);
    EXPECT_EQ(decode_pointer(9, static_cast<std::uint32_t>(data[i])).pool, 2u);  // Vertex
  }
  using V = std::vector<std::uint32_t>;
  EXPECT_EQ(fx->list(tag::RHND), (V{0x100, 0x310}));
  EXPECT_EQ(fx->list(tag::REXT), (V{0x1B8, 0x2BC, 0x3C8, 0x4CC}));
  EXPECT_EQ(fx->list(tag::ROOT), (V{0x0}));
  EXPECT_EQ(*fx->name_list, 0x550u);

  Diagnostics d;
  const Graph g = build_graph(*f, *fx, d.sink());
  EXPECT_FALSE(d.has_errors());
  ASSERT_EQ(g.objects.size(), 18u);
  EXPECT_EQ(g.objects.front().type_name, "igObjectList");
  EXPECT_EQ(g.objects.front().serialized, 0x0u);
  EXPECT_EQ(g.objects.back().type_name, "igNameList");
  EXPECT_EQ(g.objects.back().serialized, 0x550u);
  ASSERT_EQ(g.root_list.size(), 2u);
  EXPECT_EQ(g.objects[g.root_list[0]].type_name, "igModelInfo");
  EXPECT_EQ(g.objects[g.root_list[0]].serialized, 0x20u);
  EXPECT_EQ(g.objects[g.root_list[1]].type_name, "CMaterialHandleTableInfo");
  EXPECT_EQ(g.objects[g.root_list[1]].serialized, 0x4ECu);
  ASSERT_EQ(g.names.size(), 2u);
  EXPECT_EQ(g.names[0].text.value(), "igSceneInfo0");
  EXPECT_EQ(g.names[0].hash, 0xCF3B3889u);
  EXPECT_EQ(g.names[1].text.value(), "CMaterialHandleTableInfo");
  EXPECT_EQ(g.names[1].hash, 0x35EDF337u);
  // RHND fields hold 0x80000000: named handle 0 = EXNM 0; REXT fields hold EXID 0 or 1
  std::size_t handles = 0, exts = 0;
  for (const auto& x : g.externals) {
    ASSERT_TRUE(x.valid);
    if (x.tag == tag::RHND) {
      ++handles;
      EXPECT_EQ(x.value, 0x80000000u);
      EXPECT_EQ(x.kind, "exnm");
      EXPECT_EQ(x.name, "Maggs_Staff_materials,Maggs_Staff,1::metal");
    } else {
      ++exts;
      EXPECT_TRUE(x.value == 0x80000000u || x.value == 0x80000001u);
    }
  }
  EXPECT_EQ(handles, 2u);
  EXPECT_EQ(exts, 4u);
  EXPECT_EQ(g.edges.size(), 32u);
}

TEST(IgzSample, BothVerifyWithoutErrors) {
  for (const char* rel : {"alchemy/igModelTool_test_img.igz", "alchemy/igModelTool_model.igz"}) {
    ASSAY_REQUIRE_SAMPLE(path, rel);
    const ByteBuffer b = load_sample(path);
    Diagnostics d;
    verify(b, {}, d);
    EXPECT_EQ(d.count(Severity::error), 0u) << rel;
    // the only warnings: pools not at a multiple of their alignment (README, "both samples")
    for (const auto& x : d.items())
      if (x.severity == Severity::warning) {
        EXPECT_NE(x.where.message.find("multiple of its alignment"), std::string::npos) << x.where.str();
      }
    bool hash_note = false, exid_note = false;
    for (const auto& x : d.items()) {
      hash_note = hash_note || x.where.message.find("serializableFieldsHash is 0") != std::string::npos;
      exid_note = exid_note || x.where.message.find("external exid 0:") != std::string::npos;
    }
    EXPECT_TRUE(hash_note);
    EXPECT_TRUE(exid_note);
  }
}

}  // namespace
}  // namespace assay::igz
