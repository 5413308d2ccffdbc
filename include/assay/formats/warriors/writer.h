// Writers: chunk containers (resources and packs), DIR/WAD, and the repack of an existing disc.
// spec: warriors.md#wr-3-6 (containers), #wr-2-1 (DIR), #wr-2-6 (repack).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/core/progress.h"
#include "assay/formats/warriors/disc.h"

namespace assay::warriors {

struct ChunkSpec {
  std::uint32_t type = 0;
  std::uint32_t id = 0;
  ByteBuffer data;           // zero-padded to 16 by the writer (C4)
  std::uint32_t zero = 0;    // the third word; 0 for exact output
};

// {count, sum of sizes, 0, nameHash} then the chunks. Fails for type >= 0x54.
Result<ByteBuffer> write_resource(std::uint32_t name_hash, const std::vector<ChunkSpec>& chunks);
// {count, size - 16, 0, marker} then the resources (each an exact resource). Re-checks C1-C8.
Result<ByteBuffer> write_pack(const std::vector<ByteBuffer>& resources);

struct DiscEntrySpec {
  std::uint32_t hash = 0;
  ByteBuffer data;
};
struct DiscImage {
  ByteBuffer dir, wad;
};
// Entries in order, each on a 2,048-byte boundary, zero padding; WAD ends on a boundary.
DiscImage write_disc(const std::vector<DiscEntrySpec>& entries);

// Streams a DIR/WAD pair to files without holding the WAD: `produce(i, out)` fills entry i.
struct StreamedDiscEntry {
  std::uint32_t hash = 0;
  std::uint32_t size = 0;
};
Result<void> write_disc_files(const std::filesystem::path& dir_path, const std::filesystem::path& wad_path,
                              const std::vector<StreamedDiscEntry>& entries,
                              const std::function<void(std::uint32_t index, ByteBuffer& out)>& produce,
                              bool force);

// spec: warriors.md#wr-2-6. Keeps the original's row order and hashes; entries listed in
// `replacements` (hash -> file) get the file's bytes; later entries shift by whole sectors.
// Unchanged input gives byte-identical files. Writes OUTDIR/WARRIORS.DIR and WARRIORS.WAD.
// `progress` gets the original WAD's bytes as each slot is copied or replaced (they add up to
// its size), with the replacement file's name or the entry's "<hash>.bin".
struct RepackStats {
  std::uint32_t replaced = 0;
  std::uint64_t wad_size = 0;
};
Result<RepackStats> repack(const Disc& original, const std::map<std::uint32_t, std::filesystem::path>& replacements,
                           const std::filesystem::path& out_dir, bool force, const ProgressFn& progress = {});
// The replacement files of FILES_DIR: "<name>" (hashed) or "<8 hex digits>.bin". Fails for a
// file that matches no row of `original`.
Result<std::map<std::uint32_t, std::filesystem::path>> collect_replacements(const Disc& original,
                                                                            const std::filesystem::path& files_dir);

// RenderWare section helpers used by tests, samples and benches: a minimal valid stream.
ByteBuffer rw_section(std::uint32_t id, ByteView body, std::uint32_t stamp = 0x1C02000A);
ByteBuffer rw_texture_dictionary(std::uint16_t textures = 0);  // textures > 0: empty natives
ByteBuffer rw_clump(std::uint32_t atomics);
ByteBuffer rw_world();

}  // namespace assay::warriors
