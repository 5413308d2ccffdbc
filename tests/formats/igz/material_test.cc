// igz materials' textures (assay/formats/igz/material.h): the writer fixture in three layouts,
// its mutations, and zap.pak's six material files, whose unit-0 texture is checked against the
// material's own _textureName_diffuse string (an independent fact: the build names the colour map
// "ColorMap_<stem of the diffuse source>_11"); the zapwave bindings are also checked against the
// bytes by hand.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>

#include "assay/container.h"
#include "assay/core/hash.h"
#include "assay/formats/igz/material.h"
#include "material_fixture.h"
#include "testing/testing.h"

namespace assay::igz {
namespace {

struct Opened {
  std::shared_ptr<const ByteBuffer> bytes;
  IgzFile file;
  Fixups fixups;
  Graph graph;
};

// The file, its fixups and graph over bytes the result keeps.
std::unique_ptr<Opened> open_bytes(ByteBuffer bytes) {
  auto held = std::make_shared<const ByteBuffer>(std::move(bytes));
  auto f = IgzFile::open(ByteView(*held));
  if (!f) return nullptr;
  auto fx = decode_fixups(*f);
  if (!fx) return nullptr;
  Graph g = build_graph(*f, *fx, nullptr);
  return std::make_unique<Opened>(Opened{held, std::move(*f), std::move(*fx), std::move(g)});
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

void expect_fixture_bindings(const Layout& layout) {
  auto b = fixtures::material_igz(layout);
  ASSERT_TRUE(b.ok()) << b.error().str();
  auto o = open_bytes(std::move(*b));
  ASSERT_TRUE(o);
  const auto mat = named_object(o->graph, fnv1a32("mat", true));
  ASSERT_TRUE(mat.has_value());
  const MaterialTextures m = material_textures(o->file, o->fixups, o->graph, *mat);
  EXPECT_EQ(m.type, "CCharacterMaterial");
  ASSERT_EQ(m.bindings.size(), 2u);  // not "Other"'s ColorMap_C_11
  EXPECT_EQ(m.bindings[0].unit, 0);
  EXPECT_EQ(m.bindings[0].file, "ColorMap_A_11.igz");
  EXPECT_EQ(m.bindings[0].name_hash, fnv1a32("image", true));
  EXPECT_EQ(m.bindings[0].image, fmt::format("ColorMap_A_11::{:08x}", fnv1a32("image", true)));
  EXPECT_EQ(m.bindings[0].mag_filter, 0u);
  EXPECT_EQ(m.bindings[0].min_filter, 3u);
  EXPECT_EQ(m.bindings[0].wrap_s, 0u);
  EXPECT_EQ(m.bindings[0].wrap_t, 1u);
  EXPECT_EQ(m.bindings[1].unit, 1);
  EXPECT_EQ(m.bindings[1].file, "NormalMap_B_11.igz");
  EXPECT_EQ(m.bindings[1].min_filter, 5u);
  const auto other = named_object(o->graph, fnv1a32("other", true));
  ASSERT_TRUE(other.has_value());
  const MaterialTextures m2 = material_textures(o->file, o->fixups, o->graph, *other);
  ASSERT_EQ(m2.bindings.size(), 1u);
  EXPECT_EQ(m2.bindings[0].file, "ColorMap_C_11.igz");
}

TEST(IgzMaterial, FixtureBindingsOnPs3Layout) {
  expect_fixture_bindings({.version = 7, .endian = Endian::big, .platform = 6, .names_as_tstr = true});
}

TEST(IgzMaterial, FixtureBindingsOnLittleEndian32) {
  expect_fixture_bindings({.version = 9, .endian = Endian::little, .platform = 1});
}

TEST(IgzMaterial, FixtureBindingsOn64BitLayout) {
  expect_fixture_bindings({.version = 9, .endian = Endian::little, .platform = 1, .pointer_size = 8});
}

TEST(IgzMaterial, HandleHashesFromNamesOrHexDigits) {
  const auto h = handle_hashes("Zap_igb_materials::cc84e7aa");
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->name_space, fnv1a32("zap_igb_materials"));
  EXPECT_EQ(h->name, 0xcc84e7aau);
  EXPECT_EQ(handle_hashes("zapwave_igb_materials::ZapWave")->name, 0x8cbcc515u);  // zapwave.igz's EXID name hash
  EXPECT_FALSE(handle_hashes("no separator").has_value());
  EXPECT_EQ(dependency_file("textures:/ColorMap_Grey_20_11.igz"), "ColorMap_Grey_20_11.igz");
  EXPECT_EQ(dependency_file("plain.igz"), "plain.igz");
}

// Every cut and every flipped byte of the fixture: the reader never fails hard, and what it
// returns is a binding of the file's own objects.
TEST(IgzMaterial, TruncationAndMutationSweep) {
  auto b = fixtures::material_igz({.version = 7, .endian = Endian::big, .platform = 6, .names_as_tstr = true});
  ASSERT_TRUE(b.ok());
  const ByteBuffer good = *b;
  auto run = [](ByteBuffer bytes) {
    auto o = open_bytes(std::move(bytes));
    if (!o) return;
    for (std::size_t i = 0; i < o->graph.objects.size(); ++i)
      for (const TextureBinding& t : material_textures(o->file, o->fixups, o->graph, i).bindings) {
        ASSERT_LT(t.object, o->graph.objects.size());
        EXPECT_EQ(o->graph.objects[t.object].type_name, "igTextureBindAttr2");
      }
  };
  for (std::size_t cut = 0; cut < good.size(); cut += 7) run(ByteBuffer(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(cut)));
  for (std::size_t i = 0; i < good.size(); ++i) {
    ByteBuffer m = good;
    m[i] ^= 0xA5;
    run(std::move(m));
  }
}

// zapwave_igb_materials.igz by hand: its igTextureBindAttr2 objects 21, 23, 25, 27 hold
// 0x0000FFFF, 0x0001FFFF, 0x0002FFFF, 0x0005FFFF at +0x08 (units 0, 1, 2, 5); their textures'
// EXIDs have the namespace hashes c526607b = fnv1a("colormap_watercaustic02_11") and
// c821d53a = fnv1a("colormap_grey_20_11"); _magFilter 1, _minFilter 5, _wrapS/_wrapT 1.
TEST(IgzMaterial, ZapwaveBindingsByHand) {
  ASSAY_REQUIRE_SAMPLE(zap, "alchemy/skylanders_zap.pak");
  auto in = resolve_path(zap.string() + "::materialinstances\\zapwave_igb_materials.igz");
  ASSERT_TRUE(in.ok()) << in.error().str();
  auto o = open_bytes(ByteBuffer(in->bytes.begin(), in->bytes.end()));
  ASSERT_TRUE(o);
  const auto mat = named_object(o->graph, fnv1a32("zapwave", true));
  ASSERT_TRUE(mat.has_value());
  EXPECT_EQ(*mat, 8u);
  const MaterialTextures m = material_textures(o->file, o->fixups, o->graph, *mat);
  ASSERT_EQ(m.bindings.size(), 4u);
  const int units[] = {0, 1, 2, 5};
  const std::size_t objects[] = {21, 23, 25, 27};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(m.bindings[i].unit, units[i]);
    EXPECT_EQ(m.bindings[i].object, objects[i]);
    EXPECT_EQ(m.bindings[i].mag_filter, 1u);
    EXPECT_EQ(m.bindings[i].min_filter, 5u);
    EXPECT_EQ(m.bindings[i].wrap_s, 1u);
  }
  EXPECT_EQ(m.bindings[0].namespace_hash, 0xc526607bu);
  EXPECT_EQ(m.bindings[0].file, "ColorMap_WaterCaustic02_11.igz");
  EXPECT_EQ(m.bindings[3].namespace_hash, 0xc821d53au);
  EXPECT_EQ(m.bindings[3].file, "ColorMap_Grey_20_11.igz");
}

// The rule the exporter assumes (unit 0 = base colour), against each CCharacterMaterial's own
// first texture source string (_textureName_diffuse, igRewrite8's Trap Team layout names the six
// strings diffuse, normal, gloss, metal, emissive, backscatter in this order).
TEST(IgzMaterial, UnitZeroIsTheDiffuseSourceInZapPak) {
  ASSAY_REQUIRE_SAMPLE(zap, "alchemy/skylanders_zap.pak");
  auto pak = open_path(zap.string());
  ASSERT_TRUE(pak.ok());
  int checked = 0;
  for (const Entry& e : (*pak)->entries()) {
    if (e.path.rfind("materialinstances", 0) != 0) continue;  // either separator
    auto in = (*pak)->read(e);
    ASSERT_TRUE(in.ok());
    auto o = open_bytes(ByteBuffer(in->bytes.begin(), in->bytes.end()));
    ASSERT_TRUE(o) << e.path;
    for (std::size_t i = 0; i < o->graph.objects.size(); ++i) {
      if (o->graph.objects[i].type_name != "CCharacterMaterial") continue;
      const MaterialTextures m = material_textures(o->file, o->fixups, o->graph, i);
      if (m.bindings.empty() || m.bindings[0].unit != 0) continue;
      std::optional<std::pair<std::uint32_t, std::string>> diffuse;  // the first "textures:" string field
      for (const StringRef& s : o->graph.strings)
        if (s.from == i && s.text && s.text->rfind("textures:", 0) == 0 && (!diffuse || s.field < diffuse->first))
          diffuse = std::pair{s.field, std::string(*s.text)};
      ASSERT_TRUE(diffuse.has_value()) << e.path;
      std::string stem = diffuse->second.substr(diffuse->second.find_last_of(":\\/") + 1);
      stem = stem.substr(0, stem.rfind('.'));
      EXPECT_EQ(lower(m.bindings[0].file), lower("ColorMap_" + stem + "_11.igz")) << e.path << " object " << i;
      ++checked;
    }
  }
  EXPECT_GE(checked, 6);
}

// `list --json` of a model entry: its materials, each unit's file, the base colour and no note.
TEST(IgzMaterial, ListJsonNamesTheMaterialsTextures) {
  ASSAY_REQUIRE_SAMPLE(zap, "alchemy/skylanders_zap.pak");
  const auto r = testing::run_cli("list --json " + testing::quote_path(zap.string() + "::models\\characters\\skylanders\\zap\\zapwave.igz"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const nlohmann::json* model = nullptr;
  for (const auto& e : j["entries"])
    if (e["kind"] == "model") model = &e;
  ASSERT_NE(model, nullptr);
  const auto& m = (*model)["materials"];
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0]["handle"], "zapwave_igb_materials::ZapWave");
  EXPECT_EQ(m[0]["material_file"], "zapwave_igb_materials.igz");
  EXPECT_EQ(m[0]["base_color_texture"], "ColorMap_WaterCaustic02_11.igz");
  EXPECT_TRUE(m[0]["note"].is_null());
  ASSERT_EQ(m[0]["texture_units"].size(), 4u);
  EXPECT_EQ(m[0]["texture_units"][1]["unit"], 1);
  EXPECT_EQ(m[0]["texture_units"][1]["file"], "NormalMap_FX_StoneRough_N_11.igz");
  EXPECT_EQ(m[0]["texture_units"][3]["unit"], 5);
}

// `list --json` of the material file: object 8 (the CCharacterMaterial named ZapWave) lists the
// four units checked by hand in ZapwaveBindingsByHand; no other object has texture_units.
TEST(IgzMaterial, ListJsonOfAMaterialFileGivesItsUnits) {
  ASSAY_REQUIRE_SAMPLE(zap, "alchemy/skylanders_zap.pak");
  const auto r = testing::run_cli("list --json " + testing::quote_path(zap.string() + "::materialinstances\\zapwave_igb_materials.igz"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  int with_units = 0;
  for (const auto& e : j["entries"]) {
    if (!e.contains("texture_units")) continue;
    ++with_units;
    EXPECT_EQ(e["index"], 8);
    std::vector<std::pair<int, std::string>> units;
    for (const auto& u : e["texture_units"]) units.emplace_back(u["unit"].get<int>(), u["file"].get<std::string>());
    EXPECT_EQ(units, (std::vector<std::pair<int, std::string>>{{0, "ColorMap_WaterCaustic02_11.igz"},
                                                               {1, "NormalMap_FX_StoneRough_N_11.igz"},
                                                               {2, "Composite3_default_b_waterF_750647746.igz"},
                                                               {5, "ColorMap_Grey_20_11.igz"}}));
  }
  EXPECT_EQ(with_units, 1);
}

TEST(IgzMaterial, WritesFuzzCorpus) {
  const char* dir = std::getenv("ASSAY_WRITE_IGZ_MATERIAL_CORPUS");
  if (dir == nullptr) GTEST_SKIP() << "set ASSAY_WRITE_IGZ_MATERIAL_CORPUS to write the corpus";
  const std::pair<const char*, Layout> layouts[] = {
      {"ps3_v7.igz", {.version = 7, .endian = Endian::big, .platform = 6, .names_as_tstr = true}},
      {"pc_v9_64.igz", {.version = 9, .endian = Endian::little, .platform = 1, .pointer_size = 8}}};
  for (const auto& [name, layout] : layouts) {
    auto b = fixtures::material_igz(layout);
    ASSERT_TRUE(b.ok());
    testing::write_file(std::filesystem::path(dir) / name, *b);
  }
}

}  // namespace
}  // namespace assay::igz
