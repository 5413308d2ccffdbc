// The built-in layouts and OniSplit-written files (issue 12): ../shared/samples/oni, read in place.
// Facts asserted come from outside assay: the retail header checksums (spec oni.md#oni-3-2), the
// counts OniSplit printed (samples/oni/README.md), OniSplit's own -list output and PNGs
// (onisplit_view/), and the chunk sizes in onisplit_view/*_view.txt.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <vector>

#include "assay/image/png.h"
#include "fixtures.h"
#include "testing/testing.h"

namespace assay::oni {
namespace {

std::uint64_t table_sum(const LayoutSet& s) {
  std::uint64_t sum = 0, n = 0;
  for (const CompiledLayout& c : s.all()) sum += ++n * c.checksum();
  return sum;
}

TEST(OniBuiltin, SetsReproduceTheRetailHeaderChecksums) {
  const LayoutSet& v10 = builtin_layouts(TemplateSet::v10);
  const LayoutSet& v11 = builtin_layouts(TemplateSet::v11);
  ASSERT_EQ(v10.all().size(), 114u);
  ASSERT_EQ(v11.all().size(), 114u);
  EXPECT_EQ(table_sum(v10), 0x0003BCDF33DC271Full);  // spec oni.md#oni-3-2: Windows retail
  EXPECT_EQ(table_sum(v11), 0x0003BCDF23C13061ull);  // Mac and Windows demo
  // oni-templates.md: TXMP is 0xAC bytes in v1.0 (materialType at 0xA0) and 0xB0 in v1.1; SNDD v1.0 is
  // 0x48 with its raw offset at 0x44 (size at 0x40), v1.1 0x18 with raw at 0x14.
  const auto* t10 = v10.find(make_tag("TXMP"), 0x891187581ull);
  const auto* t11 = v11.find(make_tag("TXMP"), 0x8911EEB5Full);
  ASSERT_TRUE(t10 && t11);
  EXPECT_EQ(t10->code.fixed_size, 0xACu);
  EXPECT_EQ(t11->code.fixed_size, 0xB0u);
  ASSERT_EQ(t10->chunk_rules.size(), 1u);
  EXPECT_EQ(t10->chunk_rules[0].offset, 0x9Cu);
  EXPECT_EQ(t11->chunk_rules[0].offset, 0xA0u);
  EXPECT_EQ(t11->chunk_rules[0].kind, FieldKind::sep);
  const auto* s10 = v10.find(make_tag("SNDD"), 0x370578);
  ASSERT_TRUE(s10);
  EXPECT_EQ(s10->code.fixed_size, 0x48u);
  EXPECT_EQ(s10->chunk_rules[0].offset, 0x44u);
  EXPECT_EQ(s10->chunk_rules[0].size_offset, 0x40u);
  EXPECT_EQ(v11.find(make_tag("SNDD"), 0x411EB)->chunk_rules[0].offset, 0x14u);
  // Raw fields the retail layouts mark as plain 4-byte fields (oni-templates.md).
  EXPECT_EQ(v10.find(make_tag("SUBT"), 0x46C68)->chunk_rules[0].offset, 0x18u);
  EXPECT_EQ(v10.find(make_tag("TRAM"), 0x107E3CC918ull)->chunk_rules.size(), 13u);
  EXPECT_TRUE(v10.find(make_tag("AKVA"), 0xDF05E0)->chunk_rules[0].in_element);
  EXPECT_EQ(v10.find(make_tag("AGDB"), 0x72E17)->chunk_rules.size(), 2u);
}

// The project's table (data/oni/templates.txt) keeps every layout line of the spec's table
// (../shared/specs/oni-templates.txt): the same lines in the same order; only the header differs.
TEST(OniBuiltin, CompiledLayoutLinesAreTheSpecTable) {
  std::ifstream in(std::string(ASSAY_SOURCE_DIR) + "/../shared/specs/oni-templates.txt", std::ios::binary);
  if (!in) {
    if (testing::in_ci()) FAIL() << "../shared/specs/oni-templates.txt missing in CI";
    GTEST_SKIP() << "../shared/specs/oni-templates.txt not present";
  }
  std::stringstream ss;
  ss << in.rdbuf();
  auto layout_lines = [](const std::string& text) {
    std::vector<std::string> out;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
      if (!line.empty() && line[0] != '#') out.push_back(line);
    return out;
  };
  const auto spec = layout_lines(ss.str());
  EXPECT_EQ(spec.size(), 118u);  // the spec's "118 layouts, 114 templates"
  EXPECT_EQ(layout_lines(std::string(builtin_layouts_text())), spec);
}

TEST(OniBuiltin, UnknownChecksumNamesTheOptions) {
  const LayoutSource builtin;
  EXPECT_TRUE(builtin.builtin());
  EXPECT_EQ(*builtin.for_checksum(kChecksumV10), &builtin_layouts(TemplateSet::v10));
  EXPECT_EQ(*builtin.for_checksum(kChecksumV11), &builtin_layouts(TemplateSet::v11));
  auto r = builtin.for_checksum(0x0003BCDF2E6B1681ull);  // the BFW source build: not retail
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("--exe"), std::string::npos);
  EXPECT_NE(r.error().message.find("--layouts"), std::string::npos);
  // A user's set still overrides, for any checksum.
  const LayoutSet user = test::sample_layouts();
  EXPECT_EQ(*LayoutSource(user).for_checksum(0x1234), &user);
}

TEST(OniBuiltin, LayoutsVerbPrintsLoadableTables) {
  testing::TempDir dir;
  auto all = testing::run_cli("oni layouts");
  ASSERT_EQ(all.exit_code, 0) << all.err;
  auto parsed = parse_layouts_file(all.out, "out");
  ASSERT_TRUE(parsed.ok()) << parsed.error().str();
  EXPECT_EQ(parsed->all().size(), 118u);  // 114 templates, BINA/OSBD/TXMP/SNDD twice
  auto one = testing::run_cli("oni layouts --set v1.1");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  auto p11 = parse_layouts_file(one.out, "out");
  ASSERT_TRUE(p11.ok());
  EXPECT_EQ(table_sum(*p11), 0x0003BCDF23C13061ull);
}

TEST(OniTxmpLevels, SizeCheckedBeforeAnyShift) {
  // issue 15 item 2: a TXMP has no mip count; its chain follows from a size checked first.
  EXPECT_FALSE(txmp_levels(0, 4, 1, true).ok());
  EXPECT_FALSE(txmp_levels(4, 0, 1, true).ok());
  EXPECT_FALSE(txmp_levels(65535, 1, 9, true).ok());
  EXPECT_FALSE(txmp_levels(16385, 16, 8, true).ok());
  EXPECT_FALSE(txmp_levels(4, 4, 5, true).ok());
  ASSERT_TRUE(txmp_levels(16384, 16384, 9, true).ok());
  EXPECT_EQ(txmp_levels(16384, 16384, 9, true)->size(), 15u);
  EXPECT_EQ(txmp_levels(16384, 1, 8, true)->size(), 15u);
  EXPECT_EQ(txmp_levels(1, 1, 8, true)->size(), 1u);
  EXPECT_EQ(txmp_levels(64, 64, 8, false)->size(), 1u);
  // onisplit_view: OniSplit's chunk of the 64x64 BGR32 mipmapped TXMPgrad_bgr32 is 0x5554 bytes (1x1 level
  // included); the 32x32 16-bit ones 0xAAA.
  EXPECT_EQ(txmp_data_size(64, 64, 8, true), 0x5554u);
  EXPECT_EQ(txmp_data_size(32, 32, 1, true), 0xAAAu);
}

TEST(OniTxmpLevels, BadSizeIsAWalkError) {
  // A v1.0 TXMP (built-in layout) of width 0 with mipmaps: reported, nothing shifted.
  LevelFileSpec spec;
  spec.template_checksums[make_tag("TXMP")] = 0x891187581ull;
  test::Bytes t(0xAC);
  t.u32(0x88, 1).u16(0x8C, 0).u16(0x8E, 40000).u32(0x90, 9).u32(0x9C, 32);
  spec.instances.push_back({make_tag("TXMP"), "TXMPbad", 0, t.b});
  auto b = write_level_file(spec);
  ASSERT_TRUE(b.ok());
  auto f = load_file("level0_Final.dat", *b, nullptr, LayoutSource{});
  std::string all;
  for (const auto& d : f->diags.items()) all += d.where.message + "\n";
  EXPECT_NE(all.find("size 0x40000 (must be 1-16384)"), std::string::npos) << all;
}

TEST(OniBuiltin, AkvaElementRawFieldsAreChecked) {
  // AKVA (built-in layout): raw offsets at element + 0x24 (oni-templates.md); two elements, no .raw.
  LevelFileSpec spec;
  spec.template_checksums[make_tag("AKVA")] = 0xDF05E0;
  test::Bytes a(0x20 + 2 * 0x74);
  a.u32(0x1C, 2).u32(0x20 + 0x24, 0x40).u32(0x20 + 0x74 + 0x24, 0x60);
  spec.instances.push_back({make_tag("AKVA"), "AKVAnodes", 0, a.b});
  auto b = write_level_file(spec);
  ASSERT_TRUE(b.ok());
  auto f = load_file("level0_Final.dat", *b, nullptr, LayoutSource{});
  ASSERT_EQ(f->chunks.size(), 2u);
  EXPECT_EQ(f->chunks[0].offset, 0x44u);
  EXPECT_EQ(f->chunks[0].value, 0x40u);
  EXPECT_EQ(f->chunks[1].offset, 0x20u + 0x74 + 0x24);
  EXPECT_EQ(f->chunks[1].value, 0x60u);
  EXPECT_TRUE(f->diags.has_errors());  // the .raw file is missing
}

// ---- OniSplit's GameDataFolder

TEST(OniSplitSamples, CheckGivesOniSplitsCounts) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  auto rep = check_level_set({dir}, LayoutSource{}, 1);
  ASSERT_TRUE(rep.ok()) << rep.error().str();
  ASSERT_EQ(rep->levels.size(), 2u);
  const LevelCounts& l0 = rep->levels[0];
  const LevelCounts& l1 = rep->levels[1];
  EXPECT_EQ(l0.instances, 31u);
  EXPECT_EQ(l0.placeholders, 0u);
  EXPECT_EQ(l0.links, 22u);
  EXPECT_EQ(l0.unresolved, 0u);
  EXPECT_EQ(l1.instances, 19u);
  EXPECT_EQ(l1.placeholders, 4u);
  EXPECT_EQ(l1.links, 40u);  // 18 of its own + level 0's 22
  EXPECT_EQ(l1.into_level0, 6u);
  EXPECT_EQ(l1.unresolved, 0u);
  EXPECT_TRUE(rep->ok());
  // The CLI, with no layout option.
  auto r = testing::run_cli("oni check " + testing::shell_quote(dir.string()) + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["levels"][1]["into_level0"], 6);
}

std::vector<std::string> lines_of(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) out.push_back(l);
  return out;
}

TEST(OniSplitSamples, ListShowsOniSplitsInstances) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  ASSAY_REQUIRE_SAMPLE(view, "oni/onisplit_view");
  for (const char* level : {"level0_Final", "level1_Final"}) {
    auto r = testing::run_cli("list --json " + testing::shell_quote((dir / (std::string(level) + ".dat")).string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> named;  // OniSplit -list: named instances with data, in descriptor order
    const auto j = nlohmann::json::parse(r.out);
    for (const auto& e : j["entries"]) {
      const auto& det = e.contains("details") ? e["details"] : e;
      const bool ph = det.contains("placeholder") ? det["placeholder"].get<bool>() : e.value("placeholder", false);
      if (!e["name"].is_null() && !ph) named.push_back(e["name"]);
    }
    EXPECT_EQ(named, lines_of(view / (std::string("GameDataFolder_") + level + ".onisplit_list.txt"))) << level;
  }
}

struct Px {
  std::uint32_t w = 0, h = 0;
  ByteBuffer rgba;
};
Px png_at(const std::filesystem::path& p) {
  auto img = image::decode_png(testing::read_file(p));
  EXPECT_TRUE(img.ok()) << p;
  return img.ok() ? Px{img->width, img->height, img->pixels} : Px{};
}

TEST(OniSplitSamples, TexturesMatchOniSplitsPixels) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  ASSAY_REQUIRE_SAMPLE(pngs, "oni/onisplit_view/png_level0");
  testing::TempDir out;
  auto r = testing::run_cli("extract --textures --mips " + testing::shell_quote((dir / "level0_Final.dat").string()) + " -o " +
                            testing::shell_quote((out / "t").string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto f = load_file(dir / "level0_Final.dat", LayoutSource{});
  std::map<std::string, std::uint32_t> format;
  for (std::uint32_t i = 0; i < f->file.instance_count(); ++i)
    if (f->file.descriptor(i).tag == make_tag("TXMP") && f->has_data[i])
      format[std::string(f->names[i])] = load<std::uint32_t>(f->file.instance_bytes(i)->data() + 0x90, Endian::little);
  int exact = 0, widened = 0, dxt = 0;
  for (const auto& e : std::filesystem::directory_iterator(pngs)) {
    const std::string name = e.path().stem().string();
    ASSERT_TRUE(format.count(name)) << name;
    const Px theirs = png_at(e.path()), ours = png_at(out / "t" / (name + ".png"));
    ASSERT_EQ(ours.w, theirs.w) << name;
    ASSERT_EQ(ours.h, theirs.h) << name;
    ASSERT_EQ(ours.rgba.size(), theirs.rgba.size()) << name;
    const std::uint32_t fmt = format[name];
    if (fmt == 7 || fmt == 8) {  // 32-bit: exactly OniSplit's pixels
      EXPECT_EQ(ours.rgba, theirs.rgba) << name;
      ++exact;
    } else if (fmt <= 2) {  // ours replicate bits, OniSplit shifts: the top bits agree
      const std::uint8_t mask = fmt == 0 ? 0xF0 : 0xF8;
      for (std::size_t k = 0; k < ours.rgba.size(); ++k) {
        const bool alpha = k % 4 == 3;
        if (alpha && fmt != 0) ASSERT_EQ(ours.rgba[k], theirs.rgba[k]) << name << " byte " << k;
        else ASSERT_EQ(ours.rgba[k] & mask, theirs.rgba[k]) << name << " byte " << k;
      }
      ++widened;
    } else {  // DXT1: integer (2a+b)/3 on replicated endpoints vs floats on shifted ones
      for (std::size_t k = 0; k < ours.rgba.size(); ++k) ASSERT_LE(std::abs(int(ours.rgba[k]) - int(theirs.rgba[k])), 8) << name << " byte " << k;
      ++dxt;
    }
  }
  EXPECT_GE(exact, 5);
  EXPECT_GE(widened, 5);
  EXPECT_EQ(dxt, 2);
  // The 1x1 level is stored: TXMPgrad_bgr32's is the chunk's last 4 bytes (samples/oni/README.md).
  const Px one = png_at(out / "t" / "TXMPgrad_bgr32.mip6.png");
  ASSERT_EQ(one.w, 1u);
  ASSERT_EQ(one.h, 1u);
  const ByteBuffer raw = testing::read_file(dir / "level0_Final.raw");
  const std::uint32_t at = 0x1440, size = 0x5554;  // onisplit_view: its raw chunk
  ASSERT_GE(raw.size(), at + size);
  EXPECT_EQ(one.rgba, (ByteBuffer{raw[at + size - 2], raw[at + size - 3], raw[at + size - 4], 255}));
  EXPECT_FALSE(std::filesystem::exists(out / "t" / "TXMPgrad_bgr32.mip7.png"));
}

TEST(OniSplitSamples, CreatedOniFilesAllVerify) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/oni_created/level0");
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    auto r = testing::run_cli("verify " + testing::shell_quote(e.path().string()));
    EXPECT_EQ(r.exit_code, 0) << e.path() << r.out << r.err;
    ++n;
  }
  EXPECT_EQ(n, 20);
  // TStrgreeting.oni: data 0x80 + 0xA0, file 0x108: 0x18 bytes claimed past the end, a note only.
  const ByteBuffer b = testing::read_file(dir / "TStrgreeting.oni");
  ASSERT_EQ(b.size(), 0x108u);
  auto f = InstanceFile::open(b, "TStrgreeting.oni");
  ASSERT_TRUE(f.ok()) << f.error().str();
  EXPECT_EQ(f->data_overrun(), 0x18u);
  EXPECT_EQ(f->header().data_size, 0x88u);
  Diagnostics d;
  f->validate(d, std::nullopt);
  bool noted = false;
  for (const auto& i : d.items()) noted |= i.severity == Severity::note && i.where.message.find("0x18 bytes past the end") != std::string::npos;
  EXPECT_TRUE(noted);
  EXPECT_FALSE(d.has_errors());
  // 0x20 past the end is more than rounding: still an error.
  ByteBuffer worse = b;
  store<std::uint32_t>(worse.data() + 0x24, 0xA8, Endian::little);
  EXPECT_FALSE(InstanceFile::open(worse, "worse.oni").ok());
  // VR31 level files get no such slack.
  ByteBuffer vr31 = b;
  store<std::uint32_t>(vr31.data() + 0x08, kVersionVR31, Endian::little);
  EXPECT_FALSE(InstanceFile::open(vr31, "level0_Final.dat").ok());
}

TEST(OniSplitSamples, ExportAndPackKeepCounts) {
  // issue 10 item 3: .oni export + pack oni keeps every named instance, every placeholder and the
  // links into level 0 (no layout option anywhere).
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  testing::TempDir out;
  for (const char* l : {"level0_Final", "level1_Final"}) {
    auto x = testing::run_cli("extract " + testing::shell_quote((dir / (std::string(l) + ".dat")).string()) + " -o " +
                              testing::shell_quote((out / l).string()));
    ASSERT_EQ(x.exit_code, 0) << x.err;
    std::filesystem::create_directories(out / "gdf");
    auto p = testing::run_cli("pack oni -o " + testing::shell_quote((out / "gdf" / (std::string(l) + ".dat")).string()) + " " +
                              testing::shell_quote((out / l).string()));
    ASSERT_EQ(p.exit_code, 0) << p.err;
  }
  auto a = check_level_set({dir}, LayoutSource{}, 1);
  auto b = check_level_set({out / "gdf"}, LayoutSource{}, 1);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(b->levels.size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(b->levels[k].instances, a->levels[k].instances);
    EXPECT_EQ(b->levels[k].placeholders, a->levels[k].placeholders);
    EXPECT_EQ(b->levels[k].links, a->levels[k].links);
    EXPECT_EQ(b->levels[k].into_level0, a->levels[k].into_level0);
    EXPECT_EQ(b->levels[k].unresolved, 0u);
  }
  EXPECT_TRUE(b->ok());
  for (const char* l : {"level0_Final", "level1_Final"}) {
    auto names = [](const std::filesystem::path& p) {
      std::set<std::string> s;
      auto f = load_file(p, LayoutSource{}, LoadOptions{false});
      for (std::uint32_t i = 0; i < f->file.instance_count(); ++i)
        if (!f->names[i].empty()) s.insert(std::string(f->names[i]) + (f->file.descriptor(i).placeholder() ? " (placeholder)" : ""));
      return s;
    };
    EXPECT_EQ(names(out / "gdf" / (std::string(l) + ".dat")), names(dir / (std::string(l) + ".dat"))) << l;
  }
}

}  // namespace
}  // namespace assay::oni

namespace assay::oni {
namespace {

TEST(OniBuiltin, V11SetReadsTexturesFromTheSep) {
  // A v1.1 level (Mac / Windows demo set): TXMP is 0xB0 bytes with its pixels in the .sep at 0xA0
  // (spec oni.md#oni-9-3; oni-templates.md), read with no layout option.
  testing::TempDir dir;
  CompanionWriter sep;
  const ByteBuffer px{0x10, 0x20, 0x30, 0x00, 0x40, 0x50, 0x60, 0x00};  // BGR32 2x1
  const std::uint32_t at = sep.add(px);
  LevelFileSpec spec;
  spec.checksum = kChecksumV11;
  spec.template_checksums[make_tag("TXMP")] = 0x8911EEB5Full;
  test::Bytes t(0xB0);
  t.u16(0x8C, 2).u16(0x8E, 1).u32(0x90, 8).u32(0xA0, at);
  spec.instances.push_back({make_tag("TXMP"), "TXMPmac", 0, t.b});
  auto b = write_level_file(spec);
  ASSERT_TRUE(b.ok());
  testing::write_file(dir / "level0_Final.dat", *b);
  testing::write_file(dir / "level0_Final.sep", sep.bytes());
  testing::write_file(dir / "level0_Final.raw", ByteBuffer(32, 0));
  auto c = testing::run_cli("oni check " + testing::shell_quote(dir.path().string()));
  EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
  auto x = testing::run_cli("extract --textures " + testing::shell_quote((dir / "level0_Final.dat").string()) + " -o " +
                            testing::shell_quote((dir / "png").string()));
  ASSERT_EQ(x.exit_code, 0) << x.err;
  auto img = image::decode_png(testing::read_file(dir / "png" / "TXMPmac.png"));
  ASSERT_TRUE(img.ok());
  EXPECT_EQ(img->pixels, (ByteBuffer{0x30, 0x20, 0x10, 255, 0x60, 0x50, 0x40, 255}));
  // The same file claimed as v1.0 picks the v1.0 set, whose TXMP checksum differs: the level is invalid.
  ByteBuffer v10 = *b;
  store<std::uint64_t>(v10.data(), kChecksumV10, Endian::little);
  testing::write_file(dir / "level0_Final.dat", v10);
  auto bad = testing::run_cli("oni check " + testing::shell_quote(dir.path().string()));
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.out.find("checksums do not match"), std::string::npos) << bad.out;
}

}  // namespace
}  // namespace assay::oni

namespace assay::oni {
namespace {

TEST(OniPack, SharedUnnamedInstanceIsNotDuplicated) {
  // issue 10 item 3: ZLSTa and ZLSTb both link the unnamed ZPTS #2; export writes it into both .oni
  // files, pack folds the identical copies back into one.
  testing::TempDir dir;
  LevelFileSpec spec;
  spec.template_checksums = {{make_tag("ZPTS"), 0xa1}, {make_tag("ZLST"), 0xa3}};
  auto lst = [](std::uint32_t target) {
    test::Bytes z(0x24);
    z.u16(0x1E, 1).u32(0x20, test::link_to(target));
    return z.b;
  };
  test::Bytes pts(0x2C);
  pts.u32(0x1C, 1).u32(0x20, 0x3F800000);
  spec.instances = {{make_tag("ZLST"), "ZLSTa", 0, lst(2)}, {make_tag("ZLST"), "ZLSTb", 0, lst(2)}, {make_tag("ZPTS"), "", 0, pts.b}};
  auto b = write_level_file(spec);
  ASSERT_TRUE(b.ok());
  testing::write_file(dir / "level0_Final.dat", *b);
  const LayoutSet layouts = test::sample_layouts();
  auto f = load_file(dir / "level0_Final.dat", &layouts);
  ASSERT_FALSE(f->diags.has_errors());
  Diagnostics d;
  ASSERT_TRUE(export_oni_files(*f, {}, OutputDir(dir / "oni", false), d).ok());
  std::filesystem::create_directories(dir / "out");
  auto st = pack_level(dir / "oni", dir / "out" / "level0_Final.dat", layouts, {}, d);
  ASSERT_TRUE(st.ok()) << st.error().str();
  EXPECT_EQ(st->instances, 3u);
  auto a = check_level_set({dir / "level0_Final.dat"}, layouts, 1);
  auto p = check_level_set({dir / "out" / "level0_Final.dat"}, layouts, 1);
  ASSERT_TRUE(a.ok() && p.ok());
  EXPECT_EQ(p->levels[0].instances, a->levels[0].instances);
  EXPECT_EQ(p->levels[0].links, 2u);
  EXPECT_TRUE(p->ok());
}

}  // namespace
}  // namespace assay::oni
