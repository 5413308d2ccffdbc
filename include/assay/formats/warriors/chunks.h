// The chunk system: the 84-type table, the per-load handler table and stacks, the flat and grouped
// loaders, and the typed objects the onLoaded models build.
// spec: warriors.md#wr-3 (layout), #wr-4 (types, stacks), #wr-5 (loaders), #wr-6 (fix-ups),
// #wr-7 (RenderWare readers). Seed 000_6c544a494bb768a7 (Coney's chunk-system page) is the
// primary source; addresses below are SLUS_212.15 virtual addresses from it.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/core/diag.h"

namespace assay::warriors {

inline constexpr std::uint32_t kChunkTypeCount = 0x54;     // record 0x54 is the terminator
inline constexpr std::uint32_t kPackageMarker = 0xDE686795;  // crc32("package")
inline constexpr std::uint32_t kCharacterSlots = 0x2d2;      // 722
inline constexpr std::size_t kChunkStackCapacity = 2048;     // original's arrays (inferred)
inline constexpr std::size_t kObjectStackCapacity = 1024;

// spec: warriors.md#wr-4-1 (table at 0x0050b2e0). "" for type >= 0x54.
std::string_view chunk_type_name(std::uint32_t type);
// Types that occur on the NTSC-U disc (29 of them); others give warning V5.
bool chunk_type_on_disc(std::uint32_t type);

// 16-byte headers. spec: warriors.md#wr-3-1, #wr-3-2
struct ContainerHeader {
  std::uint32_t count = 0, size = 0, zero = 0, id = 0;  // id = nameHash, or the pack marker
};
struct ChunkHeader {
  std::uint32_t type = 0, size = 0, zero = 0, id = 0;
};
using GroupHeader = ContainerHeader;  // {chunkCount, dataSize, 0, resourceId}

// ---- Results of the RenderWare readers (pushed on the chunk stack) ----
struct RwSection {
  std::uint32_t id = 0, size = 0, stamp = 0;
  std::uint64_t offset = 0;  // in the entry
};
struct ClumpValue {     // 0x09/0x25/0x47 -> 0x50 / 0x41 (spec: warriors.md#wr-7-1)
  RwSection section;
  std::uint32_t atomics = 0;
};
struct TexDictValue {   // 0x0B/0x2A -> 0x0B (spec: warriors.md#wr-7-2)
  RwSection section;
  std::uint32_t textures = 0;
};
struct WorldValue {     // 0x15 -> 0x42 (spec: warriors.md#wr-7-3)
  RwSection section;
};
struct SpritePage {     // 0x4C linked with the 0x0B before it (spec: warriors.md#wr-6-6)
  std::uint32_t rects = 0;
  std::int32_t first_glyph = -1;
  TexDictValue dictionary;
};
using ChunkValue = std::variant<std::monostate, ClumpValue, TexDictValue, WorldValue, SpritePage>;

struct StackChunk {
  std::uint32_t type = 0;
  std::uint32_t id = 0;         // the header's fourth word
  std::uint64_t offset = 0;     // of the chunk's data in the entry
  ByteView data;                // raw bytes (a view into the entry; empty for size 0)
  ChunkValue value;             // monostate = raw
};

// ---- Objects built by the onLoaded models (assay's own; no vtables, spec: #wr-4-3) ----
struct Animation {              // 0x02 (0x001045e0)
  std::string name;             // +0x25, char[30]
  float duration = 0;           // +0x0C
  std::uint16_t channels = 0, events = 0;
  std::uint64_t offset = 0;     // descriptor chunk offset
  std::uint32_t keyframe_bytes = 0;  // size of the 0x00 chunk
};
struct CollisionMesh {          // 0x03 (0x00350580)
  std::uint16_t nx = 0, ny = 0, nz = 0;
  std::uint32_t triangles = 0, vertices = 0, index_values = 0;
  std::uint64_t offset = 0;
};
struct Character {              // 0x08 (0x0016e258)
  std::uint32_t anim_ranges = 0;         // 0x45 word 0
  std::vector<Animation> clips;          // clips[k] = object for the k-th smallest slot index
  std::vector<std::uint32_t> slot_index; // 722 slots: index into clips, or 0xFFFFFFFF = default
  std::uint32_t default_slots = 0;
  std::uint64_t offset = 0;
};
struct WorldObject {            // 0x16 (0x004124f8)
  WorldValue sectors;
  TexDictValue textures;
};
struct GameObjectList {         // 0x24 (0x0039ae48)
  std::uint32_t list_bytes = 0, definition_bytes = 0, instance_bytes = 0;
};
struct Level {                  // 0x17 (0x0040ce30)
  CollisionMesh mesh;           // +0x04
  WorldValue world;             // +0x0c
  TexDictValue glow_textures;   // +0x08
  ClumpValue cloud_box, sky_box, skyline;        // +0x24, +0x1c, +0x14
  TexDictValue cloud_textures, sky_textures, skyline_textures;  // +0x20, +0x18, +0x10
  std::uint32_t occluders = 0;  // +0x28
};
using Object = std::variant<Animation, CollisionMesh, Character, WorldObject, GameObjectList, Level>;
std::string_view object_kind(const Object& o);  // "animation", "collision_mesh", ...

// What the original hands to a manager or a global (spec: #wr-4-1 "stores").
struct StoredItem {
  std::uint32_t type = 0;
  std::string slot;  // "audio.static_sounds", "resource_manager.anim_list", ...
  std::uint64_t offset = 0;
  std::uint32_t size = 0;
  std::vector<std::pair<std::string, std::uint64_t>> fields;  // counts the model checked
  std::vector<std::string> strings;  // subtitles: section and caption texts (Latin-1 -> UTF-8)
};

// ---- The two stacks of one load (spec: warriors.md#wr-4-3) ----
class ChunkStacks {
 public:
  [[nodiscard]] const std::vector<StackChunk>& chunks() const noexcept { return chunks_; }
  [[nodiscard]] const std::vector<Object>& objects() const noexcept { return objects_; }
  [[nodiscard]] std::optional<std::uint32_t> peek_chunk_type() const noexcept;  // none when empty
  void push_chunk(StackChunk c) { chunks_.push_back(std::move(c)); }
  void push_object(Object o) { objects_.push_back(std::move(o)); }
  // Checks, without popping, that the top chunks have these types (top first). 0x41 and 0x0A
  // match each other (spec: #wr-4-3, clump result).
  [[nodiscard]] Result<void> expect_chunks(std::initializer_list<std::uint32_t> top_down) const;
  // Checks that the top `n` objects are of kind `kind` (nullptr = any).
  [[nodiscard]] Result<void> expect_objects(std::size_t n, const char* kind) const;
  // Checked pops: fail (stack unchanged) when empty or of another type.
  Result<StackChunk> pop_chunk(std::uint32_t expected);
  Result<StackChunk> pop_any_chunk();
  Result<Object> pop_object(const char* kind);
  [[nodiscard]] std::size_t max_chunk_depth() const noexcept { return max_chunks_; }
  [[nodiscard]] std::size_t max_object_depth() const noexcept { return max_objects_; }
  void note_depth() noexcept;

 private:
  std::vector<StackChunk> chunks_;
  std::vector<Object> objects_;
  std::size_t max_chunks_ = 0, max_objects_ = 0;
};

// ---- Handler table (per load; spec: warriors.md#wr-4, seed ChunkSystem_SetHandlers 0x00144348) ----
class LoadContext;
// A readFromStream handler's view of exactly its chunk's bytes: reads past the end fail (V8).
class ChunkWindow {
 public:
  ChunkWindow(ByteView data, std::uint64_t base) : data_(data), base_(base) {}
  [[nodiscard]] Result<ByteView> read(std::uint64_t n, std::string_view what);
  [[nodiscard]] Result<std::uint32_t> u32(std::string_view what);
  [[nodiscard]] std::uint64_t consumed() const noexcept { return pos_; }
  [[nodiscard]] std::uint64_t remaining() const noexcept { return data_.size() - pos_; }
  [[nodiscard]] std::uint64_t base() const noexcept { return base_; }  // entry offset of byte 0
  [[nodiscard]] ByteView all() const noexcept { return data_; }
  [[nodiscard]] ByteView rest() const noexcept { return data_.subspan(pos_); }

 private:
  ByteView data_;
  std::uint64_t base_;
  std::uint64_t pos_ = 0;
};

using OnLoaded = std::function<Result<void>(LoadContext&)>;
using ReadFromStream = std::function<Result<void>(LoadContext&, const ChunkHeader&, ChunkWindow&)>;

struct HandlerRecord {
  OnLoaded on_loaded;          // null = none
  ReadFromStream read_from_stream;
};

class HandlerTable {
 public:
  // Every record empty: all 84 types raw.
  HandlerTable() = default;
  // The table as the executable holds it before boot (0x0050b2e0): retag, RenderWare readers and
  // the static onLoaded handlers; 0x02 and 0x17 are still raw.
  static HandlerTable original_static();
  // After boot: original_static() plus the two run-time registrations (spec: #wr-6-2).
  static HandlerTable standard();
  // spec: #wr-6-2. Fails for type >= 0x54.
  Result<void> set_handlers(std::uint32_t type, OnLoaded on_loaded, ReadFromStream read_from_stream);
  [[nodiscard]] const HandlerRecord& record(std::uint32_t type) const { return records_.at(type); }

 private:
  std::array<HandlerRecord, kChunkTypeCount> records_{};
};

// ---- Loading ----
enum class ContainerShape : std::uint8_t { automatic, flat, grouped };
std::string_view to_string(ContainerShape s);

struct ChunkRecord {
  std::uint32_t index = 0;      // in file order over the whole container
  std::int32_t group = -1;      // grouped: group index
  std::uint64_t offset = 0;     // of the chunk header in the entry
  ChunkHeader header;
  bool stream_read = false;     // a readFromStream handler read it
};

struct LoadOptions {
  ContainerShape shape = ContainerShape::automatic;
  // Grouped: return true to skip a group (the original's resource manager decision).
  std::function<bool(const GroupHeader&)> skip_group;
};

struct LoadResult {
  ContainerShape shape = ContainerShape::flat;
  ContainerHeader header;
  std::vector<ChunkRecord> chunks;
  std::vector<std::uint32_t> group_ids;  // grouped: resourceId per loaded group
  ChunkStacks stacks;
  std::vector<StoredItem> stored;
  std::uint64_t consumed = 0;   // bytes the loader read
  std::uint64_t trailing = 0;   // bytes left after the container
  bool ended_by_zero_group = false;
  std::optional<Error> error;   // the load failed here; stacks keep what was pushed before it
  Diagnostics diags;            // warnings (V4, V5, V7, V9-V17); errors found but not fatal
  [[nodiscard]] bool ok() const noexcept { return !error.has_value(); }
};

// The state a handler sees during one load.
class LoadContext {
 public:
  LoadContext(ByteView entry, LoadResult& result) : entry_(entry), result_(result) {}
  [[nodiscard]] ChunkStacks& stacks() noexcept { return result_.stacks; }
  [[nodiscard]] ByteView entry() const noexcept { return entry_; }
  void store(StoredItem s) { result_.stored.push_back(std::move(s)); }
  // An error for the chunk now being handled ("chunk 2 at 0x60, type 0x04 Collision Triangles: ...").
  [[nodiscard]] Error chunk_error(std::string message) const;
  void warn(std::string message, std::uint64_t offset = kNoOffset);
  void diag_error(std::string message, std::uint64_t offset = kNoOffset);
  // Set by the loader before each handler runs.
  std::uint32_t chunk_index = 0;
  std::uint64_t chunk_offset = 0;
  ChunkHeader header;

 private:
  ByteView entry_;
  LoadResult& result_;
};

// spec: warriors.md#wr-5-4 (and the original's 0x00144180 / 0x00144398).
LoadResult load_flat(ByteView entry, const HandlerTable& table, const LoadOptions& opt = {});
LoadResult load_grouped(ByteView entry, const HandlerTable& table, const LoadOptions& opt = {});
// spec: warriors.md#wr-5-3: grouped when word 3 is the marker; else flat; if flat fails, grouped.
LoadResult load_container(ByteView entry, const HandlerTable& table, const LoadOptions& opt = {});

// ---- Strict shape checks (spec: warriors.md#wr-3-3, C1-C8); headers only, no data read ----
struct ExactInfo {
  bool exact = false;
  std::string why;             // the first rule that failed
  std::uint32_t chunks = 0;    // resource: chunks; pack: groups
};
ExactInfo check_exact_resource(ByteView entry);  // C1, C3-C7
ExactInfo check_exact_pack(ByteView entry);      // C1-C8

}  // namespace assay::warriors
