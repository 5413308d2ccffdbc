// RenderWare record types (src/formats/renderware/records.h) against renderware.md's layout tables,
// decoded from hand-computed little-endian bytes.
#include <gtest/gtest.h>

#include "../../../src/formats/renderware/records.h"

namespace assay::rw {
namespace {

// spec: #rw-2-1 (12-byte header), #rw-5-1 (u16 count, u16 device), #rw-5-2 (8-byte PS2 struct),
// #rw-5-3 (64-byte raster header), #rw-5-6 (image at +0x50), #rw-6-1 (88 bytes; Xbox 92),
// #rw-7-1 (56-byte frame), #rw-7-2 (16-byte geometry struct head; morph target 16 + 4 + 4),
// #rw-7-3 (atomic frameIndex, geometryIndex, flags).
static_assert(SectionHeader::kSize == 12);
static_assert(records::DictionaryStruct::kSize == 4 && records::Ps2NativeStruct::kSize == 8);
static_assert(records::RasterHeader::kSize == 64 && records::GsPacketHeader::kSize == 0x50);
static_assert(records::D3dNativeHeader::kSize == 88 && records::kXboxHeaderSize == 92);
static_assert(records::Frame::kSize == 56 && records::GeometryStruct::kSize == 16);
static_assert(records::MorphTarget::kSize == 24 && records::AtomicStruct::kSize == 12);

TEST(RwRecords, SectionHeaderFields) {
  // A Texture Dictionary of 0x1C bytes stamped 0x1C02000A (3.7.0.2 build 0x000A, #rw-2-3).
  const std::uint8_t b[] = {0x16, 0, 0, 0, 0x1C, 0, 0, 0, 0x0A, 0x00, 0x02, 0x1C, 0xEE};
  auto h = read_section_header(b, 0);
  ASSERT_TRUE(h.ok()) << h.error().str();
  EXPECT_EQ(h->type, 0x16u);
  EXPECT_EQ(h->size, 0x1Cu);
  EXPECT_EQ(h->stamp, 0x1C02000Au);
  auto late = read_section_header(b, 2, 0x100);  // 11 bytes left
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.error().offset, 0x102u);
}

TEST(RwRecords, DictionaryStructAndPs2Struct) {
  const std::uint8_t d[] = {3, 0, 6, 0};  // three textures, device 6 = PS2 (#rw-5-1)
  auto s = records::leading<records::DictionaryStruct>(d);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->count, 3u);
  EXPECT_EQ(s->device_id, 6u);
  EXPECT_FALSE(records::leading<records::DictionaryStruct>(ByteView(d).first(3)).has_value());
  const std::uint8_t p[] = {'P', 'S', '2', 0, 0x06, 0x11, 0x01, 0x00};  // GTA SA's 0x00011106 (#rw-5-2)
  auto n = records::leading<records::Ps2NativeStruct>(p);
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->platform, kPlatformPS2);
  EXPECT_EQ(n->filter_addressing, 0x00011106u);
}

TEST(RwRecords, RasterHeaderOffsets) {
  // #rw-5-3 with a distinct value in every field: width 16 at +0, height 8 at +4, depth 8 at +8,
  // raster format 0x2504 at +0xC, layout 2 at +0xE, TEX0 at +0x10, pixelSize 336 at +0x30,
  // paletteSize 1,104 at +0x34, kl 0xFC0 at +0x3C.
  std::uint8_t b[64] = {};
  auto put32 = [&](std::size_t o, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b[o + i] = static_cast<std::uint8_t>(v >> (8 * i));
  };
  put32(0x00, 16), put32(0x04, 8), put32(0x08, 8), put32(0x0C, 0x00022504);
  put32(0x10, 0x89ABCDEF), put32(0x14, 0x01234567), put32(0x18, 0x40), put32(0x1C, 0x0C);
  put32(0x20, 0x11), put32(0x28, 0x22), put32(0x30, 336), put32(0x34, 1104), put32(0x38, 0x300), put32(0x3C, 0xFC0);
  const Ps2RasterHeader h = records::decode_at<records::RasterHeader>(b, 0).h;
  EXPECT_EQ(h.width, 16u);
  EXPECT_EQ(h.height, 8u);
  EXPECT_EQ(h.depth, 8u);
  EXPECT_EQ(h.raster_format, 0x2504u);
  EXPECT_EQ(h.layout_version, 2u);
  EXPECT_EQ(h.tex0, 0x0123456789ABCDEFull);
  EXPECT_EQ(h.palette_base, 0x40u);
  EXPECT_EQ((h.tex1_low >> 2) & 7, 3u);  // MXL 3: four levels
  EXPECT_EQ(h.miptbp1, 0x11u);
  EXPECT_EQ(h.miptbp2, 0x22u);
  EXPECT_EQ(h.pixel_size, 336u);
  EXPECT_EQ(h.palette_size, 1104u);
  EXPECT_EQ(h.gs_memory, 0x300u);
  EXPECT_EQ(h.kl, 0xFC0u);
}

TEST(RwRecords, GsPacketHeaderOffsets) {
  // #rw-5-6: GIF tag {3, 0x10000000, 0x0E}, registers 0x51/0x52/0x53 at +0x18/+0x28/+0x38,
  // TRXREG 8 x 4 at +0x20/+0x24, image NLOOP 16 at +0x40, IMAGE mode 0x08000000 at +0x44.
  std::uint8_t b[0x50] = {};
  auto put32 = [&](std::size_t o, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b[o + i] = static_cast<std::uint8_t>(v >> (8 * i));
  };
  put32(0x00, 3), put32(0x04, 0x10000000), put32(0x08, 0x0E), put32(0x18, 0x51), put32(0x20, 8), put32(0x24, 4);
  put32(0x28, 0x52), put32(0x38, 0x53), put32(0x40, 16), put32(0x44, 0x08000000);
  const auto k = records::decode_at<records::GsPacketHeader>(b, 0);
  EXPECT_EQ(k.gif_nloop, 3u);
  EXPECT_EQ(k.gif_nreg, 0x10000000u);
  EXPECT_EQ(k.gif_regs, 0x0Eu);
  EXPECT_EQ(k.trxpos_reg, 0x51u);
  EXPECT_EQ(k.trxreg_reg, 0x52u);
  EXPECT_EQ(k.trxdir_reg, 0x53u);
  EXPECT_EQ(k.trx_width, 8u);
  EXPECT_EQ(k.trx_height, 4u);
  EXPECT_EQ(k.image_nloop, 16u);
  EXPECT_EQ(k.image_mode, 0x08000000u);
}

TEST(RwRecords, D3dNativeHeaderOffsets) {
  // #rw-6-1, D3D9: filter 2 / addressing 0x11 at +4/+5, name "grass" at +8, mask "m" at +0x28,
  // raster 0x200 at +0x48, "DXT1" at +0x4C, 64 x 32 at +0x50/+0x52, depth 16, 7 levels, type 4,
  // flags 0x08 at +0x54..+0x57.
  std::uint8_t b[88] = {9, 0, 0, 0, 2, 0x11};
  const char name[] = "grass";
  std::copy(name, name + 5, b + 0x08);
  b[0x28] = 'm';
  b[0x49] = 0x02;                                                        // 0x200
  b[0x4C] = 'D', b[0x4D] = 'X', b[0x4E] = 'T', b[0x4F] = '1';            // 0x31545844
  b[0x50] = 64, b[0x52] = 32, b[0x54] = 16, b[0x55] = 7, b[0x56] = 4, b[0x57] = 0x08;
  const auto h = records::decode_at<records::D3dNativeHeader>(b, 0);
  EXPECT_EQ(h.platform, kPlatformD3D9);
  EXPECT_EQ(h.filter, 2u);
  EXPECT_EQ(h.addressing, 0x11u);
  ASSERT_EQ(h.name.size(), 32u);
  EXPECT_EQ(h.name[0], 'g');
  EXPECT_EQ(h.name[5], 0);
  EXPECT_EQ(h.mask[0], 'm');
  EXPECT_EQ(h.raster_format, 0x200u);
  EXPECT_EQ(h.format_word, d3d::kDxt1);
  EXPECT_EQ(h.width, 64u);
  EXPECT_EQ(h.height, 32u);
  EXPECT_EQ(h.depth, 16u);
  EXPECT_EQ(h.levels, 7u);
  EXPECT_EQ(h.raster_type, 4u);
  EXPECT_EQ(h.flags, 0x08u);
}

TEST(RwRecords, FrameAndGeometry) {
  // #rw-7-1: a frame's position (1.0f, 2.0f, -0.5f) at +36, parent -1 at +48, flags 3 at +52.
  std::uint8_t f[56] = {};
  const std::uint8_t pos[] = {0, 0, 0x80, 0x3F, 0, 0, 0, 0x40, 0, 0, 0, 0xBF};
  std::copy(pos, pos + 12, f + 36);
  f[48] = f[49] = f[50] = f[51] = 0xFF;
  f[52] = 3;
  const auto fr = records::decode_at<records::Frame>(f, 0);
  EXPECT_EQ(fr.position[0], 1.0f);
  EXPECT_EQ(fr.position[1], 2.0f);
  EXPECT_EQ(fr.position[2], -0.5f);
  EXPECT_EQ(fr.parent, -1);
  EXPECT_EQ(fr.flags, 3u);
  // #rw-7-2: flags 0x70 (checker.dff), 288 triangles, 334 vertices, 1 morph target
  const std::uint8_t g[] = {0x70, 0, 0, 0, 0x20, 0x01, 0, 0, 0x4E, 0x01, 0, 0, 1, 0, 0, 0};
  const auto gs = records::decode_at<records::GeometryStruct>(g, 0);
  EXPECT_EQ(gs.format_flags, 0x70u);
  EXPECT_EQ(gs.triangles, 288u);
  EXPECT_EQ(gs.vertices, 334u);
  EXPECT_EQ(gs.morph_targets, 1u);
}

TEST(RwRecords, DecodeAtOutsideItsBytesStops) {
  // a read whose size check is missing is a programming error: the process stops (never reads past)
  const std::uint8_t b[11] = {};
  EXPECT_DEATH((void)records::decode_at<SectionHeader>(b, 0), "outside 11 bytes");
  EXPECT_DEATH((void)records::u32_at(ByteView(b), 8), "outside");
}

}  // namespace
}  // namespace assay::rw
