// The Warriors' on-disk records with their sizes (core/record.h): each decode reads exactly
// kSize bytes, little-endian (PS2). spec: warriors.md#wr-1 (DIR), #wr-5 (chunk containers)
#pragma once

#include <optional>

#include "assay/core/record.h"
#include "assay/formats/warriors/chunks.h"
#include "assay/formats/warriors/disc.h"

namespace assay::warriors::records {

inline ByteReader le_reader(ByteView b, std::uint64_t base = 0) { return ByteReader(b, Endian::little, kFormat, base); }

// DirHeader and DirRow are declared in disc.h (the Disc keeps a table of rows).

// A chunk container / group header and a chunk header: four u32 (#wr-5-1, #wr-5-2).
struct Header16 {
  static constexpr std::size_t kSize = 16;
  std::uint32_t w0 = 0, w1 = 0, w2 = 0, w3 = 0;
  // A braced list is evaluated left to right: w0 first.
  static constexpr Header16 decode(RecordCursor& c) { return {c.u32(), c.u32(), c.u32(), c.u32()}; }
  [[nodiscard]] constexpr ContainerHeader container() const { return {w0, w1, w2, w3}; }
};

// The 16-byte header at the start of `b`, if there is one.
inline std::optional<Header16> header16(ByteView b, std::uint64_t at = 0) {
  auto h = read_record<Header16>(le_reader(b), at, "container header");
  return h ? std::optional<Header16>(*h) : std::nullopt;
}

// True when `b` opens with a header whose id word is the package marker (#wr-5-3).
inline bool has_package_marker(ByteView b) {
  const auto h = header16(b);
  return h && h->w3 == kPackageMarker;
}

// A little-endian u32 at `at` of `b`, nullopt past the end: the checked word read of the
// classifiers and handlers (which have checked the sizes their rules need).
inline std::optional<std::uint32_t> u32_at(ByteView b, std::uint64_t at) {
  auto w = read_record<Word32>(le_reader(b), at, "word");
  return w ? std::optional<std::uint32_t>(w->value) : std::nullopt;
}
inline std::optional<std::uint16_t> u16_at(ByteView b, std::uint64_t at) {
  auto w = read_record<Word16>(le_reader(b), at, "half-word");
  return w ? std::optional<std::uint16_t>(w->value) : std::nullopt;
}

// ECMA-119 primary volume descriptor fields the ISO reader checks itself (#wr-1-2): volume
// space size (+80, both-endian: the LE half), logical block size (+128), and the root directory
// record's extent (+158) and data length (+166).
struct PrimaryVolumeDescriptor {
  static constexpr std::size_t kSize = 2048;
  std::uint8_t type = 0;
  std::uint32_t volume_blocks = 0;
  std::uint16_t block_size = 0;
  std::uint32_t root_extent = 0, root_length = 0;
  static constexpr PrimaryVolumeDescriptor decode(RecordCursor& c) {
    PrimaryVolumeDescriptor p;
    p.type = c.u8();
    c.skip(79);
    p.volume_blocks = c.u32();
    c.skip(128 - 84);
    p.block_size = c.u16();
    c.skip(158 - 130);
    p.root_extent = c.u32();
    c.skip(166 - 162);
    p.root_length = c.u32();
    c.skip(2048 - 170);
    return p;
  }
};

inline constexpr std::uint64_t kPvdOffset = 16 * 2048;

}  // namespace assay::warriors::records
