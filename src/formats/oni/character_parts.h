// Shared by the character files (body.cc, tram.cc, character.cc): little-endian reads of fields
// already proven inside their bytes, links checked and resolved through level 0, and arrays whose
// u16 count is checked against their instance before anything is read.
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <string>

#include "assay/formats/oni/character.h"

namespace assay::oni::character_detail {

// The engine's tick: animation frames (TRAM keys, OBAN keys) run at 60 a second; a TRAM's own
// rate field is always 60 (verify), OBD:OBAN gives "elapsed time in frames".
inline constexpr double kFramesPerSecond = 60.0;
// Frame `frame` as glTF key time, in seconds.
inline float frame_time(std::uint32_t frame) { return static_cast<float>(frame / kFramesPerSecond); }

// Fields the caller has proven inside `b`.
inline std::uint32_t le32(ByteView b, std::uint64_t at) { return load<std::uint32_t>(b.data() + at, Endian::little); }
inline std::uint16_t le16(ByteView b, std::uint64_t at) { return load<std::uint16_t>(b.data() + at, Endian::little); }
inline float lef32(ByteView b, std::uint64_t at) { return std::bit_cast<float>(le32(b, at)); }

// "instance[5] TRAM TRAMfoo" and the instance's file offset.
std::string label_of(const LoadedFile& f, std::uint32_t i);
std::uint64_t offset_of(const LoadedFile& f, std::uint32_t i);
// An error at field `field` of instance i (code "oni.character" unless given).
Error field_error(const LoadedFile& f, std::uint32_t i, std::uint64_t field, std::string msg, std::string_view code = "oni.character");

// The link at `field` of instance i (whose bytes hold the field): none for 0; else an instance id
// (index << 8 | 1, spec: oni.md#oni-3-7) of a `tag` descriptor of this file.
Result<std::optional<std::uint32_t>> link_target(const InstanceFile& f, std::uint32_t i, ByteView b, std::uint32_t field,
                                                 std::uint32_t tag);
// That link resolved to the instance with data: in f, or by name in level 0 for a placeholder.
Result<std::optional<InstanceRef>> resolved_link(const LoadedFile& f, std::uint32_t i, std::uint32_t field, std::uint32_t tag,
                                                 const LoadedFile* level0);
// Instance r's bytes, at least `min_size` of them.
Result<ByteView> sized_bytes(const InstanceRef& r, std::uint32_t min_size);
// The u16 count at 0x1E of array instance r whose `elem`-byte elements start at 0x20; the count is
// checked against the instance's size.
Result<std::uint32_t> array_count(const InstanceRef& r, std::uint32_t elem);

}  // namespace assay::oni::character_detail
