// Texture dictionaries and the platform dispatch of texture natives. spec: renderware.md#rw-5-1.
#include "assay/formats/renderware/texture.h"

#include <algorithm>
#include <bit>

#include "records.h"
#include "texture_internal.h"

namespace assay::rw {

using detail::Child;

std::string_view platform_name(std::uint32_t platform) {
  switch (platform) {
    case kPlatformPS2: return "ps2";
    case kPlatformD3D8: return "d3d8";
    case kPlatformD3D9: return "d3d9";
    case kPlatformXbox: return "xbox";
    case kPlatformGameCube: return "gamecube";
    default: return {};
  }
}

std::string_view device_name(std::uint16_t d) {
  // spec: #rw-5-1 (LRW's device ids)
  static constexpr std::string_view kNames[] = {"unknown", "d3d8", "d3d9", "gamecube", "null",
                                                "opengl",  "ps2",  "software", "xbox", "psp"};
  return d < std::size(kNames) ? kNames[d] : std::string_view{};
}

std::string_view to_string(TexelFormat f) {
  switch (f) {
    case TexelFormat::pal4: return "PAL4";
    case TexelFormat::pal8: return "PAL8";
    case TexelFormat::bgra8888: return "8888";
    case TexelFormat::bgrx8888: return "888";
    case TexelFormat::r5g6b5: return "565";
    case TexelFormat::x1r5g5b5: return "555";
    case TexelFormat::a1r5g5b5: return "1555";
    case TexelFormat::a4r4g4b4: return "4444";
    case TexelFormat::a8: return "A8";
    case TexelFormat::l8: return "LUM8";
    case TexelFormat::a8l8: return "A8L8";
    case TexelFormat::dxt1: return "DXT1";
    case TexelFormat::dxt3: return "DXT3";
    case TexelFormat::dxt5: return "DXT5";
    case TexelFormat::unknown: break;
  }
  return "unknown";
}

std::uint32_t max_mip_levels(std::uint32_t width, std::uint32_t height) noexcept {
  return static_cast<std::uint32_t>(std::bit_width(std::max(width, height)));
}

namespace {

// Fills `tex` as far as the bytes allow (so a failed texture still has its name and platform).
Result<void> read_native_into(ByteView bytes, std::uint64_t offset, std::uint64_t base, const DiagSink& diag,
                              const TextureOptions& opt, TextureNative& tex) {
  ASSAY_TRY(Child self, detail::read_one(bytes, offset, base));
  tex.offset = base + offset;
  tex.stamp = self.h.stamp;
  if (self.h.type != id::kTextureNative)
    return detail::rw_error(detail::describe(self.h.type), base + offset, "expected a Texture Native (0x15)", "renderware.not-texture-native");
  ASSAY_TRY(auto kids, detail::read_children(bytes, offset, base));
  const auto platform = kids.empty() || kids[0].h.type != id::kStruct
                            ? std::nullopt
                            : records::leading<records::NativePlatform>(kids[0].body);
  if (!platform)
    return detail::rw_error("Texture Native", base + offset, "the first child is not a Struct holding the platform id",
                            "renderware.texture-native-struct");
  tex.platform = platform->platform;
  switch (tex.platform) {
    case kPlatformPS2: return detail::read_ps2_native(bytes, base, kids, tex, diag, opt);
    case kPlatformD3D8:
    case kPlatformD3D9:
    case kPlatformXbox: return detail::read_d3d_native(bytes, base, kids, tex, diag, opt);
    case kPlatformGameCube:
    case kPlatformGameCubeBE: return detail::read_gamecube_native(base, kids, tex, diag);
    default:
      tex.unsupported = fmt::format("platform 0x{:X} is not supported", tex.platform);
      detail::report(diag, Severity::warning, "Texture Native", base + offset,
                     fmt::format("unknown texture platform 0x{:X}: not decoded", tex.platform));
  }
  return {};
}

}  // namespace

Result<TextureNative> read_texture_native(ByteView bytes, std::uint64_t offset, std::uint64_t base,
                                          const DiagSink& diag, const TextureOptions& opt) {
  TextureNative tex;
  ASSAY_CHECK(read_native_into(bytes, offset, base, diag, opt, tex));
  return tex;
}

namespace {

// Why level `level` of `tex` cannot be decoded, if it cannot.
Result<void> check_decodable(const TextureNative& tex, std::uint32_t level) {
  if (!tex.unsupported.empty()) {
    Error e = detail::texture_error(tex, tex.offset, "cannot decode: " + tex.unsupported);
    e.kind = ErrorKind::unsupported;
    return e;
  }
  if (level >= tex.levels.size())
    return detail::texture_error(tex, tex.offset,
                                 fmt::format("level {} requested, the texture has {}", level, tex.levels.size()));
  return {};
}

}  // namespace

Result<image::Rgba> decode_texture(const TextureNative& tex, std::uint32_t level) {
  ASSAY_CHECK(check_decodable(tex, level));
  if (tex.platform == kPlatformPS2) return detail::decode_ps2(tex, level);
  return detail::decode_d3d(tex, level);
}

bool is_paletted(const TextureNative& tex) noexcept {
  return tex.format == TexelFormat::pal4 || tex.format == TexelFormat::pal8;
}

Result<image::Indexed> decode_texture_indexed(const TextureNative& tex, std::uint32_t level) {
  if (!is_paletted(tex))
    return detail::texture_error(tex, tex.offset, fmt::format("{} texels have no palette", to_string(tex.format)));
  ASSAY_CHECK(check_decodable(tex, level));
  if (tex.platform == kPlatformPS2) return detail::decode_ps2_indexed(tex, level);
  return detail::decode_d3d_indexed(tex, level);
}

// spec: #rw-5-1
Result<TextureDictionary> TextureDictionary::open(ByteView bytes, std::uint64_t base, const DiagSink& diag,
                                                  const TextureOptions& opt) {
  ASSAY_TRY(SectionHeader self, read_section_header(bytes, 0, base));
  // a cut dictionary (TextureOptions::allow_cut) reads what lies before the end; else R1
  const bool cut = opt.allow_cut && self.size > bytes.size() - SectionHeader::kSize;
  if (!cut) ASSAY_CHECK(detail::read_one(bytes, 0, base));
  if (self.type != id::kTextureDictionary)
    return detail::rw_error(detail::describe(self.type), base, "expected a Texture Dictionary (0x16)", "renderware.not-texture-dictionary");
  ASSAY_CHECK(decode_stamp(self.stamp));
  ASSAY_TRY(auto kids, cut ? detail::read_intact_children(bytes, 0, base) : detail::read_children(bytes, 0, base));
  TextureDictionary d;
  d.offset_ = base;
  d.stamp_ = self.stamp;
  const auto st = kids.empty() || kids[0].h.type != id::kStruct
                      ? std::nullopt
                      : records::leading<records::DictionaryStruct>(kids[0].body);  // spec: #rw-5-1
  if (!st) return detail::rw_error("Texture Dictionary", base, "the first child is not a 4-byte Struct {count, device}", "renderware.dictionary-struct");
  d.count_ = st->count;
  d.device_id_ = st->device_id;
  std::size_t natives = 0;
  for (std::size_t i = 1; i < kids.size(); ++i) natives += kids[i].h.type == id::kTextureNative;
  if (natives != d.count_ && !(cut && natives < d.count_))  // R7 (a cut dictionary holds fewer)
    return detail::rw_error("Texture Dictionary", base,
                            fmt::format("struct says {} textures but {} Texture Native sections follow (R7)", d.count_,
                                        natives),
                            "R7");
  d.textures_.reserve(natives);
  for (std::size_t i = 1; i < kids.size(); ++i) {
    const Child& c = kids[i];
    if (c.h.type == id::kTextureNative) {
      TextureNative t;
      auto r = read_native_into(bytes, c.offset, base, diag, opt, t);
      if (!r) {
        if (!opt.keep_going) return r.error();
        // one bad texture does not stop the dictionary (spec: #rw-real)
        if (diag) diag({Severity::error, r.error()});
        t.error = r.error().str();
        t.unsupported = t.error;
        t.levels.clear();
      }
      d.textures_.push_back(std::move(t));
    } else if (c.h.type != id::kExtension || i + 1 != kids.size()) {
      detail::report(diag, Severity::warning, detail::describe(c.h.type), base + c.offset,
                     "unexpected child of a Texture Dictionary");
    }
  }
  return d;
}

Result<image::Rgba> TextureDictionary::decode(std::size_t index, std::uint32_t level) const {
  if (index >= textures_.size())
    return detail::rw_error("Texture Dictionary", offset_,
                            fmt::format("texture {} requested, the dictionary has {}", index, textures_.size()),
                            "renderware.no-such-texture");
  return decode_texture(textures_[index], level);
}

Result<image::Indexed> TextureDictionary::decode_indexed(std::size_t index, std::uint32_t level) const {
  if (index >= textures_.size())
    return detail::rw_error("Texture Dictionary", offset_,
                            fmt::format("texture {} requested, the dictionary has {}", index, textures_.size()),
                            "renderware.no-such-texture");
  return decode_texture_indexed(textures_[index], level);
}

}  // namespace assay::rw
