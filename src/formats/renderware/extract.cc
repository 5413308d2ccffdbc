// What extract writes of a texture dictionary (spec: renderware.md#rw-real): each texture as a
// PNG (with mips, every level), a GameCube native as its stored section.
#include <fmt/format.h>

#include "assay/image/png.h"
#include "codes.h"
#include "stream.h"

namespace assay::rw::detail {

namespace {

// Level k of texture i as a PNG: PAL4/PAL8 as an indexed PNG (PLTE + tRNS), the same RGBA as
// decode() with a quarter of the bytes to compress; others as 8-bit RGBA.
Result<ByteBuffer> level_png(const TextureDictionary& d, std::size_t i, std::uint32_t k) {
  if (is_paletted(d.textures()[i])) {
    ASSAY_TRY(image::Indexed img, d.decode_indexed(i, k));
    return image::encode_png(img);
  }
  ASSAY_TRY(image::Rgba img, d.decode(i, k));
  return image::encode_png(img);
}

}  // namespace

bool stored_as_section(const TextureNative& t) { return t.platform == kPlatformGameCube && t.error.empty(); }

Result<ExtractCount> write_texture(const TextureDictionary& d, std::size_t i, const std::string& name, bool mips,
                                   const OutputDir& dir, ByteView bytes) {
  const TextureNative& tex = d.textures()[i];
  if (!tex.error.empty())  // could not be read (spec: #rw-real); open() went on with the next one
    return make_error("", "", kNoOffset, tex.error).with_code("renderware.texture-unreadable");  // the reader's message
  if (stored_as_section(tex)) {
    ASSAY_TRY(ByteView section, section_bytes(bytes, tex.offset));
    ASSAY_CHECK(dir.write(name + ".rws", section));  // an I/O error: core's
    return ExtractCount{1, section.size()};
  }
  if (!tex.unsupported.empty())  // listed, not decoded
    return rw_error(fmt::format("texture native '{}'", tex.name), tex.offset, tex.unsupported,
                    "renderware.texture-unsupported");
  ExtractCount n;
  const std::size_t levels = mips ? tex.levels.size() : 1;
  for (std::size_t k = 0; k < levels; ++k) {
    ASSAY_TRY(ByteBuffer png, level_png(d, i, static_cast<std::uint32_t>(k)));
    ASSAY_CHECK(dir.write(k == 0 ? name + ".png" : fmt::format("{}.mip{}.png", name, k), png));
    n.files++;
    n.bytes += png.size();
  }
  return n;
}

}  // namespace assay::rw::detail
