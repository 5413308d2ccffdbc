// The handler models. spec: warriors.md#wr-4-1 (pops/pushes/stores), #wr-4-3 (all or nothing),
// #wr-6 (fix-ups and payload layouts), #wr-7 (RenderWare readers). Addresses: seed
// 000_6c544a494bb768a7 and the spec's table. Each model checks its whole pop list before it
// pops anything, so a failing handler leaves both stacks as they were.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <set>

#include "assay/core/hash.h"
#include "assay/formats/warriors/disc.h"
#include "records.h"
#include "handlers.h"

namespace assay::warriors {

namespace {

Error model_error(std::uint64_t offset, std::string message) {
  return make_error(kFormat, "", offset, std::move(message));
}

const StackChunk& top(LoadContext& ctx, std::size_t k = 0) {
  const auto& c = ctx.stacks().chunks();
  return c[c.size() - 1 - k];
}

// Checked little-endian reads of a chunk's data: past the end reads as 0 (each handler checks the
// chunk's size with fixed_size/counted first).
std::uint32_t word(const StackChunk& c, std::size_t at) { return records::u32_at(c.data, at).value_or(0); }
std::uint16_t half(const StackChunk& c, std::size_t at) { return records::u16_at(c.data, at).value_or(0); }
float real(const StackChunk& c, std::size_t at) { return std::bit_cast<float>(word(c, at)); }

// V9: a fixed-size chunk of the wrong size: error if smaller, warning if larger.
Result<void> fixed_size(LoadContext& ctx, const StackChunk& c, std::uint32_t want) {
  if (c.data.size() < want)
    return model_error(c.offset, fmt::format("V9: {} chunk is {} bytes, needs {}", chunk_type_name(c.type), c.data.size(), want));
  if (c.data.size() > want)
    ctx.warn(fmt::format("V9: {} chunk is {} bytes, the disc's are {}", chunk_type_name(c.type), c.data.size(), want), c.offset);
  return {};
}

// A counted array: `count` records of `record` bytes from `first`; error if the chunk is smaller,
// warning if its size is not align16 of what the records need (when `exact_align`).
Result<std::uint64_t> counted(LoadContext& ctx, const StackChunk& c, std::uint64_t count_at, std::uint64_t first,
                              std::uint64_t record, bool exact_align, std::string_view what) {
  if (c.data.size() < count_at + 4)
    return model_error(c.offset, fmt::format("{}: {} bytes hold no count at +0x{:x}", what, c.data.size(), count_at));
  const std::uint64_t count = word(c, count_at);
  std::uint64_t bytes = 0;
  if (!mul_ok(count, record, bytes) || bytes > c.data.size() || first > c.data.size() - bytes)
    return model_error(c.offset, fmt::format("{}: count {} of {}-byte records from +0x{:x} needs more than the chunk's {} bytes",
                                             what, count, record, first, c.data.size()));
  if (exact_align && c.data.size() != align16(first + bytes))
    ctx.warn(fmt::format("{}: size {} is not align16(0x{:x} + {} x {}) = {}", what, c.data.size(), first, record, count,
                         align16(first + bytes)), c.offset);
  return count;
}

StoredItem stored(const StackChunk& c, std::string slot) {
  return StoredItem{c.type, std::move(slot), c.offset, static_cast<std::uint32_t>(c.data.size()), {}, {}};
}

// ---- retag: 0x00144370 pops the top chunk and pushes it back as 0x14 ----
Result<void> retag(LoadContext& ctx) {
  ASSAY_TRY(StackChunk c, ctx.stacks().pop_any_chunk());
  c.type = 0x14;
  ctx.stacks().push_chunk(std::move(c));
  return {};
}

// ---- RenderWare readers (spec: #wr-7) ----
Result<void> read_dff(LoadContext& ctx, const ChunkHeader& h, ChunkWindow& w) {  // 0x0017f2c0
  ASSAY_TRY(ClumpValue v, read_rw_clump(ctx, w));
  // 0x50 for two or more atomics, else 0x41 (assay decision for the game-data flag, #wr-10-3).
  const std::uint32_t result = v.atomics >= 2 ? 0x50 : 0x41;
  ctx.stacks().push_chunk({result, h.id, w.base(), w.all(), v});
  return {};
}

Result<void> read_tid(LoadContext& ctx, const ChunkHeader& h, ChunkWindow& w, bool device) {  // 0x001906e8 / 0x00190770
  ASSAY_TRY(TexDictValue v, read_rw_texture_dictionary(ctx, w, device));
  ctx.stacks().push_chunk({0x0B, h.id, w.base(), w.all(), v});
  return {};
}

Result<void> read_sector(LoadContext& ctx, const ChunkHeader& h, ChunkWindow& w) {  // 0x00197b30
  ASSAY_TRY(WorldValue v, read_rw_world(ctx, w));
  ctx.stacks().push_chunk({0x42, h.id, w.base(), w.all(), v});
  return {};
}

// ---- 0x02 Anim Data (0x001045e0): pops 0x02, 0x00; pushes an animation object ----
Result<void> on_anim_data(LoadContext& ctx) {
  ASSAY_CHECK(ctx.stacks().expect_chunks({0x02, 0x00}));
  const StackChunk& d = top(ctx);
  ASSAY_CHECK(fixed_size(ctx, d, 80));
  Animation a;
  a.duration = real(d, 0x0C);
  a.channels = half(d, 0x18);
  a.events = half(d, 0x1A);
  const auto* name = reinterpret_cast<const char*>(d.data.data() + 0x25);
  a.name.assign(name, strnlen(name, 30));
  a.offset = d.offset;
  a.keyframe_bytes = static_cast<std::uint32_t>(top(ctx, 1).data.size());
  (void)ctx.stacks().pop_chunk(0x02);
  (void)ctx.stacks().pop_chunk(0x00);
  ctx.stacks().push_object(std::move(a));
  return {};
}

// ---- 0x03 Collision Mesh (0x00350580): pops 0x03, 0x06, 0x05, 0x04, 0x07, 0x52 ----
Result<void> on_collision_mesh(LoadContext& ctx) {
  ASSAY_CHECK(ctx.stacks().expect_chunks({0x03, 0x06, 0x05, 0x04, 0x07, 0x52}));
  const StackChunk& hdr = top(ctx);
  ASSAY_CHECK(fixed_size(ctx, hdr, 160));
  CollisionMesh m;
  m.nx = half(hdr, 0x70);
  m.ny = half(hdr, 0x72);
  m.nz = half(hdr, 0x74);
  m.index_values = word(hdr, 0x7c);
  m.triangles = half(hdr, 0x84);
  m.vertices = word(hdr, 0x90);
  m.offset = hdr.offset;
  // V10 (spec: #wr-6-4): sizes against the header's counts.
  struct Need {
    std::size_t k;
    std::uint64_t need;
    std::uint64_t exact;
  };
  const std::uint64_t cells = std::uint64_t{m.nx} * m.ny * m.nz;
  const std::uint64_t bitset = ((((std::uint64_t{m.triangles} + 7) >> 3) + 15) & 0x7ff0);
  const Need needs[] = {{1, 2ull * m.index_values, align16(2ull * m.index_values)},
                        {2, 4 * cells, align16(4 * cells)},
                        {3, 10ull * m.triangles, align16(10ull * m.triangles)},
                        {4, 16ull * m.vertices, 16ull * m.vertices},
                        {5, bitset, bitset}};
  for (const Need& n : needs) {
    const StackChunk& c = top(ctx, n.k);
    if (c.data.size() < n.need)
      return model_error(c.offset, fmt::format("V10: {} chunk is {} bytes, the mesh header's counts need {}",
                                               chunk_type_name(c.type), c.data.size(), n.need));
    if (c.data.size() != n.exact)
      ctx.warn(fmt::format("V10: {} chunk is {} bytes, expected {}", chunk_type_name(c.type), c.data.size(), n.exact), c.offset);
  }
  // Every vertex index below the vertex count (the triangles are 10 bytes: u16 v[3] first).
  const StackChunk& tris = top(ctx, 3);
  for (std::uint32_t t = 0; t < m.triangles; ++t)
    for (int v = 0; v < 3; ++v)
      if (half(tris, 10ull * t + 2 * v) >= m.vertices) {
        ctx.warn(fmt::format("V10: triangle {} names vertex {} of {}", t, half(tris, 10ull * t + 2 * v), m.vertices),
                 tris.offset + 10ull * t);
        t = m.triangles;
        break;
      }
  for (std::uint32_t t : {0x03u, 0x06u, 0x05u, 0x04u, 0x07u, 0x52u}) (void)ctx.stacks().pop_chunk(t);
  ctx.stacks().push_object(std::move(m));  // the original also sets bit 0 of each triangle and clears the bitset
  return {};
}

// ---- 0x08 Character Data (0x0016e258): pops 0x08, 0x45, then one object per distinct slot index ----
Result<void> on_character_data(LoadContext& ctx) {
  ASSAY_CHECK(ctx.stacks().expect_chunks({0x08, 0x45}));
  const StackChunk& cd = top(ctx);
  const StackChunk& ranges = top(ctx, 1);
  ASSAY_CHECK(fixed_size(ctx, cd, 2912));
  ASSAY_TRY(std::uint64_t range_count, counted(ctx, ranges, 0, 4, 16, false, "Anim Range List"));
  if (ranges.data.size() != 11568)
    ctx.warn(fmt::format("V9: Anim Range List chunk is {} bytes, the disc's are 11,568", ranges.data.size()), ranges.offset);
  std::set<std::uint32_t> distinct;
  for (std::uint32_t s = 0; s < kCharacterSlots; ++s) {
    const std::uint32_t v = word(cd, 8 + 4ull * s);
    if (v == 0xFFFFFFFFu) continue;
    if (v > 0x2d1) return model_error(cd.offset + 8 + 4ull * s, fmt::format("V14: slot {} holds 0x{:x}, above 0x2d1", s, v));
    distinct.insert(v);
  }
  if (auto ok = ctx.stacks().expect_objects(distinct.size(), "animation"); !ok)
    return model_error(cd.offset, fmt::format("V14/V6: {} distinct slot indices: {}", distinct.size(), ok.error().message));
  Character ch;
  ch.anim_ranges = static_cast<std::uint32_t>(range_count);
  ch.offset = cd.offset;
  std::vector<std::uint32_t> order(distinct.begin(), distinct.end());
  ch.slot_index.assign(kCharacterSlots, 0xFFFFFFFFu);
  for (std::uint32_t s = 0; s < kCharacterSlots; ++s) {
    const std::uint32_t v = word(cd, 8 + 4ull * s);
    if (v == 0xFFFFFFFFu) {
      ++ch.default_slots;  // filled from the resource manager's defaults
      continue;
    }
    ch.slot_index[s] = static_cast<std::uint32_t>(std::lower_bound(order.begin(), order.end(), v) - order.begin());
  }
  (void)ctx.stacks().pop_chunk(0x08);
  (void)ctx.stacks().pop_chunk(0x45);
  // In increasing n, each distinct index takes the next object popped: n = smallest gets the top.
  for (std::size_t k = 0; k < order.size(); ++k) ch.clips.push_back(std::get<Animation>(*ctx.stacks().pop_object("animation")));
  ctx.stacks().push_object(std::move(ch));
  return {};
}

// ---- 0x16 World Header (0x004124f8): pops 0x16, 0x42, 0x0B ----
Result<void> on_world_header(LoadContext& ctx) {
  ASSAY_CHECK(ctx.stacks().expect_chunks({0x16, 0x42, 0x0B}));
  (void)ctx.stacks().pop_chunk(0x16);
  WorldObject w;
  w.sectors = std::get<WorldValue>(ctx.stacks().pop_chunk(0x42)->value);
  w.textures = std::get<TexDictValue>(ctx.stacks().pop_chunk(0x0B)->value);
  ctx.stacks().push_object(std::move(w));
  return {};
}

// Typed values of result chunks (a raw chunk pushed under a result type by hand has none).
template <class T>
Result<void> expect_value(LoadContext& ctx, std::size_t k) {
  const StackChunk& c = top(ctx, k);
  if (!std::holds_alternative<T>(c.value))
    return model_error(c.offset, fmt::format("chunk stack entry 0x{:02X} at 0x{:x} is raw bytes, not a reader's result", c.type, c.offset));
  return {};
}

// ---- 0x17 Level Header (0x0040ce30, registered by 0x0040cf18; spec: #wr-6-2) ----
Result<void> on_level_header(LoadContext& ctx) {
  ASSAY_CHECK(ctx.stacks().expect_chunks({0x17}));
  ASSAY_CHECK(ctx.stacks().expect_objects(1, "collision_mesh"));
  // After the 0x17 chunk and the object: 0x42, 0x0B, then three (0x41, 0x0B) pairs, then 0x53.
  ASSAY_CHECK(ctx.stacks().expect_chunks({0x17, 0x42, 0x0B, 0x41, 0x0B, 0x41, 0x0B, 0x41, 0x0B, 0x53}));
  ASSAY_CHECK(fixed_size(ctx, top(ctx), 48));
  ASSAY_CHECK(expect_value<WorldValue>(ctx, 1));
  for (std::size_t k : {2u, 4u, 6u, 8u}) ASSAY_CHECK(expect_value<TexDictValue>(ctx, k));
  for (std::size_t k : {3u, 5u, 7u}) ASSAY_CHECK(expect_value<ClumpValue>(ctx, k));
  const StackChunk& occ = top(ctx, 9);
  ASSAY_TRY(std::uint64_t occluders, counted(ctx, occ, 0, 16, 0x70, true, "Occluders"));
  Level lv;
  (void)ctx.stacks().pop_chunk(0x17);  // the level is built in place on it (0x0040cf40)
  lv.mesh = std::get<CollisionMesh>(*ctx.stacks().pop_object("collision_mesh"));
  auto pop_value = [&](std::uint32_t t, auto& out) {
    out = std::get<std::decay_t<decltype(out)>>(ctx.stacks().pop_chunk(t)->value);
  };
  pop_value(0x42, lv.world);
  pop_value(0x0B, lv.glow_textures);
  pop_value(0x41, lv.cloud_box);
  pop_value(0x0B, lv.cloud_textures);
  pop_value(0x41, lv.sky_box);
  pop_value(0x0B, lv.sky_textures);
  pop_value(0x41, lv.skyline);
  pop_value(0x0B, lv.skyline_textures);
  (void)ctx.stacks().pop_chunk(0x53);
  lv.occluders = static_cast<std::uint32_t>(occluders);
  ctx.stacks().push_object(std::move(lv));
  return {};
}

// ---- 0x24 Game Object List (0x0039ae48): pops 0x24, 0x23, 0x22 ----
Result<void> on_game_object_list(LoadContext& ctx) {
  ASSAY_CHECK(ctx.stacks().expect_chunks({0x24, 0x23, 0x22}));
  GameObjectList g;
  g.list_bytes = static_cast<std::uint32_t>(ctx.stacks().pop_chunk(0x24)->data.size());
  g.definition_bytes = static_cast<std::uint32_t>(ctx.stacks().pop_chunk(0x23)->data.size());
  g.instance_bytes = static_cast<std::uint32_t>(ctx.stacks().pop_chunk(0x22)->data.size());
  ctx.stacks().push_object(std::move(g));
  return {};
}

// ---- single-pop models that store into a manager (spec: #wr-4-1, #wr-6-1 counted arrays) ----
struct CountedLayout {
  std::uint32_t type;
  const char* slot;
  std::uint64_t count_at, first, record;  // record 0 = no count
  bool exact_align;
};

constexpr CountedLayout kStoring[] = {
    {0x29, "audio.static_sounds", 0, 4, 16, false},              // 0x0010f320, stored at 0x0059867c
    {0x31, "audio.music", 0, 4, 104, false},                     // 0x0010f360, stored at 0x00598680
    {0x44, "resource_manager.character_list", 0, 0x10, 32, false},  // 0x00178098, +0x80/+0x84/+0x88
    {0x46, "resource_manager.object_list", 0, 0x10, 36, false},  // 0x00181170, +0x8c/+0x90/+0x94
    {0x48, "audio.sound_commands", 0, 0, 0, false},              // 0x0010f3a0, 246 x 5 bytes, no count
    {0x49, "audio.sound_materials", 0, 0x10, 16, false},         // 0x0010f3d8, stored at 0x00598688
    {0x4A, "audio.sound_anim", 0, 0, 0, false},                  // 0x0010f410, stored at 0x0059868c
    {0x4B, "light_manager.light_glows", 0, 0x10, 40, false},     // 0x0017e490, 40-byte records
    {0x4D, "resource_manager.particle_page_header", 0, 4, 8, false},  // 0x00182820, +0x9040/+0x9048/+0x9044
    {0x4E, "resource_manager.anim_list", 0, 4, 8, false},        // 0x00178ee8, +0x98/+0x9c/+0xa0
    {0x4F, "resource_manager.dependency_list", 0, 0x10, 12, false},  // 0x00178b30, +0xa4..+0xb0
};

Result<void> on_storing(LoadContext& ctx, const CountedLayout& l) {
  ASSAY_CHECK(ctx.stacks().expect_chunks({l.type}));
  const StackChunk& c = top(ctx);
  StoredItem s = stored(c, l.slot);
  if (l.record != 0) {
    ASSAY_TRY(std::uint64_t n, counted(ctx, c, l.count_at, l.first, l.record, l.exact_align, chunk_type_name(l.type)));
    s.fields.emplace_back("count", n);
    if (l.type == 0x4F) {  // then loads the dependencies of crc32("always") (0x00178bc8)
      std::uint64_t always = 0;
      const std::uint32_t h = crc32(std::string_view("always"));
      for (std::uint64_t k = 0; k < n; ++k) always += word(c, 0x10 + 12 * k) == h;
      s.fields.emplace_back("always_dependencies", always);
    }
  }
  (void)ctx.stacks().pop_chunk(l.type);
  ctx.store(std::move(s));
  return {};
}

// ---- 0x40 PathData (0x0024e720): pops 0x40, fixes up in place, stored in globals ----
Result<void> on_path_data(LoadContext& ctx) {
  ASSAY_CHECK(ctx.stacks().expect_chunks({0x40}));
  const StackChunk& c = top(ctx);
  if (c.data.size() < 0x20) return model_error(c.offset, fmt::format("PathData: {} bytes hold no 0x20-byte header", c.data.size()));
  const std::uint64_t P = word(c, 0), V = word(c, 4), C = static_cast<std::uint16_t>(half(c, 8)),
                      A = static_cast<std::uint16_t>(half(c, 0x0A)), D = word(c, 0x0C);
  // spec: #wr-6-5: parts in order; their sum must fit (V12 is a warning; overrunning is an error).
  const std::uint64_t need = 0x20 + 16 * A + 16 * V + 0x50 * P + 32 * C + 8 * D;
  if (P > 0xFFFFFFFFull || need > c.data.size())
    return model_error(c.offset, fmt::format("PathData: counts P {} V {} C {} A {} D {} need {} bytes, chunk has {}", P, V, C, A, D,
                                             need, c.data.size()));
  // Count rules (V12): the paths' vertex counts sum to V; the C records' D counts sum to D.
  const std::uint64_t paths_at = 0x20 + 16 * A + 16 * V, nodes_at = paths_at + 0x50 * P;
  std::uint64_t vsum = 0, dsum = 0;
  for (std::uint64_t p = 0; p < P; ++p) vsum += static_cast<std::uint16_t>(half(c, paths_at + 0x50 * p));
  for (std::uint64_t n = 0; n < C; ++n) dsum += static_cast<std::uint16_t>(half(c, nodes_at + 32 * n + 0x14));
  if (vsum != V) ctx.warn(fmt::format("V12: the paths' vertex counts sum to {}, header says {}", vsum, V), c.offset);
  if (dsum != D) ctx.warn(fmt::format("V12: the nodes' edge counts sum to {}, header says {}", dsum, D), c.offset);
  StoredItem s = stored(c, "globals.path_data");
  s.fields = {{"paths", P}, {"vertices", V}, {"nodes", C}, {"areas", A}, {"edges", D}};
  (void)ctx.stacks().pop_chunk(0x40);
  ctx.store(std::move(s));
  return {};
}

// ---- 0x43 Scene List (0x00353460): copies count 24-byte records (count = word 0) ----
Result<void> on_scene_list(LoadContext& ctx) {
  ASSAY_CHECK(ctx.stacks().expect_chunks({0x43}));
  const StackChunk& c = top(ctx);
  ASSAY_TRY(std::uint64_t n, counted(ctx, c, 0, 4, 24, true, "Scene List"));  // V11
  StoredItem s = stored(c, "scene_manager.scene_list");
  s.fields.emplace_back("count", n);
  (void)ctx.stacks().pop_chunk(0x43);
  ctx.store(std::move(s));
  return {};
}

// ---- 0x4C Particle Page (0x00181b20): pops 0x4C, 0x0B; pushes the page back as 0x4C ----
Result<void> on_particle_page(LoadContext& ctx) {
  ASSAY_CHECK(ctx.stacks().expect_chunks({0x4C, 0x0B}));
  ASSAY_CHECK(expect_value<TexDictValue>(ctx, 1));
  const StackChunk& c = top(ctx);
  ASSAY_TRY(std::uint64_t n, counted(ctx, c, 4, 0x14, 16, true, "Particle Page"));  // V11
  SpritePage page;
  page.rects = static_cast<std::uint32_t>(n);
  page.first_glyph = static_cast<std::int32_t>(word(c, 8));
  for (std::uint64_t r = 0; r < n; ++r) {
    const std::uint64_t at = 0x14 + 16 * r;  // inside the chunk: counted() checked n records
    const float f[4] = {real(c, at), real(c, at + 4), real(c, at + 8), real(c, at + 12)};
    if (!(f[2] >= f[0] && f[3] >= f[1])) {
      ctx.warn(fmt::format("rectangle {} has u1 < u0 or v1 < v0", r), c.offset + 0x14 + 16 * r);
      break;
    }
  }
  StackChunk back = *ctx.stacks().pop_chunk(0x4C);
  page.dictionary = std::get<TexDictValue>(ctx.stacks().pop_chunk(0x0B)->value);
  back.value = page;
  ctx.stacks().push_chunk(std::move(back));
  return {};
}

// ---- 0x51 Subtitles (0x001cab90): stored at 0x0050ea74 (spec: #wr-6-7) ----
std::string latin1_to_utf8(std::string_view s) {
  std::string o;
  for (unsigned char ch : s) {
    if (ch < 0x80) o += static_cast<char>(ch);
    else o += static_cast<char>(0xC0 | (ch >> 6)), o += static_cast<char>(0x80 | (ch & 0x3F));
  }
  return o;
}

Result<void> on_subtitles(LoadContext& ctx) {
  ASSAY_CHECK(ctx.stacks().expect_chunks({0x51}));
  const StackChunk& c = top(ctx);
  if (c.data.size() < 2) return model_error(c.offset, "Subtitles: no u16 length");
  const std::uint64_t length = half(c, 0);
  if (length > c.data.size())
    return model_error(c.offset, fmt::format("Subtitles: length {} is past the chunk's {} bytes", length, c.data.size()));
  StoredItem s = stored(c, "globals.subtitles");
  std::uint64_t pos = 2, records = 0, sections = 0;
  while (pos + 1 < length) {  // a record starts before length - 1
    if (pos + 4 > length) return model_error(c.offset + pos, "Subtitles: record kind runs past the length");
    const std::uint32_t kind = word(c, pos);
    const auto* text = reinterpret_cast<const char*>(c.data.data() + pos + 4);
    const std::size_t max = length - pos - 4;
    const std::size_t n = strnlen(text, max);
    if (n == max) return model_error(c.offset + pos, "Subtitles: string has no NUL before the length");
    if (kind == 0) ++sections;
    if (kind <= 1) s.strings.push_back(latin1_to_utf8(std::string_view(text, n)));
    ++records;
    pos += 4 + n + 1;
  }
  s.fields = {{"length", length}, {"records", records}, {"languages", sections}};
  (void)ctx.stacks().pop_chunk(0x51);
  ctx.store(std::move(s));
  return {};
}

Result<void> on_empty(LoadContext&) { return {}; }  // string tables, Scene Data: stay on the stack

}  // namespace

void install_static_handlers(HandlerTable& t) {
  for (std::uint32_t type : {0x0Eu, 0x14u, 0x30u}) (void)t.set_handlers(type, retag, nullptr);  // 0x00144370
  for (std::uint32_t type : {0x09u, 0x25u, 0x47u}) (void)t.set_handlers(type, nullptr, read_dff);
  (void)t.set_handlers(0x0B, nullptr, [](LoadContext& c, const ChunkHeader& h, ChunkWindow& w) { return read_tid(c, h, w, false); });
  (void)t.set_handlers(0x2A, nullptr, [](LoadContext& c, const ChunkHeader& h, ChunkWindow& w) { return read_tid(c, h, w, true); });
  (void)t.set_handlers(0x15, nullptr, read_sector);
  (void)t.set_handlers(0x03, on_collision_mesh, nullptr);
  (void)t.set_handlers(0x08, on_character_data, nullptr);
  for (std::uint32_t type : {0x0Fu, 0x10u, 0x11u, 0x12u, 0x13u, 0x38u}) (void)t.set_handlers(type, on_empty, nullptr);
  (void)t.set_handlers(0x16, on_world_header, nullptr);
  (void)t.set_handlers(0x24, on_game_object_list, nullptr);
  (void)t.set_handlers(0x40, on_path_data, nullptr);
  (void)t.set_handlers(0x43, on_scene_list, nullptr);
  (void)t.set_handlers(0x4C, on_particle_page, nullptr);
  (void)t.set_handlers(0x51, on_subtitles, nullptr);
  for (const CountedLayout& l : kStoring)
    (void)t.set_handlers(l.type, [&l](LoadContext& c) { return on_storing(c, l); }, nullptr);
}

void install_runtime_handlers(HandlerTable& t) {
  (void)t.set_handlers(0x02, on_anim_data, nullptr);     // 0x00104818, boot step 15
  (void)t.set_handlers(0x17, on_level_header, nullptr);  // 0x0040cf18, boot step 9
}

}  // namespace assay::warriors
