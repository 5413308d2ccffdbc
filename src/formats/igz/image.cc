// igImage2 fields from a decoded igz (spec: alchemy.md#igz-objects, #igz-externals,
// #corrections C4; field order from igRewrite8 igLibrary/Gfx/igImage2.cs).
//
// The field offsets differ per game and pointer size. What each source gives (offsets in the object):
//   32-bit, seen in real files:
//     zap.pak textures (v7, PS3):          _width 0x30, _format (REXT) 0x3C, _data (RMHN) 0x48
//     igModelTool_test_img.igz (v9, Wii U): _width 0x34, _format (REXT) 0x40, _data (RMHN) 0x4C
//     (igRewrite8 igLibrary/Gfx/igImage2.cs, metadata of v9: 0x34, 0x40, 0x4C, size 0x60)
//   64-bit, from metadata only (no 64-bit file with an igImage2 at hand):
//     igRewrite8 igImage2.cs, v9 64-bit: _width 0x48, _format 0x58, _data 0x68 (igMemoryRefHandle,
//       so RMHN), size 0x90
//     kishimisu/Crash-NST-Level-Editor src/Alchemy/igObject/Autogen/igImage2.cs (NST and CTR, v10):
//       _width 24 (0x18), _format 40 (0x28), _bitfield 48, _userFlags 52, _data 56 (0x38) an
//       igMemoryRef {u32 _size, u32 _bitfield 0x01100000, raw ref at +8} (its igMemoryRef.cs), size 88
//     kishimisu/Crash-NST-Modding-Tool src/app/components/utils/igObjectExtension.js (extractTexture):
//       _width u16 at 0x18, _height 0x1A, _data at 0x38 {u32 size, u32 bitfield (bit 24 active),
//       pointer at +8}; formats "dxt1_dx11", "r8g8b8a8_dx11" (bytes R, G, B, A)
//     a CTR (Switch) reader, ctr_alchemy.cc of the "Eden DSMod fork" (GPL-3.0; the index names no
//       repository): _width 0x18, _height 0x1A, _format 0x28 (the u32 at 0x2C has bit 31 set: the
//       reference flag is bit 63 of the 64-bit REXT word), _data size u32 0x38, pointer 0x40;
//       formats "dxt5_nx" and "l8a8_nx" (EXID hashes 0x37456ECD, 0x44E04333) read untiled
//     NSTLib igStructures/Gfx/igImage2.cs: the same fields 0x10 after the object header
//       (_width 8, _format 24, _data 40); its igMemoryRefMetaField: size +0, active byte +7, offset +8
//     NoesisPlugins fmt_alchemy_igz.py: a 64-bit memory handle index and igMemory pointer are u64,
//       the igMemory size word a u32 followed by 4 bytes
// So _width .. _imageCount (five u16 and padding) end where _format begins: 0x0C before it on 32-bit,
// 0x10 on 64-bit (0x0C would also satisfy 8-byte alignment; tried second). _data is the first field
// after _format that a fixup marks: 0x0C after it on 32-bit (_format, _usageDeprecated,
// _paddingDeprecated + pad), 0x10 on 64-bit (_format 8 bytes, then two u32). It is an RMHN memory
// handle, or an igMemory in place whose pointer (ROFS) sits one pointer after the field: {u32 word,
// u32 ptr} on 32-bit, {u32 size, u32 flags, u64 ptr} on 64-bit version 10 (spec C4), {u64 word,
// u64 ptr} on other 64-bit files; or an external reference. Every value is checked before use.
#include "assay/formats/igz/image.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <span>

#include "diag_util.h"

namespace assay::igz {

namespace {

using detail::err;

// The offsets the known layouts allow, most likely first (see the table above).
constexpr std::uint32_t kDimsBefore32[] = {0x0C};
constexpr std::uint32_t kDimsBefore64[] = {0x10, 0x0C};
constexpr std::uint32_t kDataAfter32[] = {0x0C};
constexpr std::uint32_t kDataAfter64[] = {0x10};
constexpr std::uint32_t kDimsBytes = 10;  // five u16

using Offsets = std::span<const std::uint32_t>;
Offsets dims_before(unsigned ps) { return ps == 8 ? Offsets(kDimsBefore64) : Offsets(kDimsBefore32); }
Offsets data_after(unsigned ps) { return ps == 8 ? Offsets(kDataAfter64) : Offsets(kDataAfter32); }

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

Result<std::uint64_t> read_word(const IgzFile& f, std::uint64_t pos, std::string_view what) {
  if (f.header().pointer_size == 8) return f.reader().u64(pos, what);
  ASSAY_TRY(std::uint32_t v, f.reader().u32(pos, what));
  return std::uint64_t{v};
}

// Bytes an igMemory size word gives: {u32 size, u32 flags} on 64-bit version 10 (spec C4), else the
// pointer-sized word of spec #igz-objects.
std::uint64_t memory_size(const IgzFile& f, std::uint64_t word) {
  if (nst_layout(f.header())) return split_memory_v10(word, f.header().endian).size;
  return decode_memory_word(word, f.header().pointer_size).size;
}

// _data through a memory handle (RMHN field -> TMHN {size word, data pointer}).
Result<ImageData> handle_data(const IgzFile& f, const Fixups& fx, std::uint32_t field, std::string_view what) {
  const unsigned ps = f.header().pointer_size;
  ASSAY_TRY(std::uint64_t pos, resolve(f, field, ps, what));
  ASSAY_TRY(std::uint64_t index, read_word(f, pos, what));
  if (index >= fx.memory_handles.size())
    return err(what, pos, fmt::format("TMHN index {} ≥ TMHN count {}", index, fx.memory_handles.size()));
  const MemoryHandle& m = fx.memory_handles[index];
  ImageData d;
  d.where = ImageData::Where::pool;
  d.handle = static_cast<std::uint32_t>(index);
  d.size = memory_size(f, m.size_word);
  if (m.data > 0xFFFFFFFFu) return err(what, pos, fmt::format("TMHN[{}] data pointer exceeds 32 bits", index));
  ASSAY_TRY(d.offset, resolve(f, static_cast<std::uint32_t>(m.data), d.size, fmt::format("TMHN[{}] data", index)));
  return d;
}

// _data as an igMemory in place: {size word, pointer (ROFS)}, each pointer-sized, the 64-bit
// version 10 word being {u32 size, u32 flags} (spec C4).
Result<ImageData> memory_data(const IgzFile& f, std::uint32_t field, std::string_view what) {
  const unsigned ps = f.header().pointer_size;
  ASSAY_TRY(std::uint64_t pos, resolve(f, field, 2 * ps, what));
  ASSAY_TRY(std::uint64_t word, read_word(f, pos, what));
  ASSAY_TRY(std::uint64_t ptr, read_word(f, pos + ps, what));
  if (ptr > 0xFFFFFFFFu) return err(what, pos + ps, fmt::format("igMemory pointer 0x{:x} exceeds 32 bits", ptr));
  ImageData d;
  d.where = ImageData::Where::pool;
  d.in_place = true;
  d.size = memory_size(f, word);
  ASSAY_TRY(d.offset, resolve(f, static_cast<std::uint32_t>(ptr), d.size, std::string(what) + " data"));
  return d;
}

// The _data field at `off` inside the object when a fixup marks it; nullopt when none does.
std::optional<Result<ImageData>> marked_data(const IgzFile& f, const Fixups& fx, const Graph& g, const Object& o,
                                             std::uint32_t off, std::string_view what) {
  const std::uint32_t ser = at(f, o, off);
  if (in_list(fx, tag::RMHN, ser)) return handle_data(f, fx, ser, what);
  if (in_list(fx, tag::ROFS, at(f, o, off + f.header().pointer_size))) return memory_data(f, ser, what);
  for (const ExternalRef& x : g.externals)
    if (x.field == ser) return Result<ImageData>(ImageData{ImageData::Where::external, 0, 0, 0, x.name});
  return std::nullopt;
}

// _data: the first offset after _format the layouts allow for the pointer size that a fixup marks.
// None marked: the field at the first offset is an empty igMemory (no pixels).
Result<ImageData> find_data(const IgzFile& f, const Fixups& fx, const Graph& g, const Object& o, Image2& img,
                            std::string_view what) {
  const unsigned ps = f.header().pointer_size;
  std::optional<std::uint32_t> first;
  for (std::uint32_t after : data_after(ps)) {
    const std::uint32_t off = img.format_field + after;
    if (o.size != 0 && std::uint64_t{off} + ps > o.size) continue;
    if (std::uint64_t{o.offset} + off + 2 * ps > 0x07FFFFFFu) continue;  // past any pool (spec: #igz-pointers)
    if (!first) first = off;
    if (auto d = marked_data(f, fx, g, o, off, what)) {
      img.data_field = off;
      return std::move(*d);
    }
  }
  if (!first)
    return err(what, o.position, fmt::format("_format at +0x{:x} leaves no _data inside the object's 0x{:x} bytes",
                                             img.format_field, o.size));
  img.data_field = *first;
  return ImageData{};
}

struct Dims {
  std::uint16_t width = 0, height = 0, depth = 0, levels = 0, images = 0;
};

Result<Dims> read_dims(const IgzFile& f, const Object& o, std::uint32_t width_field, std::string_view what) {
  ASSAY_TRY(std::uint64_t pos, resolve(f, at(f, o, width_field), kDimsBytes, what));
  const ByteReader r = f.reader();
  Dims d;
  ASSAY_TRY(d.width, r.u16(pos, what));
  ASSAY_TRY(d.height, r.u16(pos + 2, what));
  ASSAY_TRY(d.depth, r.u16(pos + 4, what));
  ASSAY_TRY(d.levels, r.u16(pos + 6, what));
  ASSAY_TRY(d.images, r.u16(pos + 8, what));
  if (d.width == 0 || d.height == 0 || d.levels == 0)
    return err(what, pos, fmt::format("{} x {} with {} levels is no image", d.width, d.height, d.levels));
  if (d.levels > 17) return err(what, pos + 6, fmt::format("{} levels (at most 17 for 16-bit sides)", d.levels));
  return d;
}

// A mip chain no longer than the larger side allows (a 1 x 1 level last).
bool plausible(const Dims& d) {
  return d.levels <= std::bit_width(static_cast<unsigned>(std::max(d.width, d.height)));
}

// _width .. _imageCount: at the first offset before _format the layouts allow for the pointer size
// whose values are an image with a plausible mip chain, after the object header; else the first
// that reads as an image at all; else the first offset's error.
Result<void> find_dimensions(const IgzFile& f, const Object& o, Image2& img, std::string_view what) {
  const std::uint32_t header = f.header().pointer_size == 8 ? 0x10 : 0x08;
  std::optional<Result<Dims>> first_error;
  std::optional<std::pair<std::uint32_t, Dims>> fallback;
  for (std::uint32_t before : dims_before(f.header().pointer_size)) {
    if (img.format_field < header + before) continue;
    const std::uint32_t width_field = img.format_field - before;
    auto d = read_dims(f, o, width_field, what);
    if (!d) {
      if (!first_error) first_error = std::move(d);
      continue;
    }
    if (plausible(*d)) {
      fallback = {width_field, *d};
      break;
    }
    if (!fallback) fallback = {width_field, *d};
  }
  if (!fallback) {
    if (first_error) return first_error->error();
    return err(what, o.position, fmt::format("_format field at +0x{:x} is not after the object's header", img.format_field));
  }
  const Dims& d = fallback->second;
  img.field_base = fallback->first;
  img.width = d.width, img.height = d.height, img.depth = d.depth, img.levels = d.levels, img.images = d.images;
  return {};
}

// Says where the offsets come from when no sample of this pointer size has shown them.
void note_layout(const IgzFile& f, Image2& img) {
  const bool ps8 = f.header().pointer_size == 8;
  if (!ps8 && img.format_field - img.field_base == 0x0C && img.data_field - img.format_field == 0x0C) return;
  img.field_assumption = fmt::format(
      "igImage2 fields at _width +0x{:x}, _format +0x{:x}, _data +0x{:x}: {}; no real file has shown this layout",
      img.field_base, img.format_field, img.data_field,
      ps8 && img.format_field - img.field_base == 0x10 && img.data_field - img.format_field == 0x10
          ? "the 64-bit layout of igRewrite8's and the Crash NST editor's igImage2 metadata"
          : "offsets the alignment allows, not a known layout");
}

}  // namespace

Result<Image2> read_image2(const IgzFile& f, const Fixups& fx, const Graph& g, std::size_t object) {
  if (object >= g.objects.size()) return err("igImage2", kNoOffset, fmt::format("no object {}", object));
  const Object& o = g.objects[object];
  const std::string what = fmt::format("{}[{}]", o.type_name.empty() ? "object" : o.type_name, object);
  const ExternalRef* fmt_ref = format_field(g, object);
  if (fmt_ref == nullptr) return err(what, o.position, "no _format field (the object has no external reference)");
  const PoolOffset fp = decode_pointer(f.header().version, fmt_ref->field);
  if (fp.pool != o.pool || fp.offset < o.offset)
    return err(what, o.position, fmt::format("_format field 0x{:x} is not inside the object", fmt_ref->field));
  Image2 img;
  img.object = object;
  img.type = std::string(o.type_name);
  img.format_field = fp.offset - o.offset;
  img.platform = std::string(platform_name(f.header().version, f.header().platform));
  ASSAY_CHECK(find_dimensions(f, o, img, what));
  name_format(fx, *fmt_ref, img);
  img.name = object_name(g, img, at(f, o, img.field_base));
  ASSAY_TRY(img.data, find_data(f, fx, g, o, img, what + " _data"));
  note_layout(f, img);
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
