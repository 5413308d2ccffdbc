// OSBD sound bindings to JSON (spec: oni.md#oni-7-1, oni.md#oni-6-4; Oni wiki OBD:OSBD,
// OBD:OSBD/OSGr). The chunk: a tag stored as a little-endian u32 ('OSGr' reads "rGSO"), the size of
// what follows, the version; for OSGr then volume (v2+), pitch (v3+), prevent repeats and last
// selected permutation (two u16, v6+), channels, the permutation count and 0x34-byte permutations
// (weight, min/max volume, min/max pitch, char[32] sound name).
#include <fmt/format.h>

#include "core/json_text.h"
#include "assay/formats/oni/oni.h"
#include "assay/formats/oni/sound_binding.h"
#include "sound_parts.h"
#include "formats/serialise.h"

namespace assay::oni {

namespace {

// Reads fields front to back; a short chunk fails at the field that does not fit.
struct Cursor {
  ByteReader r;
  std::uint64_t at = 0;
  Result<std::uint32_t> u32(std::string_view what) { return step<std::uint32_t>(what); }
  Result<std::uint16_t> u16(std::string_view what) { return step<std::uint16_t>(what); }
  Result<float> f32(std::string_view what) {
    auto v = r.f32(at, what);
    at += 4;
    return v;
  }
  template <class T>
  Result<T> step(std::string_view what) {
    auto v = r.read<T>(at, what);
    at += sizeof(T);
    return v;
  }
};

std::string c_string(ByteView b) {
  std::size_t n = 0;
  while (n < b.size() && b[n] != 0) ++n;
  return std::string(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(n));
}

Result<SoundPermutation> read_permutation(Cursor& c) {
  SoundPermutation p;
  ASSAY_TRY(p.weight, c.u32("OSGr permutation"));
  ASSAY_TRY(p.min_volume, c.f32("OSGr permutation"));
  ASSAY_TRY(p.max_volume, c.f32("OSGr permutation"));
  ASSAY_TRY(p.min_pitch, c.f32("OSGr permutation"));
  ASSAY_TRY(p.max_pitch, c.f32("OSGr permutation"));
  ASSAY_TRY(const ByteView name, c.r.bytes(c.at, 32, "OSGr permutation"));
  c.at += 32;
  p.sound = c_string(name);
  return p;
}

// The fields after the version (wiki OBD:OSBD/OSGr).
Result<void> read_group_fields(Cursor& c, SoundGroup& g) {
  if (g.version >= 2) {
    ASSAY_TRY(g.volume, c.f32("OSGr volume"));
  }
  if (g.version >= 3) {
    ASSAY_TRY(g.pitch, c.f32("OSGr pitch"));
  }
  g.prevent_repeats = g.version >= 4 ? 1 : 0;
  if (g.version >= 6) {
    ASSAY_TRY(g.prevent_repeats, c.u16("OSGr prevent repeats"));
    ASSAY_TRY(g.last_selected, c.u16("OSGr last selected"));
  }
  ASSAY_TRY(g.channels, c.u32("OSGr channels"));
  ASSAY_TRY(const std::uint32_t count, c.u32("OSGr permutation count"));
  if (count > (c.r.size() - std::min(c.at, c.r.size())) / SoundPermutation::kSize)
    return c.r.error("OSGr permutation count", c.at - 4, fmt::format("{} permutations of 0x34 bytes do not fit the chunk", count));
  g.permutations.reserve(count);
  for (std::uint32_t k = 0; k < count; ++k) {
    ASSAY_TRY(SoundPermutation p, read_permutation(c));
    g.permutations.push_back(std::move(p));
  }
  return {};
}

}  // namespace

Result<SoundGroup> read_sound_group(ByteView b, std::uint64_t at) {
  Cursor c{ByteReader(b, Endian::little, kFormat, at)};
  ASSAY_TRY(const std::uint32_t tag, c.u32("OSGr"));
  if (tag != make_tag("OSGr")) return c.r.error("OSGr", 0, fmt::format("tag {} is not OSGr", tag_string(tag)));
  ASSAY_TRY(const std::uint32_t size, c.u32("OSGr"));
  if (size > b.size() - 8) return c.r.error("OSGr", 4, fmt::format("size 0x{:x} past the chunk's 0x{:x} bytes", size, b.size() - 8));
  c.r = ByteReader(b.first(size + 8), Endian::little, kFormat, at);
  SoundGroup g;
  ASSAY_TRY(g.version, c.u32("OSGr version"));
  ASSAY_CHECK(read_group_fields(c, g));
  return g;
}

Result<SoundBinding> read_sound_binding(const LoadedFile& f, std::uint32_t i) {
  if (i >= f.file.instance_count() || f.file.descriptor(i).tag != make_tag("OSBD") || !f.has_data[i])
    return make_error(kFormat, "OSBD", kNoOffset, fmt::format("instance {} is not an OSBD with data", i));
  const Descriptor d = f.file.descriptor(i);
  const std::string label = instance_label(i, d.tag, f.names[i]);
  const ChunkRef* c = nullptr;
  for (const ChunkRef& r : f.chunks)
    if (r.instance == i) c = &r;
  if (c == nullptr || !c->size) return f.file.error(label, f.file.instance_file_offset(d), "no chunk offset walked for this OSBD");
  const bool in_sep = c->kind == FieldKind::sep && !f.file.is_oni();
  const ByteView comp = in_sep ? f.sep : f.raw;
  if (!range_ok(c->value, *c->size, comp.size()))  // the walk reports it too
    return f.file.error(label, f.file.instance_file_offset(d) + c->offset, fmt::format("chunk at 0x{:x}+0x{:x} outside its file (0x{:x} bytes)", c->value, *c->size, comp.size()));
  if (*c->size < 12)
    return f.file.error(label, f.file.instance_file_offset(d) + c->offset, fmt::format("chunk of {} bytes cannot hold its tag, size and version", *c->size))
        .with_code("oni.osbd");
  const ByteView b = comp.subspan(c->value, static_cast<std::size_t>(*c->size));
  const std::uint32_t tag = load<std::uint32_t>(b.data(), Endian::little);
  SoundBinding s{tag, load<std::uint32_t>(b.data() + 8, Endian::little), *c->size, std::nullopt};
  if (tag != make_tag("OSGr")) return s;
  auto group = read_sound_group(b, c->value);
  if (!group) {  // named by its instance; the offset is in the .raw (.sep)
    Error e = group.error();
    e.structure = fmt::format("{} {} (at a {} offset)", label, e.structure, in_sep ? ".sep" : ".raw");
    e.code = "oni.osbd";
    return e;
  }
  s.group = std::move(*group);
  return s;
}

Result<Json> sound_binding_json(const LoadedFile& f, std::uint32_t i) {
  ASSAY_TRY(const SoundBinding s, read_sound_binding(f, i));
  return sound_binding_json(s);
}

Result<ExtractCount> write_sound_binding(const LoadedFile& f, std::uint32_t i, const std::string& stem, const OutputDir& dir) {
  ASSAY_TRY(const Json j, sound_binding_json(f, i));
  const std::string text = dump_json(j, 1) + "\n";  // names not UTF-8: docs/cli.md#escaping
  ASSAY_CHECK(dir.write(stem + ".json", ByteView(reinterpret_cast<const std::uint8_t*>(text.data()), text.size())));
  return ExtractCount{1, text.size()};
}

}  // namespace assay::oni
