// igArchive block tables and member data: a file's block run, its blocks, the data past a cut
// file's end, and reading a member (on several cores). spec: alchemy.md#iga-block-tables, #iga-assembly
#include "assay/formats/igarchive/archive.h"
#include "records.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <thread>

#include "assay/core/hash.h"
#include "assay/core/mapped_file.h"
#include "assay/core/thread_pool.h"
#include "codes.h"

namespace assay::igarchive {

// ---------------------------------------------------------------- block tables

std::uint32_t Archive::table_count(BlockTable t) const noexcept {
  return t == BlockTable::small ? header_.num_small : t == BlockTable::medium ? header_.num_medium : header_.num_large;
}

std::uint64_t Archive::table_offset(BlockTable t) const noexcept { return table_off_[static_cast<int>(t)]; }

// The three block tables as checked views (#iga-block-tables), after the TOC size check.
Result<void> Archive::open_block_tables(const ByteReader& r) {
  ASSAY_TRY(small_, RecordTable<Word8>::open(r, table_offset(BlockTable::small), header_.num_small, "small block table"));
  ASSAY_TRY(medium_, RecordTable<Word16>::open(r, table_offset(BlockTable::medium), header_.num_medium, "medium block table"));
  ASSAY_TRY(large_, RecordTable<Word32>::open(r, table_offset(BlockTable::large), header_.num_large, "large block table"));
  return {};
}

// Entry i of a table; callers keep i below table_count (blocks() checks a file's run first): an
// index outside stops the program (RecordTable::operator[]), never a made-up 0.
std::uint32_t Archive::table_entry(BlockTable t, std::uint32_t i) const noexcept {
  switch (t) {
    case BlockTable::small: return small_[i].value;
    case BlockTable::medium: return medium_[i].value;
    case BlockTable::large: return large_[i].value;
  }
  return 0;
}

std::uint64_t BlockRun::offset_of(std::uint32_t j) const noexcept { return offset_ + std::uint64_t{j} * width_; }

// spec: #iga-block-tables: a file owns B + 1 consecutive entries from its block index
Result<BlockRun> Archive::block_run(const FileEntry& f) const {
  const std::uint64_t info_at = std::uint64_t{header_size_} + 4ull * header_.num_files + std::uint64_t{f.index} * info_size_;
  const std::uint64_t B = f.num_blocks;
  const std::uint32_t count = table_count(f.table);
  if (std::uint64_t{f.first_entry} + B >= count)
    return error(fmt::format("file[{}] blocks", f.index), info_at + info_size_ - 4,
                 fmt::format("entries {}..{} (with terminator) are outside the {} table of {} entries",
                             f.first_entry, std::uint64_t{f.first_entry} + B, to_string(f.table), count));
  BlockRun run;
  run.width_ = static_cast<std::uint8_t>(entry_bytes(f.table));
  run.offset_ = table_offset(f.table) + std::uint64_t{f.first_entry} * run.width_;
  run.count_ = static_cast<std::uint32_t>(B + 1);
  run.flag_ = flag_bit(f.table);
  run.endian_ = header_.endian;
  ASSAY_TRY(run.bytes_, reader().bytes(run.offset_, std::uint64_t{run.count_} * run.width_, to_string(f.table)));
  return run;
}

std::uint64_t Archive::data_bound(const FileEntry& f) const {
  std::uint64_t bound = data_.size();
  if (header_.name_table_offset > f.offset) bound = std::min(bound, header_.name_table_offset);
  auto it = std::upper_bound(by_offset_.begin(), by_offset_.end(), f.offset,
                             [&](std::uint64_t off, std::uint32_t i) { return off < files_[i].offset; });
  if (it != by_offset_.end()) bound = std::min(bound, files_[*it].offset);
  return bound;
}

// A cut archive (7-Zip's "unexpected end of data"). spec: alchemy.md#iga-assembly:
// block j starts at offset + sector_j x S; a compressed one holds its prefix, LZMA properties and
// C payload bytes, a raw one usize bytes. Each is bounded by its span (the next entry's sector;
// for the last block with terminator 0, the next file or the name table): bytes a bad prefix
// claims beyond that are a broken block, which read() reports, not a cut.
std::optional<Shortfall> Archive::past_end(const FileEntry& f) const {
  const std::uint64_t size = data_.size();
  if (f.compression == Compression::stored) {
    if (f.length == 0 || range_ok(f.offset, f.length, size)) return std::nullopt;
    return Shortfall{f.offset, f.offset + f.length};
  }
  if (f.num_blocks == 0 || (f.word >> 28) > 3) return std::nullopt;
  auto run = block_run(f);
  if (!run) return std::nullopt;
  const std::uint64_t S = header_.sector_size;
  // The structural bound of a last block with terminator 0: the next file or the name table.
  std::uint64_t bound = ~std::uint64_t{0};
  if (header_.name_table_offset > f.offset) bound = header_.name_table_offset;
  auto next_file = std::upper_bound(by_offset_.begin(), by_offset_.end(), f.offset,
                                    [&](std::uint64_t off, std::uint32_t i) { return off < files_[i].offset; });
  if (next_file != by_offset_.end()) bound = std::min(bound, files_[*next_file].offset);
  const std::uint64_t props = f.compression == Compression::lzma ? 5 : 0;
  std::uint64_t need = f.offset;
  for (std::uint32_t j = 0; j < f.num_blocks; ++j) {
    const BlockEntry e = (*run)[j];
    const std::uint64_t at = f.offset + std::uint64_t{e.sector} * S;
    const std::uint32_t next = (*run)[j + 1].sector;
    const std::uint64_t span_end = next > e.sector ? f.offset + std::uint64_t{next} * S : std::max(bound, at);
    std::uint64_t end = at + block_usize(f.length, j);
    if (e.compressed) {
      end = at + prefix_width_;  // the prefix itself may be cut
      if (range_ok(at, prefix_width_, size))
        if (auto C = records::read_size_prefix(data_, at, prefix_width_, prefix_little_)) end += props + *C;
    }
    need = std::max(need, std::min(end, span_end));
  }
  if (need <= size) return std::nullopt;
  // Where its data end by the block table (the terminator's sector), when it says.
  const std::uint32_t term = (*run)[f.num_blocks].sector, last = (*run)[f.num_blocks - 1].sector;
  return Shortfall{f.offset, term > last ? std::max(need, f.offset + std::uint64_t{term} * S) : need};
}

// spec: alchemy.md#iga-assembly steps 2-4
Result<std::vector<Block>> Archive::blocks(const FileEntry& f) const {
  std::vector<Block> out;
  if (f.compression == Compression::stored) return out;
  const std::string st = fmt::format("file[{}] blocks", f.index);
  const std::uint64_t info_at = std::uint64_t{header_size_} + 4ull * header_.num_files + std::uint64_t{f.index} * info_size_;
  if ((f.word >> 28) > 3)
    return error(st, info_at + info_size_ - 4, fmt::format("codec nibble {} in word 0x{:08x} is above 3", f.word >> 28, f.word));
  const std::uint64_t B = f.num_blocks;
  ASSAY_TRY(const BlockRun run, block_run(f));
  const std::uint64_t S = header_.sector_size;
  if (f.offset >= data_.size() && B > 0)
    return error(st, info_at, fmt::format("file offset 0x{:x} is past the file end 0x{:x}", f.offset, data_.size()));
  const std::uint64_t bound = data_bound(f);
  out.reserve(B);
  for (std::uint32_t j = 0; j < B; ++j) {
    const BlockEntry e = run[j];
    const std::uint32_t sector = e.sector;
    const std::uint32_t next = run[j + 1].sector;
    const bool last = j + 1 == B;
    const std::uint64_t entry_at = run.offset_of(j);
    Block b;
    b.index = j;
    b.compressed = e.compressed;
    b.usize = block_usize(f.length, j);
    b.out_offset = j * kBlockSize;
    b.offset = f.offset + std::uint64_t{sector} * S;
    if (b.offset >= data_.size())
      return error(st, entry_at, fmt::format("block {} starts at 0x{:x}, past the file end 0x{:x}", j, b.offset, data_.size()));
    if (next > sector) {
      b.span = (std::uint64_t{next} - sector) * S;
    } else if (!last) {
      return error(st, entry_at, fmt::format("block {} sector {} is not below the next entry's sector {}", j, sector, next));
    } else {
      b.span_known = false;  // terminator 0 (spec #open Q1): bounded by the next file / name table
      b.span = bound > b.offset ? bound - b.offset : data_.size() - b.offset;
    }
    if (!range_ok(b.offset, b.span, data_.size())) {
      if (b.span_known)
        return error(st, entry_at, fmt::format("block {} (0x{:x} bytes at 0x{:x}) runs past the file end 0x{:x}", j,
                                               b.span, b.offset, data_.size()));
      b.span = data_.size() - b.offset;
    }
    out.push_back(b);
  }
  return out;
}

// spec: alchemy.md#iga-assembly steps 4.5-4.6, #iga-prefix
Result<void> Archive::read_block(const FileEntry& f, const Block& b, std::span<std::uint8_t> out,
                                 BlockDecoder& dec, BlockReport* rep) const {
  const std::string st = fmt::format("file[{}] block {}", f.index, b.index);
  if (out.size() != b.usize) return error(st, b.offset, "output buffer size differs from the block size");
  if (!b.compressed) {
    if (b.usize > b.span || !range_ok(b.offset, b.usize, data_.size()))
      return error(st, b.offset, fmt::format("raw block of 0x{:x} bytes does not fit its 0x{:x}-byte span", b.usize, b.span));
    ASSAY_TRY(ByteView raw, reader().bytes(b.offset, b.usize, st));
    std::copy(raw.begin(), raw.end(), out.begin());
    return {};
  }
  if (f.compression == Compression::none)
    return error(st, b.offset, "compressed flag set on a file with codec 0 (spec #iga-stored)");
  ASSAY_TRY(std::uint32_t C, read_prefix(b.offset, b.span));
  const std::uint64_t props = f.compression == Compression::lzma ? 5 : 0;
  if (C == 0) return error(st, b.offset, "compressed-size prefix is 0");
  if (prefix_width_ + props + C > b.span || !range_ok(b.offset + prefix_width_, props + C, data_.size()))
    return error(st, b.offset, fmt::format("prefix {} + properties {} + payload 0x{:x} run past the block's 0x{:x}-byte span",
                                           prefix_width_, props, C, b.span));
  ByteView src = data_.subspan(b.offset + prefix_width_, props + C);
  if (rep) {
    rep->prefix = C;
    if (props) {
      static constexpr std::uint8_t kDefault[5] = {0x5D, 0x00, 0x80, 0x00, 0x00};
      rep->default_lzma_props = std::memcmp(src.data(), kDefault, 5) == 0;
    }
  }
  auto r = dec.decode(f.compression, src, out, b.offset, st);
  if (!r && header_.version == 4 && f.compression == Compression::deflate) {
    // spec: alchemy.md#open Q3: version 4 may mean LZMA by code 1.
    ByteView lsrc = data_.subspan(b.offset + prefix_width_);
    if (lsrc.size() >= 5 + C) {
      auto r2 = dec.decode(Compression::lzma, lsrc.first(5 + C), out, b.offset, st);
      if (r2) {
        if (rep) rep->codec_fallback = true, rep->consumed = *r2 + 5;
        return {};
      }
    }
  }
  if (!r) {
    Error e = std::move(r).error();
    e.file = name_;
    return e;
  }
  if (rep) rep->consumed = *r - 0;
  return {};
}

Result<void> decode_blocks(const Archive& a, std::span<const BlockJob> jobs, unsigned threads,
                           std::size_t* failed_job) {
  std::mutex mu;
  std::size_t first_fail = jobs.size();
  std::optional<Error> err;
  // One LZMA/zlib/LZ4 decoder per worker, reused across its blocks (core's parallel_for_state).
  parallel_for_state(jobs.size(), threads, [] { return BlockDecoder(); }, [&](BlockDecoder& dec, std::size_t i) {
    const BlockJob& j = jobs[i];
    auto r = a.read_block(*j.file, j.block, j.out, dec);
    if (r) return true;
    std::lock_guard lk(mu);
    if (i < first_fail) first_fail = i, err = r.error();
    return false;  // the first failure stops the batch
  });
  if (err) {
    if (failed_job) *failed_job = first_fail;
    return *err;
  }
  return {};
}

Result<void> Archive::read(const FileEntry& f, std::span<std::uint8_t> out, unsigned threads) const {
  if (out.size() != f.length) return error(fmt::format("file[{}]", f.index), f.offset, "output buffer size differs from the file length");
  if (f.compression == Compression::stored) {
    // spec: alchemy.md#iga-stored-files
    if (f.length != 0 && !range_ok(f.offset, f.length, data_.size()))  // an empty file needs no bytes
      return error(fmt::format("file[{}]", f.index), f.offset,
                   fmt::format("stored file of 0x{:x} bytes at 0x{:x} runs past the file end 0x{:x}", f.length,
                               f.offset, data_.size()));
    if (f.length == 0) return {};
    ASSAY_TRY(ByteView raw, reader().bytes(f.offset, f.length, fmt::format("file[{}]", f.index)));
    std::copy(raw.begin(), raw.end(), out.begin());
    return {};
  }
  ASSAY_TRY(std::vector<Block> bl, blocks(f));
  std::vector<BlockJob> jobs;
  jobs.reserve(bl.size());
  for (const Block& b : bl) jobs.push_back({&f, b, out.subspan(b.out_offset, b.usize)});
  return decode_blocks(*this, jobs, threads);
}

Result<void> Archive::read(const FileEntry& f, ByteBuffer& out, unsigned threads, std::uint64_t cap) const {
  if (f.length > cap)
    return error(fmt::format("file[{}]", f.index), f.offset,
                 fmt::format("length 0x{:x} is above the member cap 0x{:x}", f.length, cap));
  // Validate before allocating: the length is bounded by the block entries or the file size.
  if (f.compression == Compression::stored) {
    if (f.length != 0 && !range_ok(f.offset, f.length, data_.size()))  // an empty file needs no bytes
      return error(fmt::format("file[{}]", f.index), f.offset,
                   fmt::format("stored file of 0x{:x} bytes at 0x{:x} runs past the file end 0x{:x}", f.length,
                               f.offset, data_.size()));
  } else {
    ASSAY_TRY(std::vector<Block> bl, blocks(f));
    (void)bl;
  }
  out.resize(f.length);
  return read(f, std::span<std::uint8_t>(out), threads);
}

}  // namespace assay::igarchive
