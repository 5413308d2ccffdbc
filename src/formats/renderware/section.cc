// Section header, stamps and section-id names. spec: renderware.md#rw-2, #rw-3.
#include "assay/formats/renderware/section.h"
#include "codes.h"

#include <fmt/format.h>

#include "assay/formats/renderware/profile.h"

namespace assay::rw {

namespace {

struct IdInfo {
  std::uint32_t id;
  std::string_view name;
  bool container;
};

// spec: renderware.md#rw-3 (the C/R column)
constexpr IdInfo kIds[] = {
    {id::kStruct, "Struct", false},
    {id::kString, "String", false},
    {id::kExtension, "Extension", true},
    {id::kCamera, "Camera", true},
    {id::kTexture, "Texture", true},
    {id::kMaterial, "Material", true},
    {id::kMaterialList, "Material List", true},
    {id::kAtomicSection, "Atomic Section", true},
    {id::kPlaneSection, "Plane Section", true},
    {id::kWorld, "World", true},
    {id::kSpline, "Spline", false},
    {id::kMatrix, "Matrix", false},
    {id::kFrameList, "Frame List", true},
    {id::kGeometry, "Geometry", true},
    {id::kClump, "Clump", true},
    {id::kLight, "Light", true},
    {id::kUnicodeString, "Unicode String", false},
    {id::kAtomic, "Atomic", true},
    {id::kTextureNative, "Texture Native", true},
    {id::kTextureDictionary, "Texture Dictionary", true},
    {id::kAnimDatabase, "Animation Database", false},
    {id::kImage, "Image", false},
    {id::kSkinAnimation, "Skin Animation", false},
    {id::kGeometryList, "Geometry List", true},
    {id::kAnimAnimation, "Anim Animation", false},
    {id::kRightToRender, "Right To Render", false},
    {id::kUvAnimDictionary, "UV Animation Dictionary", true},
    {id::kSkyMipmapVal, "Sky Mipmap Val", false},
    {id::kSkin, "Skin", false},
    {id::kHAnim, "HAnim", false},
    {id::kUserData, "User Data", false},
    {id::kMaterialEffects, "Material Effects", false},
    {id::kGeometricPvs, "Geometric PVS", false},
    {id::kAdc, "ADC", false},  // librw ID_ADC
    {id::kBinMesh, "Bin Mesh", false},
    {id::kNativeData, "Native Data", false},
    {id::kRockstarGeometry, "Rockstar Geometry Plugin", false},
    {id::kNodeName, "Rockstar Node Name", false},
};

constexpr std::uint32_t kRockstarVendor = 0x0253F2;

const IdInfo* find_id(std::uint32_t v) {
  for (const auto& i : kIds)
    if (i.id == v) return &i;
  return nullptr;
}

}  // namespace

std::string_view section_name(std::uint32_t v) {
  if (const IdInfo* i = find_id(v)) return i->name;
  if ((v >> 8) == kRockstarVendor) return "Rockstar Plugin";
  return {};
}

const Profile& generic_profile() {
  static const Profile kGeneric;
  return kGeneric;
}

bool is_known_section(std::uint32_t v) {
  return find_id(v) != nullptr || (v >> 8) == kRockstarVendor;
}

bool is_container(std::uint32_t v) {
  const IdInfo* i = find_id(v);
  return i != nullptr && i->container;
}

// spec: renderware.md#rw-2-2
Version decode_stamp_raw(std::uint32_t stamp) noexcept {
  Version v;
  if ((stamp & 0xFFFF0000u) == 0) {
    v.old_form = true;
    v.version = stamp << 8;
    v.build = 0;
  } else {
    v.version = (((stamp >> 14) & 0x3FF00u) + 0x30000u) | ((stamp >> 16) & 0x3Fu);
    v.build = stamp & 0xFFFFu;
  }
  return v;
}

bool plausible_stamp(std::uint32_t stamp) noexcept {
  const Version v = decode_stamp_raw(stamp);
  return v.version >= 0x30000 && v.version <= 0x3FFFF;
}

Result<Version> decode_stamp(std::uint32_t stamp) {
  const Version v = decode_stamp_raw(stamp);
  if (v.version < 0x30000 || v.version > 0x3FFFF)  // R3
    return detail::rw_error("library stamp", kNoOffset,
                            fmt::format("stamp 0x{:08X} decodes to version 0x{:X}, not RenderWare 3 (R3)", stamp,
                                        v.version),
                            "R3");
  return v;
}

std::uint32_t encode_stamp(std::uint32_t version, std::uint32_t build) noexcept {
  return (((version - 0x30000u) & 0x3FF00u) << 14) | ((version & 0x3Fu) << 16) | (build & 0xFFFFu);
}

std::string Version::str() const {
  std::string s = fmt::format("{}.{}.{}.{}", major(), minor(), revision(), binary());
  if (!old_form) s += fmt::format(" build 0x{:04X}", build);
  return s;
}

Result<SectionHeader> read_section_header(ByteView bytes, std::uint64_t offset, std::uint64_t base) {
  if (!range_ok(offset, SectionHeader::kSize, bytes.size()))
    return detail::rw_error("section header", base + offset,
                            fmt::format("needs 12 bytes but only {} remain", offset <= bytes.size() ? bytes.size() - offset : 0),
                            "renderware.short-header");
  const ByteReader r(bytes, Endian::little, kFormat, base);
  return read_record<SectionHeader>(r, offset, "section header");
}

}  // namespace assay::rw
