// The igz files inside the two game-made archives of ../shared/samples/alchemy, read in place:
// the 59 version 7 files of skylanders_zap.pak (spec: alchemy.md#corrections C2) and the version
// 10 file of crash_nst_L332_CollisionTemplate.pak (C3, C4, C5). Facts from the README, the spec
// and the issue; none is taken from our own output.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "assay/core/hash.h"
#include "assay/formats/igarchive/archive.h"
#include "assay/formats/igz/graph.h"
#include "../../../src/formats/igz/json.h"
#include "testing/testing.h"

namespace assay::igz {
namespace {

namespace iga = igarchive;
using testing::run_cli;
using testing::shell_quote;

constexpr std::string_view kNstIgz = "maps/Crash1/Custom_Level/StaticCollision_Custom_Level.igz";

ByteBuffer member(const iga::ArchiveFile& af, std::string_view name) {
  const iga::FileEntry* f = af.archive.find(name);
  EXPECT_NE(f, nullptr) << name;
  ByteBuffer out;
  if (f) EXPECT_TRUE(af.archive.read(*f, out).ok()) << name;
  return out;
}

struct Parsed {
  Diagnostics diags;
  std::optional<IgzFile> file;
  Fixups fx;
  Graph graph;
};

std::unique_ptr<Parsed> parse(ByteView b) {
  auto p = std::make_unique<Parsed>();
  auto f = IgzFile::open(b, {}, p->diags.sink());
  EXPECT_TRUE(f.ok()) << (f.ok() ? "" : f.error().str());
  if (!f.ok()) return p;
  p->file = *f;
  p->fx = decode_fixups(*p->file, p->diags.sink());
  p->graph = build_graph(*p->file, p->fx, p->diags.sink());
  return p;
}

std::string problems(const Diagnostics& d) {
  std::string s;
  for (const auto& x : d.items())
    if (x.severity != Severity::note) s += x.where.str() + "\n";
  return s;
}

// README / C2: in the v7 files igName is {u32 TSTR index, u32 hash}; "0000000f b7964f9f" is
// TSTR[0x0f] = "BigWaveIn" and the FNV-1a of its lower-cased form.
TEST(IgzRealFiles, SkylandersV7NamesAreTstrIndexAndHash) {
  ASSAY_REQUIRE_SAMPLE(path, "alchemy/skylanders_zap.pak");
  auto af = iga::open_file(path.string());
  ASSERT_TRUE(af.ok());
  EXPECT_EQ(fnv1a32("bigwavein"), 0xb7964f9fu);
  std::size_t files = 0, names = 0, big_wave = 0;
  for (const iga::FileEntry& e : af->archive.files()) {
    if (!e.name.ends_with(".igz")) continue;
    ++files;
    SCOPED_TRACE(std::string(e.name));
    const ByteBuffer b = member(*af, e.name);
    auto p = parse(b);
    ASSERT_TRUE(p->file.has_value());
    const Header& h = p->file->header();
    EXPECT_EQ(h.version, 7u);
    EXPECT_EQ(h.endian, Endian::big);
    EXPECT_EQ(h.platform, 6u);                // ps3 in the v7 table (spec #igz-platform)
    EXPECT_EQ(h.pointer_size, 4u);            // igObjectList / igNameList 0x18 (C3), agreeing
    EXPECT_EQ(h.bytes_pointer_size, 4u);
    EXPECT_EQ(h.platform_pointer_size, 4u);
    EXPECT_FALSE(p->diags.has_errors()) << problems(p->diags);
    EXPECT_EQ(p->diags.count(Severity::warning), 0u) << problems(p->diags);
    for (const NameEntry& n : p->graph.names) {
      ++names;
      ASSERT_TRUE(n.tstr_index.has_value());  // the string field is an RSTT field
      ASSERT_LT(*n.tstr_index, p->fx.strings.size());
      ASSERT_TRUE(n.text.has_value());
      EXPECT_EQ(*n.text, p->fx.strings[*n.tstr_index]);
      EXPECT_EQ(n.hash, fnv1a32(*n.text, true)) << *n.text;
      EXPECT_TRUE(n.hash_ok);
      if (*n.text == "BigWaveIn" && e.name.ends_with("\\zap_wavefx.igz")) {  // the README's example
        ++big_wave;
        EXPECT_EQ(*n.tstr_index, 0x0fu);
        EXPECT_EQ(n.hash, 0xb7964f9fu);
        // the record itself: u32 0x0000000f, u32 0xb7964f9f
        const std::uint64_t at = *resolve(*p->file, n.field, 8, "igName");
        EXPECT_EQ(load<std::uint32_t>(b.data() + at, Endian::big), 0x0fu);
        EXPECT_EQ(load<std::uint32_t>(b.data() + at + 4, Endian::big), 0xb7964f9fu);
      }
    }
  }
  EXPECT_EQ(files, 59u);
  EXPECT_GT(names, 59u);
  EXPECT_EQ(big_wave, 1u);
}

// Issue 9: `dump` of the zap igz shows "BigWaveIn"; no dump may abort (exit 134) on these files.
TEST(IgzRealFiles, SkylandersDumpShowsNames) {
  ASSAY_REQUIRE_SAMPLE(path, "alchemy/skylanders_zap.pak");
  const std::string inner = path.string() + "::vfx\\characters\\skylanders\\zap\\zap_wavefx.igz";
  auto r = run_cli("dump --json " + shell_quote(inner));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_FALSE(j["names"].empty());
  EXPECT_EQ(j["names"][0]["name"], "BigWaveIn");
  EXPECT_EQ(j["names"][0]["hash"], 0xb7964f9fu);
  EXPECT_EQ(j["names"][0]["tstr_index"], 0x0f);
  EXPECT_EQ(j["root"]["entries"][0]["name"], "BigWaveIn");
  auto text = run_cli("dump " + shell_quote(inner));
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("BigWaveIn"), std::string::npos);
}

// `info` says where an external points when the file itself tells: zap.igz's three EXIDs have
// namespace hash 0xe696c190 = FNV-1a("zap_igb_materials") (worked out with Python's own FNV-1a),
// the namespace of its one TDEP entry, materials:/Zap_igb_materials.igz; a texture igz's EXID in the
// metaimages namespace (0x843cd0c2) names its format, 0x4a1906bb = "dxt1_tile_big_ps3".
TEST(IgzRealFiles, InfoSaysWhereExternalsPoint) {
  ASSAY_REQUIRE_SAMPLE(path, "alchemy/skylanders_zap.pak");
  auto r = run_cli("info --json " + shell_quote(path.string() + "::actors\\zap.igz"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["externals"].size(), 3u);
  EXPECT_EQ(j["externals"][0],
            "external exid 0: e696c190::9b95e23c unresolved (namespace Zap_igb_materials, TDEP materials:/Zap_igb_materials.igz)");
  r = run_cli("info --json " + shell_quote(path.string() + "::textures\\colormap_zap_c_11.igz"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["externals"].size(), 1u);
  EXPECT_EQ(j["externals"][0], "external exid 0: 843cd0c2::4a1906bb unresolved (metaimages::dxt1_tile_big_ps3)");
  auto v = run_cli("verify --notes " + shell_quote(path.string() + "::actors\\zap.igz"));
  EXPECT_NE(v.out.find("TDEP materials:/Zap_igb_materials.igz"), std::string::npos) << v.out;
}

// external_lines on fixups made by hand: an EXID whose namespace hash is FNV-1a("zap_igb_materials")
// = 0xe696c190 (worked out with Python) names the TDEP; an EXNM whose namespace text is the TDEP's in
// another case names it too; an EXID of an unknown namespace and an EXNM of another name get no hint.
TEST(IgzExternals, LinesNameTheTdepOfTheirNamespace) {
  Fixups fx;
  fx.dependencies.push_back({"Zap_igb_materials", "materials:/Zap_igb_materials.igz"});
  fx.strings = {"zap_IGB_materials", "Zap", "other"};
  fx.external_ids = {{0x9b95e23c, 0xe696c190}, {0x9b95e23c, 0x12345678}};
  fx.external_names = {{0x80000000u, 1}, {0x80000002u, 1}};
  const std::vector<std::string> lines = external_lines(fx);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0], "external exid 0: e696c190::9b95e23c unresolved (namespace Zap_igb_materials, TDEP materials:/Zap_igb_materials.igz)");
  EXPECT_EQ(lines[1], "external exid 1: 12345678::9b95e23c unresolved");
  EXPECT_EQ(lines[2], "external exnm 0: zap_IGB_materials::Zap unresolved (namespace Zap_igb_materials, TDEP materials:/Zap_igb_materials.igz)");
  EXPECT_EQ(lines[3], "external exnm 1: other::Zap unresolved");
}

// C3-C5 and the issue: the NST igz says platform 6 but is 64-bit; its root object is a
// CStaticCollisionHashInstanceIdHashTable at Default+0x30 named "StaticCollisionInstanceIdLookup";
// NSPC names the namespace "StaticCollision_Custom_Level", hash 0x080AC7F4; igMemory flags 0x01100000.
TEST(IgzRealFiles, CrashNstVersion10) {
  ASSAY_REQUIRE_SAMPLE(path, "alchemy/crash_nst_L332_CollisionTemplate.pak");
  auto af = iga::open_file(path.string());
  ASSERT_TRUE(af.ok());
  const ByteBuffer b = member(*af, kNstIgz);
  auto p = parse(b);
  ASSERT_TRUE(p->file.has_value());
  const Header& h = p->file->header();
  EXPECT_EQ(h.version, 10u);
  EXPECT_EQ(h.endian, Endian::little);
  EXPECT_EQ(h.platform, 6u);
  EXPECT_TRUE(platform_name(10, 6).empty());  // not the v9 table's "ps3" (C3)
  EXPECT_EQ(h.pointer_size, 8u);
  EXPECT_EQ(h.pointer_source, PointerSource::bytes);
  EXPECT_EQ(h.fields_hash, load<std::uint32_t>(reinterpret_cast<const std::uint8_t*>("PWND"), Endian::little));
  ASSERT_NE(p->file->find(tag::NSPC), nullptr);
  EXPECT_FALSE(p->diags.has_errors()) << problems(p->diags);
  // MTSZ: igObjectList and igNameList are 0x28 bytes (C3, C4)
  for (std::size_t i = 0; i < p->fx.types.size(); ++i)
    if (p->fx.types[i] == "igObjectList" || p->fx.types[i] == "igNameList") EXPECT_EQ(p->fx.type_sizes[i], 0x28u);
  const Graph& g = p->graph;
  ASSERT_TRUE(g.root.has_value());
  EXPECT_EQ(g.objects[*g.root].type_name, "igObjectList");
  ASSERT_EQ(g.root_list.size(), 1u);
  ASSERT_NE(g.root_list[0], kNoObject);
  const Object& root = g.objects[g.root_list[0]];
  EXPECT_EQ(root.type_name, "CStaticCollisionHashInstanceIdHashTable");
  EXPECT_EQ(p->file->pool(root.pool).name, "Default");
  EXPECT_EQ(root.offset, 0x30u);
  ASSERT_EQ(g.names.size(), 1u);
  EXPECT_EQ(g.names[0].text.value_or(""), "StaticCollisionInstanceIdLookup");
  EXPECT_EQ(g.names[0].hash, fnv1a32("staticcollisioninstanceidlookup"));
  EXPECT_TRUE(g.names[0].tstr_index.has_value());  // RSTT, as C2 says of NST
  ASSERT_TRUE(p->fx.namespace_list.has_value());
  EXPECT_EQ(*p->fx.namespace_list, 0xC0u);
  ASSERT_EQ(g.namespace_names.size(), 1u);
  EXPECT_EQ(g.namespace_names[0].text.value_or(""), "StaticCollision_Custom_Level");
  EXPECT_EQ(g.namespace_names[0].hash, 0x080AC7F4u);
  EXPECT_EQ(fnv1a32("staticcollision_custom_level"), 0x080AC7F4u);
  EXPECT_EQ(g.list_layouts, std::vector<ListLayout>{ListLayout::nst64});
  // the root list's igMemory at Default + 0x18: {u32 size 8, u32 flags 0x01100000, u64 pointer}
  const std::uint64_t mem = p->file->pool(0).offset + 0x18;
  EXPECT_EQ(load<std::uint32_t>(b.data() + mem, Endian::little), 8u);
  const MemoryV10 m = split_memory_v10(load<std::uint64_t>(b.data() + mem, Endian::little), Endian::little);
  EXPECT_EQ(m.flags, 0x01100000u);
  EXPECT_TRUE(m.active());
  EXPECT_EQ(m.alignment(), 8u);
}

TEST(IgzRealFiles, CrashNstDumpCli) {
  ASSAY_REQUIRE_SAMPLE(path, "alchemy/crash_nst_L332_CollisionTemplate.pak");
  auto r = run_cli("dump --json " + shell_quote(path.string() + "::" + std::string(kNstIgz)));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["pointer_size"], 8);
  EXPECT_EQ(j["pointer_size_source"], "mtsz");
  ASSERT_EQ(j["root"]["entries"].size(), 1u);
  const auto& e = j["root"]["entries"][0];
  EXPECT_EQ(e["type"], "CStaticCollisionHashInstanceIdHashTable");
  EXPECT_EQ(e["pool"], "Default");
  EXPECT_EQ(e["pool_offset"], 0x30);
  EXPECT_EQ(e["name"], "StaticCollisionInstanceIdLookup");
  EXPECT_EQ(j["namespace"]["name"], "StaticCollision_Custom_Level");
  EXPECT_EQ(j["namespace"]["hash"], 0x080AC7F4u);
  auto text = run_cli("dump " + shell_quote(path.string() + "::" + std::string(kNstIgz)));
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("StaticCollision_Custom_Level"), std::string::npos);
  EXPECT_NE(text.out.find("CStaticCollisionHashInstanceIdHashTable"), std::string::npos);
}

}  // namespace
}  // namespace assay::igz
