// Oni v1.1 TXMP instances of 0xAC bytes, as OniSplit's `-import:sep` writes them (issue 29 item 7):
// the v1.1 template checksum 0x8911EEB5F, pixels in the .sep file at the offset in 0xA0, and
// OniSplit's Mac struct (OniMacMetadata.cs: 128 bytes, flags, width, height, format, two links,
// pad 4, the .sep offset, pad 8), which stops 4 bytes before the 0xB0 of the BFW layout
// (spec: oni-templates.md "TXMP v1.1 size 0xB0 vs OniSplit 0xAC"). Facts asserted: the sizes
// of both layouts from the spec, pixels of a texture made here by hand, and the OniSplit sample
// level 0 (samples/oni/README.md) rewritten into the sep form giving the same pixels as its v1.0 form.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>

#include "assay/formats/oni/oni.h"
#include "assay/formats/oni/names.h"
#include "assay/formats/oni/writer.h"
#include "assay/image/png.h"
#include "testing/testing.h"

namespace assay::oni {
namespace {

namespace fs = std::filesystem;
using testing::quote_path;
using testing::read_file;
using testing::run_cli;
using testing::TempDir;
using testing::write_file;

constexpr std::uint64_t kTxmpV10 = 0x891187581ull, kTxmpV11 = 0x8911EEB5Full;  // spec: oni.md#oni-9-2

TEST(OniTxmpSepForm, ShortFormOfTheV11Layout) {
  const LayoutSet& v11 = builtin_layouts(TemplateSet::v11);
  const CompiledLayout* l = v11.find(make_tag("TXMP"), kTxmpV11);
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->code.fixed_size, 0xB0u);  // spec: oni-templates.md
  const CompiledLayout* s = v11.short_form(l);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->code.fixed_size, 0xACu);  // OniSplit's struct
  EXPECT_EQ(s->checksum(), kTxmpV11);
  ASSERT_EQ(s->chunk_rules.size(), 1u);
  EXPECT_EQ(s->chunk_rules[0].offset, 0xA0u);  // spec: oni.md#oni-9-3, v1.1 sep
  EXPECT_EQ(s->chunk_rules[0].kind, FieldKind::sep);
  EXPECT_EQ(v11.for_size(l, 0xAC), s);
  EXPECT_EQ(v11.for_size(l, 0xB0), l);
  EXPECT_EQ(v11.for_size(l, 0xC0), l);  // retail rounds to 32
  EXPECT_EQ(v11.for_size(l, 0xA8), l);  // too short for either: the walk reports it
  // v1.0 is 0xAC already: no short form.
  const LayoutSet& v10 = builtin_layouts(TemplateSet::v10);
  const CompiledLayout* l10 = v10.find(make_tag("TXMP"), kTxmpV10);
  ASSERT_NE(l10, nullptr);
  EXPECT_EQ(l10->code.fixed_size, 0xACu);
  EXPECT_EQ(v10.short_form(l10), nullptr);
}

// A 2 x 2 RGBA (format 7: bytes R, G, B, A, spec oni.md#oni-9-1) texture in a v1.1 level whose
// TXMP descriptor says 0xAC bytes, pixels in the .sep at 0x20 (the first chunk after 32 junk bytes).
const ByteBuffer kPixels{10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160};

void write_sep_level(const fs::path& dir) {
  CompanionWriter sep;
  const std::uint32_t at = sep.add(kPixels);
  ASSERT_EQ(at, 0x20u);
  ByteBuffer inst(0xAC, 0);
  store<std::uint16_t>(inst.data() + 0x8C, 2, Endian::little);
  store<std::uint16_t>(inst.data() + 0x8E, 2, Endian::little);
  store<std::uint32_t>(inst.data() + 0x90, 7, Endian::little);
  store<std::uint32_t>(inst.data() + 0xA0, at, Endian::little);
  LevelFileSpec spec;
  spec.checksum = kChecksumV11;
  spec.file_id = make_file_id(0, 0);
  spec.template_checksums[make_tag("TXMP")] = kTxmpV11;
  spec.instances.push_back({make_tag("TXMP"), "TXMPsep_tex", 0, inst});
  auto dat = write_level_file(spec);
  ASSERT_TRUE(dat.ok()) << dat.error().str();
  // Our writer rounds the size up to 32 (0xC0); OniSplit writes the struct's own 0xAC
  // (samples/oni/README.md: "OniSplit does not round instance sizes up to 32 bytes in the .dat").
  ByteBuffer b = *dat;
  ASSERT_EQ(load<std::uint32_t>(b.data() + 0x40, Endian::little), make_tag("TXMP"));  // descriptor 0
  store<std::uint32_t>(b.data() + 0x40 + 0x0C, 0xAC, Endian::little);
  fs::create_directories(dir);
  write_file(dir / "level0_Final.dat", b);
  write_file(dir / "level0_Final.raw", CompanionWriter().bytes());
  write_file(dir / "level0_Final.sep", sep.bytes());
}

ByteBuffer png_pixels(const fs::path& p) {
  auto png = image::decode_png(read_file(p));
  EXPECT_TRUE(png.ok()) << p;
  return png.ok() ? png->pixels : ByteBuffer{};
}

TEST(OniTxmpSepForm, HandMadeTextureReadsExportsAndPacks) {
  TempDir t;
  write_sep_level(t / "set");
  const fs::path dat = t / "set" / "level0_Final.dat";
  auto v = run_cli("verify --json " + quote_path(dat));
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  EXPECT_EQ(v.out.find("field past end of instance"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("OniSplit's form"), std::string::npos) << v.out;  // the note says which layout

  auto info = run_cli("info --json " + quote_path(dat));
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_EQ(nlohmann::json::parse(info.out)["txmp_layout"], "v1.1 in OniSplit's 0xAC form (-import:sep; .sep pixels)");

  auto x = run_cli("extract --textures " + quote_path(dat) + " -o " + quote_path(t / "png"));
  ASSERT_EQ(x.exit_code, 0) << x.err;
  EXPECT_EQ(png_pixels(t / "png" / "TXMPsep_tex.png"), kPixels);

  // Exported to .oni (the pixels into its raw block), packed back with a .sep, read again.
  ASSERT_EQ(run_cli("extract " + quote_path(dat) + " -o " + quote_path(t / "oni")).exit_code, 0);
  fs::create_directories(t / "packed");
  auto p = run_cli("pack oni --sep -o " + quote_path(t / "packed" / "level0_Final.dat") + " " + quote_path(t / "oni"));
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(run_cli("verify " + quote_path(t / "packed" / "level0_Final.dat")).exit_code, 0);
  ASSERT_EQ(run_cli("extract --textures " + quote_path(t / "packed" / "level0_Final.dat") + " -o " + quote_path(t / "png2")).exit_code, 0);
  EXPECT_EQ(png_pixels(t / "png2" / "TXMPsep_tex.png"), kPixels);
  // The .sep holds the pixels (spec: oni.md#oni-6-4: v1.1 TXMP data are in the .sep).
  const ByteBuffer sep = read_file(t / "packed" / "level0_Final.sep");
  ASSERT_GE(sep.size(), 0x30u);
  EXPECT_EQ(ByteBuffer(sep.begin() + 0x20, sep.begin() + 0x30), kPixels);
}

// OniSplit's level 0 (samples/oni/README.md: -import:nosep, v1.0, TXMPs of 0xAC with the pixel
// offset at 0x9C into the .raw) rewritten as -import:sep lays it out: header and TXMP template
// checksums of v1.1 (spec oni.md#oni-9-2; the two sets differ only in BINA, OSBD, TXMP and SNDD,
// and level 0 has no BINA, OSBD or SNDD), each TXMP's pixel offset moved to 0xA0 with 0x9C and
// 0xA4-0xAB zero (OniMacMetadata.cs pads), the .sep a copy of the .raw. Every texture must give
// the pixels of the v1.0 form.
TEST(OniTxmpSepForm, OniSplitLevelInSepFormGivesTheSamePixels) {
  ASSAY_REQUIRE_SAMPLE(dir, "oni/GameDataFolder");
  TempDir t;
  fs::create_directories(t / "v10");
  fs::create_directories(t / "v11");
  for (const char* ext : {".dat", ".raw"}) fs::copy_file(dir / (std::string("level0_Final") + ext), t / "v10" / (std::string("level0_Final") + ext));
  ByteBuffer b = read_file(dir / "level0_Final.dat");
  ASSERT_EQ(load<std::uint64_t>(b.data(), Endian::little), kChecksumV10);
  auto f = InstanceFile::open(b, "level0_Final.dat");
  ASSERT_TRUE(f.ok());
  store<std::uint64_t>(b.data(), kChecksumV11, Endian::little);
  const std::uint64_t table = kHeaderSize + std::uint64_t(f->instance_count()) * kDescriptorSize + std::uint64_t(f->name_count()) * kNameEntrySize;
  bool txmp_entry = false;
  for (std::uint32_t k = 0; k < f->template_count(); ++k)
    if (f->template_entry(k).tag == make_tag("TXMP")) {
      ASSERT_EQ(load<std::uint64_t>(b.data() + table + 16 * k, Endian::little), kTxmpV10);
      store<std::uint64_t>(b.data() + table + 16 * k, kTxmpV11, Endian::little);
      txmp_entry = true;
    }
  ASSERT_TRUE(txmp_entry);
  unsigned moved = 0;
  for (std::uint32_t i = 0; i < f->instance_count(); ++i) {
    const Descriptor d = f->descriptor(i);
    if (d.tag != make_tag("TXMP") || d.placeholder()) continue;
    ASSERT_EQ(d.size, 0xACu);
    std::uint8_t* inst = b.data() + f->instance_file_offset(d);
    const std::uint32_t raw = load<std::uint32_t>(inst + 0x9C, Endian::little);
    store<std::uint32_t>(inst + 0x9C, 0, Endian::little);
    store<std::uint32_t>(inst + 0xA0, raw, Endian::little);
    std::fill(inst + 0xA4, inst + 0xAC, std::uint8_t{0});
    ++moved;
  }
  EXPECT_EQ(moved, 16u);  // README: level 0 has 16 TXMPs
  write_file(t / "v11" / "level0_Final.dat", b);
  fs::copy_file(dir / "level0_Final.raw", t / "v11" / "level0_Final.raw");
  fs::copy_file(dir / "level0_Final.raw", t / "v11" / "level0_Final.sep");

  auto v = run_cli("verify " + quote_path(t / "v11" / "level0_Final.dat"));
  EXPECT_EQ(v.exit_code, 0) << v.out;
  ASSERT_EQ(run_cli("extract --textures " + quote_path(t / "v10" / "level0_Final.dat") + " -o " + quote_path(t / "png10")).exit_code, 0);
  auto x = run_cli("extract --textures " + quote_path(t / "v11" / "level0_Final.dat") + " -o " + quote_path(t / "png11"));
  ASSERT_EQ(x.exit_code, 0) << x.err;
  std::set<std::string> names10, names11;
  for (const auto& e : fs::directory_iterator(t / "png10")) names10.insert(e.path().filename().string());
  for (const auto& e : fs::directory_iterator(t / "png11")) names11.insert(e.path().filename().string());
  EXPECT_EQ(names11, names10);
  EXPECT_GE(names10.size(), 10u);
  for (const std::string& n : names10) EXPECT_EQ(png_pixels(t / "png11" / n), png_pixels(t / "png10" / n)) << n;
}

}  // namespace
}  // namespace assay::oni
