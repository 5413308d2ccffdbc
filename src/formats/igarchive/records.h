// igArchive on-disk records with their sizes (core/record.h): each decode reads exactly kSize
// (a braced initializer list is evaluated left to right, so fields are read in their order).
// spec: alchemy.md#iga-header-v4, #iga-header-v8, #iga-header-v10, #iga-file-info,
// #iga-block-tables, #iga-prefix
#pragma once

#include <optional>

#include "assay/core/record.h"
#include "assay/formats/igarchive/archive.h"

namespace assay::igarchive::records {

// magic + version (core's MagicVersion): the byte order whose magic reads IGA\x1A is the
// archive's (#overview-byteorder); sets `endian` to it.
inline std::optional<MagicVersion> read_prefix(ByteView b, Endian& endian) {
  const auto p = probe_byte_order(b, kMagic);
  if (p) endian = p->endian;
  return p ? std::optional<MagicVersion>(p->prefix) : std::nullopt;
}

// The header of version V: 0x30 bytes for 4 (#iga-header-v4 [uncertain]: no sectorSize, 0x800),
// 0x34 for 8 (#iga-header-v8), 0x38 for 0x0A-0x0D (#iga-header-v10: the block counts come before
// a 64-bit name table offset).
template <unsigned V>
struct HeaderLayout {
  static constexpr std::size_t kSize = V == 4 ? 0x30 : V == 8 ? 0x34 : 0x38;
  Header h;
  static constexpr HeaderLayout decode(RecordCursor& c) {
    HeaderLayout r;
    c.skip(4);  // magic
    r.h.version = c.u32();
    r.h.toc_size = c.u32();
    r.h.num_files = c.u32();
    r.h.sector_size = V == 4 ? 0x800 : c.u32();
    r.h.divider = c.u32();
    r.h.slop = c.u32();
    if constexpr (V >= 10) block_counts(c, r.h);
    r.h.name_table_offset = V >= 10 ? c.u64() : c.u32();
    r.h.name_table_size = c.u32();
    if constexpr (V < 10) block_counts(c, r.h);
    r.h.flags = c.u32();
    return r;
  }
  static constexpr void block_counts(RecordCursor& c, Header& h) {
    h.num_large = c.u32();
    h.num_medium = c.u32();
    h.num_small = c.u32();
  }
};
using HeaderV4 = HeaderLayout<4>;
using HeaderV8 = HeaderLayout<8>;
using HeaderV10 = HeaderLayout<10>;

// File info, versions 4 and 8 (#iga-file-info): offset, length, block word.
struct FileInfo12 {
  static constexpr std::size_t kSize = 12;
  std::uint32_t offset = 0, length = 0, word = 0;
  static constexpr FileInfo12 decode(RecordCursor& c) {
    return {.offset = c.u32(), .length = c.u32(), .word = c.u32()};
  }
};

// File info, versions 0x0A+ (#iga-file-info): 40-bit offset with the build ordinal above it.
struct FileInfo16 {
  static constexpr std::size_t kSize = 16;
  std::uint64_t offset_ordinal = 0;
  std::uint32_t length = 0, word = 0;
  static constexpr FileInfo16 decode(RecordCursor& c) {
    return {.offset_ordinal = c.u64(), .length = c.u32(), .word = c.u32()};
  }
};

// The 5 LZMA property bytes at the start of a block's payload: lc/lp/pb byte, dictionary size
// (always little-endian, #iga-lzma).
struct LzmaProps {
  static constexpr std::size_t kSize = 5;
  std::uint8_t pb = 0;
  std::uint32_t dict = 0;
  static constexpr LzmaProps decode(RecordCursor& c) { return {.pb = c.u8(), .dict = c.u32()}; }
};

inline Result<LzmaProps> read_lzma_props(ByteView b, std::uint64_t at, std::string_view structure) {
  return read_record<LzmaProps>(ByteReader(b, Endian::little, kFormatName), at, structure);
}

// The compressed-size prefix of a block (#iga-prefix): u16 in either order or u32 little-endian.
inline Result<std::uint32_t> read_size_prefix(ByteView b, std::uint64_t at, unsigned width, bool little) {
  const ByteReader r(b, little ? Endian::little : Endian::big, kFormatName);
  if (width == 2) {
    ASSAY_TRY(Word16 w, read_record<Word16>(r, at, "block"));
    return std::uint32_t{w.value};
  }
  ASSAY_TRY(Word32 w, read_record<Word32>(ByteReader(b, Endian::little, kFormatName), at, "block"));
  return w.value;
}

}  // namespace assay::igarchive::records
