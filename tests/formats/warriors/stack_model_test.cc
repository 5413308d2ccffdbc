// The handler models against spec warriors.md#wr-11-4 (stack-model vectors), #wr-6-2 (Level
// Header pop sequence), #wr-6-1 (Character Data slots), #wr-4-1 (pops per type), and the seed's
// handler table (000_6c544a494bb768a7: file order loads, the same chunks out of order fail).
#include <gtest/gtest.h>

#include <algorithm>

#include "assay/core/hash.h"
#include "assay/formats/warriors/chunks.h"
#include "assay/formats/warriors/samples.h"
#include "helpers.h"

namespace assay::warriors {
namespace {

LoadResult load_chunks(const std::vector<ChunkSpec>& chunks, const HandlerTable& t = HandlerTable::standard()) {
  auto r = write_resource(0x1234, chunks);
  EXPECT_TRUE(r);
  static std::vector<ByteBuffer> keep;  // the result views the entry
  keep.push_back(std::move(*r));
  return load_flat(keep.back(), t);
}

std::vector<std::uint32_t> stack_types(const LoadResult& r) {
  std::vector<std::uint32_t> t;
  for (const auto& c : r.stacks.chunks()) t.push_back(c.type);
  return t;
}

std::vector<std::string> object_kinds(const LoadResult& r) {
  std::vector<std::string> k;
  for (const auto& o : r.stacks.objects()) k.emplace_back(object_kind(o));
  return k;
}

ChunkSpec raw(std::uint32_t type, std::size_t size) { return {type, 0, ByteBuffer(size, 0), 0}; }

TEST(WarriorsStackModel, AnimationPairMakesOneAnimation) {
  LoadResult r = load_chunks(samples::animation_chunks("walk"));
  ASSERT_TRUE(r.ok()) << r.error->str();
  EXPECT_TRUE(r.stacks.chunks().empty());
  ASSERT_EQ(object_kinds(r), std::vector<std::string>{"animation"});
  const auto& a = std::get<Animation>(r.stacks.objects()[0]);
  EXPECT_EQ(a.name, "walk");  // char[30] at +0x25
  EXPECT_FLOAT_EQ(a.duration, 1.5f);
}

TEST(WarriorsStackModel, AnimDataIsRawBeforeBoot) {
  // 0x02's onLoaded is registered at run time (0x00104818): the static table leaves it raw.
  LoadResult r = load_chunks(samples::animation_chunks("walk"), HandlerTable::original_static());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(stack_types(r), (std::vector<std::uint32_t>{0x00, 0x02}));
  EXPECT_TRUE(r.stacks.objects().empty());
}

TEST(WarriorsStackModel, OutOfOrderAnimationFailsNamingTheChunk) {
  auto c = samples::animation_chunks("walk");
  std::swap(c[0], c[1]);  // 0x02 before 0x00
  LoadResult r = load_chunks(c);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error->structure.find("chunk 0 at 0x10, type 0x02 Anim Data"), std::string::npos) << r.error->str();
  EXPECT_NE(r.error->message.find("expected 0x00 Anim Rot Keyframes on the chunk stack, found it empty"), std::string::npos)
      << r.error->str();
  EXPECT_EQ(stack_types(r), std::vector<std::uint32_t>{0x02});  // the failed pop left the stack as it was
}

TEST(WarriorsStackModel, TextureDictionaryBecomes0x0B) {
  LoadResult r = load_chunks({{0x2A, 0, rw_texture_dictionary(0), 0}});
  ASSERT_TRUE(r.ok()) << r.error->str();
  EXPECT_EQ(stack_types(r), std::vector<std::uint32_t>{0x0B});
  EXPECT_TRUE(r.stacks.objects().empty());
  // 0x0B chunks are read the same way
  LoadResult b = load_chunks({{0x0B, 0, rw_texture_dictionary(2), 0}});
  ASSERT_TRUE(b.ok()) << b.error->str();
  EXPECT_EQ(std::get<TexDictValue>(b.stacks.chunks()[0].value).textures, 2u);
}

TEST(WarriorsStackModel, SpriteSheetLinksThePage) {
  auto bytes = samples::sprite_sheet();
  LoadResult r = load_flat(bytes, HandlerTable::standard());
  ASSERT_TRUE(r.ok()) << r.error->str();
  EXPECT_EQ(stack_types(r), std::vector<std::uint32_t>{0x4C});
  EXPECT_EQ(std::get<SpritePage>(r.stacks.chunks()[0].value).rects, 1u);
}

TEST(WarriorsStackModel, ParticlePageAloneFailsAndKeepsItsChunk) {
  ByteBuffer page(0x14 + 16, 0);
  page[4] = 1;
  LoadResult r = load_chunks({{0x4C, 0, page, 0}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error->message.find("expected 0x0B"), std::string::npos);
  EXPECT_EQ(stack_types(r), std::vector<std::uint32_t>{0x4C});
}

TEST(WarriorsStackModel, ClumpResultsByAtomicCount) {
  LoadResult one = load_chunks({{0x47, 0, rw_clump(1), 0}});
  ASSERT_TRUE(one.ok()) << one.error->str();
  EXPECT_EQ(stack_types(one), std::vector<std::uint32_t>{0x41});
  LoadResult eleven = load_chunks({{0x47, 0, rw_clump(11), 0}});
  ASSERT_TRUE(eleven.ok());
  EXPECT_EQ(stack_types(eleven), std::vector<std::uint32_t>{0x50});
  LoadResult skinned = load_chunks({{0x47, 0, rw_clump(1), 0}, raw(0x28, 544)});
  ASSERT_TRUE(skinned.ok());
  EXPECT_EQ(stack_types(skinned), (std::vector<std::uint32_t>{0x41, 0x28}));
  for (std::uint32_t t : {0x09u, 0x25u}) {  // the same reader (0x0017f2c0)
    LoadResult r = load_chunks({{t, 0, rw_clump(2), 0}});
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(stack_types(r), std::vector<std::uint32_t>{0x50});
  }
}

TEST(WarriorsStackModel, Retag) {
  for (std::uint32_t t : {0x0Eu, 0x14u, 0x30u}) {
    LoadResult r = load_chunks({raw(t, 16)});
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(stack_types(r), std::vector<std::uint32_t>{0x14}) << t;
  }
  // retag pops the top chunk whatever it is: a 0x28 under a 0x0E is not touched
  LoadResult r = load_chunks({raw(0x28, 16), raw(0x0E, 32)});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(stack_types(r), (std::vector<std::uint32_t>{0x28, 0x14}));
  EXPECT_EQ(r.stacks.chunks()[1].data.size(), 32u);
}

TEST(WarriorsStackModel, CharacterDataResolvesSlots) {
  // slots {0, 1, rest 0xFFFFFFFF}: two clips popped; slot value 0 gets the clip loaded last.
  LoadResult r = load_chunks(samples::character_chunks(2, {0, 1}));
  ASSERT_TRUE(r.ok()) << r.error->str();
  EXPECT_TRUE(r.stacks.chunks().empty());
  ASSERT_EQ(object_kinds(r), std::vector<std::string>{"character"});
  const auto& ch = std::get<Character>(r.stacks.objects()[0]);
  ASSERT_EQ(ch.clips.size(), 2u);
  EXPECT_EQ(ch.clips[ch.slot_index[0]].name, "clip1");  // loaded last, popped first, smallest n
  EXPECT_EQ(ch.clips[ch.slot_index[1]].name, "clip0");
  EXPECT_EQ(ch.slot_index[2], 0xFFFFFFFFu);
  EXPECT_EQ(ch.default_slots, 720u);
  EXPECT_EQ(ch.anim_ranges, 722u);
  // slots sharing one index share one object
  LoadResult s = load_chunks(samples::character_chunks(1, {0, 0xFFFFFFFF, 0}));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(std::get<Character>(s.stacks.objects()[0]).clips.size(), 1u);
}

TEST(WarriorsStackModel, CharacterDataWithTooFewObjectsFailsUnchanged) {
  LoadResult r = load_chunks(samples::character_chunks(2, {0, 1, 2}));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error->message.find("V14/V6: 3 distinct slot indices"), std::string::npos) << r.error->str();
  EXPECT_EQ(stack_types(r), (std::vector<std::uint32_t>{0x45, 0x08}));  // as before the failing pop
  EXPECT_EQ(object_kinds(r), (std::vector<std::string>{"animation", "animation"}));
  LoadResult big = load_chunks(samples::character_chunks(2, {0, 0x2d2}));
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.error->message.find("V14: slot 1 holds 0x2d2"), std::string::npos);
}

TEST(WarriorsStackModel, GlobalResourceStoresEverything) {
  auto chunks = samples::global_chunks();
  for (int pass = 0; pass < 2; ++pass) {  // any order: each pops only itself
    LoadResult r = load_chunks(chunks);
    ASSERT_TRUE(r.ok()) << r.error->str();
    EXPECT_TRUE(r.stacks.chunks().empty());
    EXPECT_TRUE(r.stacks.objects().empty());
    ASSERT_EQ(r.stored.size(), 9u);
    std::reverse(chunks.begin(), chunks.end());
  }
  LoadResult r = load_chunks(samples::global_chunks());
  auto find = [&](std::uint32_t t) {
    return *std::find_if(r.stored.begin(), r.stored.end(), [&](const StoredItem& s) { return s.type == t; });
  };
  EXPECT_EQ(find(0x29).slot, "audio.static_sounds");
  const StoredItem deps = find(0x4F);
  EXPECT_EQ(deps.fields.at(0), (std::pair<std::string, std::uint64_t>{"count", 2}));
  EXPECT_EQ(deps.fields.at(1), (std::pair<std::string, std::uint64_t>{"always_dependencies", 1}));
}

TEST(WarriorsStackModel, CountedArraysAreCheckedAgainstTheChunk) {
  // Character List: 16-byte header, 32-byte records at +0x10; a count of 0x7FFFFFFF cannot fit
  ByteBuffer list = test::le32({0x7FFFFFFF, 0, 0, 0});
  list.resize(48, 0);
  LoadResult r = load_chunks({{0x44, 0, list, 0}});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error->message.find("count 2147483647"), std::string::npos);
  EXPECT_EQ(stack_types(r), std::vector<std::uint32_t>{0x44});
  // Scene List: u32 count then 24-byte records (V11: align16(4 + 24 count))
  LoadResult s = load_flat(samples::scene_list(3), HandlerTable::standard());
  ASSERT_TRUE(s.ok()) << s.error->str();
  ASSERT_EQ(s.stored.size(), 1u);
  EXPECT_EQ(s.stored[0].fields.at(0).second, 3u);
  // Light Glow Data: 40-byte records at +0x10
  ByteBuffer glow = test::le32({2, 0, 0, 0});
  glow.resize(0x10 + 40, 0);  // only one record fits
  LoadResult g = load_chunks({{0x4B, 0, glow, 0}});
  ASSERT_FALSE(g.ok());
  // Game Object List pops 0x24, 0x23, 0x22 and builds an object
  LoadResult o = load_chunks({raw(0x22, 16), raw(0x23, 32), raw(0x24, 48)});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(object_kinds(o), std::vector<std::string>{"game_object_list"});
  // World Header pops 0x16, 0x42, 0x0B
  LoadResult w = load_chunks({{0x2A, 0, rw_texture_dictionary(0), 0}, {0x15, 0, rw_world(), 0}, raw(0x16, 16)});
  ASSERT_TRUE(w.ok()) << w.error->str();
  EXPECT_EQ(object_kinds(w), std::vector<std::string>{"world"});
  EXPECT_TRUE(w.stacks.chunks().empty());
}

TEST(WarriorsStackModel, LevelHeaderSequence) {
  LoadResult r = load_chunks(samples::level_chunks());
  ASSERT_TRUE(r.ok()) << r.error->str();
  EXPECT_EQ(r.chunks.size(), 18u);
  EXPECT_TRUE(r.stacks.chunks().empty());
  ASSERT_EQ(object_kinds(r), std::vector<std::string>{"level"});
  const auto& lv = std::get<Level>(r.stacks.objects()[0]);
  EXPECT_EQ(lv.mesh.triangles, 1u);
  EXPECT_EQ(lv.occluders, 1u);
  ASSERT_EQ(r.stored.size(), 2u);  // PathData and Subtitles
  EXPECT_EQ(r.stored[0].type, 0x40u);
  EXPECT_EQ(r.stored[1].type, 0x51u);
  EXPECT_EQ(r.stored[1].strings, (std::vector<std::string>{"ENGLISH", "l1_in_sub"}));
  // the Level Header pops from the original's order: skyline pair first written, popped last
  EXPECT_EQ(lv.skyline.section.offset < lv.sky_box.section.offset, true);
  EXPECT_EQ(lv.sky_box.section.offset < lv.cloud_box.section.offset, true);
}

TEST(WarriorsStackModel, LevelWithChunks12And13SwappedFailsAtChunk16) {
  auto c = samples::level_chunks();
  std::swap(c[11], c[12]);  // 0x07 and 0x04
  LoadResult r = load_chunks(c);
  ASSERT_FALSE(r.ok());
  // 0-based chunk 15 = the table's chunk 16, the Collision Mesh
  EXPECT_NE(r.error->structure.find("chunk 15 at"), std::string::npos) << r.error->str();
  EXPECT_NE(r.error->structure.find("type 0x03 Collision Mesh"), std::string::npos);
  EXPECT_NE(r.error->message.find("expected 0x04 Collision Triangles on the chunk stack, found 0x07"), std::string::npos)
      << r.error->str();
  EXPECT_TRUE(std::none_of(r.stacks.objects().begin(), r.stacks.objects().end(),
                           [](const Object& o) { return object_kind(o) == "collision_mesh"; }));
  EXPECT_EQ(r.stacks.chunks().back().type, 0x03u);
}

TEST(WarriorsStackModel, LevelMeshCountsCheckedAgainstSizes) {
  auto c = samples::level_chunks();
  c[12].data.resize(0);  // 0x04 triangles: empty, the header says 1 triangle
  LoadResult r = load_chunks(c);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error->message.find("V10: Collision Triangles chunk is 0 bytes"), std::string::npos) << r.error->str();
  auto d = samples::level_chunks();
  d[16].data.resize(32);  // Level Header smaller than 48: V9 error
  LoadResult s = load_chunks(d);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error->message.find("V9"), std::string::npos);
}

TEST(WarriorsStackModel, StacksPopChecked) {
  ChunkStacks s;
  EXPECT_FALSE(s.peek_chunk_type().has_value());  // the original returns 0x54
  EXPECT_FALSE(s.pop_chunk(0x28));
  s.push_chunk({0x0A, 0, 0, {}, {}});
  EXPECT_TRUE(s.expect_chunks({0x41}));  // 0x41 and 0x0A are one class
  EXPECT_FALSE(s.pop_chunk(0x0B));
  EXPECT_EQ(s.chunks().size(), 1u);
  EXPECT_TRUE(s.pop_chunk(0x41));
  EXPECT_FALSE(s.pop_object("animation"));
}

}  // namespace
}  // namespace assay::warriors
