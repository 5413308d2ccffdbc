// The flat walk program of `oni check` (src/formats/oni/check_walk.h): programs and walks worked
// out by hand from the opcodes of spec oni.md#oni-4-3, and the same links and ends as
// walk_instance (the reference walker) for every retail template over varied instance bytes.
#include <gtest/gtest.h>

#include <random>

#include "../../../src/formats/oni/check_walk.h"
#include "assay/formats/oni/names.h"

namespace assay::oni::detail {
namespace {

CompiledLayout layout_of(const std::vector<std::uint8_t>& code, std::uint32_t flags = 0) {
  CompiledLayout l;
  l.layout.code = code;
  l.layout.flags = flags;
  auto c = compile_layout(code);
  EXPECT_TRUE(c.ok());
  if (c) l.code = *c;
  return l;
}

// 02 02 (instance header), 05 16 04 06 (22 single bytes), 07 03 (2-byte count) 09 ZANM 08 (links), 06.
const std::vector<std::uint8_t> kLinkList = {2, 2, 5, 0x16, 4, 6, 7, 3, 9, 'M', 'N', 'A', 'Z', 8, 6};

struct Found {
  std::uint32_t offset, value, tag;
  bool operator==(const Found&) const = default;
};

TEST(OniCheckWalk, LinkListProgramIsWorkedOutByHand) {
  auto p = compile_flat(layout_of(kLinkList));
  ASSERT_TRUE(p);
  ASSERT_EQ(p->segments.size(), 2u);  // the array's segment, then the empty run before the final 06
  EXPECT_EQ(p->segments[0].fixed.size, 8u + 0x16u);
  EXPECT_TRUE(p->segments[0].fixed.links.empty());
  EXPECT_EQ(p->segments[0].count_size, 2);
  EXPECT_EQ(p->segments[0].element.size, 4u);
  ASSERT_EQ(p->segments[0].element.links.size(), 1u);
  EXPECT_EQ(p->segments[0].element.links[0].tag, make_tag("ZANM"));
  EXPECT_EQ(p->segments[1].fixed.size, 0u);
}

TEST(OniCheckWalk, LinksComeAtTheHandComputedOffsets) {
  auto p = compile_flat(layout_of(kLinkList));
  ASSERT_TRUE(p);
  ByteBuffer inst(8 + 0x16 + 2 + 3 * 4 + 4, 0);  // 4 spare bytes after the walked end
  inst[30] = 3;                                   // the count at 8 + 0x16
  store<std::uint32_t>(inst.data() + 32, 0x101, Endian::little);
  store<std::uint32_t>(inst.data() + 40, 0x501, Endian::little);  // 36 holds 0: no link
  std::vector<Found> got;
  FlatWalk w;
  ASSERT_TRUE(walk_flat(*p, inst, w, [&](std::uint32_t o, std::uint32_t v, std::uint32_t t) { return got.push_back({o, v, t}), true; }));
  EXPECT_EQ(w.end, 44u);
  EXPECT_EQ(got, (std::vector<Found>{{32, 0x101, make_tag("ZANM")}, {40, 0x501, make_tag("ZANM")}}));
  // One element short: the 3 x 4 bytes do not fit, and nothing is walked.
  EXPECT_FALSE(walk_flat(*p, ByteView(inst).first(43), w, [](auto...) { return true; }));
  // A refused link stops the walk (the caller walks again with walk_instance to report it).
  EXPECT_FALSE(walk_flat(*p, inst, w, [](auto...) { return false; }));
}

TEST(OniCheckWalk, FixedArraysOfLinksAreUnrolled) {
  // 02 02, 05 03 09 any 01 06 (3 x (link + byte)), 06: links at 8, 13, 18.
  auto p = compile_flat(layout_of({2, 2, 5, 3, 9, 0, 0, 0, 0, 4, 6, 6}));
  ASSERT_TRUE(p);
  ASSERT_EQ(p->segments.size(), 1u);
  EXPECT_EQ(p->segments[0].fixed.size, 8u + 15u);
  std::vector<std::uint32_t> at;
  for (const FlatLink& l : p->segments[0].fixed.links) at.push_back(l.offset);
  EXPECT_EQ(at, (std::vector<std::uint32_t>{8, 13, 18}));
}

TEST(OniCheckWalk, LeafFlagsDropLinksAsTheSpecSays) {
  // spec: oni.md#oni-4-2: flag 2 records no links; flag 4 stops recording at the first opcode 07.
  const std::vector<std::uint8_t> code = {2, 2, 9, 0, 0, 0, 0, 7, 2, 9, 0, 0, 0, 0, 8, 9, 0, 0, 0, 0, 6};
  auto leaf = compile_flat(layout_of(code, kTemplateLeaf));
  ASSERT_TRUE(leaf);
  for (const auto& s : leaf->segments) EXPECT_TRUE(s.fixed.links.empty() && s.element.links.empty());
  auto var_leaf = compile_flat(layout_of(code, kTemplateVarArrayIsLeaf));
  ASSERT_TRUE(var_leaf);
  ASSERT_EQ(var_leaf->segments.size(), 2u);
  EXPECT_EQ(var_leaf->segments[0].fixed.links.size(), 1u);  // before the 07
  EXPECT_TRUE(var_leaf->segments[0].element.links.empty());
  EXPECT_TRUE(var_leaf->segments[1].fixed.links.empty());    // after it
  EXPECT_EQ(var_leaf->segments[0].count_size, 4);            // 07 02: a 4-byte count
}

TEST(OniCheckWalk, NestedVariableArraysAndRawFieldsAreLeftToTheByteCode) {
  // 07 02 (07 03 01 08) 08: a variable array inside a variable array.
  EXPECT_FALSE(compile_flat(layout_of({2, 2, 7, 2, 7, 3, 4, 8, 8, 6})));
  // 05 02 (07 03 01 08) 06: one inside a fixed array.
  EXPECT_FALSE(compile_flat(layout_of({2, 2, 5, 2, 7, 3, 4, 8, 6, 6})));
  // 0A: a .raw offset field.
  CompiledLayout raw = layout_of({2, 2, 10, 6});
  EXPECT_FALSE(compile_flat(raw));
}

// What walk_instance finds, as Found values; nullopt when it reports a problem.
std::optional<std::pair<std::uint64_t, std::vector<Found>>> reference(const CompiledLayout& l, ByteView inst) {
  std::vector<FieldRef> refs;
  auto w = walk_instance(l, inst, refs);
  if (!w) return std::nullopt;
  std::vector<Found> out;
  for (const FieldRef& r : refs) out.push_back({r.offset, r.value, r.tag});
  return std::make_pair(w->end, out);
}

TEST(OniCheckWalk, SameLinksAndEndsAsWalkInstanceForEveryRetailTemplate) {
  std::mt19937 rng(12);
  int flat = 0, compared = 0;
  for (TemplateSet set : {TemplateSet::v10, TemplateSet::v11}) {
    for (const CompiledLayout& l : builtin_layouts(set).all()) {
      auto p = compile_flat(l);
      if (!p) continue;
      ++flat;
      for (int trial = 0; trial < 40; ++trial) {
        // Sizes around the fixed size; small counts so that arrays fit as often as not.
        ByteBuffer inst(l.code.fixed_size + rng() % 96, 0);
        for (auto& b : inst) b = (rng() % 4 == 0) ? static_cast<std::uint8_t>(rng()) : 0;
        for (std::size_t k = 0; k + 4 <= inst.size(); k += 4)
          if (rng() % 3 == 0) store<std::uint32_t>(inst.data() + k, rng() % 4, Endian::little);
        std::vector<Found> got;
        FlatWalk w;
        const bool ok = walk_flat(*p, inst, w, [&](std::uint32_t o, std::uint32_t v, std::uint32_t t) { return got.push_back({o, v, t}), true; });
        const auto want = reference(l, inst);
        ASSERT_EQ(ok, want.has_value()) << tag_string(l.tag()) << " trial " << trial;
        if (!ok) continue;
        ++compared;
        EXPECT_EQ(w.end, want->first) << tag_string(l.tag());
        EXPECT_EQ(got, want->second) << tag_string(l.tag());
      }
    }
  }
  EXPECT_GT(flat, 50);  // most of the 114 retail templates are flat
  EXPECT_GT(compared, 500);
}

}  // namespace
}  // namespace assay::oni::detail
