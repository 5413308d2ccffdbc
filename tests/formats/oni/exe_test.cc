// Layouts from a small synthetic PE32 built here: a template table, the start-up code's
// `mov dword [mem], imm32` stores (C7 05 addr imm), and the count at 0x558cf0 (spec: oni.md#oni-4-5).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fixtures.h"
#include "testing/testing.h"

namespace assay::oni {
namespace {

constexpr std::uint32_t kBase = 0x400000;
constexpr std::uint32_t kTextRva = 0x11D000, kTextRaw = 0x200, kTextSize = 0x400;
constexpr std::uint32_t kDataRva = 0x158000, kDataRaw = 0x600, kDataSize = 0x1000;
constexpr std::uint32_t kTable = 0x558100, kNames = 0x558400, kCode = 0x558600;

struct PeOptions {
  bool store_base = true;
  bool wrong_size = false;
  bool skip_layout_1 = false;
  std::uint16_t machine = 0x14C;
  std::uint16_t magic = 0x10B;
};

ByteBuffer build_pe(const std::vector<Layout>& ls, const PeOptions& o = {}) {
  ByteBuffer b(kDataRaw + kDataSize, 0);
  auto u16 = [&](std::size_t at, std::uint16_t v) { store<std::uint16_t>(b.data() + at, v, Endian::little); };
  auto u32 = [&](std::size_t at, std::uint32_t v) { store<std::uint32_t>(b.data() + at, v, Endian::little); };
  auto data_off = [](std::uint32_t va) { return kDataRaw + (va - kBase - kDataRva); };
  b[0] = 'M', b[1] = 'Z';
  u32(0x3C, 0x40);
  b[0x40] = 'P', b[0x41] = 'E';
  u16(0x44, o.machine);
  u16(0x46, 2);
  u16(0x54, 0xE0);
  u16(0x58, o.magic);
  u32(0x58 + 28, kBase);
  const std::size_t st = 0x58 + 0xE0;
  const std::uint32_t sec[2][4] = {{0x1000, kTextRva, kTextSize, kTextRaw}, {0x2000, kDataRva, kDataSize, kDataRaw}};
  for (int s = 0; s < 2; ++s)
    for (int k = 0; k < 4; ++k) u32(st + s * 40 + 8 + k * 4, sec[s][k]);
  u32(data_off(0x558CF0), static_cast<std::uint32_t>(ls.size()));
  std::size_t code = kTextRaw + (0x51D1C0 - kBase - kTextRva);
  auto mov = [&](std::uint32_t addr, std::uint32_t imm) {
    b[code] = 0xC7, b[code + 1] = 0x05;
    u32(code + 2, addr);
    u32(code + 6, imm);
    code += 10;
  };
  mov(0x00600000, 0x12345678);  // an unrelated store
  b[code++] = 0x90;
  std::uint32_t name_va = kNames, code_va = kCode;
  for (std::size_t i = 0; i < ls.size(); ++i) {
    const Layout& l = ls[i];
    const std::uint32_t e = kTable + static_cast<std::uint32_t>(i) * 0x30;
    store<std::uint64_t>(b.data() + data_off(e), l.checksum, Endian::little);
    u32(data_off(e) + 8, l.tag);
    u32(data_off(e) + 0x0C, name_va);
    u32(data_off(e) + 0x14, l.flags);
    auto cc = compile_layout(l.code);
    u32(data_off(e) + 0x18, static_cast<std::uint32_t>(cc->fixed_size) + (o.wrong_size && i == 0 ? 4 : 0));
    u32(data_off(e) + 0x1C, cc->has_var ? static_cast<std::uint32_t>(cc->var_element.value_or(0)) : 0);
    std::copy(l.name.begin(), l.name.end(), b.begin() + static_cast<std::ptrdiff_t>(data_off(name_va)));
    name_va += static_cast<std::uint32_t>(l.name.size()) + 1;
    std::copy(l.code.begin(), l.code.end(), b.begin() + static_cast<std::ptrdiff_t>(data_off(code_va)));
    b[data_off(code_va) + l.code.size()] = 0x02;  // trailing bytes after the final 06 are not the layout's
    if (!(o.skip_layout_1 && i == 1)) mov(e + 0x10, code_va);
    code_va += static_cast<std::uint32_t>(l.code.size()) + 16;
    if (i == 0) mov(kTable + 0x08, 0x41414141);  // a store into the table but not at +0x10: ignored
  }
  if (o.store_base) mov(0x620138, kTable);
  mov(kTable + 0x10, 0xDEAD);  // after the base store: never read
  return b;
}

std::vector<Layout> sample_layout_list() {
  std::vector<Layout> out;
  const LayoutSet set = test::sample_layouts();
  for (const auto& c : set.all()) out.push_back(c.layout);
  return out;
}

TEST(OniExe, ExtractsTheTableInOrder) {
  const auto ls = sample_layout_list();
  const ByteBuffer pe = build_pe(ls);
  auto got = extract_layouts_from_exe(pe, "Oni.exe");
  ASSERT_TRUE(got.ok()) << got.error().str();
  ASSERT_EQ(got->size(), 5u);
  for (std::size_t i = 0; i < ls.size(); ++i) {
    EXPECT_EQ((*got)[i].tag, ls[i].tag);
    EXPECT_EQ((*got)[i].checksum, ls[i].checksum);
    EXPECT_EQ((*got)[i].flags, ls[i].flags);
    EXPECT_EQ((*got)[i].code, ls[i].code);
    EXPECT_EQ((*got)[i].name, ls[i].name);
  }
  const std::string text = format_layouts_file(*got, "Oni.exe, 5 templates");
  EXPECT_EQ(text.substr(0, text.find('\n', text.find('\n') + 1) + 1), "# assay layouts v1\n# source: Oni.exe, 5 templates\n");
  EXPECT_NE(text.find("\nZPTS 0x00000000000000a1 6 02 02 05 14 04 06 07 02 05 03 02 06 08 06  # point array\n"), std::string::npos);
  EXPECT_EQ(text.back(), '\n');
  auto again = parse_layouts_file(text, "x");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->all().size(), 5u);
}

TEST(OniExe, Refusals) {
  const auto ls = sample_layout_list();
  auto err = [&](const PeOptions& o) {
    auto r = extract_layouts_from_exe(build_pe(ls, o), "Oni.exe");
    return r.ok() ? std::string() : r.error().message;
  };
  EXPECT_NE(err({.store_base = false}).find("unrecognised Oni.exe build"), std::string::npos);
  EXPECT_NE(err({.wrong_size = true}).find("the table says"), std::string::npos);
  EXPECT_NE(err({.skip_layout_1 = true}).find("no layout stored"), std::string::npos);
  EXPECT_NE(err({.machine = 0x8664}).find("machine"), std::string::npos);
  EXPECT_NE(err({.magic = 0x20B}).find("PE32"), std::string::npos);
  ByteBuffer pe = build_pe(ls);
  store<std::uint16_t>(pe.data() + 0x46, 97, Endian::little);
  EXPECT_FALSE(extract_layouts_from_exe(pe, "x").ok());
  // Every prefix: a clean error.
  const ByteBuffer good = build_pe(ls);
  for (std::size_t n = 0; n < good.size(); n += 7) EXPECT_FALSE(extract_layouts_from_exe(ByteView(good).first(n), "x").ok());
  // The count out of range.
  ByteBuffer c = build_pe(ls);
  store<std::uint32_t>(c.data() + kDataRaw + 0xCF0, 0, Endian::little);
  EXPECT_FALSE(extract_layouts_from_exe(c, "x").ok());
  store<std::uint32_t>(c.data() + kDataRaw + 0xCF0, 0xFFFFFFFF, Endian::little);
  EXPECT_FALSE(extract_layouts_from_exe(c, "x").ok());
}

TEST(OniExe, CliLayoutsAndCheck) {
  testing::TempDir dir;
  ASSERT_TRUE(write_sample_files(dir.path()).ok());
  std::filesystem::remove(dir / "oni-layouts.txt");
  testing::write_file(dir / "Oni.exe", build_pe(sample_layout_list()));
  auto r = testing::run_cli("oni layouts --exe " + testing::shell_quote((dir / "Oni.exe").string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("# assay layouts v1\n# source: Oni.exe, 5 templates\nZPTS ", 0), 0u);
  auto c = testing::run_cli("oni check " + testing::shell_quote(dir.path().string()) + " --json --exe " + testing::shell_quote((dir / "Oni.exe").string()));
  ASSERT_EQ(c.exit_code, 0) << c.err << c.out;
  auto j = nlohmann::json::parse(c.out);
  EXPECT_EQ(j["all"]["links"], 9);
  EXPECT_EQ(j["levels"][1]["into_level0"], 2);
  // No layout option: the built-in retail v1.0 set (the header's checksum) does not know the synthetic Z* templates.
  auto b = testing::run_cli("oni check " + testing::shell_quote(dir.path().string()));
  EXPECT_EQ(b.exit_code, 1);
  EXPECT_NE(b.out.find("template ZPTS checksum 0x00000000000000a1 unknown to the built-in v1.0 layouts"), std::string::npos) << b.out;
}

}  // namespace
}  // namespace assay::oni
