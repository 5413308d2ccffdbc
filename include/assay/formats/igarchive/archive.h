// Alchemy igArchive reader (.bld .pak .arc): a non-owning view over the archive's bytes.
// spec: alchemy.md#iga (layout, header, TOC, block tables, codecs, name table, lookup).
//
//   auto a = igarchive::Archive::open(bytes, "bootstrap.bld");
//   for (const auto& f : a->files()) { ByteBuffer out; a->read(f, out); }
//
// open() checks the header, the TOC and the name table (every count against the bytes that are
// there, before anything is allocated); file data is only touched by blocks()/read().
// Non-fatal findings (version 4, odd divider, name/hash mismatch...) go to the DiagSink.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/core/diag.h"
#include "assay/core/record.h"

namespace assay::igarchive {

inline constexpr std::string_view kFormatName = "igarchive";
inline constexpr std::uint32_t kMagic = 0x1A414749;        // spec: alchemy.md#overview-byteorder
inline constexpr std::uint32_t kBlockSize = 0x8000;        // uncompressed bytes per block
inline constexpr std::uint32_t kStoredWord = 0xFFFFFFFFu;  // spec: alchemy.md#iga-stored-files
inline constexpr std::uint32_t kFlagCaseInsensitive = 0x1; // spec: alchemy.md#iga-hash
inline constexpr std::uint32_t kFlagNameOnly = 0x2;
inline constexpr std::uint64_t kDefaultMemberCap = std::uint64_t{1} << 30;  // spec: alchemy.md#verify

// How a file's bytes are kept. none/deflate/lzma/lz4 are the codec nibble (bits 28-31 of
// blockIndexAndCompression); stored is the whole-file 0xFFFFFFFF word.
enum class Compression : std::uint8_t { none = 0, deflate = 1, lzma = 2, lz4 = 3, stored = 0xFF };
std::string_view to_string(Compression c);
// "none", "deflate", "lzma", "lz4", "stored"; nullopt for anything else.
std::optional<Compression> compression_from_string(std::string_view s);

// spec: alchemy.md#iga-block-tables
enum class BlockTable : std::uint8_t { small = 0, medium = 1, large = 2 };
std::string_view to_string(BlockTable t);

// --- arithmetic shared by reader, writer and verify (spec: alchemy.md#vectors-iga) ---
bool is_known_version(std::uint32_t version);      // 4, 8, 0x0A..0x0D
std::uint32_t header_size(std::uint32_t version);  // 0x30, 0x34, 0x38
std::uint32_t file_info_size(std::uint32_t version);  // 12 or 16
BlockTable table_for_length(std::uint64_t length, std::uint32_t sector_size);
std::uint32_t entry_bytes(BlockTable t);           // 1, 2, 4
std::uint32_t flag_bit(BlockTable t);              // 0x80, 0x8000, 0x80000000
std::uint64_t block_count(std::uint64_t length);   // ceil(length / 0x8000)
std::uint32_t block_usize(std::uint64_t length, std::uint64_t j);  // uncompressed size of block j
// The hash of a logical name under the archive flags (spec: alchemy.md#iga-hash).
std::uint32_t hash_name(std::string_view name, std::uint32_t flags);
// divider = 0xFFFFFFFF / N (0xFFFFFFFF for N = 0).
std::uint32_t divider_for(std::uint64_t n);
// spec: alchemy.md#iga-lookup. Index of `h` among sorted `hashes`, or nullopt.
std::optional<std::size_t> hash_search(std::span<const std::uint32_t> hashes, std::uint32_t divider,
                                       std::uint32_t slop, std::uint32_t h);
// The smallest slop for which hash_search finds every entry (spec: alchemy.md#iga-writer rule 4).
std::uint32_t minimal_slop(std::span<const std::uint32_t> hashes, std::uint32_t divider);

// How one name-table entry is laid out, decided per entry from its bytes (never from the version
// alone). spec: alchemy.md#iga-name-table, #corrections C1 (Skylanders 0x0A: path + NUL + u32),
// and the forms igArchiveExtractor writes (names without a NUL; docs/alchemy-readers.md).
enum class NameLayout : std::uint8_t {
  unparsed,             // the entry could not be read (its offset is outside the table)
  string,               // name NUL (version 4)
  string_time,          // name NUL u32 (version 8; Skylanders 0x0A, spec C1)
  name_path_time,       // logical name NUL build path NUL u32 (igRewrite8's 0x0A)
  path_name_time,       // build path NUL logical name NUL u32 (0x0B-0x0D)
  string_zero_word,     // igArchiveExtractor: name with no NUL, then a zero u32 (0x0A, Trap Team 0x0B)
  path_tail_time,       // igArchiveExtractor 0x0B (SuperChargers): build path and logical tail with
                        // no NUL between them, NUL, u32
  string_unterminated,  // igArchiveExtractor version 4: name with no NUL, running into the next entry
};
std::string_view to_string(NameLayout l);
// How the logical name was tied to the hash table (spec: alchemy.md#iga-hash, #corrections C7).
enum class NameMatch : std::uint8_t {
  exact,   // hash_name(name, flags) equals the entry's hash
  folded,  // equal only lower-cased with '\' -> '/' (C7) although flags bit 0 is clear
  suffix,  // the hashed name is the end of the stored string (after a build root such as "u:\temporary\ps3\")
  none,    // no candidate string hashes to the entry's hash (an error in every version)
};
std::string_view to_string(NameMatch m);

// spec: alchemy.md#iga-header-v4, #iga-header-v8, #iga-header-v10
struct Header {
  Endian endian = Endian::little;
  std::uint32_t version = 0;
  std::uint32_t toc_size = 0;
  std::uint32_t num_files = 0;
  std::uint32_t sector_size = 0x800;  // v4 has no field: 0x800
  std::uint32_t divider = 0;
  std::uint32_t slop = 0;
  std::uint64_t name_table_offset = 0;
  std::uint32_t name_table_size = 0;
  std::uint32_t num_large = 0;
  std::uint32_t num_medium = 0;
  std::uint32_t num_small = 0;
  std::uint32_t flags = 0;
};

// One file of the archive, index i in hash order (spec: alchemy.md#iga-file-info).
struct FileEntry {
  std::uint32_t index = 0;
  std::uint32_t hash = 0;
  std::uint64_t offset = 0;    // absolute, 40 bits for v0x0A+
  std::uint32_t ordinal = 0;   // build order (v0x0A+; 0 otherwise)
  std::uint32_t length = 0;    // uncompressed bytes
  std::uint32_t word = 0;      // blockIndexAndCompression as stored
  Compression compression = Compression::stored;
  BlockTable table = BlockTable::small;
  std::uint32_t first_entry = 0;  // index of the first block-table entry (codec files)
  std::uint32_t num_blocks = 0;   // B (0 for stored files)
  std::string_view name;       // logical name (the hashed one); empty when the name table is bad
  std::string_view path;       // build path (v0x0A+), empty for v4/v8
  std::uint32_t time = 0;      // raw modification time from the name table (v8+)
  bool path_first = false;     // name-table order of the two strings (v0x0A+)
  // --- the name-table entry as stored (for writing it back unchanged, and for reporting) ---
  NameLayout name_layout = NameLayout::unparsed;
  NameMatch name_match = NameMatch::none;
  bool has_time = false;         // the layout carries the u32 time
  std::uint32_t name_offset = 0; // the entry's offset word (relative to the name table)
  // The entry's raw bytes: from its offset up to the next entry's offset (or the table end),
  // a view into data(). Empty when the offset is outside the table.
  ByteView name_raw;
};

// One block of a codec file, resolved from the block table (spec: alchemy.md#iga-assembly).
struct Block {
  std::uint32_t index = 0;       // j
  std::uint64_t offset = 0;      // absolute start in the archive
  std::uint64_t span = 0;        // bytes available for the block (to the next entry / bound)
  std::uint32_t usize = 0;       // uncompressed bytes
  std::uint64_t out_offset = 0;  // j * 0x8000: where it goes in the file
  bool compressed = false;
  bool span_known = true;        // false when bounded by the next file (terminator 0, spec #open Q1)
};

// What decoding one block found beyond success (for verify).
struct BlockReport {
  std::uint32_t prefix = 0;       // C
  std::uint64_t consumed = 0;     // codec input bytes used
  bool default_lzma_props = true; // 5D 00 80 00 00
  bool codec_fallback = false;    // v4: decoded as LZMA after the nominal codec failed (Q3)
};

// Where a file's data run past the end of a cut archive (salvage.h; Archive::past_end).
struct Shortfall {
  std::uint64_t offset = 0;  // where the file's data begin (FileEntry::offset)
  std::uint64_t end = 0;     // where the bytes its blocks use end, by its tables and size prefixes
};

// Per-thread codec state (liblzma / zlib streams), reused across blocks to avoid allocation churn.
class BlockDecoder {
 public:
  BlockDecoder();
  ~BlockDecoder();
  BlockDecoder(BlockDecoder&&) noexcept;
  BlockDecoder& operator=(BlockDecoder&&) noexcept;
  BlockDecoder(const BlockDecoder&) = delete;
  BlockDecoder& operator=(const BlockDecoder&) = delete;

  // Decodes `src` (the codec payload; for LZMA the 5 property bytes first) into exactly
  // out.size() bytes. Returns the payload bytes consumed. Errors name `structure`/`offset`.
  Result<std::uint64_t> decode(Compression codec, ByteView src, std::span<std::uint8_t> out,
                               std::uint64_t offset, std::string_view structure);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One block-table entry (spec: alchemy.md#iga-block-tables): the block's start in sectors,
// relative to the file's offset, and the table's compressed flag (bit 7, 15 or 31).
struct BlockEntry {
  std::uint32_t sector = 0;
  bool compressed = false;
  std::uint32_t raw = 0;  // the entry as stored
};

// A file's run of block-table entries, its B blocks then the terminator (#iga-block-tables),
// checked against its table once when made (Archive::block_run): an index below size() needs no
// further check; one outside stops the program (like RecordTable::operator[]).
class BlockRun {
 public:
  [[nodiscard]] std::uint32_t size() const noexcept { return count_; }  // B + 1
  // Inline: blocks() reads two entries per block (an out-of-line call measured 2x blocks()).
  [[nodiscard]] [[gnu::always_inline]] BlockEntry operator[](std::uint32_t j) const noexcept {
    if (j >= count_) [[unlikely]] detail::table_index_violation("block run", j, count_);
    const std::uint32_t raw = width_ == 1 ? word<Word8>(j) : width_ == 2 ? word<Word16>(j) : word<Word32>(j);
    return {raw & ~flag_, (raw & flag_) != 0, raw};
  }
  [[nodiscard]] BlockEntry terminator() const noexcept { return (*this)[count_ - 1]; }
  // Absolute offset of entry j (for errors about it).
  [[nodiscard]] std::uint64_t offset_of(std::uint32_t j) const noexcept;

 private:
  friend class Archive;
  // Entry j as a W (a constant-size cursor: its bounds fold), j below count_.
  template <class W>
  [[nodiscard]] std::uint32_t word(std::uint32_t j) const noexcept {
    RecordCursor c(ByteView(bytes_.data() + std::size_t{j} * W::kSize, W::kSize), endian_);
    return decode_from<W>(c).value;
  }
  ByteView bytes_{};          // the run's entries, count_ x width_ bytes inside the archive
  std::uint64_t offset_ = 0;  // absolute offset of entry 0
  std::uint32_t count_ = 0, flag_ = 0;
  std::uint8_t width_ = 1;
  Endian endian_ = Endian::little;
};

class Archive {
 public:
  // Parses header, TOC and name table. `name` is used in error messages.
  static Result<Archive> open(ByteView data, std::string_view name = {}, const DiagSink& diags = {});

  [[nodiscard]] const Header& header() const noexcept { return header_; }
  [[nodiscard]] Endian endian() const noexcept { return header_.endian; }
  [[nodiscard]] std::uint32_t version() const noexcept { return header_.version; }
  [[nodiscard]] ByteView data() const noexcept { return data_; }
  [[nodiscard]] std::span<const FileEntry> files() const noexcept { return files_; }
  [[nodiscard]] std::span<const std::uint32_t> hashes() const noexcept { return hashes_; }
  [[nodiscard]] std::uint64_t toc_end() const noexcept;  // header + tocSize
  // Bytes between the end of the TOC and the first file's data (spec: alchemy.md#open Q4).
  [[nodiscard]] ByteView toc_pad() const noexcept;
  // Compressed-size prefix width (2 or 4) and whether it is little-endian (spec: #iga-prefix).
  [[nodiscard]] unsigned prefix_width() const noexcept { return prefix_width_; }
  [[nodiscard]] bool prefix_little() const noexcept { return prefix_little_; }
  // Whether the name table was read (a broken one leaves names empty; open() still succeeds
  // only if the diag sink was given, else it fails).
  [[nodiscard]] bool names_ok() const noexcept { return names_ok_; }
  // The whole name table as stored (offset words and entries); empty when out of range.
  [[nodiscard]] ByteView name_table() const noexcept;

  // By logical name (exact, then under the archive flags via the hash lookup) or build path.
  [[nodiscard]] const FileEntry* find(std::string_view name) const;
  // spec: alchemy.md#iga-lookup with the stored divider and slop.
  [[nodiscard]] std::optional<std::size_t> lookup(std::uint32_t hash) const;

  // f's run of block-table entries (B + 1 with the terminator), checked against its table here;
  // an Error naming the file's blocks and its file-info word when the run leaves the table.
  [[nodiscard]] Result<BlockRun> block_run(const FileEntry& f) const;
  // Block-table entry i of table t (caller keeps i < table_count(t); an index outside stops the
  // program). Readers of a file's entries go through block_run().
  [[nodiscard]] std::uint32_t table_count(BlockTable t) const noexcept;
  [[nodiscard]] std::uint32_t table_entry(BlockTable t, std::uint32_t i) const noexcept;
  [[nodiscard]] std::uint64_t table_offset(BlockTable t) const noexcept;  // absolute

  // The resolved blocks of a codec file (empty for stored files); checks the table ranges.
  [[nodiscard]] Result<std::vector<Block>> blocks(const FileEntry& f) const;
  // The end (exclusive, absolute) of the bytes file f may occupy: next file's offset, the name
  // table or the end of the archive (spec: alchemy.md#open Q1).
  [[nodiscard]] std::uint64_t data_bound(const FileEntry& f) const;
  // Where f's data lie (partly) past the end of the archive, as in a file cut short: from its
  // file info, block run and the size prefixes that are inside (a block is bounded by its span, so
  // a bad prefix inside the file is not a cut). nullopt when every byte f needs is inside, or when
  // its block run is broken (read() reports that).
  [[nodiscard]] std::optional<Shortfall> past_end(const FileEntry& f) const;
  // Decodes block b of f into out (out.size() == b.usize).
  Result<void> read_block(const FileEntry& f, const Block& b, std::span<std::uint8_t> out,
                          BlockDecoder& dec, BlockReport* report = nullptr) const;
  // The whole file into a caller buffer of exactly f.length bytes; blocks decoded on `threads`
  // threads (0 = all cores).
  Result<void> read(const FileEntry& f, std::span<std::uint8_t> out, unsigned threads = 1) const;
  // The whole file into `out` (resized to f.length; fails above `cap`).
  Result<void> read(const FileEntry& f, ByteBuffer& out, unsigned threads = 1,
                    std::uint64_t cap = kDefaultMemberCap) const;

  // An error about structure/offset in this archive, with the display name filled in.
  [[nodiscard]] Error error(std::string_view structure, std::uint64_t offset, std::string msg) const;

 private:
  friend struct ArchiveFile;
  Archive() = default;
  Result<void> parse_header(const DiagSink& diags);
  Result<void> parse_toc(const DiagSink& diags);
  Result<void> parse_names(const DiagSink& diags);
  void detect_prefix();
  Result<std::uint32_t> read_prefix(std::uint64_t at, std::uint64_t span) const;
  Result<void> open_block_tables(const ByteReader& r);
  [[nodiscard]] ByteReader reader() const noexcept { return ByteReader(data_, header_.endian, kFormatName); }

  ByteView data_{};
  std::string name_;
  std::uint32_t default_prefix_width() const noexcept;
  Header header_{};
  std::uint32_t header_size_ = 0;
  std::uint32_t info_size_ = 0;
  std::vector<std::uint32_t> hashes_;
  std::vector<FileEntry> files_;
  std::vector<std::uint32_t> by_offset_;  // file indices sorted by offset (data_bound)
  std::uint64_t table_off_[3] = {0, 0, 0};
  RecordTable<Word8> small_;  // the block tables, checked whole by parse_toc
  RecordTable<Word16> medium_;
  RecordTable<Word32> large_;
  unsigned prefix_width_ = 2;
  bool prefix_little_ = true;
  bool names_ok_ = false;
};

// An archive together with the mapping that owns its bytes (Archive itself is a non-owning view).
struct ArchiveFile {
  std::shared_ptr<const void> owner;  // keeps archive.data() alive
  Archive archive;
};
// Maps `path` read-only and opens it (I/O errors are ErrorKind::io).
Result<ArchiveFile> open_file(const std::string& path, const DiagSink& diags = {});

// One block to decode into a caller buffer: the unit of parallel work for read() and extract.
struct BlockJob {
  const FileEntry* file = nullptr;
  Block block;
  std::span<std::uint8_t> out;  // block.usize bytes
};
// Decodes every job on `threads` threads (0 = all cores), one BlockDecoder per thread. On
// failure returns the error of the lowest-numbered failing job and sets *failed_job to it.
Result<void> decode_blocks(const Archive& a, std::span<const BlockJob> jobs, unsigned threads,
                           std::size_t* failed_job = nullptr);

}  // namespace assay::igarchive
