// igArchive extraction, one member at a time (the writer behind core's extract_each): blocks
// decoded in parallel windows of `window` bytes, a large member spanning several, written through
// an AtomicFile. Peak memory: two windows plus the codec states, not the member's length.
#include "assay/formats/igarchive/extract.h"

#include <sys/mman.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <optional>

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

// A stored member: copied from the mapping `window` bytes at a time. spec: alchemy.md#iga-stored-files
Result<ExtractCount> write_stored(const Archive& a, const FileEntry& f, const OutputDir& dir, const MemberSettings& s) {
  const ByteView data = a.data();
  if (f.length != 0 && !range_ok(f.offset, f.length, data.size()))  // an empty file needs no bytes (a cut archive)
    return a.error(fmt::format("file[{}]", f.index), f.offset,
                   fmt::format("stored file of 0x{:x} bytes at 0x{:x} runs past the file end 0x{:x}", f.length,
                               f.offset, data.size()));
  ASSAY_TRY(AtomicFile out, dir.open(s.name.empty() ? f.name : s.name));
  for (std::uint64_t p = 0; p < f.length; p += s.window) {
    const std::uint64_t n = std::min<std::uint64_t>(s.window, f.length - p);
    ASSAY_CHECK(out.write(data.subspan(f.offset + p, n)));
    if (s.release_input_pages) release_pages(data, f.offset + p, f.offset + p + n);
  }
  ASSAY_CHECK(out.commit());
  return ExtractCount{1, f.length};
}

// Consecutive blocks of one member decoded together into one buffer.
struct Window {
  ByteBuffer buf;
  std::vector<BlockJob> jobs;
  std::uint64_t used = 0, lo = ~std::uint64_t{0}, hi = 0;  // bytes decoded; archive range read
  void clear() { jobs.clear(), used = 0, lo = ~std::uint64_t{0}, hi = 0; }
};

// The decoded member, window by window, into one AtomicFile: while a writer thread (core's pool)
// writes one window, the next is decoded on `threads` cores. A member that fits one window is
// decoded and written on the calling thread.
class MemberStream {
 public:
  MemberStream(const Archive& a, const FileEntry& f, const MemberSettings& s, AtomicFile& out, std::uint64_t total)
      : a_(a), f_(f), s_(s), out_(out), size_(std::min(s.window, total)) {
    if (total > s.window) writer_.emplace(1);
  }
  ~MemberStream() { (void)join(); }  // the writer never outlives the file it writes

  Result<void> add(const Block& b) {
    if (b.usize > size_)  // block_usize() never gives more than kBlockSize <= size_
      return a_.error(fmt::format("file[{}]", f_.index), b.offset, "block larger than the decode window");
    if (win_[cur_].used + b.usize > size_) ASSAY_CHECK(flush());
    Window& w = win_[cur_];
    if (w.buf.empty()) w.buf.resize(size_);
    w.jobs.push_back({&f_, b, std::span<std::uint8_t>(w.buf.data() + w.used, b.usize)});
    w.used += b.usize;
    w.lo = std::min(w.lo, b.offset);
    w.hi = std::max(w.hi, b.offset + std::min<std::uint64_t>(b.span, a_.data().size() - b.offset));
    return {};
  }

  Result<void> finish() {
    ASSAY_CHECK(flush());
    return join();
  }

 private:
  Result<void> flush() {
    Window& w = win_[cur_];
    if (w.jobs.empty()) return {};
    auto decoded = decode_blocks(a_, w.jobs, s_.threads);
    ASSAY_CHECK(join());  // the previous window is written (or failed) before this one goes
    if (!decoded) return decoded.error();
    if (!writer_) {
      ASSAY_CHECK(write(w));
      w.clear();
      return {};
    }
    writer_->submit([this, &w] {
      if (auto r = write(w); !r) error_ = r.error();
    });
    cur_ ^= 1;
    win_[cur_].clear();
    return {};
  }

  Result<void> write(const Window& w) {
    ASSAY_CHECK(out_.write(ByteView(w.buf.data(), w.used)));
    if (s_.release_input_pages && w.hi > w.lo) release_pages(a_.data(), w.lo, w.hi);
    return {};
  }

  Result<void> join() {
    if (writer_) writer_->wait();
    if (error_) return *error_;
    return {};
  }

  const Archive& a_;
  const FileEntry& f_;
  const MemberSettings& s_;
  AtomicFile& out_;
  const std::uint64_t size_;  // bytes per window
  Window win_[2];
  int cur_ = 0;
  std::optional<Error> error_;       // the writer's
  std::optional<ThreadPool> writer_;  // only for a member longer than one window
};

}  // namespace

Result<ExtractCount> write_member(const Archive& a, const FileEntry& f, const OutputDir& dir, const MemberSettings& settings) {
  MemberSettings s = settings;
  s.window = std::max<std::uint64_t>(s.window, kBlockSize);
  if (f.length > s.member_cap)
    return a.error(fmt::format("file[{}]", f.index), f.offset,
                   fmt::format("'{}' is 0x{:x} bytes, above the member cap 0x{:x} (--igarchive-max-member)", f.name,
                               f.length, s.member_cap));
  if (f.compression == Compression::stored) return write_stored(a, f, dir, s);
  ASSAY_TRY(std::vector<Block> blocks, a.blocks(f));  // validated before anything is created
  std::uint64_t total = 0;
  for (const Block& b : blocks) total += b.usize;
  ASSAY_TRY(AtomicFile out, dir.open(s.name.empty() ? f.name : s.name));
  {
    MemberStream stream(a, f, s, out, total);
    for (const Block& b : blocks) ASSAY_CHECK(stream.add(b));
    ASSAY_CHECK(stream.finish());
  }
  ASSAY_CHECK(out.commit());
  return ExtractCount{1, total};
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
