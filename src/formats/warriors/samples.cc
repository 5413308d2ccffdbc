// Synthetic containers and discs built by assay's own writers, and the demo files of make-samples.
// spec: warriors.md#wr-6-3 (level), #wr-6-4 (collision), #wr-6-5 (PathData), #wr-6-7, #wr-9, #wr-8-1.
#include "assay/formats/warriors/samples.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string_view>
#include <system_error>

#include "assay/core/hash.h"
#include "assay/core/output.h"
#include "assay/formats/warriors/chunks.h"
#include "family_parts.h"

namespace assay::warriors::samples {

namespace {

ByteBuffer words(std::initializer_list<std::uint32_t> v, std::size_t total = 0) {
  ByteWriter w;
  for (auto x : v) w.u32(x);
  ByteBuffer b = w.take();
  if (b.size() < total) b.resize(total, 0);
  return b;
}

ChunkSpec chunk(std::uint32_t type, ByteBuffer data, std::uint32_t id = 0) { return {type, id, std::move(data), 0}; }

ByteBuffer must(Result<ByteBuffer> r) { return r ? std::move(*r) : ByteBuffer{}; }

void put32(ByteBuffer& b, std::size_t at, std::uint32_t v) { store<std::uint32_t>(b.data() + at, v, Endian::little); }
void put16(ByteBuffer& b, std::size_t at, std::uint16_t v) { store<std::uint16_t>(b.data() + at, v, Endian::little); }
void putf(ByteBuffer& b, std::size_t at, float f) { put32(b, at, std::bit_cast<std::uint32_t>(f)); }
// Text into a buffer we sized ourselves (the writer side: no untrusted bytes).
void puts_at(ByteBuffer& b, std::size_t at, std::string_view s) { std::copy(s.begin(), s.end(), b.begin() + static_cast<std::ptrdiff_t>(at)); }

}  // namespace

std::vector<ChunkSpec> animation_chunks(std::string_view clip_name, std::uint32_t keyframe_bytes) {
  ByteBuffer desc(80, 0);
  put32(desc, 0, 0x0045de40);  // build-time placeholder (spec: #wr-4-1)
  putf(desc, 0x0C, 1.5f);
  put16(desc, 0x18, 2);
  puts_at(desc, 0x25, clip_name.substr(0, 29));
  const std::uint32_t id = crc32(std::string(clip_name) + ".anm.b.cnk");
  return {chunk(0x00, ByteBuffer(keyframe_bytes, 0x11), id), chunk(0x02, desc, id)};
}

ByteBuffer animation(std::string_view clip_name, std::uint32_t keyframe_bytes) {
  return must(write_resource(crc32(std::string(clip_name) + ".anm"), animation_chunks(clip_name, keyframe_bytes)));
}

std::vector<ChunkSpec> level_chunks() {
  std::vector<ChunkSpec> c;
  ByteBuffer occ = words({1}, 16 + 0x70);  // 1 occluder: align16(16 + 0x70) = 128
  c.push_back(chunk(0x53, occ));
  for (int k = 0; k < 3; ++k) {
    c.push_back(chunk(0x2A, rw_texture_dictionary(0)));
    c.push_back(chunk(0x47, rw_clump(1)));
  }
  c.push_back(chunk(0x2A, rw_texture_dictionary(0)));  // glow textures
  c.push_back(chunk(0x15, rw_world()));
  c.push_back(chunk(0x40, words({0, 0, 0, 0}, 48)));   // PathData: empty graph, align16(0x20 + 4)
  c.push_back(chunk(0x52, ByteBuffer(16, 0)));         // bitset for 1 triangle
  ByteBuffer verts(48, 0);                             // 3 vertices, w = 1.0
  for (int v = 0; v < 3; ++v) putf(verts, 16 * v + 12, 1.0f), putf(verts, 16 * v, static_cast<float>(v));
  c.push_back(chunk(0x07, verts));
  ByteBuffer tris(16, 0);                              // 1 triangle {0, 1, 2}
  put16(tris, 0, 0), put16(tris, 2, 1), put16(tris, 4, 2);
  c.push_back(chunk(0x04, tris));
  c.push_back(chunk(0x05, words({1}, 16)));            // 1 cell -> list at u16 offset 1
  ByteBuffer lists(16, 0);                             // {0, count 1, triangle 0}
  put16(lists, 2, 1);
  c.push_back(chunk(0x06, lists));
  ByteBuffer mesh(160, 0);
  put32(mesh, 0, 0x00421620);
  put16(mesh, 0x70, 1), put16(mesh, 0x72, 1), put16(mesh, 0x74, 1);
  put32(mesh, 0x7c, 3);
  put16(mesh, 0x84, 1);
  put32(mesh, 0x90, 3);
  c.push_back(chunk(0x03, mesh));
  c.push_back(chunk(0x17, words({0x00409070}, 48)));
  ByteWriter sub;  // u16 length, then {u32 kind, text\0}
  sub.u16(0);
  for (auto [kind, text] : {std::pair<std::uint32_t, const char*>{0, "ENGLISH"}, {1, "l1_in_sub"}, {3, "Hello."}}) {
    sub.u32(kind);
    sub.cstr(text);
  }
  ByteBuffer s = sub.take();
  put16(s, 0, static_cast<std::uint16_t>(s.size()));
  c.push_back(chunk(0x51, s));
  for (std::size_t i = 0; i < c.size(); ++i) c[i].id = 0x1000 + static_cast<std::uint32_t>(i);
  return c;
}

ByteBuffer level() { return must(write_resource(crc32(std::string_view("level1")), level_chunks())); }

std::vector<ChunkSpec> character_chunks(std::uint32_t clips, const std::vector<std::uint32_t>& slot_values) {
  std::vector<ChunkSpec> c;
  for (std::uint32_t k = 0; k < clips; ++k) {
    auto a = animation_chunks("clip" + std::to_string(k));
    c.insert(c.end(), a.begin(), a.end());
  }
  c.push_back(chunk(0x45, words({kCharacterSlots}, 11568)));
  ByteBuffer cd(2912, 0xFF);
  put32(cd, 0, 0x00436b10), put32(cd, 4, 0);
  for (std::size_t s = 0; s < slot_values.size() && s < kCharacterSlots; ++s) put32(cd, 8 + 4 * s, slot_values[s]);
  std::memset(cd.data() + 8 + 4 * kCharacterSlots, 0, cd.size() - 8 - 4 * kCharacterSlots);
  c.push_back(chunk(0x08, cd));
  return c;
}

std::vector<ChunkSpec> global_chunks() {
  ByteBuffer deps = words({2}, 16 + 24);
  put32(deps, 0x10, crc32(std::string_view("always")));
  put32(deps, 0x1C, 0x12345678);
  return {chunk(0x29, words({1}, 4 + 16)),  chunk(0x31, words({1}, 4 + 104)), chunk(0x48, ByteBuffer(1232, 0)),
          chunk(0x49, words({1}, 16 + 16)), chunk(0x44, words({1}, 16 + 32)),  chunk(0x46, words({1}, 16 + 36)),
          chunk(0x4D, words({1}, 4 + 8)),   chunk(0x4E, words({1}, 4 + 8)),    chunk(0x4F, deps)};
}

ByteBuffer model(std::uint32_t atomics) {
  const std::uint32_t h = crc32(std::string_view("model")) + atomics;
  return must(write_resource(h, {chunk(0x47, rw_clump(atomics), h)}));
}

ByteBuffer texture_dictionary_resource() {
  const std::uint32_t h = crc32(std::string_view("gang_tex"));
  return must(write_resource(h, {chunk(0x2A, rw_texture_dictionary(0), h)}));
}

ByteBuffer sprite_sheet() {
  ByteBuffer page = words({0x00421798, 1, 0xFFFFFFFFu, 0, 0}, 0x14 + 16);
  putf(page, 0x14 + 8, 1.0f), putf(page, 0x14 + 12, 1.0f);
  return must(write_resource(crc32(std::string_view("font")), {chunk(0x2A, rw_texture_dictionary(0)), chunk(0x4C, page)}));
}

ByteBuffer scene_list(std::uint32_t records) {
  ByteBuffer b = words({records}, 4 + 24 * records);
  for (std::uint32_t r = 0; r < records; ++r) {
    put32(b, 4 + 24 * r, r);
    put32(b, 8 + 24 * r, 100 + r);
    puts_at(b, 12 + 24 * r, "scene");
  }
  return must(write_resource(crc32(std::string_view("scene_list")), {chunk(0x43, b)}));
}

ByteBuffer pack() {
  return must(write_pack({model(1), texture_dictionary_resource(), animation("run")}));
}

ByteBuffer world_part(std::string_view own_name, std::uint32_t atomics) {
  ByteWriter w;
  w.u32(1), w.u32(0), w.u32(0), w.u32(crc32(own_name));
  w.bytes(rw_texture_dictionary(0));
  w.u32(atomics);
  for (std::uint32_t i = 0; i < atomics; ++i) {
    w.u32(i);
    ByteBuffer a = rw_section(0x14, rw_section(1, words({0, 0, 5, 0})));
    w.bytes(a);
  }
  return w.take();
}

ByteBuffer world_stream(std::uint32_t parts) {
  ByteWriter w;
  w.u32(parts);
  w.bytes(rw_texture_dictionary(0));
  w.bytes(rw_world());
  return w.take();
}

ByteBuffer world_manifest(std::uint32_t world_size, const std::vector<std::uint32_t>& part_sizes) {
  ByteWriter w;
  w.u32(world_size), w.u32(world_size + world_size / 2), w.u32(static_cast<std::uint32_t>(part_sizes.size()));
  for (auto s : part_sizes) w.u32(s), w.u32(s + s / 4);
  return w.take();
}

std::vector<SampleEntry> disc_entries() {
  std::vector<SampleEntry> e;
  auto add = [&](std::string name, EntryKind k, ByteBuffer d) { e.push_back({std::move(name), k, std::move(d)}); };
  add("model_a.bin", EntryKind::resource, model(1));
  add("model_b.bin", EntryKind::resource, model(3));
  add("gang_tex.bin", EntryKind::resource, texture_dictionary_resource());
  add("walk.anm", EntryKind::resource, animation("walk"));
  add("font.bin", EntryKind::resource, sprite_sheet());
  add("level1.lev", EntryKind::resource, level());
  add("warriors.glr", EntryKind::resource, must(write_resource(crc32(std::string_view("warriors")), global_chunks())));
  add("scene_list.cnk", EntryKind::resource, scene_list());
  add("swan.bin", EntryKind::resource,
      must(write_resource(crc32(std::string_view("swan")), character_chunks(2, {0, 1}))));
  add("global.pak", EntryKind::pack, pack());
  const ByteBuffer wld = world_stream(1);
  const ByteBuffer part = world_part("level1s_ms1.sec");
  add("level1s_sec.wld", EntryKind::world_stream, wld);
  add("level1s_sec.mem", EntryKind::world_manifest,
      world_manifest(static_cast<std::uint32_t>(wld.size()), {static_cast<std::uint32_t>(part.size())}));
  add("level1s_ms1.sec", EntryKind::world_part, part);
  ByteBuffer old = rw_section(0x16, words({0}), 0x1803FFFF);
  old.resize(40, 0x5A);
  add("old_stream.bin", EntryKind::old_renderware, old);
  ByteBuffer lua = {0x1B, 0x4C, 0x75, 0x61, 0x40, 0x01, 0x04, 0x04, 0x04, 0x20, 0x06, 0x09, 0x08};
  lua.resize(61, 0x33);
  add("global.lua", EntryKind::lua, lua);
  ByteBuffer scn = words({0, 0}, 72);
  puts_at(scn, 8, std::string_view("l1_intro\0", 9));
  put32(scn, 0, static_cast<std::uint32_t>(scn.size()));
  add("l1_intro.scn", EntryKind::scene_record, scn);
  add("bank1.msd", EntryKind::sound_bank_index, words({0x1111, 0, 0x2222, 0x800, 0, 0}, 40));
  ByteBuffer metrics(50, 7);
  puts_at(metrics, 0, "METRICS1");
  add("font.met", EntryKind::font_metrics, metrics);
  ByteBuffer ico = {0, 0, 1, 0, 1, 0, 0x20, 0x20};
  ico.resize(45, 0x44);
  add("icon.ico", EntryKind::icon, ico);
  ByteBuffer bmp(70, 0);
  bmp[0] = 'B', bmp[1] = 'M';
  put32(bmp, 2, 70);
  bmp[69] = 0xF0;
  add("title.bmp", EntryKind::bitmap, bmp);
  const std::string text = "2\r\nlamp_post\r\nbench\r\n";
  add("level1_objs.txt", EntryKind::text, ByteBuffer(text.begin(), text.end()));
  ByteBuffer adpcm(64, 0x21);
  for (int f = 0; f < 4; ++f) adpcm[16 * f] = 0x12, adpcm[16 * f + 1] = f == 3 ? 1 : 2;
  add("bank1.msb", EntryKind::sound_bank, adpcm);
  ByteBuffer other(33, 0xEE);
  add("mystery.dat", EntryKind::other, other);
  return e;
}

DiscImage disc(const std::vector<SampleEntry>& entries) {
  std::vector<DiscEntrySpec> specs;
  for (const auto& e : entries) specs.push_back({name_hash(e.name), e.data});
  return write_disc(specs);
}

}  // namespace assay::warriors::samples

namespace assay::warriors {

Result<std::vector<std::string>> write_sample_files(const std::filesystem::path& dir) {
  const DiscImage d = samples::disc(samples::disc_entries());
  std::error_code ec;
  std::filesystem::create_directories(dir / "warriors", ec);
  if (ec) return io_error((dir / "warriors").string(), ec.message());
  ASSAY_CHECK(write_file_atomic(dir / "warriors" / "WARRIORS.DIR", d.dir, true));
  ASSAY_CHECK(write_file_atomic(dir / "warriors" / "WARRIORS.WAD", d.wad, true));
  ASSAY_CHECK(write_file_atomic(dir / "warriors_level1.lev", samples::level(), true));
  return std::vector<std::string>{"warriors/WARRIORS.DIR", "warriors/WARRIORS.WAD", "warriors_level1.lev"};
}

}  // namespace assay::warriors
