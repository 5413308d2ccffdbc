// The layout byte code: the spec's illustration walks (oni.md#oni-11, oni.md#oni-5-3), every
// opcode, fixed and variable arrays with all three count kinds, empty arrays, leaf flags, grammar
// errors, and the layouts file format.
#include <gtest/gtest.h>

#include "fixtures.h"

namespace assay::oni {
namespace {

using test::Bytes;
using test::compiled;

const char* kZpts = "02 02 05 14 04 06 07 02 05 03 02 06 08 06";
const char* kZtex = "02 02 05 10 04 06 02 03 03 09 4d 4e 41 5a 09 00 00 00 00 0a 06";
const char* kZlst = "02 02 05 16 04 06 07 03 09 00 00 00 00 08 06";

Result<WalkResult> walk(const CompiledLayout& l, const ByteBuffer& b, std::vector<FieldRef>& out) { return walk_instance(l, b, out); }

TEST(OniLayout, ZptsWalks) {
  const auto l = compiled(kZpts, 6);
  EXPECT_EQ(l.code.fixed_size, 0x20u);
  EXPECT_EQ(l.code.var_element, 0xCu);
  std::vector<FieldRef> refs;
  auto r0 = walk(l, Bytes(0x20).b, refs);
  ASSERT_TRUE(r0.ok());
  EXPECT_EQ(r0->end, 0x20u);
  auto r2 = walk(l, Bytes(0x40).u32(0x1C, 2).b, refs);
  ASSERT_TRUE(r2.ok());
  EXPECT_EQ(r2->end, 0x38u);
  auto r3 = walk(l, Bytes(0x40).u32(0x1C, 3).b, refs);  // needs 0x44
  ASSERT_FALSE(r3.ok());
  EXPECT_NE(r3.error().message.find("too long"), std::string::npos);
  auto huge = walk(l, Bytes(0x40).u32(0x1C, 0xFFFFFFFF).b, refs);
  ASSERT_FALSE(huge.ok());
  EXPECT_TRUE(refs.empty());
}

TEST(OniLayout, ZtexFieldsLinksAndRaw) {
  const auto l = compiled(kZtex, 4);
  EXPECT_EQ(l.code.fixed_size, 0x2Cu);
  EXPECT_FALSE(l.code.has_var);
  std::vector<FieldRef> refs;
  auto r = walk(l, Bytes(0x40).u32(0x20, 0x101).u32(0x24, 0x201).u32(0x28, 0x40).b, refs);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->end, 0x2Cu);
  ASSERT_EQ(refs.size(), 3u);
  EXPECT_EQ(refs[0].offset, 0x20u);
  EXPECT_EQ(refs[0].tag, make_tag("ZANM"));
  EXPECT_EQ(refs[0].kind, FieldKind::link);
  EXPECT_EQ(refs[1].offset, 0x24u);
  EXPECT_EQ(refs[1].tag, 0u);
  EXPECT_EQ(refs[2].offset, 0x28u);
  EXPECT_EQ(refs[2].kind, FieldKind::raw);
  EXPECT_EQ(refs[2].value, 0x40u);
  // One byte short: field past end.
  auto s = walk(l, Bytes(0x2B).b, refs);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().offset, 0x28u);
}

TEST(OniLayout, ZlstU16CountAndEmptyArray) {
  const auto l = compiled(kZlst);
  std::vector<FieldRef> refs;
  auto r = walk(l, Bytes(0x40).u16(0x1E, 3).u32(0x20, 0x101).u32(0x24, 0).u32(0x28, 0x201).b, refs);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->end, 0x2Cu);
  ASSERT_EQ(refs.size(), 2u);  // two non-zero links, one empty
  EXPECT_EQ(refs[0].value >> 8, 1u);
  EXPECT_EQ(refs[1].value >> 8, 2u);
  refs.clear();
  auto e = walk(l, Bytes(0x20).b, refs);  // count 0: the element code is skipped
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->end, 0x20u);
  EXPECT_TRUE(refs.empty());
}

TEST(OniLayout, AllFieldOpcodesAndCountKinds) {
  // 8, 4, 2, 1-byte fields, then an 8-byte count (kind 1) of {u8 + nested u32-count array of u16}.
  const auto l = compiled("02 02 01 02 03 04 07 01 04 07 02 03 08 08 0b 06");
  EXPECT_EQ(l.code.fixed_size, 8u + 8 + 4 + 2 + 1 + 8 + 4);
  EXPECT_FALSE(l.code.var_element.has_value());  // nested variable array: element size not fixed
  Bytes b(0x60);
  std::size_t o = 8 + 8 + 4 + 2 + 1;
  b.u32(o, 2);  // two elements
  b.u32(o + 4, 1);  // high half non-zero: counted, warned
  o += 8;
  // element 0: u8, count 2, two u16
  o += 1;
  b.u32(o, 2);
  o += 4 + 4;
  // element 1: u8, count 0
  o += 1;
  b.u32(o, 0);
  o += 4;
  b.u32(o, 0x60);  // sep offset
  std::vector<FieldRef> refs;
  auto r = walk(l, b.b, refs);
  ASSERT_TRUE(r.ok()) << r.error().str();
  EXPECT_EQ(r->end, o + 4);
  EXPECT_EQ(r->count_high_nonzero, 1u);
  ASSERT_EQ(refs.size(), 1u);
  EXPECT_EQ(refs[0].kind, FieldKind::sep);
  EXPECT_EQ(refs[0].offset, o);
}

TEST(OniLayout, FixedArraysNestAndRepeat) {
  const auto l = compiled("02 02 05 03 05 02 09 00 00 00 00 06 06 06");
  EXPECT_EQ(l.code.fixed_size, 8u + 3 * 2 * 4);
  Bytes b(0x20);
  for (std::size_t o = 8; o < 0x20; o += 4) b.u32(o, 0x101);
  std::vector<FieldRef> refs;
  ASSERT_TRUE(walk(l, b.b, refs).ok());
  EXPECT_EQ(refs.size(), 6u);
}

TEST(OniLayout, EmptyArraySkipsElementEvenWithNestedArrays) {
  // count 0: the element (with a nested fixed array and a link) is skipped; the cursor stays.
  const auto l = compiled("02 02 07 02 05 04 09 41 42 43 44 06 07 03 02 08 08 02 06");
  Bytes b(0x10);
  b.u32(8, 0).u32(12, 0x101);
  std::vector<FieldRef> refs;
  auto r = walk(l, b.b, refs);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->end, 0x10u);
  EXPECT_TRUE(refs.empty());
}

TEST(OniLayout, LeafFlags) {
  Bytes b(0x40);
  b.u16(0x1E, 2).u32(0x20, 0x101).u32(0x24, 0x201);
  std::vector<FieldRef> refs;
  ASSERT_TRUE(walk(compiled(kZlst, kTemplateLeaf), b.b, refs).ok());  // flag 2: walked for bounds, no links
  EXPECT_TRUE(refs.empty());
  ASSERT_TRUE(walk(compiled(kZlst, kTemplateVarArrayIsLeaf), b.b, refs).ok());  // flag 4: stops at opcode 7
  EXPECT_TRUE(refs.empty());
  ASSERT_TRUE(walk(compiled(kZlst, 0), b.b, refs).ok());
  EXPECT_EQ(refs.size(), 2u);
  refs.clear();
  // flag 4: links before the variable array are still recorded
  const auto t = compiled("02 02 09 00 00 00 00 07 02 09 00 00 00 00 08 06", kTemplateVarArrayIsLeaf);
  ASSERT_TRUE(walk(t, Bytes(0x20).u32(8, 0x101).u32(12, 1).u32(16, 0x201).b, refs).ok());
  ASSERT_EQ(refs.size(), 1u);
  EXPECT_EQ(refs[0].offset, 8u);
}

TEST(OniLayout, LeafFlagContradictionsWarn) {
  LayoutSet s;
  Diagnostics w;
  ASSERT_TRUE(s.add({0x41414141, 1, kTemplateLeaf, test::hex_bytes("02 02 09 00 00 00 00 06"), ""}, &w).ok());
  ASSERT_TRUE(s.add({0x41414142, 1, kTemplateVarArrayIsLeaf, test::hex_bytes(kZlst), ""}, &w).ok());
  EXPECT_EQ(w.count(Severity::warning), 2u);
}

std::string compile_error(const std::string& hex) {
  auto r = compile_layout(test::hex_bytes(hex));
  return r.ok() ? "" : r.error().message;
}

TEST(OniLayout, GrammarErrors) {
  EXPECT_NE(compile_error("02 02 05 00 04 06 06").find("fixed array count 0"), std::string::npos);
  EXPECT_NE(compile_error("02 02 07 02 08 06").find("empty array element"), std::string::npos);
  EXPECT_NE(compile_error("02 02 06 02").find("bytes after the final 06"), std::string::npos);
  EXPECT_NE(compile_error("02 06").find("does not start 02 02"), std::string::npos);
  EXPECT_NE(compile_error("02 02 0c 06").find("outside 1-11"), std::string::npos);
  EXPECT_NE(compile_error("02 02 00 06").find("outside 1-11"), std::string::npos);
  EXPECT_NE(compile_error("02 02 07 04 02 08 06").find("count kind 4"), std::string::npos);
  EXPECT_NE(compile_error("02 02 05 02 02 08 06").find("wrong kind"), std::string::npos);
  EXPECT_NE(compile_error("02 02 07 02 02 06 06").find("wrong kind"), std::string::npos);
  EXPECT_NE(compile_error("02 02 08").find("closes no variable array"), std::string::npos);
  EXPECT_NE(compile_error("02 02 09 00 00").find("4-byte tag"), std::string::npos);
  EXPECT_NE(compile_error("02 02 02 02").find("never ends"), std::string::npos);
  // Never ends: a long run of fields without 06.
  std::string run = "02 02";
  for (int i = 0; i < 1000; ++i) run += " 02";
  EXPECT_NE(compile_error(run).find("never ends"), std::string::npos);
  // Nests forever: 33 fixed arrays deep.
  std::string deep = "02 02";
  for (int i = 0; i < 40; ++i) deep += " 05 01";
  EXPECT_NE(compile_error(deep).find("nested deeper than 32"), std::string::npos);
  std::string ok = "02 02";
  for (int i = 0; i < 32; ++i) ok += " 05 01";
  ok += " 04";
  for (int i = 0; i < 32; ++i) ok += " 06";
  ok += " 06";
  EXPECT_EQ(compile_error(ok), "");
  // Longer than 65,535 bytes.
  ByteBuffer big{2, 2};
  big.resize(70000, 4);
  big.push_back(6);
  EXPECT_FALSE(compile_layout(big).ok());
}

TEST(OniLayout, DeepFixedArraysAreBoundedByTheInstance) {
  // 255^32 repetitions if unchecked; the walk stops at the instance's end.
  std::string s = "02 02";
  for (int i = 0; i < 32; ++i) s += " 05 ff";
  s += " 04";
  for (int i = 0; i < 32; ++i) s += " 06";
  s += " 06";
  const auto l = compiled(s);
  std::vector<FieldRef> refs;
  auto r = walk(l, Bytes(0x100).b, refs);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("past end"), std::string::npos);
}

TEST(OniLayoutsFile, ParsesTheSpecIllustration) {
  const std::string text =
      "# Illustration only: not Oni layouts.\n"
      "ZPTS 0x00000000000000a1 6 02 02 05 14 04 06 07 02 05 03 02 06 08 06  # point array\r\n"
      "\n"
      "ZTEX 0x00000000000000A2 4\t02 02 05 10 04 06 02 03 03 09 4d 4e 41 5a 09 00 00 00 00 0a 06  # texture-like\n"
      "ZLST 0x00000000000000a3 0x0 02 02 05 16 04 06 07 03 09 00 00 00 00 08 06  # link list\n";
  auto s = parse_layouts_file(text, "t");
  ASSERT_TRUE(s.ok()) << s.error().str();
  ASSERT_EQ(s->all().size(), 3u);
  const CompiledLayout* z = s->find(make_tag("ZTEX"), 0xa2);
  ASSERT_NE(z, nullptr);
  EXPECT_EQ(z->layout.flags, 4u);
  EXPECT_EQ(z->layout.name, "texture-like");
  EXPECT_EQ(format_layout_line(s->find(make_tag("ZPTS"), 0xa1)->layout),
            "ZPTS 0x00000000000000a1 6 02 02 05 14 04 06 07 02 05 03 02 06 08 06  # point array");
  EXPECT_EQ(s->find(make_tag("ZTEX"), 0xa3), nullptr);
}

TEST(OniLayoutsFile, MalformedLinesNameTheLine) {
  auto err = [](const std::string& text) {
    auto s = parse_layouts_file(text, "t");
    return s.ok() ? std::string() : s.error().str();
  };
  EXPECT_NE(err("ZPTS 0xa1 6 02 02 06\n").find("16 hex digits"), std::string::npos);  // spec vector
  EXPECT_NE(err("# c\nZPTS 0xa1 6 02 02 06\n").find("line 2"), std::string::npos);
  EXPECT_NE(err("ZPT 0x00000000000000a1 6 02 02 06\n").find("four bytes"), std::string::npos);
  EXPECT_NE(err("ZPTS 0x00000000000000a1 6x 02 02 06\n").find("flags"), std::string::npos);
  EXPECT_NE(err("ZPTS 0x00000000000000a1 0x123456789 02 02 06\n").find("flags"), std::string::npos);
  EXPECT_NE(err("ZPTS 0x00000000000000a1 6 02 2 06\n").find("two hex digits"), std::string::npos);
  EXPECT_NE(err("ZPTS 0x00000000000000a1 6 02 02 06 02\n").find("after the final 06"), std::string::npos);
  EXPECT_NE(err("ZPTS 0x00000000000000a1 6 02 02 06\nZPTS 0x00000000000000a1 2 02 02 06\n").find("twice"), std::string::npos);
  EXPECT_EQ(err("ZPTS 0x00000000000000a1 6 02 02 06\nZPTS 0x00000000000000a2 2 02 02 06\n"), "");  // same tag, two checksums
  EXPECT_NE(err("ZPTS 0x00000000000000a1 6\n").find("expected"), std::string::npos);
  EXPECT_NE(err(std::string(200001, 'x') + "\n").find("200,000"), std::string::npos);
  std::string many;
  for (int i = 0; i < 4097; ++i) many += "ZPTS 0x" + std::string(16 - std::to_string(i).size(), '0') + std::to_string(i) + " 0 02 02 06\n";
  EXPECT_NE(err(many).find("4,096"), std::string::npos);
}

TEST(OniLayout, TxmpSizes) {
  EXPECT_EQ(txmp_data_size(256, 256, 1, false), 131072u);
  EXPECT_EQ(txmp_data_size(256, 256, 9, false), 32768u);
  EXPECT_EQ(txmp_data_size(2, 2, 9, false), 8u);
  EXPECT_EQ(txmp_data_size(4, 4, 8, true), 4u * 4 * 4 + 2 * 2 * 4 + 4);  // the 1x1 level is stored (OniSplit)
  EXPECT_FALSE(txmp_data_size(4, 4, 5, false).has_value());
}

}  // namespace
}  // namespace assay::oni

namespace assay::oni {
namespace {

// spec: oni.md#oni-8: a .oni has no template table; several layouts for a tag are chosen by the
// header's set through the per-template checksums of oni.md#oni-9-2.
TEST(OniLayout, ChoiceWithoutTemplateTable) {
  const std::string txmp = " 4 02 02 05 80 04 06 02 03 03 02 09 4e 41 58 54 09 50 4d 58 54 02 02 02 02 02 06\n";
  auto s = parse_layouts_file("TXMP 0x0000000891187581" + txmp + "TXMP 0x00000008911eeb5f" + txmp +
                                  "ZANM 0x00000000000000a4 2 02 02 05 18 04 06 06\n",
                              "t");
  ASSERT_TRUE(s.ok()) << s.error().str();
  auto v10 = s->choose_without_table(make_tag("TXMP"), kChecksumV10);
  ASSERT_TRUE(v10.ok());
  EXPECT_EQ((*v10)->checksum(), 0x891187581ull);
  ASSERT_EQ((*v10)->chunk_rules.size(), 1u);
  EXPECT_EQ((*v10)->chunk_rules[0].offset, 0x9Cu);
  EXPECT_EQ((*v10)->chunk_rules[0].kind, FieldKind::raw);
  auto v11 = s->choose_without_table(make_tag("TXMP"), kChecksumV11);
  ASSERT_TRUE(v11.ok());
  EXPECT_EQ((*v11)->checksum(), 0x8911EEB5Full);
  EXPECT_EQ((*v11)->chunk_rules[0].offset, 0xA0u);
  EXPECT_EQ((*v11)->chunk_rules[0].kind, FieldKind::sep);
  auto unknown = s->choose_without_table(make_tag("TXMP"), 0x1234);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("cannot choose a layout for TXMP"), std::string::npos);
  EXPECT_TRUE(s->choose_without_table(make_tag("ZANM"), 0x1234).ok());  // one candidate
  EXPECT_FALSE(s->choose_without_table(make_tag("ZZZZ"), kChecksumV10).ok());
  // The v1.0 TXMP walk reports its pixel offset at 0x9c with the size from the header fields.
  std::vector<FieldRef> refs;
  test::Bytes inst(0xC0);
  inst.u32(0x9C, 0x40);
  ASSERT_TRUE(walk_instance(**v10, inst.b, refs).ok());
  ASSERT_EQ(refs.size(), 1u);
  EXPECT_EQ(refs[0].offset, 0x9Cu);
  EXPECT_EQ(refs[0].size, ChunkSize::txmp);
  // With a 0x0A opcode in the layout, the opcode wins over the table.
  auto op = parse_layouts_file("TXMP 0x0000000891187581 4 02 02 05 80 04 06 02 03 03 02 09 4e 41 58 54 09 50 4d 58 54 0a 02 02 02 02 06\n", "t");
  ASSERT_TRUE(op.ok());
  EXPECT_TRUE(op->all()[0].chunk_rules.empty());
}

}  // namespace
}  // namespace assay::oni
