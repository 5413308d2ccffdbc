// igImage2 fields from a decoded igz (spec: alchemy.md#igz-objects, #igz-externals; field order
// from igRewrite8 igLibrary/Gfx/igImage2.cs).
//
// The field offsets differ per game (the ones here are the files', not a metadata dump's):
//   zap.pak textures (v7, PS3):         _width at 0x30, _format (REXT) at 0x3C, _data (RMHN) at 0x48
//   igModelTool_test_img.igz (v9, Wii U): _width at 0x34, _format (REXT) at 0x40, _data (RMHN) at 0x4C
// In both, _format is the object's one external-reference field, _width .. _imageCount are the
// five u16 0x0C bytes before it (then 2 bytes of padding) and the memory handle of _data sits
// 0x0C after it (_format, _usageDeprecated, _paddingDeprecated + padding). So the fields are
// found from the _format field, and every value is checked before it is used.
#include "assay/formats/igz/image.h"

#include <fmt/format.h>

#include <algorithm>

#include "diag_util.h"

namespace assay::igz {

namespace {

using detail::err;

constexpr std::uint32_t kWidthBeforeFormat = 0x0C;  // _width .. _imageCount + pad, then _format
constexpr std::uint32_t kDataAfterFormat = 0x0C;    // _format, _usageDeprecated, _paddingDeprecated

std::uint32_t at(const IgzFile& f, const Object& o, std::uint32_t field) {
  return encode_pointer(f.header().version, {o.pool, o.offset + field});
}

// The object's _format field: its first external reference.
const ExternalRef* format_field(const Graph& g, std::size_t object) {
  const ExternalRef* best = nullptr;
  for (const ExternalRef& x : g.externals)
    if (x.from == object && (best == nullptr || x.field < best->field)) best = &x;
  return best;
}

// "metaimages::dxt1_tile_cafe" -> the format name when the namespace is metaimages.
void name_format(const Fixups& fx, const ExternalRef& x, Image2& img) {
  img.format = x.name;
  if (x.kind == "exid" && x.index < fx.external_ids.size()) {
    const ExternalId& id = fx.external_ids[x.index];
    if (id.namespace_hash != kMetaImagesNamespace) return;
    if (auto n = metaimage_for_hash(id.name_hash)) img.format = *n, img.format_known = true;
  } else if (x.name.starts_with("metaimages::")) {  // EXNM: the names themselves
    img.format = x.name.substr(12);
    img.format_known = true;
  }
}

// igNamedObject::_name: the object's string field before _width.
std::optional<std::string> object_name(const Graph& g, const Image2& img, std::uint32_t width_field) {
  for (const StringRef& s : g.strings)
    if (s.from == img.object && s.field < width_field && s.text) return std::string(*s.text);
  return std::nullopt;
}

bool in_list(const Fixups& fx, std::uint32_t tag, std::uint32_t field) {
  const auto& v = fx.list(tag);
  return std::find(v.begin(), v.end(), field) != v.end();
}

// _data through a memory handle (RMHN field -> TMHN {size word, data pointer}).
Result<ImageData> handle_data(const IgzFile& f, const Fixups& fx, std::uint32_t field, std::string_view what) {
  ASSAY_TRY(std::uint64_t pos, resolve(f, field, 4, what));
  ASSAY_TRY(std::uint32_t index, f.reader().u32(pos, what));
  if (index >= fx.memory_handles.size())
    return err(what, pos, fmt::format("TMHN index {} ≥ TMHN count {}", index, fx.memory_handles.size()));
  const MemoryHandle& m = fx.memory_handles[index];
  ImageData d;
  d.where = ImageData::Where::pool;
  d.handle = index;
  d.size = decode_memory_word(m.size_word, f.header().pointer_size).size;
  if (m.data > 0xFFFFFFFFu) return err(what, pos, fmt::format("TMHN[{}] data pointer exceeds 32 bits", index));
  ASSAY_TRY(d.offset, resolve(f, static_cast<std::uint32_t>(m.data), d.size, fmt::format("TMHN[{}] data", index)));
  return d;
}

// _data as an igMemory in place: {size word, pointer (ROFS)} (32-bit files).
Result<ImageData> memory_data(const IgzFile& f, std::uint32_t field, std::string_view what) {
  ASSAY_TRY(std::uint64_t pos, resolve(f, field, 8, what));
  ASSAY_TRY(std::uint32_t word, f.reader().u32(pos, what));
  ASSAY_TRY(std::uint32_t ptr, f.reader().u32(pos + 4, what));
  ImageData d;
  d.where = ImageData::Where::pool;
  d.size = decode_memory_word(word, 4).size;
  ASSAY_TRY(d.offset, resolve(f, ptr, d.size, std::string(what) + " data"));
  return d;
}

Result<ImageData> find_data(const IgzFile& f, const Fixups& fx, const Graph& g, const Object& o,
                            std::uint32_t data_field, std::string_view what) {
  const std::uint32_t ser = at(f, o, data_field);
  if (in_list(fx, tag::RMHN, ser)) return handle_data(f, fx, ser, what);
  if (f.header().pointer_size == 4 && in_list(fx, tag::ROFS, at(f, o, data_field + 4)))
    return memory_data(f, ser, what);
  for (const ExternalRef& x : g.externals)
    if (x.field == ser) return ImageData{ImageData::Where::external, 0, 0, 0, x.name};
  return ImageData{};  // no pixels referenced (an empty igMemory)
}

Result<void> read_dimensions(const IgzFile& f, const Object& o, Image2& img, std::string_view what) {
  ASSAY_TRY(std::uint64_t pos, resolve(f, at(f, o, img.field_base), 10, what));
  const ByteReader r = f.reader();
  ASSAY_TRY(img.width, r.u16(pos, what));
  ASSAY_TRY(img.height, r.u16(pos + 2, what));
  ASSAY_TRY(img.depth, r.u16(pos + 4, what));
  ASSAY_TRY(img.levels, r.u16(pos + 6, what));
  ASSAY_TRY(img.images, r.u16(pos + 8, what));
  if (img.width == 0 || img.height == 0 || img.levels == 0)
    return err(what, pos, fmt::format("{} x {} with {} levels is no image", img.width, img.height, img.levels));
  if (img.levels > 17) return err(what, pos + 6, fmt::format("{} levels (at most 17 for 16-bit sides)", img.levels));
  return {};
}

}  // namespace

Result<Image2> read_image2(const IgzFile& f, const Fixups& fx, const Graph& g, std::size_t object) {
  if (object >= g.objects.size()) return err("igImage2", kNoOffset, fmt::format("no object {}", object));
  const Object& o = g.objects[object];
  const std::string what = fmt::format("{}[{}]", o.type_name.empty() ? "object" : o.type_name, object);
  const ExternalRef* fmt_ref = format_field(g, object);
  if (fmt_ref == nullptr) return err(what, o.position, "no _format field (the object has no external reference)");
  const PoolOffset fp = decode_pointer(f.header().version, fmt_ref->field);
  if (fp.pool != o.pool || fp.offset < o.offset + kWidthBeforeFormat + 8)
    return err(what, o.position, fmt::format("_format field 0x{:x} is not after the object's header", fmt_ref->field));
  const std::uint32_t format_at = fp.offset - o.offset;
  if (o.size != 0 && format_at + kDataAfterFormat + 4 > o.size)
    return err(what, o.position, fmt::format("_format at +0x{:x} leaves no _data inside the object's 0x{:x} bytes", format_at, o.size));
  Image2 img;
  img.object = object;
  img.type = std::string(o.type_name);
  img.field_base = format_at - kWidthBeforeFormat;
  img.platform = std::string(platform_name(f.header().version, f.header().platform));
  ASSAY_CHECK(read_dimensions(f, o, img, what));
  name_format(fx, *fmt_ref, img);
  img.name = object_name(g, img, at(f, o, img.field_base));
  ASSAY_TRY(img.data, find_data(f, fx, g, o, format_at + kDataAfterFormat, what + " _data"));
  return img;
}

std::vector<Image2> find_images(const IgzFile& f, const Fixups& fx, const Graph& g) {
  std::vector<Image2> out;
  for (std::size_t i = 0; i < g.objects.size(); ++i) {
    if (g.objects[i].type_name != "igImage2") continue;
    if (auto img = read_image2(f, fx, g, i)) out.push_back(std::move(*img));
  }
  return out;
}

}  // namespace assay::igz
