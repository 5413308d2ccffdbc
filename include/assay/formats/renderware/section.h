// RenderWare binary stream sections: the 12-byte header, library stamps and section ids.
// spec: renderware.md#rw-2 (header, stamps), renderware.md#rw-3 (ids).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "assay/core/bytes.h"
#include "assay/core/record.h"

namespace assay::rw {

inline constexpr std::string_view kFormat = "renderware";

// Section ids (spec: renderware.md#rw-3). An id is vendor << 8 | number.
namespace id {
inline constexpr std::uint32_t kStruct = 0x01;
inline constexpr std::uint32_t kString = 0x02;
inline constexpr std::uint32_t kExtension = 0x03;
inline constexpr std::uint32_t kCamera = 0x05;
inline constexpr std::uint32_t kTexture = 0x06;
inline constexpr std::uint32_t kMaterial = 0x07;
inline constexpr std::uint32_t kMaterialList = 0x08;
inline constexpr std::uint32_t kAtomicSection = 0x09;
inline constexpr std::uint32_t kPlaneSection = 0x0A;
inline constexpr std::uint32_t kWorld = 0x0B;
inline constexpr std::uint32_t kSpline = 0x0C;
inline constexpr std::uint32_t kMatrix = 0x0D;
inline constexpr std::uint32_t kFrameList = 0x0E;
inline constexpr std::uint32_t kGeometry = 0x0F;
inline constexpr std::uint32_t kClump = 0x10;
inline constexpr std::uint32_t kLight = 0x12;
inline constexpr std::uint32_t kUnicodeString = 0x13;
inline constexpr std::uint32_t kAtomic = 0x14;
inline constexpr std::uint32_t kTextureNative = 0x15;
inline constexpr std::uint32_t kTextureDictionary = 0x16;
inline constexpr std::uint32_t kAnimDatabase = 0x17;
inline constexpr std::uint32_t kImage = 0x18;
inline constexpr std::uint32_t kSkinAnimation = 0x19;
inline constexpr std::uint32_t kGeometryList = 0x1A;
inline constexpr std::uint32_t kAnimAnimation = 0x1B;
inline constexpr std::uint32_t kRightToRender = 0x1F;
inline constexpr std::uint32_t kUvAnimDictionary = 0x2B;
inline constexpr std::uint32_t kSkyMipmapVal = 0x110;
inline constexpr std::uint32_t kSkin = 0x116;
inline constexpr std::uint32_t kHAnim = 0x11E;
inline constexpr std::uint32_t kUserData = 0x11F;
inline constexpr std::uint32_t kMaterialEffects = 0x120;
inline constexpr std::uint32_t kGeometricPvs = 0x12A;
// ADC plugin (toolkit 0x34; librw rwbase.h ID_ADC): PS2 per-vertex "ADC" bits of a geometry's
// strips (not in renderware.md#rw-3's table, which named it "unknown").
inline constexpr std::uint32_t kAdc = 0x134;
inline constexpr std::uint32_t kBinMesh = 0x50E;
inline constexpr std::uint32_t kNativeData = 0x510;
inline constexpr std::uint32_t kRockstarGeometry = 0x0253F2FD;
inline constexpr std::uint32_t kNodeName = 0x0253F2FE;
}  // namespace id

// The name of a section id ("Texture Native", "Rockstar plugin 0x0253F2F8"...); empty for an
// unknown id.
std::string_view section_name(std::uint32_t id);
// True when the id is known (spec table of renderware.md#rw-3, including every 0x0253F2xx).
bool is_known_section(std::uint32_t id);
// The "C" column of renderware.md#rw-3 (the two exceptions of #rw-4-3 are the walker's job).
bool is_container(std::uint32_t id);

// A decoded library stamp (spec: renderware.md#rw-2-2).
struct Version {
  std::uint32_t version = 0;   // 0x3JNBB
  std::uint32_t build = 0;     // 0 for the old form (no build)
  bool old_form = false;       // upper 16 bits of the stamp were zero
  [[nodiscard]] std::uint32_t major() const { return version >> 16; }
  [[nodiscard]] std::uint32_t minor() const { return (version >> 12) & 0xF; }
  [[nodiscard]] std::uint32_t revision() const { return (version >> 8) & 0xF; }
  [[nodiscard]] std::uint32_t binary() const { return version & 0xFF; }
  // "3.7.0.2 build 0x000A"; "3.1.0.0" for the old form.
  [[nodiscard]] std::string str() const;
};

// Decodes a stamp without judging it (both forms).
Version decode_stamp_raw(std::uint32_t stamp) noexcept;
// Decodes and checks rule R3: a version outside 0x30000-0x3FFFF is an error.
Result<Version> decode_stamp(std::uint32_t stamp);
// The new-form stamp for a version and build (spec: renderware.md#rw-2-2 "Encoding").
std::uint32_t encode_stamp(std::uint32_t version, std::uint32_t build) noexcept;
// True for 0x30000 <= version <= 0x3FFFF.
bool plausible_stamp(std::uint32_t stamp) noexcept;

// The writers' default stamp: 3.7.0.2 with no build given (0xFFFF), the newest RenderWare 3
// version a stream in renderware.md#rw-2-3 carries (librw's samples). A game's own stamp is
// passed in by the caller (the Warriors' is warriors::kRenderWareStamp).
inline constexpr std::uint32_t kStampDefault = 0x1C02FFFF;  // 3.7.0.2 build 0xFFFF
inline constexpr std::uint32_t kStampGtaSa = 0x1803FFFF;    // 3.6.0.3 build 0xFFFF

// spec: renderware.md#rw-2-1 (a Record of core/record.h: little-endian, 12 bytes)
struct SectionHeader {
  static constexpr std::uint64_t kSize = 12;
  std::uint32_t type = 0;
  std::uint32_t size = 0;   // body bytes after the header, children included
  std::uint32_t stamp = 0;  // libraryIdStamp
  // One bounded take of the 12 bytes, then the three words from that view: the walker reads
  // every header this way, and three per-field cursor reads cost it twice the time (bench_renderware).
  static constexpr SectionHeader decode(RecordCursor& c) {
    const ByteView b = c.bytes(kSize);  // empty on overrun
    if (b.size() != kSize) return {};
    return {le32(b, 0), le32(b, 4), le32(b, 8)};
  }

 private:
  static constexpr std::uint32_t le32(ByteView b, std::size_t o) {
    return std::uint32_t{b[o]} | std::uint32_t{b[o + 1]} << 8 | std::uint32_t{b[o + 2]} << 16 |
           std::uint32_t{b[o + 3]} << 24;
  }
};
static_assert(kRecordSizeMatches<SectionHeader>);

// Reads the header at `offset` of `bytes` (no check of the body). Errors give base + offset.
Result<SectionHeader> read_section_header(ByteView bytes, std::uint64_t offset,
                                          std::uint64_t base = 0);

}  // namespace assay::rw
