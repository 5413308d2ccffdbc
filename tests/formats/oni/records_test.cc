// Oni record types (src/formats/oni/records.h) against the spec's tables, decoded from hand-built
// bytes; truncated TXMP and PE inputs are refused naming the structure and the offset.
#include <gtest/gtest.h>

#include "../../../src/formats/oni/records.h"
#include "assay/formats/oni/layout.h"

namespace assay::oni {
namespace {

using namespace records;

// spec: oni.md#oni-9-1: flags 0x88 (u32), width 0x8C, height 0x8E (u16), format 0x90 (u32), the
// animation link at 0x94; oni-templates.md: TXMP is 0xAC in v1.0, 0xB0 in v1.1; the v1.1 sep offset
// at 0xA0 is the last field every reader needs.
static_assert(TxmpImage::kOffset == 0x88 && TxmpImage::kOffset + TxmpImage::kSize == 0x94);
static_assert(kTxmpFixedSizeV10 == 0xAC && kTxmpFixedSizeV11 == 0xB0 && kTxmpMinSize == 0xA0 + 4);
// spec: oni.md#oni-4-6: 40-byte section headers; PE/COFF: "PE\0\0" + a 20-byte COFF header; PE32
// ImageBase (u32) at optional header +28. oni.md#oni-4-1: 0x30-byte template entries; oni.md#oni-4-5:
// C7 05 + address + immediate is 10 bytes. oni.md#oni-3-1: checksum u64 + version u32.
static_assert(SectionHeader::kSize == 40 && PeHeader::kSize == 4 + 20 && OptionalHeader32::kSize == 28 + 4);
static_assert(TemplateDefinition::kSize == 0x30 && MovImm32::kSize == 10 && FileIdentity::kSize == 0x0C);
// oni.md#oni-9-1: DXT1 is 8 bytes per 4x4 block; 16-bit and 32-bit pixels.
static_assert(Dxt1Block::kSize == 8 && Pixel16::kSize == 2 && Pixel32::kSize == 4);

template <Record T>
T decode_le(ByteView b) {
  auto v = decode_record<T>(le_reader(b), b, 0, "test");
  EXPECT_TRUE(v.ok());
  return v.ok() ? *v : T{};
}

TEST(OniRecords, MovImm32FromTheSpecExample) {
  // spec: oni.md#oni-4-5: `mov dword [0x620138], 0x11223344` is C7 05 38 01 62 00 44 33 22 11.
  const std::uint8_t b[] = {0xC7, 0x05, 0x38, 0x01, 0x62, 0x00, 0x44, 0x33, 0x22, 0x11};
  const MovImm32 m = decode_le<MovImm32>(b);
  EXPECT_TRUE(m.is_store());
  EXPECT_EQ(m.address, 0x620138u);
  EXPECT_EQ(m.immediate, 0x11223344u);
  const std::uint8_t other[] = {0xC7, 0x45, 0x38, 0x01, 0x62, 0x00, 0x44, 0x33, 0x22, 0x11};  // mov [ebp+disp8]
  EXPECT_FALSE(decode_le<MovImm32>(other).is_store());
}

TEST(OniRecords, TxmpImageFields) {
  ByteBuffer inst(kTxmpMinSize, 0xAD);
  // flags 0x1001 (HasMipMaps | SwapBytes), 256 x 128, format 9 (DXT1).
  const std::uint8_t fields[] = {0x01, 0x10, 0x00, 0x00, 0x00, 0x01, 0x80, 0x00, 0x09, 0x00, 0x00, 0x00};
  std::copy(std::begin(fields), std::end(fields), inst.begin() + 0x88);
  auto t = read_txmp_image(inst, 0x1000);
  ASSERT_TRUE(t.ok()) << t.error().str();
  EXPECT_EQ(t->flags, 0x1001u);
  EXPECT_TRUE(t->mipmapped());
  EXPECT_EQ(t->width, 256u);
  EXPECT_EQ(t->height, 128u);
  EXPECT_EQ(t->format, 9u);
}

TEST(OniRecords, TruncatedTxmpNamesStructureAndOffset) {
  const ByteBuffer inst(0x93, 0);  // one byte short of the format field's end
  auto t = read_txmp_image(inst, 0x1000);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().structure, "TXMP header");
  EXPECT_EQ(t.error().offset, 0x1000u + 0x88);
  EXPECT_NE(t.error().message.find("needs 0xc bytes"), std::string::npos) << t.error().str();
}

TEST(OniRecords, PeRecords) {
  // "PE\0\0", machine 0x14C, 3 sections, time stamp 0x5A5A5A5A, no symbols, optional header 0xE0,
  // characteristics 0x0102.
  const std::uint8_t pe[] = {'P', 'E', 0, 0, 0x4C, 0x01, 0x03, 0x00, 0x5A, 0x5A, 0x5A, 0x5A, 0, 0, 0, 0,
                             0, 0, 0, 0, 0xE0, 0x00, 0x02, 0x01};
  const PeHeader h = decode_le<PeHeader>(pe);
  EXPECT_EQ(h.signature, kPeSignature);
  EXPECT_EQ(h.machine, 0x14Cu);
  EXPECT_EQ(h.machine, PeHeader::kMachineI386);
  EXPECT_EQ(h.section_count, 3u);
  EXPECT_EQ(h.optional_header_size, 0xE0u);
  // ".text", VirtualSize 0x1000, VirtualAddress 0x11D000, SizeOfRawData 0x400, PointerToRawData 0x200.
  std::uint8_t sec[40] = {'.', 't', 'e', 'x', 't', 0, 0, 0, 0x00, 0x10, 0, 0, 0x00, 0xD0, 0x11, 0x00,
                          0x00, 0x04, 0, 0, 0x00, 0x02, 0, 0};
  const SectionHeader s = decode_le<SectionHeader>(sec);
  EXPECT_EQ(s.virtual_size, 0x1000u);
  EXPECT_EQ(s.virtual_address, 0x11D000u);
  EXPECT_EQ(s.raw_size, 0x400u);
  EXPECT_EQ(s.raw_pointer, 0x200u);
  // PE32 magic 0x10B, ImageBase 0x400000 at +28.
  std::uint8_t opt[32] = {0x0B, 0x01};
  opt[28 + 2] = 0x40;
  const OptionalHeader32 o = decode_le<OptionalHeader32>(opt);
  EXPECT_EQ(o.magic, OptionalHeader32::kPe32Magic);
  EXPECT_EQ(o.image_base, 0x400000u);
}

TEST(OniRecords, TemplateDefinition) {
  // spec: oni.md#oni-4-1 / #oni-9-2: TXMP v1.0, checksum 0x891187581, tag "TXMP" (stored
  // little-endian: 'P' 'M' 'X' 'T'), name at 0x5580A0, layout 0 (filled at run time), flags 2,
  // size 0xAC, no variable array.
  std::uint8_t e[0x30] = {0x81, 0x75, 0x18, 0x91, 0x08, 0, 0, 0, 'P', 'M', 'X', 'T', 0xA0, 0x80, 0x55, 0x00,
                          0, 0, 0, 0, 0x02, 0, 0, 0, 0xAC, 0, 0, 0, 0, 0, 0, 0};
  const TemplateDefinition t = decode_le<TemplateDefinition>(e);
  EXPECT_EQ(t.checksum, 0x891187581ull);
  EXPECT_EQ(t.tag, make_tag("TXMP"));
  EXPECT_EQ(t.name_va, 0x5580A0u);
  EXPECT_EQ(t.layout_va, 0u);
  EXPECT_EQ(t.flags, 2u);
  EXPECT_EQ(t.fixed_size, kTxmpFixedSizeV10);
  EXPECT_EQ(t.element_size, 0u);
}

TEST(OniRecords, PixelsAndBlocks) {
  // BC1: colour 0 = 0xF800 (pure red in RGB565), colour 1 = 0x001F (pure blue), indices 0xE4E4E4E4.
  const std::uint8_t blk[] = {0x00, 0xF8, 0x1F, 0x00, 0xE4, 0xE4, 0xE4, 0xE4};
  const Dxt1Block d = decode_le<Dxt1Block>(blk);
  EXPECT_EQ(d.c0, 0xF800u);
  EXPECT_EQ(d.c1, 0x001Fu);
  EXPECT_EQ(d.indices, 0xE4E4E4E4u);
  const std::uint8_t px[] = {0x11, 0x22, 0x33, 0x44};
  const Pixel32 p = decode_le<Pixel32>(px);
  EXPECT_EQ((std::array{p.b0, p.b1, p.b2, p.b3}), (std::array<std::uint8_t, 4>{0x11, 0x22, 0x33, 0x44}));
  EXPECT_EQ(decode_le<Pixel16>(ByteView(px).first(2)).v, 0x2211u);
  // A cursor with too few bytes yields zeros and is marked overrun; it never reads past its bytes.
  RecordCursor c(ByteView(blk).first(7), Endian::little);
  const Dxt1Block short_blk = Dxt1Block::decode(c);
  EXPECT_TRUE(c.overrun());
  EXPECT_EQ(short_blk.c0 | short_blk.c1 | short_blk.indices, 0u);
}

TEST(OniRecords, BoundedWords) {
  const std::uint8_t b[] = {0x34, 0x12, 0x78, 0x56};
  EXPECT_EQ(word_at<std::uint16_t>(b, 0), 0x1234u);
  EXPECT_EQ(word_at<std::uint16_t>(b, 2), 0x5678u);
  EXPECT_EQ(word_at<std::uint32_t>(b, 0), 0x56781234u);
  EXPECT_EQ(word_at<std::uint32_t>(b, 1), 0u);  // would cross the end
  EXPECT_EQ(word_at<std::uint16_t>(b, 3), 0u);
  EXPECT_EQ(word_at<std::uint32_t>(b, ~std::uint64_t{0}), 0u);
  // spec: oni.md#oni-3-1: "VR32" is 0x56523332, bytes 32 33 52 56 after the u64 checksum.
  const std::uint8_t head[] = {0x1F, 0x27, 0xDC, 0x33, 0xDF, 0xBC, 0x03, 0x00, 0x32, 0x33, 0x52, 0x56};
  const FileIdentity id = decode_le<FileIdentity>(head);
  EXPECT_EQ(id.checksum, kChecksumV10);
  EXPECT_EQ(id.version, kVersionVR32);
}

// A PE whose DOS header points at 0x40, cut at `size` bytes: PE32, i386, two sections, a 0xE0-byte
// optional header, so the section table is at 0x40 + 24 + 0xE0 = 0x138.
ByteBuffer pe_prefix(std::size_t size) {
  ByteBuffer b(0x138 + 2 * 40, 0);
  b[0] = 'M', b[1] = 'Z', b[0x3C] = 0x40;
  const std::uint8_t head[] = {'P', 'E', 0, 0, 0x4C, 0x01, 0x02, 0x00};
  std::copy(std::begin(head), std::end(head), b.begin() + 0x40);
  b[0x40 + 20] = 0xE0;
  b[0x58] = 0x0B, b[0x59] = 0x01;  // PE32
  b.resize(size);
  return b;
}

TEST(OniRecords, TruncatedPeNamesStructureAndOffset) {
  auto coff = extract_layouts_from_exe(pe_prefix(0x40 + 20), "Oni.exe");
  ASSERT_FALSE(coff.ok());
  EXPECT_EQ(coff.error().structure, "PE signature and COFF header");
  EXPECT_EQ(coff.error().offset, 0x40u);
  auto opt = extract_layouts_from_exe(pe_prefix(0x58 + 30), "Oni.exe");
  ASSERT_FALSE(opt.ok());
  EXPECT_EQ(opt.error().structure, "optional header");
  EXPECT_EQ(opt.error().offset, 0x58u);
  auto sections = extract_layouts_from_exe(pe_prefix(0x138 + 40 + 39), "Oni.exe");
  ASSERT_FALSE(sections.ok());
  EXPECT_EQ(sections.error().structure, "section table");
  EXPECT_EQ(sections.error().offset, 0x138u);
  EXPECT_NE(sections.error().message.find("2 records of 0x28 bytes"), std::string::npos) << sections.error().str();
}

}  // namespace
}  // namespace assay::oni
