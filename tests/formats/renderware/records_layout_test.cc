// The clump and texture records added for issue 11 item 2 (src/formats/renderware/records.h)
// against renderware.md's tables, decoded from hand-computed bytes; truncated or overlong counts
// give Errors naming the structure and its absolute offset.
#include <gtest/gtest.h>

#include "../../../src/formats/renderware/records.h"
#include "assay/formats/renderware/clump.h"
#include "assay/formats/renderware/walker.h"
#include "assay/formats/renderware/writer.h"

namespace assay::rw {
namespace {

// spec: #rw-7-1 (clump struct 12 bytes, 4 in old streams; u32 frameCount / geometryCount),
// #rw-7-2 (Material List {u32 count, s32 index[count]}; the material struct's first 16 bytes;
// Texture struct filterAddressing; Bin Mesh flags, meshes, indices), #rw-7-3 (atomic frameIndex,
// geometryIndex, flags), #rw-6-1 (Xbox header 92 bytes; u32 level size), #rw-5-8 (4-byte entries).
static_assert(records::ClumpStruct::kSize == 12 && records::ClumpStructV1::kSize == 4);
static_assert(records::ListCount::kSize == 4 && records::MaterialIndex::kSize == 4);
static_assert(records::MaterialStruct::kSize == 16 && records::TextureStruct::kSize == 4);
static_assert(records::BinMeshHeader::kSize == 12 && records::AtomicStruct::kSize == 12);
static_assert(records::XboxNativeHeader::kSize == 92 && records::LevelSize::kSize == 4);
static_assert(records::PaletteEntry::kSize == 4);
static_assert(kRecordSizeMatches<records::XboxNativeHeader> && kRecordSizeMatches<records::ClumpStruct>);

template <class T>
T decode(ByteView b) {
  auto r = read_record<T>(records::le_reader(b), 0, "test");
  EXPECT_TRUE(r.ok()) << r.error().str();
  return r.ok() ? *r : T{};
}

TEST(RwRecordLayouts, ClumpStructThreeCounts) {
  const std::uint8_t b[] = {3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0};  // 3 atomics, 1 light, 2 cameras
  const auto c = decode<records::ClumpStruct>(b);
  EXPECT_EQ(c.atomics, 3u);
  EXPECT_EQ(c.lights, 1u);
  EXPECT_EQ(c.cameras, 2u);
  EXPECT_FALSE(records::leading<records::ClumpStruct>(ByteView(b).first(4)).has_value());
  EXPECT_EQ(records::leading<records::ClumpStructV1>(ByteView(b).first(4))->atomics, 3u);
}

TEST(RwRecordLayouts, MaterialIndexIsSigned) {
  const std::uint8_t b[] = {0xFF, 0xFF, 0xFF, 0xFF, 0x02, 0, 0, 0};
  EXPECT_EQ(decode<records::MaterialIndex>(b).index, -1);  // a new Material section follows
  EXPECT_EQ(decode<records::MaterialIndex>(ByteView(b).subspan(4)).index, 2);
}

TEST(RwRecordLayouts, MaterialAndTextureStructs) {
  // flags 0, colour RGBA 10 20 30 255, unused, isTextured 1 (#rw-7-2)
  const std::uint8_t m[] = {0, 0, 0, 0, 10, 20, 30, 255, 0, 0, 0, 0, 1, 0, 0, 0};
  const auto ms = decode<records::MaterialStruct>(m);
  EXPECT_EQ(ms.colour, (std::array<std::uint8_t, 4>{10, 20, 30, 255}));
  EXPECT_EQ(ms.textured, 1u);
  const std::uint8_t t[] = {0x06, 0x11, 0x01, 0x00};  // GTA SA's 0x00011106 (#rw-5-2)
  EXPECT_EQ(decode<records::TextureStruct>(t).filter_addressing, 0x00011106u);
}

TEST(RwRecordLayouts, XboxHeaderTotalSizeAt0x58) {
  std::uint8_t b[92] = {5};  // platform 5
  b[0x50] = 32, b[0x52] = 16, b[0x57] = 0x0C;  // 32 x 16, DXT1
  b[0x58] = 0x00, b[0x59] = 0x01;              // total 256 bytes
  const auto x = decode<records::XboxNativeHeader>(b);
  EXPECT_EQ(x.common.platform, kPlatformXbox);
  EXPECT_EQ(x.common.width, 32u);
  EXPECT_EQ(x.common.height, 16u);
  EXPECT_EQ(x.common.flags, 0x0Cu);
  EXPECT_EQ(x.total_size, 256u);
}

TEST(RwRecordLayouts, PaletteEntryBytesAreRgba) {
  const std::uint8_t b[] = {0x11, 0x22, 0x33, 0x80};
  const auto e = decode<records::PaletteEntry>(b);
  EXPECT_EQ(e.r, 0x11);
  EXPECT_EQ(e.g, 0x22);
  EXPECT_EQ(e.b, 0x33);
  EXPECT_EQ(e.a, 0x80);
}

// The body offset of the first Struct after the first section of `type` in a writer clump.
std::uint64_t struct_body_after(const ByteBuffer& b, std::uint32_t type) {
  auto t = walk(b, 0, {});
  EXPECT_TRUE(t.ok());
  bool seen = false;
  for (const auto& s : t->sections) {
    if (seen && s.header.type == id::kStruct) return s.body_offset();
    seen = seen || s.header.type == type;
  }
  ADD_FAILURE() << "no struct after section type " << type;
  return 0;
}

TEST(RwRecordLayouts, MaterialListCountPastItsStructNamesTheTable) {
  const ByteBuffer b = writer::clump({.frames = 1, .geometries = {{3, 1, "brick"}}});
  ASSERT_TRUE(summarize_clump(b).ok());
  const std::uint64_t body = struct_body_after(b, id::kMaterialList);
  ByteBuffer bad = b;
  store<std::uint32_t>(bad.data() + body, 1000, Endian::little);  // 1000 indices in a 8-byte struct
  auto r = summarize_clump(bad, 0x100);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().structure, "Material List struct");
  EXPECT_EQ(r.error().offset, 0x100 + body + 4);  // where the index table starts
}

TEST(RwRecordLayouts, ClumpStructShorterThanFourBytesIsAnError) {
  // A Clump whose Struct holds 2 bytes (#rw-7-1 needs at least the atomic count).
  const std::uint8_t two[] = {1, 0};
  const ByteBuffer b = writer::container(id::kClump, {writer::section(id::kStruct, two)});
  auto r = summarize_clump(b, 0x40);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().structure, "Clump");
  EXPECT_EQ(r.error().offset, 0x40u);
}

// A D3D8 native: one Struct (header, palette, levels) and an Extension (#rw-6-1).
ByteBuffer d3d8_native(ByteView body) {
  return writer::container(id::kTextureNative, {writer::section(id::kStruct, body), writer::container(id::kExtension, {})});
}

// The 88-byte D3D8 header of a 4 x 4 PAL8 texture with one level (#rw-6-1, #rw-5-4).
ByteBuffer pal8_header() {
  ByteBuffer h(88);
  h[0] = 8;                                  // platform D3D8
  h[0x48] = 0x04, h[0x49] = 0x25;            // raster format 0x2504: PAL8 | 8888 | texture
  h[0x50] = 4, h[0x52] = 4, h[0x54] = 8, h[0x55] = 1, h[0x56] = 4;
  return h;
}

TEST(RwRecordLayouts, D3dPal8DecodesThroughThePalette) {
  ByteBuffer body = pal8_header();
  ByteBuffer pal(1024);
  const std::uint8_t e1[] = {10, 20, 30, 40}, e255[] = {1, 2, 3, 4};
  std::copy(e1, e1 + 4, pal.begin() + 4);
  std::copy(e255, e255 + 4, pal.begin() + 255 * 4);
  body.insert(body.end(), pal.begin(), pal.end());
  const std::uint8_t level[] = {16, 0, 0, 0, 1, 255, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  body.insert(body.end(), level, level + sizeof level);
  const ByteBuffer n = d3d8_native(body);
  auto t = read_texture_native(n, 0, 0, {});
  ASSERT_TRUE(t.ok()) << t.error().str();
  auto img = decode_texture(*t);
  ASSERT_TRUE(img.ok()) << img.error().str();
  ASSERT_EQ(img->pixels.size(), 64u);
  EXPECT_EQ(std::vector<int>(img->pixels.begin(), img->pixels.begin() + 12),
            (std::vector<int>{10, 20, 30, 40, 1, 2, 3, 4, 0, 0, 0, 0}));  // D3D alpha is stored as is
}

TEST(RwRecordLayouts, D3dMissingLevelSizeNamesItsOffset) {
  const ByteBuffer n = d3d8_native(pal8_header());  // no palette, no level
  auto t = read_texture_native(n, 0, 0x200, {});
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().message.find("palette of 1024 bytes runs past the struct"), std::string::npos) << t.error().str();
  EXPECT_EQ(t.error().offset, 0x200 + 24 + 88u);  // native + struct headers, then the 88-byte header
  ByteBuffer with_palette = pal8_header();
  with_palette.resize(88 + 1024 + 2);  // half a level size word
  auto l = read_texture_native(d3d8_native(with_palette), 0, 0, {});
  ASSERT_FALSE(l.ok());
  EXPECT_NE(l.error().message.find("level 0 size runs past the struct"), std::string::npos) << l.error().str();
  EXPECT_EQ(l.error().offset, 24 + 88 + 1024u);
}

TEST(RwRecordLayouts, XboxStructShorterThanItsHeader) {
  ByteBuffer body(90);
  body[0] = 5;  // Xbox: 92-byte header
  auto t = read_texture_native(d3d8_native(body), 0, 0x30, {});
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().message.find("shorter than the 92-byte header"), std::string::npos) << t.error().str();
  EXPECT_EQ(t.error().offset, 0x30 + 12u);  // the Struct section
}

}  // namespace
}  // namespace assay::rw
