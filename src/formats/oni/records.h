// Oni's on-disk records with their sizes (core/record.h): each decode reads exactly kSize bytes,
// little-endian (Oni is a PC/Mac-x86 file family; Oni.exe is PE32).
// spec: oni.md#oni-3-1 (file header), #oni-4-1 (template table entry), #oni-4-5 / #oni-4-6 (Oni.exe,
// PE mapping), #oni-9-1 (TXMP), oni-templates.md "The four platform templates" (TXMP fixed sizes).
#pragma once

#include <type_traits>

#include "assay/core/record.h"
#include "assay/formats/oni/instance_file.h"
#include "assay/formats/oni/names.h"

namespace assay::oni::records {

inline ByteReader le_reader(ByteView b, std::uint64_t base = 0) { return ByteReader(b, Endian::little, kFormat, base); }

// Little-endian words from exactly sizeof(W) bounded bytes (0 for any other size). Spelt out byte
// by byte so the compiler merges them into one load, where RecordCursor::get's byte loop stays a
// loop: the pixel decoders and the layout walker read through these (decode speed).
constexpr std::uint16_t le16(ByteView b) noexcept {
  return b.size() == 2 ? static_cast<std::uint16_t>(b[0] | b[1] << 8) : 0;
}
constexpr std::uint32_t le32(ByteView b) noexcept {
  if (b.size() != 4) return 0;
  return std::uint32_t{b[0]} | std::uint32_t{b[1]} << 8 | std::uint32_t{b[2]} << 16 | std::uint32_t{b[3]} << 24;
}
constexpr std::uint16_t le16(RecordCursor& c) noexcept { return le16(c.bytes(2)); }
constexpr std::uint32_t le32(RecordCursor& c) noexcept { return le32(c.bytes(4)); }

// The little-endian u16/u32 at `at` of `b`, 0 when it does not fit: for the layout compiler and
// walker, which check (and report) the room before they read.
template <class W>
[[nodiscard]] constexpr W word_at(ByteView b, std::uint64_t at) noexcept {
  static_assert(std::is_same_v<W, std::uint16_t> || std::is_same_v<W, std::uint32_t>);
  if (!range_ok(at, sizeof(W), b.size())) return 0;
  const ByteView w = b.subspan(static_cast<std::size_t>(at), sizeof(W));
  if constexpr (sizeof(W) == 2) return le16(w);
  else return le32(w);
}

// ---- Instance files (.dat, .oni) -----------------------------------------------------------

// The first two header fields (#oni-3-1): the total template checksum and the version word.
struct FileIdentity {
  static constexpr std::size_t kSize = 0x0C;
  std::uint64_t checksum = 0;
  std::uint32_t version = 0;
  static constexpr FileIdentity decode(RecordCursor& c) { return {c.u64(), c.u32()}; }
};

// ---- TXMP (#oni-9-1) -----------------------------------------------------------------------

// Fixed sizes of the TXMP template, instance header included (oni-templates.md: v1.0 0xAC with the
// raw pixel offset at 0x9C; v1.1 0xB0 with the sep offset at 0xA0).
inline constexpr std::size_t kTxmpFixedSizeV10 = 0xAC;
inline constexpr std::size_t kTxmpFixedSizeV11 = 0xB0;
// The bytes every reader of a TXMP needs: both versions' pixel-offset fields, through 0xA0 + 4.
inline constexpr std::size_t kTxmpMinSize = 0xA4;

// The image description inside a TXMP instance: flags 0x88, width 0x8C, height 0x8E, format 0x90
// (#oni-9-1). The same in both template versions, so the record is this sub-range at kOffset
// rather than the whole fixed part (whose size depends on the version).
struct TxmpImage {
  static constexpr std::size_t kOffset = 0x88;
  static constexpr std::size_t kSize = 0x0C;
  static constexpr std::uint32_t kHasMipMaps = 0x0001;
  static constexpr std::uint32_t kSwapBytes = 0x1000;
  std::uint32_t flags = 0;
  std::uint16_t width = 0, height = 0;
  std::uint32_t format = 0;
  static constexpr void fields(auto& r, auto&& f) { f(r.flags, r.width, r.height, r.format); }
  [[nodiscard]] constexpr bool mipmapped() const noexcept { return (flags & kHasMipMaps) != 0; }
};

// The TXMP image fields of instance bytes `inst` (8-byte instance header included) whose first
// byte is at `file_offset` of the file: an Error naming "TXMP header" and the absolute offset when
// the instance is too short.
[[nodiscard]] inline Result<TxmpImage> read_txmp_image(ByteView inst, std::uint64_t file_offset = 0) {
  return read_record<TxmpImage>(le_reader(inst, file_offset), TxmpImage::kOffset, "TXMP header");
}

// One 16-bit pixel (codes 0-2) and one 32-bit pixel (codes 7, 8: four bytes in stored order).
struct Pixel16 {
  static constexpr std::size_t kSize = 2;
  std::uint16_t v = 0;
  static constexpr Pixel16 decode(RecordCursor& c) { return {le16(c)}; }
};
struct Pixel32 {
  static constexpr std::size_t kSize = 4;
  std::uint8_t b0 = 0, b1 = 0, b2 = 0, b3 = 0;
  static constexpr Pixel32 decode(RecordCursor& c) {  // one bounded read (decode speed)
    const std::uint32_t v = le32(c);
    return {static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8), static_cast<std::uint8_t>(v >> 16),
            static_cast<std::uint8_t>(v >> 24)};
  }
};

// A DXT1 (BC1) block: two RGB565 colours, then sixteen 2-bit indices, pixel 0 in the low bits
// (format code 9: 8 bytes per 4x4 block).
struct Dxt1Block {
  static constexpr std::size_t kSize = 8;
  std::uint16_t c0 = 0, c1 = 0;
  std::uint32_t indices = 0;
  static constexpr Dxt1Block decode(RecordCursor& c) {  // one bounded read (decode speed)
    const ByteView b = c.bytes(kSize);
    if (b.size() != kSize) return {};
    return {le16(b.first(2)), le16(b.subspan(2, 2)), le32(b.subspan(4, 4))};
  }
};

// ---- Oni.exe: PE32 (#oni-4-6) and the template table (#oni-4-1) -----------------------------

inline constexpr std::uint64_t kPeOffsetField = 0x3C;  // DOS header: u32 offset of "PE\0\0"
inline constexpr std::uint32_t kPeSignature = 0x00004550;

// "PE\0\0" and the COFF file header that follows it (PE/COFF: 4 + 20 bytes): machine at +4,
// section count at +6, optional-header size at +20.
struct PeHeader {
  static constexpr std::size_t kSize = 24;
  static constexpr std::uint16_t kMachineI386 = 0x14C;
  std::uint32_t signature = 0;
  std::uint16_t machine = 0, section_count = 0;
  std::uint32_t time_date_stamp = 0, symbol_table = 0, symbol_count = 0;
  std::uint16_t optional_header_size = 0, characteristics = 0;
  static constexpr PeHeader decode(RecordCursor& c) {
    return {c.u32(), c.u16(), c.u16(), c.u32(), c.u32(), c.u32(), c.u16(), c.u16()};
  }
};

// The PE32 optional header through ImageBase: magic (0x10B for PE32), the 28 bytes of standard
// fields, then ImageBase at +28.
struct OptionalHeader32 {
  static constexpr std::size_t kSize = 32;
  static constexpr std::uint16_t kPe32Magic = 0x10B;
  std::uint16_t magic = 0;
  std::uint32_t image_base = 0;
  static constexpr OptionalHeader32 decode(RecordCursor& c) {
    OptionalHeader32 h;
    h.magic = c.u16();
    c.skip(26);
    h.image_base = c.u32();
    return h;
  }
};

// One section table entry (40 bytes): VirtualSize +8, VirtualAddress +12, SizeOfRawData +16,
// PointerToRawData +20; the relocation/line-number fields and characteristics are not used.
struct SectionHeader {
  static constexpr std::size_t kSize = 40;
  std::uint32_t virtual_size = 0, virtual_address = 0, raw_size = 0, raw_pointer = 0;
  static constexpr SectionHeader decode(RecordCursor& c) {
    SectionHeader s;
    c.skip(8);  // name
    s.virtual_size = c.u32();
    s.virtual_address = c.u32();
    s.raw_size = c.u32();
    s.raw_pointer = c.u32();
    c.skip(16);  // relocations, line numbers, their counts, characteristics
    return s;
  }
};

// `mov dword [addr], imm32` in 32-bit code: C7 05, then the address and the immediate (#oni-4-5).
struct MovImm32 {
  static constexpr std::size_t kSize = 10;
  static constexpr std::uint8_t kOpcode = 0xC7, kModRm = 0x05;
  std::uint8_t opcode = 0, modrm = 0;
  std::uint32_t address = 0, immediate = 0;
  static constexpr MovImm32 decode(RecordCursor& c) { return {c.u8(), c.u8(), c.u32(), c.u32()}; }
  [[nodiscard]] constexpr bool is_store() const noexcept { return opcode == kOpcode && modrm == kModRm; }
};

// One template table entry of Oni.exe (#oni-4-1, BFW TMtTemplateDefinition; not the level
// file's TemplateEntry of instance_file.h).
struct TemplateDefinition {
  static constexpr std::size_t kSize = 0x30;
  std::uint64_t checksum = 0;
  std::uint32_t tag = 0, name_va = 0, layout_va = 0, flags = 0, fixed_size = 0, element_size = 0;
  static constexpr TemplateDefinition decode(RecordCursor& c) {
    // layout_va is not filled in the file: the start-up code stores it (#oni-4-5).
    const TemplateDefinition e{c.u64(), c.u32(), c.u32(), c.u32(), c.u32(), c.u32(), c.u32()};
    c.skip(0x10);  // byte-swap procedure, magic cookie, timer, padding (run time)
    return e;
  }
};

static_assert(kRecordSizeMatches<FileIdentity> && kRecordSizeMatches<TxmpImage> && kRecordSizeMatches<Pixel16> &&
              kRecordSizeMatches<Pixel32> && kRecordSizeMatches<Dxt1Block> && kRecordSizeMatches<PeHeader> &&
              kRecordSizeMatches<OptionalHeader32> && kRecordSizeMatches<SectionHeader> && kRecordSizeMatches<MovImm32> &&
              kRecordSizeMatches<TemplateDefinition>);
static_assert(TxmpImage::kOffset + TxmpImage::kSize <= kTxmpMinSize && kTxmpMinSize <= kTxmpFixedSizeV10);

}  // namespace assay::oni::records
