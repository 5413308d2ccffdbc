// PS3 EDGE geometry (igPS3EdgeGeometry, an igObjectList of igPS3EdgeGeometrySegment): described,
// not decoded. Its vertex streams are readable (the RSX-only stream is plain vertices described by
// an EDGE attribute-block table), but its indices are EDGE-compressed and no source at hand
// documents that scheme (the Noesis plugin fmt_alchemy_igz.py calls Noesis's closed
// rapi.decompressEdgeIndices), so the triangles cannot be rebuilt: a note says what was found.
//
// igPS3EdgeGeometrySegment (igRewrite8 Resources/metaobjects.txt, 32-bit; the offsets match the
// ROFS fields of zap.pak's zapwave.igz): _spuConfigInfo 0x08, _indexes 0x10, _spuVertexes0 0x1C,
// _spuVertexes1 0x24, _rsxOnlyVertexes 0x38 (igMemory), _rsxOnlyStreamDesc 0x78 (igMemory).
// _spuConfigInfo (EdgeGeomSpuConfigInfo, Noesis plugin): u8 flags, holeSize, inputFormat,
// secondaryInputFormat, outputFormat, deltaFormat, indexesFlavorAndSkinningFlavor, matrixFormat,
// u16 numVertexes, u16 numIndexes, u32 indexesOffset. A stream description: u8 count, u8 stride,
// 6 bytes, then per attribute {offset, format, componentCount, attributeId, size, slot, fixed, pad}.
#include <fmt/format.h>

#include "assay/formats/igz/model.h"

namespace assay::igz {

namespace {

template <class T>
T or_zero(const Result<T>& r) {
  return r ? *r : T{};
}

struct SegmentFacts {
  std::uint32_t vertices = 0, indices = 0, flavor = 0;
  std::uint64_t index_bytes = 0, spu_bytes = 0, rsx_bytes = 0;
  std::string rsx_layout;  // "16 bytes: NORMAL X11Y11Z10N +0, ..."
};

constexpr std::string_view kEdgeFormats[] = {"?", "I16N", "F32", "F16", "U8N", "I16", "X11Y11Z10N", "U8", "FIXED", "UNIT_VECTOR"};
constexpr std::string_view kEdgeAttributes[] = {"UNKNOWN", "POSITION", "NORMAL", "TANGENT", "BINORMAL", "UV0", "UV1", "UV2", "UV3", "COLOR"};

// The object's igMemory {u32 size word, u32 pointer} at `field`: absolute position and size, or
// nullopt when it is empty or does not resolve.
std::optional<MemorySpan> memory_at(const IgzFile& f, const Object& o, std::uint32_t field) {
  if (f.header().pointer_size != 4 || (o.size != 0 && field + 8 > o.size)) return std::nullopt;
  auto pos = resolve(f, encode_pointer(f.header().version, {o.pool, o.offset + field}), 8, "igPS3EdgeGeometrySegment");
  if (!pos) return std::nullopt;
  auto word = f.reader().u32(*pos, "igMemory"), ptr = f.reader().u32(*pos + 4, "igMemory");
  if (!word || !ptr || *ptr == 0) return std::nullopt;
  MemorySpan m{0, decode_memory_word(*word, 4).size};
  auto at = resolve(f, *ptr, m.size, "igMemory");
  if (!at) return std::nullopt;
  m.offset = *at;
  return m;
}

std::string stream_layout(const IgzFile& f, const MemorySpan& d) {
  const ByteReader r = f.reader();
  auto b = r.bytes(d.offset, d.size, "EDGE stream description");
  if (!b || b->size() < 8) return {};
  const unsigned count = (*b)[0], stride = (*b)[1];
  std::string s = fmt::format("{} bytes a vertex:", stride);
  for (unsigned i = 0; i < count && 8 * (i + 2) <= b->size(); ++i) {
    const std::uint8_t* a = b->data() + 8 * (i + 1);
    s += fmt::format(" {} {}x{} +{}", a[3] < std::size(kEdgeAttributes) ? kEdgeAttributes[a[3]] : "?",
                     a[1] < std::size(kEdgeFormats) ? kEdgeFormats[a[1]] : "?", a[2], a[0]);
  }
  return s;
}

SegmentFacts segment_facts(const IgzFile& f, const Object& o) {
  SegmentFacts s;
  if (auto c = memory_at(f, o, 0x08); c && c->size >= 16) {
    const ByteReader r = f.reader();
    s.flavor = or_zero(r.u8(c->offset + 6, "spuConfigInfo")) >> 4;
    s.vertices = or_zero(r.u16(c->offset + 8, "spuConfigInfo"));
    s.indices = or_zero(r.u16(c->offset + 10, "spuConfigInfo"));
  }
  if (auto m = memory_at(f, o, 0x10)) s.index_bytes = m->size;
  if (auto m = memory_at(f, o, 0x1C)) s.spu_bytes += m->size;
  if (auto m = memory_at(f, o, 0x24)) s.spu_bytes += m->size;
  if (auto m = memory_at(f, o, 0x38)) s.rsx_bytes = m->size;
  if (auto m = memory_at(f, o, 0x78)) s.rsx_layout = stream_layout(f, *m);
  return s;
}

// The igObjectList's elements (count 0x08, igMemory 0x10 on 32-bit) that are segments.
std::vector<std::size_t> segments_of(const IgzFile& f, const Graph& g, const Object& list) {
  std::vector<std::size_t> out;
  auto count = resolve(f, encode_pointer(f.header().version, {list.pool, list.offset + 0x08}), 4, "igPS3EdgeGeometry");
  auto data = memory_at(f, list, 0x10);
  if (!count || !data) return out;
  const std::uint32_t n = or_zero(f.reader().u32(*count, "igPS3EdgeGeometry"));
  for (std::uint32_t i = 0; i < n && std::uint64_t{i} * 4 + 4 <= data->size; ++i) {
    const std::uint32_t v = or_zero(f.reader().u32(data->offset + std::uint64_t{i} * 4, "igPS3EdgeGeometry"));
    const std::size_t t = v != 0 ? g.object_at(v) : kNoObject;
    if (t != kNoObject && g.objects[t].type_name == "igPS3EdgeGeometrySegment") out.push_back(t);
  }
  return out;
}

}  // namespace

std::optional<std::string> edge_geometry_note(const IgzFile& f, const Graph& g, std::size_t object) {
  if (object >= g.objects.size() || g.objects[object].type_name != "igPS3EdgeGeometry") return std::nullopt;
  const std::vector<std::size_t> segs = segments_of(f, g, g.objects[object]);
  std::string text = fmt::format("PS3 EDGE geometry, not decoded: {} segment{}", segs.size(), segs.size() == 1 ? "" : "s");
  for (std::size_t k = 0; k < segs.size(); ++k) {
    const SegmentFacts s = segment_facts(f, g.objects[segs[k]]);
    text += fmt::format("; segment {} (object {}): {} vertices, {} indices EDGE-compressed in {} bytes (indexes flavour {}), "
                        "SPU vertex streams {} bytes, RSX-only stream {} bytes{}{}",
                        k, segs[k], s.vertices, s.indices, s.index_bytes, s.flavor, s.spu_bytes, s.rsx_bytes,
                        s.rsx_layout.empty() ? "" : ", ", s.rsx_layout);
  }
  return text + "; the EDGE index compression is documented by no source at hand, so the triangles cannot be rebuilt";
}

}  // namespace assay::igz
