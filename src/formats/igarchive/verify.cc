// igArchive validation. spec: alchemy.md#verify-iga (each rule below names its row).
#include "assay/formats/igarchive/verify.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>

#include "assay/core/progress.h"
#include "assay/core/thread_pool.h"
#include "assay/formats/igarchive/archive.h"
#include "assay/formats/igarchive/salvage.h"
#include "codes.h"

namespace assay::igarchive {

namespace {

struct Ctx {
  const Archive& a;
  Diagnostics& out;
  void add(Severity s, std::string structure, std::uint64_t off, std::string msg) {
    out.add({s, detail::coded(make_error(kFormatName, structure, off, std::move(msg)))});
  }
  void error(std::string s, std::uint64_t o, std::string m) { add(Severity::error, std::move(s), o, std::move(m)); }
  void warning(std::string s, std::uint64_t o, std::string m) { add(Severity::warning, std::move(s), o, std::move(m)); }
  void note(std::string s, std::uint64_t o, std::string m) { add(Severity::note, std::move(s), o, std::move(m)); }
};

std::uint64_t info_offset(const Archive& a, const FileEntry& f) {
  return header_size(a.version()) + 4ull * a.header().num_files + std::uint64_t{f.index} * file_info_size(a.version());
}

// Hash table order, divider, lookup and slop (spec: #iga-hash-table, #iga-lookup).
void check_hashes(Ctx& c) {
  const Archive& a = c.a;
  const auto hs = a.hashes();
  const std::uint64_t base = header_size(a.version());
  bool sorted = true;
  for (std::size_t i = 1; i < hs.size(); ++i)
    if (hs[i] <= hs[i - 1]) {
      sorted = false;
      c.error(fmt::format("hash[{}]", i), base + 4 * i,
              fmt::format("hash 0x{:08x} is not above hash[{}] 0x{:08x}: the table must be strictly ascending", hs[i],
                          i - 1, hs[i - 1]));
    }
  const Header& h = a.header();
  if (h.divider != divider_for(hs.size()))
    c.warning("header", 0x14 - (a.version() == 4 ? 4 : 0),
              fmt::format("hashSearchDivider 0x{:x} is not 0xFFFFFFFF / {} = 0x{:x}", h.divider, hs.size(),
                          divider_for(hs.size())));
  for (std::size_t i = 0; i < hs.size(); ++i) {
    auto idx = a.lookup(hs[i]);
    if (!idx || *idx != i)
      c.error(fmt::format("hash[{}]", i), base + 4 * i,
              fmt::format("file {} (hash 0x{:08x}) is not found by the divider/slop lookup (divider 0x{:x}, slop {})", i,
                          hs[i], h.divider, h.slop));
  }
  if (sorted && !hs.empty()) {
    const std::uint32_t need = minimal_slop(hs, h.divider);
    if (h.slop > need)
      c.note("header", a.version() == 4 ? 0x14 : 0x18,
             fmt::format("hashSearchSlop {} is larger than the {} needed", h.slop, need));
  }
}

// Name-table hashes (spec: #iga-name-table, #iga-hash, #corrections C1, C7). The name reader picked,
// per entry, the string whose hash is in the table; a name no candidate matches is an error in
// every version (the game cannot find the file by it).
void check_names(Ctx& c) {
  const Archive& a = c.a;
  if (!a.names_ok()) return;
  const std::uint32_t flags = a.header().flags;
  std::uint64_t suffixes = 0, first_suffix = 0;
  for (const FileEntry& f : a.files()) {
    const std::string st = fmt::format("name[{}]", f.index);
    const std::uint64_t at = a.header().name_table_offset + f.name_offset;
    switch (f.name_match) {
      case NameMatch::exact: break;
      case NameMatch::folded:
        c.warning(st, at, fmt::format("'{}' hashes to 0x{:08x} only lower-cased with '/' separators (spec C7), "
                                      "although flags 0x{:x} do not ask for it", f.name, f.hash, flags));
        break;
      case NameMatch::suffix:
        if (suffixes++ == 0) first_suffix = f.index;
        break;
      case NameMatch::none: {
        std::string shown(f.name);
        if (f.name_layout == NameLayout::path_name_time || f.name_layout == NameLayout::name_path_time)
          shown = fmt::format("{}' nor '{}", f.name, f.path);
        c.error(st, at, fmt::format("'{}' hashes to 0x{:08x} under flags 0x{:x}, the hash table has 0x{:08x}", shown,
                                    hash_name(f.name, flags), flags, f.hash));
        break;
      }
    }
  }
  if (suffixes)
    c.note("name table", a.header().name_table_offset,
           fmt::format("{} names hash only without their build root (first: file {}, '{}' in '{}')", suffixes,
                       first_suffix, a.files()[first_suffix].name, a.files()[first_suffix].path));
}

struct BlockResult {
  bool ok = true;
  Error err;
  BlockReport rep;
  std::uint64_t used = 0;  // bytes the block occupies on disk
};

}  // namespace

void verify(ByteView data, std::string_view name, const VerifyOptions& opt, Diagnostics& out) {
  Diagnostics open_diags;
  auto opened = Archive::open(data, name, open_diags.sink());
  for (auto d : open_diags.items()) {
    d.where.file.clear();
    d.where = detail::coded(std::move(d.where));
    out.add(std::move(d));
  }
  if (!opened) {
    Error e = opened.error();
    e.file.clear();
    out.error(detail::coded(std::move(e)));
    return;
  }
  const Archive& a = *opened;
  Ctx c{a, out};
  // A cut file (salvage.h): how many files it lost, in one line (their blocks are named below).
  if (const Cut cut = find_cut(a); !cut.lost.empty()) out.add(cut_findings(a, cut).back());
  const Header& h = a.header();
  const std::uint64_t S = h.sector_size;
  check_hashes(c);
  check_names(c);

  struct Extent { std::uint64_t start, end; std::uint32_t file; };
  std::vector<Extent> extents;
  std::vector<std::vector<bool>> covered(3);
  for (int t = 0; t < 3; ++t) covered[t].assign(a.table_count(static_cast<BlockTable>(t)), false);

  // Block jobs for every codec file whose table is sound.
  struct Job { const FileEntry* f; Block b; };
  std::vector<Job> jobs;
  std::vector<std::pair<std::size_t, std::size_t>> file_jobs(a.files().size(), {0, 0});
  for (const FileEntry& f : a.files()) {
    const std::string st = fmt::format("file[{}]", f.index);
    const std::uint64_t io = info_offset(a, f);
    if (f.length > opt.member_cap)
      c.error(st, io + 8 * (a.version() >= 0x0A) + 4,
              fmt::format("length 0x{:x} is above the member cap 0x{:x}", f.length, opt.member_cap));
    if (f.offset % S != 0)
      c.warning(st, io, fmt::format("offset 0x{:x} is not a multiple of the sector size 0x{:x}", f.offset, S));
    const bool has_data = f.compression == Compression::stored ? f.length > 0 : f.num_blocks > 0;
    if (has_data && f.offset < a.toc_end())
      c.error(st, io, fmt::format("offset 0x{:x} is inside the header and TOC (which end at 0x{:x})", f.offset, a.toc_end()));
    if (f.compression == Compression::stored) {
      if (!range_ok(f.offset, f.length, data.size()))
        c.error(st, io, fmt::format("stored data of 0x{:x} bytes at 0x{:x} runs past the file end 0x{:x}", f.length,
                                    f.offset, data.size()));
      else if (f.length)
        extents.push_back({f.offset, f.offset + f.length, f.index});
      continue;
    }
    // Mark the entries this file owns (B + 1), in range.
    const auto t = static_cast<int>(f.table);
    for (std::uint64_t k = 0; k <= f.num_blocks; ++k) {
      const std::uint64_t e = std::uint64_t{f.first_entry} + k;
      if (e < covered[t].size()) covered[t][e] = true;
    }
    auto bl = a.blocks(f);
    if (!bl) {
      Error e = bl.error();
      e.file.clear();
      out.error(detail::coded(std::move(e)));
      continue;
    }
    if (f.num_blocks > 0) {
      const std::uint32_t flag = flag_bit(f.table);
      const std::uint32_t term_raw = a.table_entry(f.table, f.first_entry + f.num_blocks);
      const std::uint64_t term_at = a.table_offset(f.table) + (std::uint64_t{f.first_entry} + f.num_blocks) * entry_bytes(f.table);
      if (term_raw & flag) c.warning(st + " terminator", term_at, "terminator entry has the compressed flag set");
      if ((term_raw & ~flag) == 0) c.note(st + " terminator", term_at, "terminator is 0 (igArchiveLib's form, spec #open Q1)");
    }
    file_jobs[f.index] = {jobs.size(), jobs.size() + bl->size()};
    for (const Block& b : *bl) jobs.push_back({&f, b});
  }

  // Decode every block (spec rows: prefix, LZMA properties, codec failure, consumed < C).
  std::vector<BlockResult> results(jobs.size());
  if (opt.decode) {
    // One decoder and scratch buffer per worker (core's parallel_for_state).
    struct WorkerState {
      BlockDecoder dec;
      ByteBuffer scratch = ByteBuffer(kBlockSize);
    };
    std::uint64_t total = 0;
    for (const Job& j : jobs) total += j.b.usize;
    Progress bar("verify", total, opt.progress);
    bar.set_bytes();
    parallel_for_state(jobs.size(), opt.threads, [] { return WorkerState{}; }, [&](WorkerState& w, std::size_t i) {
      const Job& j = jobs[i];
      BlockResult& r = results[i];
      bar.set_current(std::string(j.f->name));
      auto rr = a.read_block(*j.f, j.b, std::span<std::uint8_t>(w.scratch.data(), j.b.usize), w.dec, &r.rep);
      if (!rr) r.ok = false, r.err = rr.error();
      bar.advance(j.b.usize);
    });
    bar.finish();
  }
  const unsigned pw = a.prefix_width();
  for (const FileEntry& f : a.files()) {
    if (f.compression == Compression::stored) continue;
    const auto [b0, b1] = file_jobs[f.index];
    if (b0 == b1) continue;
    const std::string st = fmt::format("file[{}]", f.index);
    std::uint64_t end = f.offset;
    for (std::size_t i = b0; i < b1; ++i) {
      const Block& b = jobs[i].b;
      BlockResult& r = results[i];
      const std::string bst = fmt::format("file[{}] block {}", f.index, b.index);
      if (!r.ok) {
        Error e = r.err;
        e.file.clear();
        out.error(detail::coded(std::move(e)));
      } else if (opt.decode && b.compressed) {
        const std::uint64_t props = f.compression == Compression::lzma ? 5 : 0;
        if (r.rep.codec_fallback)
          c.warning(bst, b.offset, "version 4 codec 1 decoded as LZMA (spec #open Q3)");
        else if (r.rep.consumed < r.rep.prefix)
          c.warning(bst, b.offset, fmt::format("codec used 0x{:x} of the 0x{:x} payload bytes", r.rep.consumed, r.rep.prefix));
        if (f.compression == Compression::lzma && !r.rep.default_lzma_props)
          c.note(bst, b.offset + pw, "LZMA properties are not 5D 00 80 00 00");
        (void)props;
      }
      const std::uint64_t used = b.compressed ? (r.ok && opt.decode ? pw + (f.compression == Compression::lzma ? 5 : 0) + r.rep.prefix : b.span)
                                              : b.usize;
      end = std::max(end, b.offset + used);
    }
    // Terminator against the sectors actually used (spec #iga-block-tables, #open Q1).
    const std::uint32_t term = a.table_entry(f.table, f.first_entry + f.num_blocks) & ~flag_bit(f.table);
    const std::uint64_t used_sectors = (end - f.offset + S - 1) / S;
    const std::uint64_t term_at = a.table_offset(f.table) + (std::uint64_t{f.first_entry} + f.num_blocks) * entry_bytes(f.table);
    if (term != 0 && term != used_sectors && opt.decode)
      c.warning(st + " terminator", term_at,
                fmt::format("terminator {} differs from the {} sectors the blocks use", term, used_sectors));
    const std::uint64_t ext_end = term != 0 ? f.offset + std::uint64_t{term} * S : f.offset + used_sectors * S;
    extents.push_back({f.offset, ext_end, f.index});
  }

  // No two files overlap (by sector ranges).
  std::sort(extents.begin(), extents.end(), [](const Extent& x, const Extent& y) { return x.start < y.start; });
  for (std::size_t i = 1; i < extents.size(); ++i) {
    const Extent& p = extents[i - 1];
    const Extent& q = extents[i];
    const std::uint64_t p_end = (p.end + S - 1) / S * S;
    if (q.start < p_end)
      c.error(fmt::format("file[{}]", q.file), info_offset(a, a.files()[q.file]),
              fmt::format("data at 0x{:x} overlaps file {} (0x{:x}-0x{:x})", q.start, p.file, p.start, p.end));
  }

  // Block entries used by no file.
  for (int t = 0; t < 3; ++t) {
    std::uint64_t unused = 0, first = 0;
    for (std::size_t e = 0; e < covered[t].size(); ++e)
      if (!covered[t][e]) {
        if (unused++ == 0) first = e;
      }
    if (unused)
      c.warning(fmt::format("{} block table", to_string(static_cast<BlockTable>(t))),
                a.table_offset(static_cast<BlockTable>(t)) + first * entry_bytes(static_cast<BlockTable>(t)),
                fmt::format("{} entries are used by no file (first: entry {})", unused, first));
  }

  // Name table placement and trailing bytes.
  const std::uint64_t nto = h.name_table_offset, nte = nto + h.name_table_size;
  if (range_ok(nto, h.name_table_size, data.size())) {
    for (const Extent& e : extents)
      if (e.end > nto && e.start < data.size()) {
        c.note("name table", nto, fmt::format("the name table is not the last thing in the file: file {} lies after it", e.file));
        break;
      }
    std::uint64_t last = nte;
    for (const Extent& e : extents) last = std::max(last, e.end);
    if (last < data.size())
      c.warning("trailer", last, fmt::format("0x{:x} bytes after the name table and the last file", data.size() - last));
  }

  // The TOC pad (spec #open Q4): report its pattern, never reject.
  const ByteView pad = a.toc_pad();
  if (!pad.empty()) {
    const bool zeros = std::all_of(pad.begin(), pad.end(), [](std::uint8_t b) { return b == 0; });
    const bool ffs = std::all_of(pad.begin(), pad.end(), [](std::uint8_t b) { return b == 0xFF; });
    if (!zeros && !ffs) {
      std::string pat;
      for (std::size_t i = 0; i < std::min<std::size_t>(pad.size(), 24); ++i) pat += fmt::format("{:02x} ", pad[i]);
      c.note("TOC pad", a.toc_end(), fmt::format("0x{:x} pad bytes are neither all 00 nor all FF: {}...", pad.size(), pat));
    }
  }
}

}  // namespace assay::igarchive
