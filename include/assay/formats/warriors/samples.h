// Synthetic containers and a synthetic disc built by assay's own writers, one entry of every
// kind (spec: warriors.md#wr-8-1, #wr-11-3, #wr-11-4). Used by tests, make-samples, fuzz
// corpora and benches.
#pragma once

#include <string>
#include <vector>

#include "assay/formats/warriors/classify.h"
#include "assay/formats/warriors/writer.h"

namespace assay::warriors::samples {

ByteBuffer animation(std::string_view clip_name = "walk", std::uint32_t keyframe_bytes = 32);
std::vector<ChunkSpec> animation_chunks(std::string_view clip_name, std::uint32_t keyframe_bytes = 32);
// The 18 chunks of spec #wr-6-3 in order (one triangle, three vertices, one occluder).
std::vector<ChunkSpec> level_chunks();
ByteBuffer level();
// Clips then 0x45 then 0x08 whose slots hold `slot_values` (rest 0xFFFFFFFF).
std::vector<ChunkSpec> character_chunks(std::uint32_t clips, const std::vector<std::uint32_t>& slot_values);
// One each of 0x29, 0x31, 0x48, 0x49, 0x44, 0x46, 0x4D, 0x4E, 0x4F (warriors.glr's shape).
std::vector<ChunkSpec> global_chunks();
ByteBuffer model(std::uint32_t atomics = 1);
ByteBuffer texture_dictionary_resource();
ByteBuffer sprite_sheet();
ByteBuffer scene_list(std::uint32_t records = 3);
ByteBuffer pack();  // a model, a dictionary and an animation
ByteBuffer world_part(std::string_view own_name, std::uint32_t atomics = 2);
ByteBuffer world_stream(std::uint32_t parts = 1);
ByteBuffer world_manifest(std::uint32_t world_size, const std::vector<std::uint32_t>& part_sizes);

struct SampleEntry {
  std::string name;  // basename; hashed with name_hash()
  EntryKind kind;
  ByteBuffer data;
};
// Every kind of spec #wr-8-1 at least once.
std::vector<SampleEntry> disc_entries();
DiscImage disc(const std::vector<SampleEntry>& entries);

}  // namespace assay::warriors::samples
