// igArchive reader. spec: alchemy.md#iga
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

// ---------------------------------------------------------------- names and arithmetic

std::string_view to_string(Compression c) {
  switch (c) {
    case Compression::none: return "none";
    case Compression::deflate: return "deflate";
    case Compression::lzma: return "lzma";
    case Compression::lz4: return "lz4";
    case Compression::stored: return "stored";
  }
  return "unknown";
}

std::optional<Compression> compression_from_string(std::string_view s) {
  for (Compression c : {Compression::none, Compression::deflate, Compression::lzma, Compression::lz4,
                        Compression::stored})
    if (to_string(c) == s) return c;
  return std::nullopt;
}

std::string_view to_string(BlockTable t) {
  switch (t) {
    case BlockTable::small: return "small";
    case BlockTable::medium: return "medium";
    case BlockTable::large: return "large";
  }
  return "?";
}

bool is_known_version(std::uint32_t v) { return v == 4 || v == 8 || (v >= 0x0A && v <= 0x0D); }
std::uint32_t header_size(std::uint32_t v) { return v == 4 ? 0x30 : v == 8 ? 0x34 : 0x38; }
std::uint32_t file_info_size(std::uint32_t v) { return v <= 8 ? 12 : 16; }

// spec: alchemy.md#iga-block-tables
BlockTable table_for_length(std::uint64_t length, std::uint32_t s) {
  if (length <= 0x7Full * s) return BlockTable::small;
  if (length <= 0x7FFFull * s) return BlockTable::medium;
  return BlockTable::large;
}
std::uint32_t entry_bytes(BlockTable t) { return t == BlockTable::small ? 1 : t == BlockTable::medium ? 2 : 4; }
std::uint32_t flag_bit(BlockTable t) {
  return t == BlockTable::small ? 0x80u : t == BlockTable::medium ? 0x8000u : 0x80000000u;
}
std::uint64_t block_count(std::uint64_t length) { return (length + kBlockSize - 1) / kBlockSize; }
std::uint32_t block_usize(std::uint64_t length, std::uint64_t j) {
  const std::uint64_t start = j * kBlockSize;
  if (start >= length) return 0;
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(kBlockSize, length - start));
}

// spec: alchemy.md#iga-hash (igRewrite8 HashFilePath): with flags bit 0, '\\' -> '/' and ASCII
// lower-case; with bit 1, only the part after the last separator; then leading separators are
// dropped. Computed on the fly (no copy): the name-table reader hashes many candidate strings.
std::uint32_t hash_name(std::string_view name, std::uint32_t flags) {
  if (flags & kFlagNameOnly) {
    const auto p = name.find_last_of("/\\");
    if (p != std::string_view::npos) name.remove_prefix(p + 1);
  }
  while (!name.empty() && (name.front() == '/' || name.front() == '\\')) name.remove_prefix(1);
  const bool fold = (flags & kFlagCaseInsensitive) != 0;
  std::uint32_t h = kFnv1aBasis;
  for (char c : name) {
    auto b = static_cast<unsigned char>(c);
    if (fold) {
      if (b == '\\') b = '/';
      else if (b >= 'A' && b <= 'Z') b = static_cast<unsigned char>(b + 32);
    }
    h = (h ^ b) * kFnv1aPrime;
  }
  return h;
}

std::uint32_t divider_for(std::uint64_t n) {
  return n == 0 ? 0xFFFFFFFFu : static_cast<std::uint32_t>(0xFFFFFFFFull / n);
}

// spec: alchemy.md#iga-lookup
std::optional<std::size_t> hash_search(std::span<const std::uint32_t> hashes, std::uint32_t divider,
                                       std::uint32_t slop, std::uint32_t h) {
  const std::uint64_t n = hashes.size();
  const std::uint64_t q = divider == 0 ? 0 : h / divider;
  const std::uint64_t lo = q > slop ? q - slop : 0;
  const std::uint64_t hi = std::min<std::uint64_t>(n, q + slop + 1);
  if (lo >= hi) return std::nullopt;
  auto it = std::lower_bound(hashes.begin() + lo, hashes.begin() + hi, h);
  const auto idx = static_cast<std::size_t>(it - hashes.begin());
  if (idx < n && hashes[idx] == h) return idx;
  return std::nullopt;
}

std::uint32_t minimal_slop(std::span<const std::uint32_t> hashes, std::uint32_t divider) {
  // The search lands on index i when lo <= i <= hi (hi itself is read when every hash in the
  // window is smaller: the game's HashSearcher reads *v11 one past the window, and igRewrite8's
  // CalculateSlop uses the same search). So entry i needs q - i when i < q and i - q - 1 when
  // i > q. Note: spec #bootstrap-rest says a file-1 hash below 0x7FFFFFFF "needs slop 1"; by
  // the #iga-lookup steps (and the original code) slop 0 already finds it.
  std::uint64_t need = 0;
  for (std::size_t i = 0; i < hashes.size(); ++i) {
    const std::uint64_t q = divider == 0 ? 0 : hashes[i] / divider;
    const std::uint64_t d = q > i ? q - i : (i > q ? i - q - 1 : 0);
    need = std::max(need, d);
  }
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(need, 0xFFFFFFFFu));
}

// ---------------------------------------------------------------- open

Error Archive::error(std::string_view structure, std::uint64_t offset, std::string msg) const {
  Error e = make_error(kFormatName, structure, offset, std::move(msg));
  e.file = name_;
  return detail::coded(std::move(e));
}

namespace {

// Reports a finding: to the sink when there is one; without a sink, an error is fatal.
Result<void> report(const DiagSink& sink, Severity sev, Error e) {
  if (sink) {
    sink({sev, std::move(e)});
    return {};
  }
  if (sev == Severity::error) return e;
  return {};
}

}  // namespace

Result<Archive> Archive::open(ByteView data, std::string_view name, const DiagSink& diags) {
  Archive a;
  a.data_ = data;
  a.name_ = std::string(name);
  ASSAY_CHECK(a.parse_header(diags));
  ASSAY_CHECK(a.parse_toc(diags));
  ASSAY_CHECK(a.parse_names(diags));
  a.detect_prefix();
  return a;
}

// spec: alchemy.md#iga-header-v4, #iga-header-v8, #iga-header-v10, #overview-byteorder
Result<void> Archive::parse_header(const DiagSink& diags) {
  if (data_.size() < 8)
    return error("header", 0, fmt::format("file is 0x{:x} bytes, too short for a magic and version", data_.size()));
  const auto prefix = probe_byte_order(data_, kMagic);
  if (!prefix) {
    const std::uint32_t m = read_record<Word32>(ByteReader(data_, Endian::little, kFormatName), 0, "header")->value;
    return error("header", 0, fmt::format("magic 0x{:08x} is not IGA\\x1A in either byte order", m));
  }
  header_.endian = prefix->endian;
  const ByteReader r(data_, header_.endian, kFormatName);
  Header& h = header_;
  h.version = prefix->prefix.version;
  if (!is_known_version(h.version))
    return error("header", 4, fmt::format("unknown version 0x{:x} (known: 4, 8, 0x0A-0x0D)", h.version));
  header_size_ = header_size(h.version);
  info_size_ = file_info_size(h.version);
  if (data_.size() < header_size_)
    return error("header", 0, fmt::format("version 0x{:x} header needs 0x{:x} bytes but the file has 0x{:x}",
                                           h.version, header_size_, data_.size()));
  const Endian endian = h.endian;
  if (h.version == 4) {
    ASSAY_TRY(auto v4, read_record<records::HeaderV4>(r, 0, "header"));
    h = v4.h;
    h.endian = endian;
    ASSAY_CHECK(report(diags, Severity::warning,
                       error("header", 4, "version 4 layout is uncertain (spec #iga-header-v4: ig-workshop only)")));
  } else if (h.version == 8) {
    ASSAY_TRY(auto v8, read_record<records::HeaderV8>(r, 0, "header"));
    h = v8.h;
  } else {
    ASSAY_TRY(auto v10, read_record<records::HeaderV10>(r, 0, "header"));
    h = v10.h;
  }
  h.endian = endian;
  if (h.sector_size == 0 || (h.sector_size & (h.sector_size - 1)) != 0)
    return error("header", 0x10, fmt::format("sectorSize 0x{:x} is 0 or not a power of two", h.sector_size));
  if (h.sector_size != 0x800)
    ASSAY_CHECK(report(diags, Severity::warning,
                       error("header", 0x10, fmt::format("sectorSize 0x{:x} is not 0x800", h.sector_size))));
  return {};
}

std::uint64_t Archive::toc_end() const noexcept { return std::uint64_t{header_size_} + header_.toc_size; }

// spec: alchemy.md#iga-toc, #iga-file-info
Result<void> Archive::parse_toc(const DiagSink& diags) {
  const Header& h = header_;
  const std::uint64_t n = h.num_files;
  const std::uint64_t per_file = 4ull + info_size_;
  const std::uint64_t hs = header_size_;
  if (!range_ok(hs, h.toc_size, data_.size()))
    return error("header", 0x08, fmt::format("TOC of 0x{:x} bytes at 0x{:x} runs past the file end 0x{:x}",
                                             h.toc_size, hs, data_.size()));
  // Checked before allocating: N x (4 + F) must fit in tocSize (spec: alchemy.md#verify-iga).
  if (n > h.toc_size / per_file)
    return error("header", 0x0C, fmt::format("numFiles {} needs 0x{:x} TOC bytes but tocSize is 0x{:x}", n,
                                             n * per_file, h.toc_size));
  const std::uint64_t expect = n * per_file + 4ull * h.num_large + 2ull * h.num_medium + h.num_small;
  if (expect > h.toc_size) {
    return error("header", 0x08,
                 fmt::format("tocSize 0x{:x} is smaller than the tables it holds (0x{:x}: {} files, large {}, "
                             "medium {}, small {})", h.toc_size, expect, n, h.num_large, h.num_medium, h.num_small));
  }
  if (expect != h.toc_size)
    ASSAY_CHECK(report(diags, Severity::error,
                       error("header", 0x08, fmt::format("tocSize 0x{:x} != 0x{:x} = N x (4 + F) + 4 x large + "
                                                         "2 x medium + small", h.toc_size, expect))));
  table_off_[static_cast<int>(BlockTable::large)] = hs + n * per_file;
  table_off_[static_cast<int>(BlockTable::medium)] = hs + n * per_file + 4ull * h.num_large;
  table_off_[static_cast<int>(BlockTable::small)] = hs + n * per_file + 4ull * h.num_large + 2ull * h.num_medium;

  const ByteReader r(data_, h.endian, kFormatName);
  ASSAY_TRY(auto hash_table, RecordTable<Word32>::open(r, hs, n, "hash table"));
  ASSAY_CHECK(open_block_tables(r));
  const std::uint64_t info0 = hs + 4 * n;
  RecordTable<records::FileInfo12> info12;
  RecordTable<records::FileInfo16> info16;
  if (info_size_ == 12) {
    ASSAY_TRY(info12, RecordTable<records::FileInfo12>::open(r, info0, n, "file info"));
  } else {
    ASSAY_TRY(info16, RecordTable<records::FileInfo16>::open(r, info0, n, "file info"));
  }
  hashes_.resize(n);
  files_.resize(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    hashes_[i] = hash_table[i].value;
    FileEntry& f = files_[i];
    f.index = static_cast<std::uint32_t>(i);
    f.hash = hashes_[i];
    if (info_size_ == 12) {
      const records::FileInfo12 fi = info12[i];
      f.offset = fi.offset;
      f.length = fi.length;
      f.word = fi.word;
    } else {
      const records::FileInfo16 fi = info16[i];
      f.offset = fi.offset_ordinal & 0xFFFFFFFFFFull;
      f.ordinal = static_cast<std::uint32_t>(fi.offset_ordinal >> 40);
      f.length = fi.length;
      f.word = fi.word;
    }
    if (f.word == kStoredWord) {
      f.compression = Compression::stored;
      f.num_blocks = 0;
    } else {
      const std::uint32_t codec = f.word >> 28;
      f.compression = codec <= 3 ? static_cast<Compression>(codec) : Compression::none;
      f.first_entry = f.word & 0x0FFFFFFF;
      f.table = table_for_length(f.length, h.sector_size);
      f.num_blocks = static_cast<std::uint32_t>(block_count(f.length));
    }
  }
  by_offset_.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) by_offset_[i] = i;
  std::sort(by_offset_.begin(), by_offset_.end(),
            [&](std::uint32_t a, std::uint32_t b) { return files_[a].offset < files_[b].offset; });
  return {};
}

std::uint32_t Archive::default_prefix_width() const noexcept {
  return header_.version >= 0x0C ? 4 : 2;
}

// spec: alchemy.md#iga-prefix, #open Q2: u16 LE for 0x08-0x0B; detect for 4, 0x0C, 0x0D.
void Archive::detect_prefix() {
  prefix_width_ = default_prefix_width();
  prefix_little_ = header_.version != 4;
  if (header_.version >= 8 && header_.version <= 0x0B) return;
  struct Cand { unsigned w; bool le; };
  std::vector<Cand> cands;
  if (header_.version == 4) cands = {{2, false}, {2, true}, {4, true}};
  else cands = {{4, true}, {2, true}};
  for (const FileEntry& f : files_) {
    if (f.compression == Compression::stored || f.compression == Compression::none) continue;
    auto bl = blocks(f);
    if (!bl) continue;
    for (const Block& b : *bl) {
      if (!b.compressed) continue;
      std::vector<Cand> valid;
      for (const Cand& c : cands) {
        auto size = records::read_size_prefix(data_, b.offset, c.w, c.le);
        if (!size) continue;
        const std::uint64_t C = *size;
        const std::uint64_t props = f.compression == Compression::lzma ? 5 : 0;
        if (C == 0 || c.w + props + C > b.span || !range_ok(b.offset, c.w + props + C, data_.size())) continue;
        if (props) {
          auto lp = records::read_lzma_props(data_, b.offset + c.w, "block");
          if (!lp || lp->pb >= 225 || lp->dict == 0 || lp->dict > (1u << 27)) continue;
        }
        valid.push_back(c);
      }
      if (valid.empty()) return;  // keep the default; read_block reports the error
      if (valid.size() > 1) {
        BlockDecoder dec;
        ByteBuffer out(b.usize);
        for (const Cand& c : valid) {
          prefix_width_ = c.w;
          prefix_little_ = c.le;
          if (read_block(f, b, out, dec)) return;
        }
      }
      prefix_width_ = valid.front().w;
      prefix_little_ = valid.front().le;
      return;
    }
  }
}

Result<std::uint32_t> Archive::read_prefix(std::uint64_t at, std::uint64_t span) const {
  if (prefix_width_ > span || !range_ok(at, prefix_width_, data_.size()))
    return error("block", at, "no room for the compressed-size prefix");
  return records::read_size_prefix(data_, at, prefix_width_, prefix_little_);
}

// ---------------------------------------------------------------- lookup

std::optional<std::size_t> Archive::lookup(std::uint32_t h) const {
  return hash_search(hashes_, header_.divider, header_.slop, h);
}

const FileEntry* Archive::find(std::string_view name) const {
  for (const FileEntry& f : files_)
    if (f.name == name) return &f;
  // Under the archive's hashing rules (case, separators, name only): sorted-table search.
  const std::uint32_t h = hash_name(name, header_.flags);
  auto it = std::lower_bound(hashes_.begin(), hashes_.end(), h);
  if (it != hashes_.end() && *it == h && (header_.flags & (kFlagCaseInsensitive | kFlagNameOnly)))
    return &files_[static_cast<std::size_t>(it - hashes_.begin())];
  for (const FileEntry& f : files_)
    if (!f.path.empty() && f.path == name) return &f;
  return nullptr;
}

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

ByteView Archive::toc_pad() const noexcept {
  const std::uint64_t end = toc_end();
  std::uint64_t first = header_.name_table_offset;
  for (const FileEntry& f : files_) {
    if (f.compression != Compression::stored && f.num_blocks == 0) continue;
    if (f.compression == Compression::stored && f.length == 0) continue;
    first = std::min(first, f.offset);
  }
  if (first < end || first > data_.size()) return {};
  return data_.subspan(end, first - end);
}

Result<ArchiveFile> open_file(const std::string& path, const DiagSink& diags) {
  ASSAY_TRY(MappedFile m, MappedFile::open(path));
  auto owner = std::make_shared<MappedFile>(std::move(m));
  ASSAY_TRY(Archive a, Archive::open(owner->bytes(), path, diags));
  return ArchiveFile{owner, std::move(a)};
}

}  // namespace assay::igarchive
