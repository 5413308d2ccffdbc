// igz on-disk records with their sizes (core/record.h): each decode reads exactly kSize bytes
// (a braced initializer list is evaluated left to right, so fields are read in their order).
// spec: alchemy.md#igz-header-v7, #igz-header-v6, #igz-fixups
#pragma once

#include "assay/core/record.h"
#include "assay/formats/igz/igz.h"

namespace assay::igz::records {

// The first two words, magic and version, are core's MagicVersion: probe_byte_order(b, kMagic)
// gives the file's byte order (#igz-header-v7, #overview-byteorder).

// The fixed words before the section descriptors, version 7+ (#igz-header-v7).
struct HeaderV7 {
  static constexpr std::size_t kSize = kHeaderV7Descriptors;  // 0x14
  std::uint32_t magic = 0, version = 0, fields_hash = 0, platform = 0, num_fixups = 0;
  static constexpr HeaderV7 decode(RecordCursor& c) {
    return {.magic = c.u32(), .version = c.u32(), .fields_hash = c.u32(), .platform = c.u32(), .num_fixups = c.u32()};
  }
};

// Version 5/6: platform and fixup count live in the fixup section (#igz-header-v6).
struct HeaderV6 {
  static constexpr std::size_t kSize = kHeaderV6Descriptors;  // 0x0C
  std::uint32_t magic = 0, version = 0, fields_hash = 0;
  static constexpr HeaderV6 decode(RecordCursor& c) {
    return {.magic = c.u32(), .version = c.u32(), .fields_hash = c.u32()};
  }
};

// One section descriptor (#igz-header-v7: 32 of them from 0x14; v6: from 0x0C).
struct SectionDescriptor {
  static constexpr std::size_t kSize = 0x10;
  std::uint32_t name_offset = 0, offset = 0, length = 0, alignment = 0;
  static constexpr SectionDescriptor decode(RecordCursor& c) {
    return {.name_offset = c.u32(), .offset = c.u32(), .length = c.u32(), .alignment = c.u32()};
  }
};

// The v5/6 fixup section's inner header (#igz-header-v6 [uncertain]): platform u16 at 8,
// fixup count at 0x10.
struct FixupInnerHeaderV6 {
  static constexpr std::size_t kSize = kFixupInnerHeaderV6;  // 0x1C
  std::uint16_t platform = 0;
  std::uint32_t num_fixups = 0;
  static constexpr FixupInnerHeaderV6 decode(RecordCursor& c) {
    FixupInnerHeaderV6 h;
    c.skip(8);
    h.platform = c.u16();
    c.skip(6);
    h.num_fixups = c.u32();
    c.skip(8);
    return h;
  }
};

// A fixup record header, version 7+ (#igz-fixups): tag, count, length, dataOffset.
struct FixupHeaderV7 {
  static constexpr std::size_t kSize = kFixupHeaderV7;  // 0x10
  std::uint32_t tag = 0, count = 0, length = 0, data_offset = 0;
  static constexpr FixupHeaderV7 decode(RecordCursor& c) {
    return {.tag = c.u32(), .count = c.u32(), .length = c.u32(), .data_offset = c.u32()};
  }
};

// A fixup record header, version 5/6 (#igz-header-v6): numeric id, 8 unknown bytes, then as v7.
struct FixupHeaderV6 {
  static constexpr std::size_t kSize = kFixupHeaderV6;  // 0x18
  std::uint32_t id = 0, count = 0, length = 0, data_offset = 0;
  static constexpr FixupHeaderV6 decode(RecordCursor& c) {
    const std::uint32_t id = c.u32();
    c.skip(8);
    return {.id = id, .count = c.u32(), .length = c.u32(), .data_offset = c.u32()};
  }
};

// EXID item: {name hash, namespace hash} (#igz-fixups).
struct ExternalIdItem {
  static constexpr std::size_t kSize = 8;
  std::uint32_t name_hash = 0, namespace_hash = 0;
  static constexpr ExternalIdItem decode(RecordCursor& c) {
    return {.name_hash = c.u32(), .namespace_hash = c.u32()};
  }
};

// TMHN item: two pointer-sized words; one record type per pointer size.
template <class Ptr>
struct PointerPair {
  static constexpr std::size_t kSize = 2 * sizeof(Ptr);
  std::uint64_t first = 0, second = 0;
  static constexpr PointerPair decode(RecordCursor& c) { return {.first = c.get<Ptr>(), .second = c.get<Ptr>()}; }
};
using PointerPair32 = PointerPair<std::uint32_t>;
using PointerPair64 = PointerPair<std::uint64_t>;

}  // namespace assay::igz::records
