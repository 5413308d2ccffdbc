// igArchive on-disk records with their sizes (core/record.h): each decode reads exactly kSize
// (a braced initializer list is evaluated left to right, so fields are read in their order).
// spec: alchemy.md#iga-header-v4, #iga-header-v8, #iga-header-v10, #iga-file-info,
// #iga-block-tables, #iga-prefix
#pragma once

#include <optional>
#include <type_traits>

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

// The header of version V, one field list read and written (core/record.h): 0x30 bytes for 4
// (#iga-header-v4 [uncertain]: no sectorSize, 0x800), 0x34 for 8 (#iga-header-v8), 0x38 for
// 0x0A-0x0D (#iga-header-v10: the block counts come before a 64-bit name table offset).
template <unsigned V>
struct HeaderLayout {
  static constexpr std::size_t kSize = V == 4 ? 0x30 : V == 8 ? 0x34 : 0x38;
  using Offset = std::conditional_t<(V >= 10), std::uint64_t, std::uint32_t>;
  std::uint32_t magic = 0, version = 0, toc_size = 0, num_files = 0, sector_size = 0x800, divider = 0, slop = 0;
  std::uint32_t num_large = 0, num_medium = 0, num_small = 0;
  Offset name_table_offset = 0;
  std::uint32_t name_table_size = 0, flags = 0;

  static constexpr void fields(auto& r, auto&& f) {
    if constexpr (V == 4)
      f(r.magic, r.version, r.toc_size, r.num_files, r.divider, r.slop, r.name_table_offset, r.name_table_size,
        r.num_large, r.num_medium, r.num_small, r.flags);
    else if constexpr (V == 8)
      f(r.magic, r.version, r.toc_size, r.num_files, r.sector_size, r.divider, r.slop, r.name_table_offset,
        r.name_table_size, r.num_large, r.num_medium, r.num_small, r.flags);
    else
      f(r.magic, r.version, r.toc_size, r.num_files, r.sector_size, r.divider, r.slop, r.num_large, r.num_medium,
        r.num_small, r.name_table_offset, r.name_table_size, r.flags);
  }
  // The header it holds (the byte order is the caller's).
  [[nodiscard]] constexpr Header header() const {
    Header h;
    h.version = version, h.toc_size = toc_size, h.num_files = num_files, h.sector_size = sector_size;
    h.divider = divider, h.slop = slop, h.name_table_offset = name_table_offset, h.name_table_size = name_table_size;
    h.num_large = num_large, h.num_medium = num_medium, h.num_small = num_small, h.flags = flags;
    return h;
  }
  // h as this layout (a name table offset past the field's width is the caller's check).
  [[nodiscard]] static constexpr HeaderLayout of(const Header& h) {
    return {kMagic,      h.version,   h.toc_size,  h.num_files,  h.sector_size, h.divider, h.slop,
            h.num_large, h.num_medium, h.num_small, static_cast<Offset>(h.name_table_offset), h.name_table_size, h.flags};
  }
};
using HeaderV4 = HeaderLayout<4>;
using HeaderV8 = HeaderLayout<8>;
using HeaderV10 = HeaderLayout<10>;

// h's header_size(h.version) bytes in h.endian: the writer's and the editor's header.
inline ByteBuffer encode_header(const Header& h) {
  const auto bytes = [&](const auto& layout) {
    const auto a = encode_record(layout, h.endian);
    return ByteBuffer(a.begin(), a.end());
  };
  if (h.version == 4) return bytes(HeaderV4::of(h));
  if (h.version == 8) return bytes(HeaderV8::of(h));
  return bytes(HeaderV10::of(h));
}

// File info, versions 4 and 8 (#iga-file-info): offset, length, block word.
struct FileInfo12 {
  static constexpr std::size_t kSize = 12;
  std::uint32_t offset = 0, length = 0, word = 0;
  static constexpr void fields(auto& r, auto&& f) { f(r.offset, r.length, r.word); }
};

// File info, versions 0x0A+ (#iga-file-info): 40-bit offset with the build ordinal above it.
struct FileInfo16 {
  static constexpr std::size_t kSize = 16;
  std::uint64_t offset_ordinal = 0;
  std::uint32_t length = 0, word = 0;
  static constexpr void fields(auto& r, auto&& f) { f(r.offset_ordinal, r.length, r.word); }
};

// A file's info in its version's form (file_info_size: 12 or 16 bytes) in byte order e: the
// offset (checked by the caller to fit 32 or 40 bits), the build ordinal above a 40-bit offset.
inline ByteBuffer encode_file_info(std::uint64_t size, std::uint64_t offset, std::uint32_t ordinal,
                                   std::uint32_t length, std::uint32_t word, Endian e) {
  const auto bytes = [](const auto& a) { return ByteBuffer(a.begin(), a.end()); };
  if (size == FileInfo12::kSize) return bytes(encode_record(FileInfo12{static_cast<std::uint32_t>(offset), length, word}, e));
  const std::uint64_t offset_ordinal = (offset & 0xFFFFFFFFFFull) | std::uint64_t{ordinal & 0xFFFFFFu} << 40;
  return bytes(encode_record(FileInfo16{offset_ordinal, length, word}, e));
}

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
