// The two stacks, the handler table and the loaders. spec: warriors.md#wr-4-3, #wr-5-4;
// original ChunkSystem_LoadContainer 0x00144180, ChunkSystem_LoadGroupedContainer 0x00144398,
// ChunkSystem_SetHandlers 0x00144348, PopChunk 0x00144120, PeekChunkType 0x001440f0.
#include <fmt/format.h>

#include "assay/formats/warriors/chunks.h"
#include "assay/formats/warriors/disc.h"
#include "records.h"
#include "handlers.h"

namespace assay::warriors {

namespace {

bool same_class(std::uint32_t want, std::uint32_t got) {
  // spec: #wr-4-3: a pop that expects 0x41 also accepts 0x0A, and the reverse.
  auto cls = [](std::uint32_t t) { return t == 0x0A ? 0x41u : t; };
  return cls(want) == cls(got);
}

std::string type_label(std::uint32_t t) { return fmt::format("0x{:02X} {}", t, chunk_type_name(t)); }

Error stack_error(std::string message) { return make_error(kFormat, "chunk stack", kNoOffset, std::move(message)); }

// A 16-byte header the caller has range-checked; all zeros if it were not there.
ContainerHeader read_header(ByteView b, std::uint64_t at) {
  const auto h = records::header16(b, at);
  return h ? h->container() : ContainerHeader{};
}

}  // namespace

// ---- stacks ----
std::optional<std::uint32_t> ChunkStacks::peek_chunk_type() const noexcept {
  if (chunks_.empty()) return std::nullopt;
  return chunks_.back().type;
}

Result<void> ChunkStacks::expect_chunks(std::initializer_list<std::uint32_t> top_down) const {
  std::size_t k = 0;
  for (std::uint32_t want : top_down) {
    if (k >= chunks_.size())
      return stack_error(fmt::format("expected {} on the chunk stack, found it empty", type_label(want)));
    const StackChunk& c = chunks_[chunks_.size() - 1 - k];
    if (!same_class(want, c.type))
      return stack_error(fmt::format("expected {} on the chunk stack, found {}", type_label(want), type_label(c.type)));
    ++k;
  }
  return {};
}

Result<void> ChunkStacks::expect_objects(std::size_t n, const char* kind) const {
  if (objects_.size() < n)
    return stack_error(fmt::format("needs {} {} object(s) on the object stack, {} present", n,
                                   kind ? kind : "", objects_.size()));
  for (std::size_t k = 0; k < n && kind; ++k) {
    const Object& o = objects_[objects_.size() - 1 - k];
    if (object_kind(o) != kind)
      return stack_error(fmt::format("expected a {} object on the object stack, found {}", kind, object_kind(o)));
  }
  return {};
}

Result<StackChunk> ChunkStacks::pop_chunk(std::uint32_t expected) {
  ASSAY_CHECK(expect_chunks({expected}));
  StackChunk c = std::move(chunks_.back());
  chunks_.pop_back();
  return c;
}

Result<StackChunk> ChunkStacks::pop_any_chunk() {
  if (chunks_.empty()) return stack_error("pops the top chunk, found the chunk stack empty");
  StackChunk c = std::move(chunks_.back());
  chunks_.pop_back();
  return c;
}

Result<Object> ChunkStacks::pop_object(const char* kind) {
  ASSAY_CHECK(expect_objects(1, kind));
  Object o = std::move(objects_.back());
  objects_.pop_back();
  return o;
}

void ChunkStacks::note_depth() noexcept {
  max_chunks_ = std::max(max_chunks_, chunks_.size());
  max_objects_ = std::max(max_objects_, objects_.size());
}

// ---- window ----
Result<ByteView> ChunkWindow::read(std::uint64_t n, std::string_view what) {
  if (!range_ok(pos_, n, data_.size()))
    return make_error(kFormat, what, base_ + pos_,
                      fmt::format("V8: reads {} bytes past the chunk's end ({} of {} bytes left)", n,
                                  data_.size() - pos_, data_.size()));
  ByteView v = data_.subspan(pos_, n);
  pos_ += n;
  return v;
}

Result<std::uint32_t> ChunkWindow::u32(std::string_view what) {
  ASSAY_TRY(ByteView b, read(4, what));
  ASSAY_TRY(const Word32 w, read_record<Word32>(records::le_reader(b), 0, what));
  return w.value;
}

// ---- context ----
Error LoadContext::chunk_error(std::string message) const {
  return make_error(kFormat,
                    fmt::format("chunk {} at 0x{:x}, type {}", chunk_index, chunk_offset, type_label(header.type)),
                    kNoOffset, std::move(message));
}

void LoadContext::warn(std::string message, std::uint64_t offset) {
  Error e = chunk_error(std::move(message));
  e.offset = offset;
  result_.diags.warning(std::move(e));
}

void LoadContext::diag_error(std::string message, std::uint64_t offset) {
  Error e = chunk_error(std::move(message));
  e.offset = offset;
  result_.diags.error(std::move(e));
}

// ---- handler table ----
Result<void> HandlerTable::set_handlers(std::uint32_t type, OnLoaded on_loaded, ReadFromStream read_from_stream) {
  if (type >= kChunkTypeCount)
    return make_error(kFormat, "handler table", kNoOffset, fmt::format("type 0x{:x} is past the table (0x54)", type));
  records_[type] = {std::move(on_loaded), std::move(read_from_stream)};
  return {};
}

HandlerTable HandlerTable::original_static() {
  HandlerTable t;
  install_static_handlers(t);
  return t;
}

HandlerTable HandlerTable::standard() {
  HandlerTable t = original_static();
  install_runtime_handlers(t);
  return t;
}

// ---- loaders ----
namespace {

struct Loader {
  ByteView entry;
  const HandlerTable& table;
  LoadResult& out;
  std::uint64_t pos = 0;
  std::uint32_t next_index = 0;

  Error fail(std::string structure, std::uint64_t at, std::string message) const {
    return make_error(kFormat, std::move(structure), at, std::move(message));
  }

  Result<ContainerHeader> header(std::string_view what) {
    if (!range_ok(pos, 16, entry.size()))
      return fail(std::string(what), pos, fmt::format("needs 16 bytes, {} left", entry.size() - std::min<std::uint64_t>(pos, entry.size())));
    ContainerHeader h = read_header(entry, pos);
    pos += 16;
    return h;
  }

  // count x 16 must fit in what is left (spec: #wr-5-4 step 1).
  Result<void> check_count(std::uint32_t count, std::string_view what, std::uint64_t at) {
    const std::uint64_t need = std::uint64_t{count} * 16;  // u32 x 16: cannot wrap
    if (need > entry.size() - pos)
      return fail(std::string(what), at,
                  fmt::format("V3: count {} needs at least {} bytes, {} left", count, need, entry.size() - pos));
    return {};
  }

  Result<void> chunk(std::int32_t group) {
    const std::uint64_t at = pos;
    const std::uint32_t index = next_index++;
    ASSAY_TRY(ContainerHeader raw, header(fmt::format("chunk {} header", index)));
    ChunkHeader h{raw.count, raw.size, raw.zero, raw.id};
    if (h.type >= kChunkTypeCount)
      return fail(fmt::format("chunk {} header", index), at, fmt::format("V3: type 0x{:x} is not below 0x54", h.type));
    if (h.size > entry.size() - pos)
      return fail(fmt::format("chunk {} at 0x{:x}, type {}", index, at, type_label(h.type)), at + 4,
                  fmt::format("V3: size {} runs past the entry's end ({} bytes left)", h.size, entry.size() - pos));
    ChunkRecord rec{index, group, at, h, false};
    if (h.zero != 0 || h.size % 16 != 0)  // V4
      out.diags.warning(fail(fmt::format("chunk {}", index), at,
                             fmt::format("V4: zero word 0x{:x}, size {} (the disc's are 0 and multiples of 16)", h.zero, h.size)));
    if (h.type == 0x28 && h.size != 544) {  // V9 for the raw Chunk Bone Offsets
      Error e = fail(fmt::format("chunk {}", index), at, fmt::format("V9: Chunk Bone Offsets chunk is {} bytes, the disc's are 544", h.size));
      h.size < 544 ? out.diags.error(std::move(e)) : out.diags.warning(std::move(e));
    }
    if (!chunk_type_on_disc(h.type))
      out.diags.warning(fail(fmt::format("chunk {}", index), at, fmt::format("V5: type {} never occurs on the disc", type_label(h.type))));
    LoadContext ctx(entry, out);
    ctx.chunk_index = index;
    ctx.chunk_offset = at;
    ctx.header = h;
    const HandlerRecord& r = table.record(h.type);
    const ByteView data = entry.subspan(pos, h.size);
    if (r.read_from_stream) {
      ChunkWindow w(data, pos);
      rec.stream_read = true;
      out.chunks.push_back(rec);
      auto ok = r.read_from_stream(ctx, h, w);
      if (!ok) {
        Error e = ctx.chunk_error(ok.error().structure.empty() ? ok.error().message
                                                          : ok.error().structure + ": " + ok.error().message);
        e.offset = ok.error().offset == kNoOffset ? at : ok.error().offset;
        return e;
      }
      // What the handler leaves unread is skipped (Stream_SkipBytes 0x00154440).
    } else {
      out.chunks.push_back(rec);
      // Raw: a view of the bytes (a 0-size chunk pushes an empty view in both loaders; spec: #wr-5-4 3).
      out.stacks.push_chunk({h.type, h.id, pos, data, {}});
    }
    pos += h.size;
    out.stacks.note_depth();
    if (r.on_loaded) {
      auto ok = r.on_loaded(ctx);
      if (!ok) {
        Error e = ctx.chunk_error(ok.error().structure.empty() ? ok.error().message
                                                          : ok.error().structure + ": " + ok.error().message);
        e.offset = ok.error().offset == kNoOffset ? at : ok.error().offset;
        return e;
      }
      out.stacks.note_depth();
    }
    return {};
  }

  void finish() {
    out.consumed = pos;
    out.trailing = entry.size() - pos;
    if (out.stacks.max_chunk_depth() > kChunkStackCapacity || out.stacks.max_object_depth() > kObjectStackCapacity)
      out.diags.warning(fail("stacks", kNoOffset,
                             fmt::format("V7: depth {} chunks / {} objects exceeds the original's 2,048 / 1,024",
                                         out.stacks.max_chunk_depth(), out.stacks.max_object_depth())));
  }
};

}  // namespace

// Records the loader's error, settles the stacks and reports trailing bytes (V17); shared by
// the flat and grouped loaders.
static void finish_load(Loader& l, LoadResult& out, Result<void> r) {
  if (!r) out.error = r.error();
  l.finish();
  if (out.ok() && out.trailing != 0)
    out.diags.warning(make_error(kFormat, "container", l.pos, fmt::format("V17: {} bytes after the container", out.trailing)));
}

LoadResult load_flat(ByteView entry, const HandlerTable& table, const LoadOptions&) {
  LoadResult out;
  out.shape = ContainerShape::flat;
  Loader l{entry, table, out};
  auto run = [&]() -> Result<void> {
    ASSAY_TRY(out.header, l.header("container header"));
    ASSAY_CHECK(l.check_count(out.header.count, "container header", 0));
    for (std::uint32_t i = 0; i < out.header.count; ++i) ASSAY_CHECK(l.chunk(-1));
    return {};
  };
  finish_load(l, out, run());
  return out;
}

LoadResult load_grouped(ByteView entry, const HandlerTable& table, const LoadOptions& opt) {
  LoadResult out;
  out.shape = ContainerShape::grouped;
  Loader l{entry, table, out};
  auto run = [&]() -> Result<void> {
    ASSAY_TRY(out.header, l.header("container header"));
    ASSAY_CHECK(l.check_count(out.header.count, "container header", 0));
    for (std::uint32_t j = 0; j < out.header.count; ++j) {
      const std::uint64_t at = l.pos;
      ASSAY_TRY(GroupHeader g, l.header(fmt::format("group {} header", j)));
      if (g.id == 0) {  // spec: #wr-5-2 step 2.1: a zero resourceId ends the container
        out.ended_by_zero_group = true;
        l.pos = at;
        out.diags.warning(make_error(kFormat, fmt::format("group {}", j), at,
                                     fmt::format("V16: zero resourceId after {} of {} groups ends the container", j, out.header.count)));
        break;
      }
      ASSAY_CHECK(l.check_count(g.count, fmt::format("group {} header", j), at));
      const bool skip = opt.skip_group && opt.skip_group(g);
      if (skip) {  // read every chunk header and discard its data
        for (std::uint32_t i = 0; i < g.count; ++i) {
          const std::uint64_t c = l.pos;
          ASSAY_TRY(ContainerHeader h, l.header(fmt::format("group {} chunk {} header", j, i)));
          if (h.size > entry.size() - l.pos)
            return make_error(kFormat, fmt::format("group {} chunk {} header", j, i), c + 4,
                              fmt::format("V3: size {} runs past the entry's end", h.size));
          l.pos += h.size;
        }
        continue;
      }
      out.group_ids.push_back(g.id);
      for (std::uint32_t i = 0; i < g.count; ++i) ASSAY_CHECK(l.chunk(static_cast<std::int32_t>(j)));
    }
    return {};
  };
  finish_load(l, out, run());
  return out;
}

LoadResult load_container(ByteView entry, const HandlerTable& table, const LoadOptions& opt) {
  if (opt.shape == ContainerShape::flat) return load_flat(entry, table, opt);
  if (opt.shape == ContainerShape::grouped) return load_grouped(entry, table, opt);
  // spec: #wr-5-3 (Coney's choice, kept): marker -> grouped; else flat; if flat fails, grouped.
  if (records::has_package_marker(entry))
    return load_grouped(entry, table, opt);
  LoadResult flat = load_flat(entry, table, opt);
  if (flat.ok()) return flat;
  LoadResult grouped = load_grouped(entry, table, opt);
  return grouped.ok() ? std::move(grouped) : std::move(flat);
}

// ---- strict rules (headers only) ----
namespace {

// One exact resource at [pos, end): C1, C3-C6; returns its end.
Result<std::uint64_t> exact_resource_at(ByteView e, std::uint64_t pos, std::uint64_t end, std::uint32_t* chunks) {
  auto fail = [](std::string m) -> Error { return make_error(kFormat, "", kNoOffset, std::move(m)); };
  if (!range_ok(pos, 16, end)) return fail("no room for a resource header");
  const ContainerHeader h = read_header(e, pos);
  if (h.zero != 0) return fail("C3: resource header's third word is not 0");
  if (h.id == kPackageMarker) return fail("C7: a resource carries the pack marker");
  pos += 16;
  const std::uint64_t need = std::uint64_t{h.count} * 16;  // u32 x 16: cannot wrap
  if (need > end - pos) return fail("count does not fit");
  std::uint64_t sum = 0;
  for (std::uint32_t i = 0; i < h.count; ++i) {
    if (!range_ok(pos, 16, end)) return fail("C6: chunk header past the end");
    const ContainerHeader c = read_header(e, pos);
    pos += 16;
    if (c.count >= kChunkTypeCount) return fail("C5: chunk type above 0x53");
    if (c.zero != 0) return fail("C3: chunk's third word is not 0");
    if (c.size % 16 != 0) return fail("C4: chunk size is not a multiple of 16");
    if (c.size > end - pos) return fail("C6: chunk runs past the end");
    pos += c.size;
    sum += c.size;
  }
  if (sum != h.size) return fail("C1: dataSize is not the sum of the chunk sizes");
  if (chunks) *chunks = h.count;
  return pos;
}

}  // namespace

ExactInfo check_exact_resource(ByteView e) {
  ExactInfo info;
  auto end = exact_resource_at(e, 0, e.size(), &info.chunks);
  if (!end) info.why = end.error().message;
  else if (*end != e.size()) info.why = "C6: bytes after the container";
  else info.exact = true;
  return info;
}

ExactInfo check_exact_pack(ByteView e) {
  ExactInfo info;
  if (e.size() < 16) return info.why = "smaller than a header", info;
  const ContainerHeader h = read_header(e, 0);
  if (h.id != kPackageMarker) return info.why = "C7: no pack marker", info;
  if (h.zero != 0) return info.why = "C3: pack header's third word is not 0", info;
  if (h.size != e.size() - 16) return info.why = "C2: size is not the entry size - 16", info;
  const std::uint64_t need = std::uint64_t{h.count} * 16;  // u32 x 16: cannot wrap
  if (need > e.size() - 16) return info.why = "count does not fit", info;
  std::uint64_t pos = 16;
  for (std::uint32_t j = 0; j < h.count; ++j) {
    auto end = exact_resource_at(e, pos, e.size(), nullptr);
    if (!end) return info.why = fmt::format("C8: group {}: {}", j, end.error().message), info;
    pos = *end;
  }
  if (pos != e.size()) return info.why = "C6: bytes after the last group", info;
  info.exact = true;
  info.chunks = h.count;
  return info;
}

}  // namespace assay::warriors
