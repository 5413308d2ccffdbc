// igArchive writer. spec: alchemy.md#iga-writer
#include "assay/formats/igarchive/writer.h"

#include <lz4.h>
#include <lzma.h>
#include <zlib.h>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <numeric>

#include "assay/core/thread_pool.h"
#include "records.h"

namespace assay::igarchive {

namespace {

void put_prefix(ByteBuffer& out, std::uint32_t c, unsigned width, bool little) {
  std::uint8_t tmp[4];
  if (width == 2) store<std::uint16_t>(tmp, static_cast<std::uint16_t>(c), little ? Endian::little : Endian::big);
  else store<std::uint32_t>(tmp, c, little ? Endian::little : Endian::big);
  out.insert(out.end(), tmp, tmp + width);
}

// spec: alchemy.md#iga-writer rule 8: lc 3, lp 0, pb 2, dictionary 0x8000, no end marker
// (LZMA_FILTER_LZMA1EXT without LZMA_LZMA1EXT_ALLOW_EOPM writes none). In normal mode (presets
// 4-9) the 7-Zip SDK settings the game tools use (spec #corrections C6): fast bytes 128 (liblzma
// nice_len), bt4 match finder. No liblzma setting reproduces the SDK's bytes (docs/cli.md#edit).
bool lzma_encode(ByteView raw, std::uint32_t preset, ByteBuffer& payload) {
  lzma_options_lzma opt{};
  if (lzma_lzma_preset(&opt, std::min<std::uint32_t>(preset, 9)) != 0) return false;
  if (opt.mode == LZMA_MODE_NORMAL) {
    opt.nice_len = 128;
    opt.mf = LZMA_MF_BT4;
  }
  opt.dict_size = 0x8000;
  opt.lc = 3;
  opt.lp = 0;
  opt.pb = 2;
  opt.ext_flags = 0;
  lzma_set_ext_size(opt, raw.size());
  lzma_filter filters[2] = {{LZMA_FILTER_LZMA1EXT, &opt}, {LZMA_VLI_UNKNOWN, nullptr}};
  lzma_stream s = LZMA_STREAM_INIT;
  if (lzma_raw_encoder(&s, filters) != LZMA_OK) return false;
  payload.resize(raw.size() + raw.size() / 2 + 256);
  s.next_in = raw.data();
  s.avail_in = raw.size();
  s.next_out = payload.data();
  s.avail_out = payload.size();
  lzma_ret r;
  do r = lzma_code(&s, LZMA_FINISH);
  while (r == LZMA_OK && s.avail_out > 0);
  const bool ok = r == LZMA_STREAM_END;
  payload.resize(payload.size() - s.avail_out);
  lzma_end(&s);
  return ok;
}

bool deflate_encode(ByteView raw, ByteBuffer& payload) {
  z_stream z{};
  if (deflateInit2(&z, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return false;
  payload.resize(deflateBound(&z, static_cast<uLong>(raw.size())));
  z.next_in = const_cast<Bytef*>(raw.data());
  z.avail_in = static_cast<uInt>(raw.size());
  z.next_out = payload.data();
  z.avail_out = static_cast<uInt>(payload.size());
  const int r = deflate(&z, Z_FINISH);
  payload.resize(payload.size() - z.avail_out);
  deflateEnd(&z);
  return r == Z_STREAM_END;
}

bool lz4_encode(ByteView raw, ByteBuffer& payload) {
  payload.resize(static_cast<std::size_t>(LZ4_compressBound(static_cast<int>(raw.size()))));
  const int n = LZ4_compress_default(reinterpret_cast<const char*>(raw.data()), reinterpret_cast<char*>(payload.data()),
                                     static_cast<int>(raw.size()), static_cast<int>(payload.size()));
  if (n <= 0) return false;
  payload.resize(static_cast<std::size_t>(n));
  return true;
}

}  // namespace

ByteBuffer encode_block(Compression codec, ByteView raw, unsigned prefix_width, bool prefix_little,
                        std::uint32_t lzma_preset) {
  ByteBuffer payload, out;
  bool ok = false;
  switch (codec) {
    case Compression::lzma: ok = lzma_encode(raw, lzma_preset, payload); break;
    case Compression::deflate: ok = deflate_encode(raw, payload); break;
    case Compression::lz4: ok = lz4_encode(raw, payload); break;
    default: return out;
  }
  if (!ok || payload.empty()) return out;
  const std::size_t props = codec == Compression::lzma ? 5 : 0;
  // spec: alchemy.md#iga-writer rule 7: raw when prefix + properties + payload is not smaller.
  if (prefix_width + props + payload.size() >= raw.size()) return out;
  if (prefix_width == 2 && payload.size() > 0xFFFF) return out;
  out.reserve(prefix_width + props + payload.size());
  put_prefix(out, static_cast<std::uint32_t>(payload.size()), prefix_width, prefix_little);
  if (props) {
    const std::uint8_t p[5] = {0x5D, 0x00, 0x80, 0x00, 0x00};
    out.insert(out.end(), p, p + 5);
  }
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}

Result<ByteBuffer> write_archive(const std::vector<WriterFile>& in, const WriterOptions& opt) {
  auto fail = [](std::string msg) { return make_error(kFormatName, "writer", kNoOffset, std::move(msg)).with_code("igarchive.writer"); };
  const std::uint32_t v = opt.version;
  if (!is_known_version(v)) return fail(fmt::format("unknown version 0x{:x}", v));
  const std::uint64_t S = v == 4 ? 0x800 : opt.sector_size;
  if (S == 0 || (S & (S - 1)) != 0) return fail(fmt::format("sector size 0x{:x} is not a power of two", S));
  const unsigned pw = opt.prefix_width ? opt.prefix_width : (v >= 0x0C ? 4 : 2);
  if (pw != 2 && pw != 4) return fail("prefix width must be 2 or 4");
  const bool ple = opt.prefix_little.value_or(v != 4);
  const Endian E = opt.endian;
  const std::uint64_t N = in.size();
  if (N > 0x0FFFFFFF) return fail("too many files");

  // Rule 2: hash under the flags, sort ascending; equal hashes are an error.
  struct Item {
    const WriterFile* f;
    std::uint32_t hash;
    std::uint64_t ordinal;
    std::uint64_t offset = 0;
    std::uint32_t first = 0;
    BlockTable table = BlockTable::small;
    std::vector<std::uint32_t> entries;  // B entries + terminator
  };
  std::vector<Item> items(N);
  for (std::size_t i = 0; i < N; ++i) {
    const WriterFile& f = in[i];
    if (f.data.size() > 0xFFFFFFFFull) return fail(fmt::format("{}: larger than 4 GiB", f.name));
    if (f.name.empty()) return fail(fmt::format("file {} has an empty name", i));
    items[i] = {&f, hash_name(f.name, opt.flags), f.ordinal ? *f.ordinal : i};
  }
  std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.hash < b.hash; });
  for (std::size_t i = 1; i < N; ++i)
    if (items[i].hash == items[i - 1].hash)
      return fail(fmt::format("'{}' and '{}' have the same hash 0x{:08x}: one archive cannot hold both",
                              items[i - 1].f->name, items[i].f->name, items[i].hash));
  std::vector<std::uint32_t> hashes(N);
  for (std::size_t i = 0; i < N; ++i) hashes[i] = items[i].hash;
  // Rules 3, 4.
  const std::uint32_t divider = divider_for(N);
  std::uint32_t slop = N == 0 ? 0 : minimal_slop(hashes, divider);
  if (opt.slop && *opt.slop > slop) slop = *opt.slop;

  // Rule 7: compress every block (in parallel).
  struct Job { std::size_t item; std::uint64_t j; };
  std::vector<Job> jobs;
  for (std::size_t i = 0; i < N; ++i) {
    const Compression c = items[i].f->compression;
    if (c == Compression::stored) continue;
    items[i].table = table_for_length(items[i].f->data.size(), static_cast<std::uint32_t>(S));
    if (c == Compression::none) continue;
    for (std::uint64_t j = 0; j < block_count(items[i].f->data.size()); ++j) jobs.push_back({i, j});
  }
  std::vector<ByteBuffer> encoded(jobs.size());
  parallel_for(jobs.size(), opt.threads, [&](std::size_t k) {
    const Item& it = items[jobs[k].item];
    const auto& d = it.f->data;
    const std::uint64_t start = jobs[k].j * kBlockSize;
    ByteView raw(d.data() + start, block_usize(d.size(), jobs[k].j));
    encoded[k] = encode_block(it.f->compression, raw, pw, ple, opt.lzma_preset);
    if (opt.progress) opt.progress(raw.size(), it.f->name);
  });
  std::map<std::pair<std::size_t, std::uint64_t>, std::size_t> job_of;
  for (std::size_t k = 0; k < jobs.size(); ++k) job_of[{jobs[k].item, jobs[k].j}] = k;

  // TOC geometry (spec: alchemy.md#iga-toc).
  const std::uint64_t F = file_info_size(v), H = header_size(v);
  std::uint64_t counts[3] = {0, 0, 0};
  std::vector<std::size_t> data_order(N);
  std::iota(data_order.begin(), data_order.end(), 0);
  std::stable_sort(data_order.begin(), data_order.end(),
                   [&](std::size_t a, std::size_t b) { return items[a].ordinal < items[b].ordinal; });
  for (std::size_t i : data_order) {
    Item& it = items[i];
    if (it.f->compression == Compression::stored) continue;
    it.first = static_cast<std::uint32_t>(counts[static_cast<int>(it.table)]);
    counts[static_cast<int>(it.table)] += block_count(it.f->data.size()) + 1;
  }
  const std::uint64_t n_small = counts[0], n_medium = counts[1], n_large = counts[2];
  if (n_small > 0x0FFFFFFF || n_medium > 0x0FFFFFFF || n_large > 0x0FFFFFFF) return fail("block tables too large");
  const std::uint64_t toc = N * (4 + F) + 4 * n_large + 2 * n_medium + n_small;
  if (toc > 0xFFFFFFFFull) return fail("TOC larger than 4 GiB");

  ByteWriter w(E);
  w.zeros(H + toc);
  if (opt.toc_pad) w.bytes(*opt.toc_pad);
  w.align(S);
  // Rules 5, 6: data in ordinal order; each file and each block on a sector boundary.
  for (std::size_t i : data_order) {
    Item& it = items[i];
    const auto& d = it.f->data;
    w.align(S);
    it.offset = w.size();
    if (it.f->compression == Compression::stored) {
      w.bytes(d);
      continue;
    }
    const std::uint32_t flag = flag_bit(it.table);
    const std::uint64_t max_sector = flag - 1;
    const std::uint64_t B = block_count(d.size());
    for (std::uint64_t j = 0; j < B; ++j) {
      w.align(S);
      const std::uint64_t sector = (w.size() - it.offset) / S;
      if (sector > max_sector) return fail(fmt::format("{}: block sector {} does not fit the {} table", it.f->name, sector, to_string(it.table)));
      const ByteBuffer* enc = nullptr;
      if (it.f->compression != Compression::none) {
        const ByteBuffer& e = encoded[job_of.at({i, j})];
        if (!e.empty()) enc = &e;
      }
      if (enc) {
        it.entries.push_back(static_cast<std::uint32_t>(sector) | flag);
        w.bytes(*enc);
      } else {
        it.entries.push_back(static_cast<std::uint32_t>(sector));
        w.bytes(ByteView(d.data() + j * kBlockSize, block_usize(d.size(), j)));
      }
    }
    w.align(S);
    const std::uint64_t total = (w.size() - it.offset) / S;
    if (total > max_sector) return fail(fmt::format("{}: {} sectors do not fit the {} table", it.f->name, total, to_string(it.table)));
    it.entries.push_back(opt.zero_terminator ? 0 : static_cast<std::uint32_t>(total));
  }
  w.align(S);
  // Rule 9: the name table after the last file (spec: alchemy.md#iga-name-table).
  const std::uint64_t nto = w.size();
  if (v <= 8 && nto > 0xFFFFFFFFull) return fail("name table offset does not fit the u32 field");
  ByteWriter nt(E);
  nt.zeros(4 * N);
  for (std::size_t i = 0; i < N; ++i) {
    nt.patch<std::uint32_t>(4 * i, static_cast<std::uint32_t>(nt.size()));
    const WriterFile& f = *items[i].f;
    const std::string& path = f.path.empty() ? f.name : f.path;
    if (v == 4) {
      nt.cstr(f.name);
    } else if (v == 8) {
      nt.cstr(f.name);
      nt.u32(f.time);
    } else {
      const bool path_first = v >= 0x0B || opt.v10_path_first;
      nt.cstr(path_first ? path : f.name);
      nt.cstr(path_first ? f.name : path);
      nt.u32(f.time);
    }
  }
  if (nt.size() > 0xFFFFFFFFull) return fail("name table larger than 4 GiB");
  w.bytes(nt.buffer());

  // Rule 10: header and TOC last.
  Header h;
  h.endian = w.endian(), h.version = v, h.toc_size = static_cast<std::uint32_t>(toc), h.num_files = static_cast<std::uint32_t>(N);
  h.sector_size = static_cast<std::uint32_t>(S), h.divider = divider, h.slop = slop, h.name_table_offset = nto;
  h.name_table_size = static_cast<std::uint32_t>(nt.size()), h.num_large = static_cast<std::uint32_t>(n_large);
  h.num_medium = static_cast<std::uint32_t>(n_medium), h.num_small = static_cast<std::uint32_t>(n_small), h.flags = opt.flags;
  const ByteBuffer header = records::encode_header(h);
  for (std::size_t k = 0; k < header.size(); ++k) w.patch<std::uint8_t>(k, header[k]);
  std::uint64_t at = H;
  for (std::size_t i = 0; i < N; ++i, at += 4) w.patch<std::uint32_t>(at, items[i].hash);
  for (std::size_t i = 0; i < N; ++i, at += F) {
    const Item& it = items[i];
    const Compression c = it.f->compression;
    const std::uint32_t word = c == Compression::stored ? kStoredWord
                                                        : (static_cast<std::uint32_t>(c) << 28) | it.first;
    if (F == 12 && it.offset > 0xFFFFFFFFull) return fail("file offset does not fit the u32 field");
    if (F == 16 && it.offset > 0xFFFFFFFFFFull) return fail("file offset does not fit 40 bits");
    const ByteBuffer info = records::encode_file_info(F, it.offset, static_cast<std::uint32_t>(it.ordinal),
                                                      static_cast<std::uint32_t>(it.f->data.size()), word, w.endian());
    for (std::size_t k = 0; k < info.size(); ++k) w.patch<std::uint8_t>(at + k, info[k]);
  }
  const std::uint64_t tab[3] = {at + 4 * n_large + 2 * n_medium, at + 4 * n_large, at};  // small, medium, large
  for (const Item& it : items) {
    if (it.f->compression == Compression::stored) continue;
    const int t = static_cast<int>(it.table);
    const std::uint64_t eb = entry_bytes(it.table);
    for (std::size_t k = 0; k < it.entries.size(); ++k) {
      const std::uint64_t pos = tab[t] + (it.first + k) * eb;
      if (eb == 1) w.patch<std::uint8_t>(pos, static_cast<std::uint8_t>(it.entries[k]));
      else if (eb == 2) w.patch<std::uint16_t>(pos, static_cast<std::uint16_t>(it.entries[k]));
      else w.patch<std::uint32_t>(pos, it.entries[k]);
    }
  }
  return w.take();
}

WriterOptions options_like(const Archive& a) {
  const Header& h = a.header();
  WriterOptions o;
  o.version = h.version;
  o.endian = h.endian;
  o.flags = h.flags;
  o.sector_size = h.sector_size;
  o.prefix_width = a.prefix_width();
  o.prefix_little = a.prefix_little();
  o.slop = h.slop;
  // Terminator form: 0 when every codec file with blocks ends in 0 (spec #open Q1).
  bool any = false, all_zero = true;
  for (const FileEntry& f : a.files()) {
    if (f.compression == Compression::stored || f.num_blocks == 0) continue;
    if (std::uint64_t{f.first_entry} + f.num_blocks >= a.table_count(f.table)) continue;
    any = true;
    const std::uint32_t term = a.table_entry(f.table, f.first_entry + f.num_blocks) & ~flag_bit(f.table);
    if (term != 0) all_zero = false;
  }
  o.zero_terminator = any && all_zero;
  if (h.version == 0x0A && !a.files().empty()) o.v10_path_first = a.files().front().path_first;
  const ByteView pad = a.toc_pad();
  // Keep the pad bytes only up to the first sector boundary's worth of content (Q4).
  o.toc_pad = ByteBuffer(pad.begin(), pad.end());
  return o;
}

std::vector<WriterFile> entries_like(const Archive& a) {
  std::vector<WriterFile> out;
  const auto files = a.files();
  // v4/v8 keep no ordinal: the data order is the offset order.
  std::vector<std::uint32_t> rank(files.size());
  std::vector<std::uint32_t> idx(files.size());
  std::iota(idx.begin(), idx.end(), 0u);
  std::stable_sort(idx.begin(), idx.end(), [&](std::uint32_t x, std::uint32_t y) {
    if (a.version() >= 0x0A && files[x].ordinal != files[y].ordinal) return files[x].ordinal < files[y].ordinal;
    return files[x].offset < files[y].offset;
  });
  for (std::uint32_t r = 0; r < idx.size(); ++r) rank[idx[r]] = r;
  for (const FileEntry& f : files) {
    WriterFile w;
    w.name = std::string(f.name);
    if (a.version() >= 0x0A) w.path = std::string(f.path);
    w.compression = f.compression;
    w.time = f.time;
    w.ordinal = a.version() >= 0x0A ? f.ordinal : rank[f.index];
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace assay::igarchive
