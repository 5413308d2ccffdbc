// Writers. spec: warriors.md#wr-3-6 (containers), #wr-2-1 / #wr-2-3 (DIR/WAD layout), #wr-2-6 (repack).
#include "assay/formats/warriors/writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <system_error>

#include "assay/core/folder.h"
#include "assay/core/mapped_file.h"
#include "assay/core/output.h"
#include "assay/core/temp_file.h"
#include "assay/formats/renderware/writer.h"
#include "assay/formats/warriors/chunks.h"

namespace assay::warriors {

Result<ByteBuffer> write_resource(std::uint32_t name_hash, const std::vector<ChunkSpec>& chunks) {
  ByteWriter w;
  std::uint64_t sum = 0;
  for (const auto& c : chunks) {
    if (c.type >= kChunkTypeCount)
      return make_error(kFormat, "resource writer", kNoOffset, fmt::format("chunk type 0x{:x} is not below 0x54", c.type));
    sum += align16(c.data.size());
  }
  if (sum > 0xFFFFFFFFull) return make_error(kFormat, "resource writer", kNoOffset, "chunks exceed 4 GiB");
  w.u32(static_cast<std::uint32_t>(chunks.size()));
  w.u32(static_cast<std::uint32_t>(sum));
  w.u32(0);
  w.u32(name_hash);
  for (const auto& c : chunks) {
    w.u32(c.type);
    w.u32(static_cast<std::uint32_t>(align16(c.data.size())));
    w.u32(c.zero);
    w.u32(c.id);
    w.bytes(c.data);
    w.zeros(align16(c.data.size()) - c.data.size());
  }
  return w.take();
}

Result<ByteBuffer> write_pack(const std::vector<ByteBuffer>& resources) {
  std::uint64_t total = 16;
  for (std::size_t i = 0; i < resources.size(); ++i) {
    if (!check_exact_resource(resources[i]).exact)
      return make_error(kFormat, fmt::format("pack writer: resource {}", i), kNoOffset,
                        "not an exact resource: " + check_exact_resource(resources[i]).why);
    total += resources[i].size();
  }
  if (total > 0xFFFFFFFFull) return make_error(kFormat, "pack writer", kNoOffset, "pack exceeds 4 GiB");
  ByteWriter w;
  w.u32(static_cast<std::uint32_t>(resources.size()));
  w.u32(static_cast<std::uint32_t>(total - 16));
  w.u32(0);
  w.u32(kPackageMarker);
  for (const auto& r : resources) w.bytes(r);
  ByteBuffer out = w.take();
  if (auto x = check_exact_pack(out); !x.exact)  // re-check C1-C8 on our own output
    return make_error(kFormat, "pack writer", kNoOffset, "output is not exact: " + x.why);
  return out;
}

DiscImage write_disc(const std::vector<DiscEntrySpec>& entries) {
  DiscImage d;
  ByteWriter dir;
  dir.u32(static_cast<std::uint32_t>(entries.size()));
  dir.zeros(12);
  for (const auto& e : entries) {
    dir.u32(static_cast<std::uint32_t>(d.wad.size()));
    dir.u32(static_cast<std::uint32_t>(e.data.size()));
    dir.u32(e.hash);
    d.wad.insert(d.wad.end(), e.data.begin(), e.data.end());
    d.wad.resize(align2048(d.wad.size()), 0);
  }
  d.dir = dir.take();
  return d;
}

Result<void> write_disc_files(const std::filesystem::path& dir_path, const std::filesystem::path& wad_path,
                              const std::vector<StreamedDiscEntry>& entries,
                              const std::function<void(std::uint32_t, ByteBuffer&)>& produce, bool force) {
  ASSAY_TRY(AtomicFile wad, AtomicFile::create(wad_path, force));
  ByteWriter dir;
  dir.u32(static_cast<std::uint32_t>(entries.size()));
  dir.zeros(12);
  std::uint64_t offset = 0;
  ByteBuffer buf;
  static const ByteBuffer zeros(kSector, 0);
  for (std::uint32_t i = 0; i < entries.size(); ++i) {
    if (offset > 0xFFFFFFFFull) return make_error(kFormat, "DIR writer", kNoOffset, "WAD exceeds 4 GiB");
    buf.clear();
    produce(i, buf);
    if (buf.size() != entries[i].size)
      return make_error(kFormat, "DIR writer", kNoOffset, fmt::format("entry {} produced {} bytes, not {}", i, buf.size(), entries[i].size));
    dir.u32(static_cast<std::uint32_t>(offset));
    dir.u32(entries[i].size);
    dir.u32(entries[i].hash);
    ASSAY_CHECK(wad.write(buf));
    const std::uint64_t pad = align2048(buf.size()) - buf.size();
    ASSAY_CHECK(wad.write(ByteView(zeros).first(pad)));
    offset += buf.size() + pad;
  }
  ASSAY_CHECK(write_file_atomic(dir_path, dir.buffer(), force));
  return wad.commit();
}

Result<std::map<std::uint32_t, std::filesystem::path>> collect_replacements(const Disc& original,
                                                                            const std::filesystem::path& files_dir) {
  std::map<std::uint32_t, std::filesystem::path> out;
  std::error_code ec;
  std::filesystem::directory_iterator it(files_dir, ec);
  if (ec) return io_error(files_dir.string(), "cannot read the folder: " + ec.message());
  for (const auto& de : it) {
    if (is_assay_temporary(de.path().filename().string())) continue;  // never packed
    const auto st = de.symlink_status(ec);  // never follow a link
    if (std::filesystem::is_directory(st)) continue;
    if (!std::filesystem::is_regular_file(st))
      return io_error(de.path().string(), "is a symlink, FIFO or device; pack reads regular files only");
    const std::string fn = de.path().filename().string();
    std::uint32_t h;
    if (fn.size() == 12 && fn.substr(8) == ".bin" && parse_hash("0x" + fn.substr(0, 8))) h = *parse_hash("0x" + fn.substr(0, 8));
    else h = name_hash(fn);
    if (!original.find(h))
      return make_error(kFormat, "pack warriors", kNoOffset,
                        fmt::format("{}: no entry of the original has hash {:08x} (to add an entry: assay add DISC -o OUTDIR NAME=FILE)", fn, h));
    out[h] = de.path();
  }
  return out;
}

Result<RepackStats> repack(const Disc& original, const std::map<std::uint32_t, std::filesystem::path>& replacements,
                           const std::filesystem::path& out_dir, bool force, const ProgressFn& progress) {
  Diagnostics d;
  original.validate(d);
  if (d.has_errors()) {
    Error e = d.items().front().where;
    for (const auto& x : d.items())
      if (x.severity == Severity::error) { e = x.where; break; }
    e.message = "the original DIR breaks a rule, not repacking: " + e.message;
    return e;
  }
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  const ByteView wad = original.wad_bytes();
  ASSAY_TRY(AtomicFile out, AtomicFile::create(out_dir / "WARRIORS.WAD", force));
  ByteBuffer dir(original.dir_bytes().begin(), original.dir_bytes().end());  // header words kept
  RepackStats st;
  static const ByteBuffer zeros(kSector, 0);
  const std::uint32_t n = original.count();
  std::uint64_t pos = 0;       // in the old WAD: everything before it is written
  std::uint64_t new_pos = 0;   // in the new WAD
  auto copy = [&](std::uint64_t from, std::uint64_t to) -> Result<void> {
    ASSAY_CHECK(out.write(wad.subspan(from, to - from)));
    new_pos += to - from;
    return {};
  };
  // Rows are in offset order (D4); each slot runs to the next row's offset.
  for (std::uint32_t i = 0; i < n; ++i) {
    const DirEntry e = original.entry(i);
    ASSAY_CHECK(copy(pos, std::max<std::uint64_t>(pos, e.offset)));  // bytes before the first slot
    const std::uint64_t slot_end = i + 1 < n ? original.entry(i + 1).offset
                                             : std::min<std::uint64_t>(align2048(std::uint64_t{e.offset} + e.size), wad.size());
    const std::uint64_t new_offset = new_pos;
    if (new_offset > 0xFFFFFFFFull) return make_error(kFormat, "pack warriors", kNoOffset, "the new WAD exceeds 4 GiB");
    const std::uint64_t row_at = kDirHeaderSize + std::uint64_t{kDirRowSize} * i;
    DirRow row = decode_in<DirRow>(dir, row_at);
    row.offset = static_cast<std::uint32_t>(new_offset);
    auto rep = replacements.find(e.hash);
    std::optional<FileBytes> file;  // read whole, never mapped (no SIGBUS)
    if (rep != replacements.end() && original.find(e.hash)->index == i) {
      ASSAY_TRY(FileBytes f, FileBytes::read(rep->second));
      // A file equal to the original entry keeps the original slot (its padding included),
      // so unchanged input gives byte-identical output.
      const ByteView old = wad.subspan(e.offset, e.size);
      if (f.bytes().size() != old.size() || !std::equal(old.begin(), old.end(), f.bytes().begin())) file = std::move(f);
    }
    if (file) {
      const FileBytes& f = *file;
      if (f.bytes().size() > 0xFFFFFFFFull) return make_error(kFormat, "pack warriors", kNoOffset, "a replacement exceeds 4 GiB");
      ASSAY_CHECK(out.write(f.bytes()));
      const std::uint64_t pad = align2048(f.bytes().size()) - f.bytes().size();
      ASSAY_CHECK(out.write(ByteView(zeros).first(pad)));
      new_pos += f.bytes().size() + pad;
      row.size = static_cast<std::uint32_t>(f.bytes().size());
      ++st.replaced;
    } else {
      ASSAY_CHECK(copy(e.offset, slot_end));
    }
    store_in(dir, row_at, row);
    if (progress) progress(slot_end > pos ? slot_end - pos : 0, file ? rep->second.filename().string() : fmt::format("{:08x}.bin", e.hash));
    pos = slot_end;
  }
  ASSAY_CHECK(copy(pos, wad.size()));  // whatever followed the last slot
  if (progress) progress(wad.size() - pos, "");
  st.wad_size = new_pos;
  ASSAY_CHECK(write_file_atomic(out_dir / "WARRIORS.DIR", dir, force));
  ASSAY_CHECK(out.commit());
  return st;
}

// ---- minimal RenderWare streams (renderware.md#rw-2-1, #rw-3) ----
ByteBuffer rw_section(std::uint32_t id, ByteView body, std::uint32_t stamp) {
  ByteWriter w;
  w.u32(id);
  w.u32(static_cast<std::uint32_t>(body.size()));
  w.u32(stamp);
  w.bytes(body);
  return w.take();
}

namespace {
ByteBuffer cat(std::initializer_list<ByteBuffer> parts) {
  ByteBuffer o;
  for (const auto& p : parts) o.insert(o.end(), p.begin(), p.end());
  return o;
}
ByteBuffer u32s(std::initializer_list<std::uint32_t> v) {
  ByteWriter w;
  for (auto x : v) w.u32(x);
  return w.take();
}
}  // namespace

ByteBuffer rw_texture_dictionary(std::uint16_t textures) {
  // Valid PS2 natives through the RenderWare writer: 8 x 8 PAL4, two colours.
  std::vector<ByteBuffer> natives;
  for (std::uint16_t i = 0; i < textures; ++i) {
    rw::writer::Ps2Texture t;
    t.name = "tex" + std::to_string(i);
    t.width = t.height = 8;
    t.pal4 = true;
    t.palette.assign(16, 0xFF000000u);
    t.palette[1] = 0xFFFFFFFFu;
    t.levels.push_back(ByteBuffer(64, static_cast<std::uint8_t>(i & 1)));
    t.stamp = kRenderWareStamp;
    auto n = rw::writer::ps2_texture_native(t);
    if (n) natives.push_back(std::move(*n));
  }
  return rw::writer::texture_dictionary(natives, 6, kRenderWareStamp);
}

ByteBuffer rw_clump(std::uint32_t atomics) {
  rw::writer::ClumpDesc d;
  d.frames = 1;
  d.geometries.assign(atomics, rw::writer::ClumpGeometry{});
  d.stamp = kRenderWareStamp;
  return rw::writer::clump(d);
}

ByteBuffer rw_world() {
  ByteBuffer sector = rw_section(0x09, cat({rw_section(1, u32s({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})), rw_section(3, {})}));
  return rw_section(0x0B, cat({rw_section(1, u32s({1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x4101000D, 0})),
                              rw_section(8, rw_section(1, u32s({0}))), sector, rw_section(3, {})}));
}

}  // namespace assay::warriors
