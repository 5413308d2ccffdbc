// `assay replace LEVEL.dat (-o OUT | --in-place) NAME=FILE...` on Oni level files (issues 10 and 16).
// FILE is a VR32 .oni (as `extract` or OniSplit write them), raw instance bytes (8-byte header
// on), or for a TXMP a PNG. Only the replaced instances' bytes change: descriptors keep their
// indices, so no link elsewhere moves; data that grows or shrinks shifts the later instances and
// the name block (spec: oni.md#oni-3-4 header offsets); new .raw/.sep parts are appended 32-aligned
// (spec: oni.md#oni-6-4), parts whose bytes are unchanged keep their offsets, so replacing an
// instance by its own export gives back the same files.
#include "assay/formats/oni/edit.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <system_error>

#include "assay/core/output.h"
#include "assay/formats/edit_data.h"
#include "assay/formats/edit_input.h"
#include "assay/formats/edit_target.h"
#include "assay/image/encode.h"
#include "assay/image/resize.h"
#include "assay/formats/oni/oni.h"
#include "chunks.h"
#include "family_parts.h"
#include "records.h"
#include "formats/serialise.h"

namespace assay::oni {

namespace fs = std::filesystem;

namespace {

Error edit_error(std::string structure, std::string msg) { return make_error(kFormat, std::move(structure), kNoOffset, std::move(msg)); }

std::uint32_t align32(std::uint64_t v) { return static_cast<std::uint32_t>((v + 31) / 32 * 32); }

// The companion files being rewritten: only appended to, never changed in place, so the old .dat
// still reads the new companion correctly (the order in which --in-place renames them).
struct Companion {
  ByteView original;
  ByteBuffer appended;
  bool present = false;
  [[nodiscard]] std::uint64_t size() const { return original.size() + appended.size(); }
  // Offset of `part`: the old offset when its bytes are already there (a .oni part may carry the
  // zero fill up to its next 32-byte boundary), else appended 32-aligned.
  Result<std::uint32_t> place(ByteView part, std::uint32_t old, std::optional<std::uint64_t> old_size) {
    if (old >= 32 && old_size && *old_size <= part.size() && range_ok(old, *old_size, original.size()) &&
        std::equal(part.begin(), part.begin() + static_cast<std::ptrdiff_t>(*old_size), original.begin() + old) &&
        std::all_of(part.begin() + static_cast<std::ptrdiff_t>(*old_size), part.end(), [](std::uint8_t b) { return b == 0; }))
      return old;
    const std::uint64_t at = align32(size());
    if (at + part.size() > 0xFFFFFFFFull) return edit_error("companion", "the .raw/.sep would exceed 4 GiB");
    appended.resize(static_cast<std::size_t>(at - original.size()), 0);
    appended.insert(appended.end(), part.begin(), part.end());
    return static_cast<std::uint32_t>(at);
  }
};

struct Editor {
  const LoadedFile& f;
  std::map<std::uint32_t, ByteBuffer> new_data;  // descriptor -> new instance bytes (header on)
  Companion raw, sep;
  std::vector<InstanceEditLine> changes;

  Companion& companion(FieldKind k) { return k == FieldKind::sep ? sep : raw; }

  // The level's chunk (offset, size as export sizes it) at instance i's field `offset`.
  std::pair<std::uint32_t, std::optional<std::uint64_t>> old_chunk(std::uint32_t i, std::uint32_t offset, const detail::ChunkStarts& rs,
                                                                    const detail::ChunkStarts& ss) const {
    for (const ChunkRef& c : f.chunks)
      if (c.instance == i && c.offset == offset) {
        const ByteView comp = detail::companion_of(f, c.kind);
        if (c.value < 32 || c.value >= comp.size()) return {c.value, std::nullopt};
        const auto& st = c.kind == FieldKind::sep ? ss : rs;
        return {c.value, std::min<std::uint64_t>(st.extent(c.value, c.size, comp.size()), comp.size() - c.value)};
      }
    return {0, std::nullopt};
  }

  void starts(detail::ChunkStarts& rs, detail::ChunkStarts& ss) const {
    for (const ChunkRef& c : f.chunks) (c.kind == FieldKind::sep ? ss : rs).add(c.value);
    rs.finish();
    ss.finish();
  }

  // The instance header: this file's instance id and file id (spec: oni.md#oni-3-7).
  void stamp(ByteBuffer& b, std::uint32_t i) const {
    const ByteView old = *f.file.instance_bytes(i);
    store_in(b, 0, InstanceHeader{i << 8 | 1, decode_in<InstanceHeader>(old, 0).file_id});
  }

  // A .oni's size that is the original's rounded up to 32 with the writer's AD DE fill (assay's
  // export) keeps the original size, so a round trip changes nothing.
  static void trim_fill(ByteBuffer& b, std::uint32_t old_size) {
    if (b.size() <= old_size || b.size() != align32(old_size)) return;
    for (std::size_t k = old_size; k < b.size(); ++k)
      if (b[k] != ((k & 1) ? 0xDE : 0xAD) && b[k] != 0) return;
    b.resize(old_size);
  }

  Result<void> replace_raw(std::uint32_t i, ByteView data) {
    if (data.size() < kInstanceHeaderSize) return edit_error(std::string(f.names[i]), "instance data shorter than the 8-byte instance header");
    ByteBuffer b(data.begin(), data.end());
    stamp(b, i);
    new_data[i] = std::move(b);
    InstanceEditLine line{std::string(f.names[i]), i, "raw"};
    line.old_size = f.file.descriptor(i).size, line.new_size = data.size();
    changes.push_back(std::move(line));
    return {};
  }

  // The walk of each new instance (spec: oni.md#oni-6-1, #oni-6-4): fields inside it, link values
  // naming an index of the right tag, part offsets inside the companion as it will be written.
  Result<void> check_new() const {
    for (const auto& [i, b] : new_data) {
      const std::string lab = instance_label(i, f.file.descriptor(i).tag, f.names[i]);
      if (f.layout[i] == nullptr) return edit_error(lab, "no layout to check the new bytes with");
      std::vector<FieldRef> refs;
      auto w = walk_instance(*f.layout[i], b, refs);
      if (!w) return edit_error(lab, fmt::format("new bytes at 0x{:x}: {}", w.error().offset, w.error().message));
      for (const FieldRef& r : refs) {
        if (r.kind == FieldKind::link) {
          const std::uint32_t t = r.value >> 8;
          if ((r.value & 0xFF) != 1 || t >= f.file.instance_count() || (r.tag != 0 && f.file.descriptor(t).tag != r.tag))
            return edit_error(lab, fmt::format("new bytes at 0x{:x}: link value 0x{:08x} names no {} of the level", r.offset, r.value, tag_string(r.tag)));
          continue;
        }
        const Companion& c = r.kind == FieldKind::sep ? sep : raw;
        if (r.value != 0 && (r.value < 32 || r.value >= c.size()))
          return edit_error(lab, fmt::format("new bytes at 0x{:x}: .raw/.sep offset 0x{:x} outside the file (0x{:x} bytes)", r.offset, r.value, c.size()));
      }
    }
    return {};
  }

  Result<void> replace_oni(std::uint32_t i, ByteView bytes, const std::string& what);
  Result<void> replace_png(std::uint32_t i, ByteView png, const std::string& format, const std::string& source, EditSizeRule size);
};

// spec: oni.md#oni-8: descriptor 0 is the instance, then its unnamed dependents, then named
// targets as placeholders: mapped onto the level's instance, the same dependents in export order
// (export_closure) and the level's instances of those names.
Result<void> Editor::replace_oni(std::uint32_t i, ByteView bytes, const std::string& what) {
  ASSAY_TRY(InstanceFile o, InstanceFile::open(bytes, what));
  if (!o.is_oni()) return o.error("header", 8, "not a VR32 .oni file");
  const Descriptor di = f.file.descriptor(i);
  auto no_main = [&] {
    return o.error("descriptor[0]", kHeaderSize, fmt::format("the .oni's main instance must be a {} with data", tag_string(di.tag)));
  };
  if (o.instance_count() == 0) return no_main();  // fuzz finding: descriptor(0) of an empty table read past the file
  const Descriptor d0 = o.descriptor(0);
  if (d0.tag != di.tag || d0.placeholder()) return no_main();
  const std::vector<std::uint32_t> closure = export_closure(f, i);
  std::vector<std::uint32_t> map(o.instance_count());
  std::uint32_t unnamed_new = 0, unnamed_old = 0;
  for (std::uint32_t k = 1; k < closure.size(); ++k) unnamed_old += f.file.descriptor(closure[k]).unnamed();
  map[0] = i;
  for (std::uint32_t k = 1; k < o.instance_count(); ++k) {
    const Descriptor d = o.descriptor(k);
    if (d.unnamed()) {
      ++unnamed_new;
      if (k >= closure.size() || !f.file.descriptor(closure[k]).unnamed() || f.file.descriptor(closure[k]).tag != d.tag)
        return o.error(fmt::format("descriptor[{}]", k), o.descriptor_offset(k),
                       fmt::format("unnamed {} has no counterpart among {}'s unnamed instances in the level (a changed structure: use extract + pack oni)", tag_string(d.tag), f.names[i]));
      map[k] = closure[k];
      continue;
    }
    ASSAY_TRY(std::string_view nm, o.name(k));
    auto at = f.file.find(nm);
    if (!at) return o.error(fmt::format("descriptor[{}]", k), o.descriptor_offset(k), fmt::format("links to {}, which the level does not have", nm));
    map[k] = *at;
  }
  if (unnamed_new != unnamed_old)
    return o.error("descriptors", kHeaderSize, fmt::format("{} unnamed instances, the level's {} has {} (a changed structure: use extract + pack oni)", unnamed_new, f.names[i], unnamed_old));
  detail::ChunkStarts rs, ss, os;
  starts(rs, ss);
  const ByteView oraw = o.raw_block();
  std::vector<std::pair<std::uint32_t, std::vector<FieldRef>>> walked;
  for (std::uint32_t k = 0; k < o.instance_count(); ++k) {
    if (o.descriptor(k).placeholder()) continue;
    const std::uint32_t li = map[k];
    if (f.layout[li] == nullptr) return o.error(fmt::format("descriptor[{}]", k), o.descriptor_offset(k), "no layout to walk this instance with");
    ASSAY_TRY(ByteView inst, o.instance_bytes(k));
    std::vector<FieldRef> refs;
    auto w = walk_instance(*f.layout[li], inst, refs);
    if (!w) return o.error(instance_label(k, o.descriptor(k).tag, ""), o.instance_file_offset(o.descriptor(k)) + w.error().offset, w.error().message);
    for (const FieldRef& r : refs)
      if (r.kind != FieldKind::link) os.add(r.value);
    walked.emplace_back(k, std::move(refs));
  }
  os.finish();
  for (auto& [k, refs] : walked) {
    const std::uint32_t li = map[k];
    const ByteView inst = *o.instance_bytes(k);
    ByteBuffer b(inst.begin(), inst.end());
    for (const FieldRef& r : refs) {
      if (r.kind == FieldKind::link) {
        const std::uint32_t t = r.value >> 8;
        if ((r.value & 0xFF) != 1 || t >= o.instance_count())
          return o.error(fmt::format("descriptor[{}]", k), o.instance_file_offset(o.descriptor(k)) + r.offset, fmt::format("bad link value 0x{:08x}", r.value));
        store<std::uint32_t>(b.data() + r.offset, map[t] << 8 | 1, Endian::little);
        continue;
      }
      if (r.value == 0) continue;
      if (r.value < 32 || r.value >= oraw.size())
        return o.error(fmt::format("descriptor[{}]", k), o.instance_file_offset(o.descriptor(k)) + r.offset, fmt::format("raw block offset 0x{:x} outside the raw block", r.value));
      const FieldKind kind = r.kind == FieldKind::sep ? FieldKind::sep : FieldKind::raw;
      if (!companion(kind).present)
        return edit_error(std::string(f.names[i]), fmt::format("the instance has {} data but the level has no {} file", kind == FieldKind::sep ? ".sep" : ".raw", kind == FieldKind::sep ? ".sep" : ".raw"));
      const std::uint64_t n = std::min<std::uint64_t>(os.extent(r.value, std::nullopt, oraw.size()), oraw.size() - r.value);
      const auto [old, old_n] = old_chunk(li, r.offset, rs, ss);
      ASSAY_TRY(std::uint32_t at, companion(kind).place(oraw.subspan(r.value, n), old, old_n));
      store<std::uint32_t>(b.data() + r.offset, at, Endian::little);
    }
    trim_fill(b, f.file.descriptor(li).size);
    stamp(b, li);
    new_data[li] = std::move(b);
  }
  InstanceEditLine line{std::string(f.names[i]), i, "oni"};
  line.instances = walked.size(), line.old_size = f.file.descriptor(i).size, line.new_size = new_data[i].size();
  changes.push_back(std::move(line));
  return {};
}

// ---- TXMP from PNG (spec: oni.md#oni-9-1) ----------------------------------

struct TxmpFormat {
  const char* name;
  std::uint32_t code;
};
constexpr TxmpFormat kTxmpFormats[] = {{"bgra4444", 0}, {"bgr555", 1}, {"bgra5551", 2}, {"bgra32", 7}, {"bgr32", 8}, {"dxt1", 9},
                                       {"4444", 0},     {"555", 1},    {"1555", 2},     {"8888", 7},   {"888", 8}};

Result<std::uint32_t> txmp_format_code(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const TxmpFormat& t : kTxmpFormats)
    if (s == t.name) return t.code;
  return usage_error(fmt::format("--format {}: a TXMP takes bgra32, bgr32, bgr555, bgra5551, bgra4444 or dxt1", s));
}

}  // namespace

Result<ByteBuffer> encode_txmp_level(const image::Rgba& img, std::uint32_t code) {
  switch (code) {
    case 0: return image::encode_pixels(image::PixelFormat::a4r4g4b4, img);
    case 1: {  // bit 15 unused; OniSplit writes 1 (spec: oni.md#oni-9-1)
      ASSAY_TRY(ByteBuffer b, image::encode_pixels(image::PixelFormat::x1r5g5b5, img));
      for (std::size_t k = 1; k < b.size(); k += 2) b[k] |= 0x80;
      return b;
    }
    case 2: return image::encode_pixels(image::PixelFormat::a1r5g5b5, img);
    case 7: return img.pixels;  // bytes R, G, B, A
    case 8: return image::encode_pixels(image::PixelFormat::bgrx8888, img);
    case 9: return image::encode_blocks(image::BlockFormat::bc1, img, {image::DxtQuality::normal, true, 1});
    default: return make_error(kFormat, "TXMP", kNoOffset, fmt::format("cannot encode TXMP format {}", code));
  }
}

namespace {

Result<void> Editor::replace_png(std::uint32_t i, ByteView png, const std::string& format, const std::string& source,
                                  EditSizeRule size) {
  const ByteView inst = *f.file.instance_bytes(i);
  const std::string lab = instance_label(i, f.file.descriptor(i).tag, f.names[i]);
  if (inst.size() < records::kTxmpMinSize) return edit_error(lab, "TXMP instance smaller than 0xa4 bytes");
  const ChunkRef* c = nullptr;
  for (const ChunkRef& r : f.chunks)
    if (r.instance == i) c = &r;
  if (c == nullptr) return edit_error(lab, "no pixel-data field known for this TXMP layout");
  ASSAY_TRY(const records::TxmpImage t, records::read_txmp_image(inst, f.file.instance_file_offset(f.file.descriptor(i))));
  std::uint32_t code = t.format;
  if (!format.empty()) {
    auto fc = txmp_format_code(format);
    if (!fc) return fc.error();
    code = *fc;
  }
  image::PngLimits lim;
  lim.max_width = lim.max_height = kTxmpMaxDim;
  lim.max_pixels = std::uint64_t{8192} * 8192;
  ASSAY_TRY(image::Rgba top, read_source_png(png, source, lab, lim));
  // Another size than the TXMP's is refused unless --resize or --png-size.
  if ((top.width != t.width || top.height != t.height) && size != EditSizeRule::png) {
    if (size == EditSizeRule::refuse)
      return size_mismatch_error(source, "the TXMP " + std::string(f.names[i]), top.width, top.height, t.width, t.height);
    ASSAY_TRY(top, image::resize(top, t.width, t.height));
  }
  const bool mips = t.mipmapped();  // spec: oni.md#oni-9-1 HasMipMaps: every level down to 1x1
  ASSAY_TRY(auto levels, txmp_levels(top.width, top.height, code, mips));
  ASSAY_TRY(auto imgs, image::mip_chain(top, static_cast<std::uint32_t>(levels.size()), 0));
  ByteBuffer part;
  for (std::size_t k = 0; k < levels.size(); ++k) {
    ASSAY_TRY(ByteBuffer px, encode_txmp_level(imgs[k], code));
    if (px.size() != levels[k].size)
      return edit_error(lab, fmt::format("level {} encoded to 0x{:x} bytes, the format needs 0x{:x}", k, px.size(), levels[k].size));
    part.insert(part.end(), px.begin(), px.end());
  }
  detail::ChunkStarts rs, ss;
  starts(rs, ss);
  const FieldKind kind = c->kind == FieldKind::sep ? FieldKind::sep : FieldKind::raw;
  if (!companion(kind).present) return edit_error(lab, fmt::format("the level has no {} file", kind == FieldKind::sep ? ".sep" : ".raw"));
  const auto [old, old_n] = old_chunk(i, c->offset, rs, ss);
  ASSAY_TRY(std::uint32_t at, companion(kind).place(part, old, old_n));
  ByteBuffer b(inst.begin(), inst.end());
  records::TxmpImage image = t;
  image.width = static_cast<std::uint16_t>(top.width);
  image.height = static_cast<std::uint16_t>(top.height);
  image.format = code;
  store_in(b, records::TxmpImage::kOffset, image);
  store_in(b, c->offset, Word32{at});
  new_data[i] = std::move(b);
  InstanceEditLine line{std::string(f.names[i]), i, "png"};
  line.width = top.width, line.height = top.height, line.pixel_format = code, line.mips = levels.size();
  line.pixel_offset = at, line.pixel_bytes = part.size();
  changes.push_back(std::move(line));
  return {};
}

// The level file with the new instance bytes: later instances and the name block shift by the
// size changes (each data slot keeps its padding rule: 32-aligned slots stay 32-aligned).
Result<ByteBuffer> rebuild(const InstanceFile& file, const std::map<std::uint32_t, ByteBuffer>& repl) {
  const FileHeader& h = file.header();
  const ByteView all = file.bytes();
  const ByteView data = all.subspan(h.data_offset, h.data_size);
  struct Slot {
    std::uint32_t index, start, size;
  };
  std::vector<Slot> slots;
  for (std::uint32_t i = 0; i < file.instance_count(); ++i) {
    const Descriptor d = file.descriptor(i);
    if (d.placeholder() || d.size == 0) continue;
    slots.push_back({i, d.data_offset - kInstanceHeaderSize, d.size});
  }
  std::sort(slots.begin(), slots.end(), [](const Slot& a, const Slot& b) { return a.start < b.start; });
  for (std::size_t k = 1; k < slots.size(); ++k)
    if (slots[k].start < slots[k - 1].start + slots[k - 1].size)
      return edit_error("data block", "instances share data bytes (duplicates): not editable in place, use extract + pack oni");
  ByteBuffer out(all.begin(), all.begin() + h.data_offset);
  ByteBuffer nd;
  std::uint32_t pos = 0;  // in the old data block
  for (std::size_t k = 0; k < slots.size(); ++k) {
    const Slot& s = slots[k];
    nd.insert(nd.end(), data.begin() + pos, data.begin() + s.start);  // bytes before the slot (gaps)
    const std::uint32_t next = k + 1 < slots.size() ? slots[k + 1].start : h.data_size;
    const auto it = repl.find(s.index);
    const std::uint64_t at = nd.size();
    if (at > 0xFFFFFFF0ull) return edit_error("data block", "the data block would exceed 4 GiB");
    Descriptor d = file.descriptor(s.index);
    d.data_offset = static_cast<std::uint32_t>(at + kInstanceHeaderSize);
    if (it == repl.end()) {
      nd.insert(nd.end(), data.begin() + s.start, data.begin() + next);
    } else if (it->second.size() == s.size) {  // same size: the slot's own padding bytes follow
      nd.insert(nd.end(), it->second.begin(), it->second.end());
      nd.insert(nd.end(), data.begin() + s.start + s.size, data.begin() + next);
    } else {
      nd.insert(nd.end(), it->second.begin(), it->second.end());
      d.size = static_cast<std::uint32_t>(it->second.size());
      // A 32-aligned slot stays 32-aligned (AD DE fill, spec: oni.md#oni-10-4); a packed one keeps its gap.
      const bool aligned = s.start % 32 == 0 && next % 32 == 0;
      const std::size_t end = aligned ? align32(nd.size()) : nd.size() + (next - s.start - s.size);
      for (std::size_t q = nd.size(), from = nd.size(); q < end; ++q) nd.push_back(((q - from) & 1) ? 0xDE : 0xAD);
    }
    store_in(out, file.descriptor_offset(s.index), d);
    pos = next;
  }
  nd.insert(nd.end(), data.begin() + pos, data.end());
  out.insert(out.end(), nd.begin(), nd.end());
  // The name block keeps its alignment (32 in every writer; spec: oni.md#oni-3-4).
  std::uint64_t name_at = out.size();
  const std::uint64_t old_gap = h.name_offset - (std::uint64_t(h.data_offset) + h.data_size);
  if (nd.size() == h.data_size) name_at += old_gap;
  else while (name_at % 32 != h.name_offset % 32) ++name_at;
  if (name_at + h.name_size > 0xFFFFFFFFull) return edit_error("name block", "the file would exceed 4 GiB");
  out.resize(name_at, 0);
  out.insert(out.end(), all.begin() + h.name_offset, all.end());  // the name block and anything after it
  FileHeader fh = h;
  fh.data_size = static_cast<std::uint32_t>(nd.size());
  fh.name_offset = static_cast<std::uint32_t>(name_at);
  store_in(out, 0, fh);
  return out;
}

fs::path companion_path(const fs::path& dat, const char* ext) {
  fs::path p = dat;
  p.replace_extension(ext);
  return p;
}

// Writes .raw/.sep first, then the .dat: the companions only grow, so a stop between the renames
// leaves the old .dat reading valid data (docs/cli.md).
Result<void> write_all(const fs::path& target, ByteView dat, Editor& ed, bool force) {
  std::vector<AtomicFile> files;
  for (auto [comp, ext] : {std::pair{&ed.raw, ".raw"}, std::pair{&ed.sep, ".sep"}}) {
    if (!comp->present) continue;
    ASSAY_TRY(AtomicFile a, AtomicFile::create(companion_path(target, ext), force));
    ASSAY_CHECK(a.write(comp->original));
    ASSAY_CHECK(a.write(comp->appended));
    files.push_back(std::move(a));
  }
  ASSAY_TRY(AtomicFile d, AtomicFile::create(target, force));
  ASSAY_CHECK(d.write(dat));
  files.push_back(std::move(d));
  for (AtomicFile& a : files) ASSAY_CHECK(a.commit());
  return {};
}

bool is_png(ByteView b) { return b.size() >= 8 && std::memcmp(b.data(), "\x89PNG\r\n\x1a\n", 8) == 0; }
// spec: oni.md#oni-3-1: a whole header whose version word is VR32.
bool is_oni(ByteView b) {
  if (b.size() < kHeaderSize) return false;
  const auto id = read_record<records::FileIdentity>(records::le_reader(b), 0, "header");
  return id && id->version == kVersionVR32;
}

// The most a replacement may hold: it is read whole and decoded, and the level
// is rebuilt in memory; Oni's largest instances and their .raw parts are a few MiB.
constexpr std::uint64_t kMaxReplacement = std::uint64_t{64} << 20;

// The refusal of a larger file, from its header alone: what it is, its size, the limit.
Error too_large(const EditRequest& req, const EditChange& c, std::uint64_t size, ByteView head) {
  const std::string kind = is_oni(head)   ? "a VR32 .oni"
                           : is_png(head) ? "a PNG"
                                          : "not an .oni or a PNG (raw instance data)";
  return usage_error(fmt::format("{} is {} bytes, {}: an Oni replacement is at most {} MiB (refused after reading its header)",
                                 edit_source(req, c), size, kind, kMaxReplacement >> 20));
}

}  // namespace

Result<Json> edit_format(const Input& in, const EditRequest& req) {
  if (in.path.empty()) return usage_error(in.name + ": Oni level files are edited on disk (their .raw/.sep are beside them)");
  ASSAY_TRY(const fs::path target, edit_target(in, req));
  for (const EditChange& c : req.changes)
    if (c.op != EditOp::replace)
      return usage_error(fmt::format("{}: Oni level files take replace only (add/remove change indices: use extract + pack oni)", c.name));
  ASSAY_TRY(LayoutSource layouts, layouts_for(req.read.family, in.path.parent_path(), nullptr));
  auto f = load_file(in.path, in.bytes, in.owner, layouts);
  if (!f->opened) return f->diags.items().front().where;
  if (f->file.is_oni()) return usage_error(in.name + ": a .oni file; replace works on level files (.dat)");
  for (const auto& d : f->diags.items())
    if (d.severity == Severity::error) {
      Error e = d.where;
      e.message = "the level has errors, not editing: " + e.message;
      return e;
    }
  Editor ed{*f, {}, {f->raw, {}, f->raw_present}, {f->sep, {}, f->sep_present}};
  const auto tf = req.read.family.find("texture_format");
  const std::string format = tf == req.read.family.end() ? "" : tf->second;
  for (const EditChange& c : req.changes) {
    auto i = f->file.find(c.name);
    if (!i || !f->has_data[*i]) return usage_error(fmt::format("{}: no instance {} with data in {}", c.name, c.name, in.name));
    if (ed.new_data.count(*i)) return usage_error(c.name + " given twice");
    const bool txmp = f->file.descriptor(*i).tag == make_tag("TXMP");
    if (req.progress) req.progress(0, c.name);
    // The header first: what the file is, and whether its size is one an Oni
    // level can take, before the rest of it is read (a multi-GiB file is refused at once).
    ASSAY_TRY(const EditData src, EditData::of(req, c));
    EditChange head{c.op, c.name, {}};
    ASSAY_TRY(head.data, src.head(kHeaderSize));
    if (src.size() > kMaxReplacement) return too_large(req, c, src.size(), head.data);
    ByteBuffer whole;
    ByteView data = c.data;
    if (src.is_file()) {
      ASSAY_TRY(whole, src.head(src.size()));
      data = whole;
    }
    if (txmp && !is_png(head.data) && !image::image_file_kind(head.data).empty())  // a JPEG, ...: say so
      ASSAY_CHECK(require_png(req, head, "a TXMP"));
    if (is_png(data)) {
      if (!txmp) return usage_error(c.name + ": a PNG replaces TXMP instances only");
      ASSAY_CHECK(ed.replace_png(*i, data, format, edit_source(req, c), edit_size_rule(req)));
    } else if (is_oni(data)) {
      // The .oni is the user's FILE: an error in it names that file and is a usage error (exit 2).
      const std::string source = edit_source(req, c);
      if (auto r = ed.replace_oni(*i, data, source); !r) {
        Error e = r.error();
        if (e.file == source && e.kind == ErrorKind::data) e.kind = ErrorKind::usage;
        return e;
      }
    } else {
      ASSAY_CHECK(ed.replace_raw(*i, data));
    }
    if (req.progress) req.progress(data.size(), "");  // bytes of new data taken in (EditRequest)
  }
  ASSAY_CHECK(ed.check_new());
  ASSAY_TRY(ByteBuffer dat, rebuild(f->file, ed.new_data));
  // Read back before anything is written: the rebuilt file passes every per-file rule.
  ASSAY_TRY(InstanceFile back, InstanceFile::open(dat, target.filename().string()));
  Diagnostics check;
  back.validate(check, f->fname ? std::optional<std::uint32_t>(f->fname->file_id) : std::nullopt);
  for (const auto& d : check.items())
    if (d.severity == Severity::error) return d.where;
  ASSAY_CHECK(write_all(target, dat, ed, req.force || req.in_place));
  InstanceEditReport r{in.name, target.string(), req.in_place, f->file.instance_count(), dat.size(),
                       ed.raw.appended.size(), ed.sep.appended.size(), std::move(ed.changes)};
  return edit_json(r);
}

}  // namespace assay::oni
