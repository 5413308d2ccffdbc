// igArchive extraction: files in order, blocks decoded in parallel batches of `window` bytes
// (several small files share a batch; a large file spans several), every output through an
// AtomicFile. Peak memory: one window plus the codec states, not the archive's size.
#include "assay/formats/igarchive/extract.h"

#include <sys/mman.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <optional>

#include "assay/core/glob.h"
#include "assay/core/progress.h"
#include "assay/core/thread_pool.h"

namespace assay::igarchive {

Result<Archive> open_strict(ByteView data, std::string_view name, Diagnostics* diags) {
  Diagnostics local;
  ASSAY_TRY(Archive a, Archive::open(data, name, local.sink()));
  for (const Diagnostic& d : local.items()) {
    if (d.severity == Severity::error) {
      Error e = d.where;
      e.file = std::string(name);
      return e;
    }
    if (diags) diags->add(d);
  }
  return a;
}

namespace {

// MADV_DONTNEED on a private read-only file mapping only drops clean pages (re-read on access).
void release_pages(ByteView all, std::uint64_t from, std::uint64_t to) {
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  const auto base = reinterpret_cast<std::uintptr_t>(all.data());
  std::uint64_t a = (base + from + page - 1) / page * page, b = (base + to) / page * page;
  if (b > a) ::madvise(reinterpret_cast<void*>(a), b - a, MADV_DONTNEED);
}

struct Segment {
  AtomicFile* out;          // stable: outputs live in a deque
  std::uint64_t buf_off;    // in the window buffer
  std::uint64_t size;
  bool last;                // the file's final piece: commit after writing
};

// One batch of blocks decoded together into one buffer.
struct Window {
  ByteBuffer buf;
  std::vector<BlockJob> jobs;
  std::vector<Segment> segs;
  std::uint64_t used = 0, lo = ~std::uint64_t{0}, hi = 0;
  void clear() {
    jobs.clear();
    segs.clear();
    used = 0, lo = ~std::uint64_t{0}, hi = 0;
  }
};

}  // namespace

// Two windows: while one is written out (by a writer thread, in order, committing the files it
// completes), the next one is decoded on all cores.
Result<ExtractResult> extract_all(const Archive& a, const OutputDir& dir, const ExtractSettings& s) {
  struct {
    std::atomic<std::uint64_t> files{0}, bytes{0};
  } res;
  std::vector<const FileEntry*> sel;
  std::uint64_t total = 0;
  for (const FileEntry& f : a.files())
    if (glob_any(s.globs, f.name)) sel.push_back(&f), total += f.length;
  Progress progress("extract", total, s.progress);
  const std::uint64_t window = std::max<std::uint64_t>(s.window, kBlockSize);
  const ByteView data = a.data();
  std::deque<AtomicFile> outs;  // uncommitted ones are discarded (temporaries removed) on error
  Window win[2];
  int cur = 0;
  std::optional<Error> writer_error;
  ThreadPool writer(1);  // core's pool: one thread writing the previous window in order

  // Writes the pieces that lie before buffer offset `limit`; commits the files they complete.
  auto write_window = [&](Window& w, std::uint64_t limit) -> Result<void> {
    for (const Segment& g : w.segs) {
      if (g.buf_off + g.size > limit) break;
      ASSAY_CHECK(g.out->write(ByteView(w.buf.data() + g.buf_off, g.size)));
      res.bytes += g.size;
      if (g.last) {
        ASSAY_CHECK(g.out->commit());
        ++res.files;
      }
    }
    progress.advance(w.used);
    if (s.release_input_pages && w.hi > w.lo) release_pages(data, w.lo, w.hi);
    return {};
  };
  auto join_writer = [&]() -> Result<void> {
    writer.wait();
    if (writer_error) return *writer_error;
    return {};
  };
  auto flush = [&]() -> Result<void> {
    Window& w = win[cur];
    if (w.jobs.empty()) return {};
    std::size_t failed = 0;
    auto r = decode_blocks(a, w.jobs, s.threads, &failed);
    if (!r) {
      ASSAY_CHECK(join_writer());
      (void)write_window(w, static_cast<std::uint64_t>(w.jobs[failed].out.data() - w.buf.data()));
      outs.clear();  // discards the temporaries of unfinished files
      return r.error();
    }
    ASSAY_CHECK(join_writer());
    writer.submit([&, &w = w] {
      auto wr = write_window(w, w.used);
      if (!wr) writer_error = wr.error();
    });
    cur ^= 1;
    win[cur].clear();
    return {};
  };
  auto finish = [&]() -> Result<void> {
    ASSAY_CHECK(flush());
    return join_writer();
  };

  for (const FileEntry* f : sel) {
    if (f->length > s.member_cap)
      return a.error(fmt::format("file[{}]", f->index), f->offset,
                     fmt::format("'{}' is 0x{:x} bytes, above the member cap 0x{:x} (--igarchive-max-member)",
                                 f->name, f->length, s.member_cap));
    if (f->compression == Compression::stored) {
      ASSAY_CHECK(finish());
      if (!range_ok(f->offset, f->length, data.size()))
        return a.error(fmt::format("file[{}]", f->index), f->offset,
                       fmt::format("stored file of 0x{:x} bytes at 0x{:x} runs past the file end 0x{:x}",
                                   f->length, f->offset, data.size()));
      ASSAY_TRY(AtomicFile out, dir.open(f->name));
      for (std::uint64_t p = 0; p < f->length; p += window) {
        const std::uint64_t n = std::min<std::uint64_t>(window, f->length - p);
        ASSAY_CHECK(out.write(data.subspan(f->offset + p, n)));
        if (s.release_input_pages) release_pages(data, f->offset + p, f->offset + p + n);
        progress.advance(n);
      }
      ASSAY_CHECK(out.commit());
      ++res.files;
      res.bytes += f->length;
      continue;
    }
    // Validate the block table before creating anything.
    ASSAY_TRY(std::vector<Block> blocks, a.blocks(*f));
    if (blocks.empty()) {
      ASSAY_TRY(AtomicFile out, dir.open(f->name));
      ASSAY_CHECK(out.commit());
      ++res.files;
      continue;
    }
    ASSAY_TRY(AtomicFile opened, dir.open(f->name));
    outs.push_back(std::move(opened));
    AtomicFile* out = &outs.back();
    for (std::size_t j = 0; j < blocks.size(); ++j) {
      const Block& b = blocks[j];
      if (win[cur].used + b.usize > window) ASSAY_CHECK(flush());  // this file's output stays open
      Window& w = win[cur];
      if (w.buf.empty()) w.buf.resize(window);
      w.jobs.push_back({f, b, std::span<std::uint8_t>(w.buf.data() + w.used, b.usize)});
      const bool last = j + 1 == blocks.size();
      if (!w.segs.empty() && w.segs.back().out == out && w.segs.back().buf_off + w.segs.back().size == w.used)
        w.segs.back().size += b.usize, w.segs.back().last = last;
      else
        w.segs.push_back({out, w.used, b.usize, last});
      w.used += b.usize;
      w.lo = std::min(w.lo, b.offset);
      w.hi = std::max(w.hi, b.offset + std::min<std::uint64_t>(b.span, data.size() - b.offset));
    }
  }
  ASSAY_CHECK(finish());
  progress.finish();
  return ExtractResult{res.files.load(), res.bytes.load()};
}

namespace {

ByteBuffer text_bytes(const std::string& s) { return ByteBuffer(s.begin(), s.end()); }

std::string demo_text(const std::string& title, int lines) {
  std::string s = title + "\n";
  for (int i = 0; i < lines; ++i)
    s += fmt::format("{:05d} level {} actor spawn at ({}, {}, {}) weight {}\n", i, i % 7, (i * 37) % 1000,
                     (i * 91) % 500, (i * 13) % 250, (i * 2654435761u) % 97);
  return s;
}

}  // namespace

std::vector<std::pair<std::string, std::pair<WriterOptions, std::vector<WriterFile>>>> sample_archives() {
  std::vector<std::pair<std::string, std::pair<WriterOptions, std::vector<WriterFile>>>> out;
  {
    WriterOptions o;
    o.version = 8;
    o.endian = Endian::little;
    std::vector<WriterFile> f;
    f.push_back({.name = "JAPANESE.pak", .data = text_bytes(demo_text("language pack: JAPANESE", 40))});
    f.push_back({.name = "levels.txt", .data = text_bytes(demo_text("levels", 1500))});
    f.push_back({.name = "readme.txt", .data = text_bytes("A demo igArchive made by assay's own writer.\n"),
                 .compression = Compression::stored});
    out.push_back({"demo_v8_lzma.bld", {o, std::move(f)}});
  }
  {
    WriterOptions o;
    o.version = 0x0B;
    o.endian = Endian::big;
    o.flags = kFlagCaseInsensitive;
    std::vector<WriterFile> f;
    f.push_back({.name = "actors/spyro.txt", .path = "temporary/mack/data/wiiu/output/actors/spyro.txt",
                 .data = text_bytes(demo_text("actor spyro", 900)), .compression = Compression::deflate});
    f.push_back({.name = "actors/cynder.txt", .path = "temporary/mack/data/wiiu/output/actors/cynder.txt",
                 .data = text_bytes(demo_text("actor cynder", 200)), .compression = Compression::deflate});
    f.push_back({.name = "ui/fonts.txt", .path = "temporary/mack/data/wiiu/output/ui/fonts.txt",
                 .data = text_bytes(demo_text("fonts", 30)), .compression = Compression::lz4});
    out.push_back({"demo_v11_be_deflate.arc", {o, std::move(f)}});
  }
  return out;
}

}  // namespace assay::igarchive
