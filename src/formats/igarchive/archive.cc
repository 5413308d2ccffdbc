// igArchive reader: open (header, TOC, prefix width), lookup by name, the file mapping.
// spec: alchemy.md#iga, #iga-lookup
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
    h = v4.header();
    ASSAY_CHECK(report(diags, Severity::warning,
                       error("header", 4, "version 4 layout is uncertain (spec #iga-header-v4: ig-workshop only)")));
  } else if (h.version == 8) {
    ASSAY_TRY(auto v8, read_record<records::HeaderV8>(r, 0, "header"));
    h = v8.header();
  } else {
    ASSAY_TRY(auto v10, read_record<records::HeaderV10>(r, 0, "header"));
    h = v10.header();
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
