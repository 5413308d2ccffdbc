// Alchemy igArchive writer: builds a whole archive in memory from (name, bytes, compression)
// entries, for every version (4, 8, 0x0A-0x0D) and both byte orders.
// spec: alchemy.md#iga-writer (sorted hashes, divider, smallest slop, sector alignment, a block
// stored raw when compressing does not pay, LZMA lc3 lp0 pb2 dict 0x8000 with no end marker).
//
//   igarchive::WriterOptions o;  o.version = 8;
//   std::vector<igarchive::WriterFile> files = {{.name = "a.igz", .data = bytes}};
//   auto archive = igarchive::write_archive(files, o);   // Result<ByteBuffer>
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/core/progress.h"
#include "assay/formats/igarchive/archive.h"

namespace assay::igarchive {

struct WriterFile {
  std::string name;   // logical name: hashed under the flags, written in the name table
  std::string path;   // build path (v0x0A+ only); empty -> the logical name
  ByteBuffer data;
  Compression compression = Compression::lzma;
  std::uint32_t time = 0;                 // raw modification time (v8+)
  std::optional<std::uint32_t> ordinal;   // build order (sets data order); default: input order
};

struct WriterOptions {
  std::uint32_t version = 0x0B;
  Endian endian = Endian::little;
  std::uint32_t flags = 0;             // kFlagCaseInsensitive | kFlagNameOnly
  std::uint32_t sector_size = 0x800;   // ignored (0x800) for v4
  // Compressed-size prefix: 0 = the version's default (u16 for 4..0x0B, u32 for 0x0C/0x0D);
  // 2 or 4 to force. prefix_little=false only for v4 (ig-workshop's big-endian u16).
  unsigned prefix_width = 0;
  std::optional<bool> prefix_little;   // default: little, except big-endian for v4
  bool zero_terminator = false;        // igArchiveLib's terminator variant (spec #open Q1)
  // v0x0A name order: logical name first (igRewrite8) unless set. Ignored for other versions.
  bool v10_path_first = false;
  std::uint32_t lzma_preset = 6;       // encoder effort; lc/lp/pb/dict are fixed by rule 8
  std::optional<ByteBuffer> toc_pad;   // pad after the TOC (round trip); default zeros
  std::optional<std::uint32_t> slop;   // default: the minimal slop (rule 4)
  unsigned threads = 0;                // compression threads (0 = all cores)
  ProgressFn progress;                 // raw bytes of each block compressed, with its file's name
};

// Builds the archive. Errors: duplicate hashes, a name table/offset that does not fit the
// version's fields, sizes above 4 GiB, an unknown version.
Result<ByteBuffer> write_archive(const std::vector<WriterFile>& files, const WriterOptions& opt);

// The options that rebuild `a` the way it was written (version, byte order, sector size, flags,
// prefix width, terminator form, name order, TOC pad): `pack --like`.
WriterOptions options_like(const Archive& a);
// The original's files as writer entries with `data` left empty: name, path, time, ordinal and
// per-file compression kept (a file whose blocks are all raw keeps its codec).
std::vector<WriterFile> entries_like(const Archive& a);

// Compresses one block with `codec` into the block's on-disk form (prefix | [props] | payload)
// or returns an empty buffer when compression does not pay (then the block is stored raw).
ByteBuffer encode_block(Compression codec, ByteView raw, unsigned prefix_width, bool prefix_little,
                        std::uint32_t lzma_preset);

}  // namespace assay::igarchive
