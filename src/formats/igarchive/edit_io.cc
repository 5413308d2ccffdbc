// igArchive edits around the engine (edit.cc): reading the result back, `pack --like` as an
// edit, the checked write (temporary beside the target, renamed only once read back), and the
// Format record's edit for `assay replace/add/remove`.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>

#include "assay/core/mapped_file.h"
#include "assay/core/temp_file.h"
#include "assay/core/thread_pool.h"
#include "assay/formats/edit_data.h"
#include "assay/formats/edit_target.h"
#include "assay/formats/igarchive/edit.h"
#include "assay/formats/igarchive/extract.h"
#include "assay/formats/igarchive/pack.h"
#include "json.h"
#include "formats/serialise.h"

namespace assay::igarchive {

namespace fs = std::filesystem;

Result<void> check_edited(ByteView bytes, const EditPlan& plan, std::uint64_t expected_files, unsigned threads,
                          const std::function<void(std::uint64_t)>& read_up_to) {
  ASSAY_TRY(Archive a, open_strict(bytes, "edited archive", nullptr));
  auto fail = [&](std::string msg) { return make_error(kFormatName, "edit read-back", kNoOffset, std::move(msg)).with_code("igarchive.edit-read-back"); };
  if (a.files().size() != expected_files)
    return fail(fmt::format("{} files, expected {}", a.files().size(), expected_files));
  for (const FileEntry& f : a.files())  // spec: alchemy.md#iga-lookup, as the game finds files
    if (a.lookup(f.hash) != f.index) return fail(fmt::format("'{}' is not found by the hash lookup", f.name));
  (void)threads;
  for (const auto* list : {&plan.replace, &plan.add})
    for (const EditFile& e : *list) {
      const FileEntry* f = a.find(e.name);
      if (!f) return fail(fmt::format("'{}' is missing", e.name));
      // Block by block against the bytes given (read in pieces too): bounded memory.
      ASSAY_TRY(EditData src, e.file.empty() ? Result<EditData>(EditData::of_bytes(e.data)) : EditData::of_file(e.file));
      if (src.size() != f->length) return fail(fmt::format("'{}' is {} bytes, expected {}", e.name, f->length, src.size()));
      const auto differs = [&] { return fail(fmt::format("'{}' does not read back as the bytes given", e.name)); };
      ByteBuffer got, want;
      if (f->compression == Compression::stored) {
        if (!range_ok(f->offset, f->length, a.data().size())) return differs();
        for (std::uint64_t at = 0; at < f->length; at += kBlockSize) {
          want.resize(static_cast<std::size_t>(std::min<std::uint64_t>(kBlockSize, f->length - at)));
          ASSAY_CHECK(src.read(at, want));
          if (!std::equal(want.begin(), want.end(), a.data().begin() + static_cast<std::ptrdiff_t>(f->offset + at))) return differs();
        }
        continue;
      }
      ASSAY_TRY(std::vector<Block> blocks, a.blocks(*f));
      BlockDecoder dec;
      for (const Block& b : blocks) {
        got.resize(b.usize), want.resize(b.usize);
        ASSAY_CHECK(a.read_block(*f, b, got, dec));
        ASSAY_CHECK(src.read(b.out_offset, want));
        if (got != want) return differs();
        if (read_up_to) read_up_to(b.offset);
      }
    }
  return {};
}

Result<EditPlan> plan_like(const Archive& a, const fs::path& dir, std::optional<Compression> extra, unsigned threads,
                           std::vector<std::string>* added) {
  ASSAY_TRY(std::vector<WriterFile> files, files_like(a, dir, extra.value_or(Compression::lzma), added));
  const auto orig = a.files();
  // Decode the originals whose length matches, in parallel, and compare.
  std::vector<char> same(orig.size(), 0);
  std::vector<std::size_t> cand;
  for (std::size_t i = 0; i < orig.size(); ++i)
    if (files[i].data.size() == orig[i].length) cand.push_back(i);
  std::vector<Error> errors(cand.size());
  std::atomic<bool> failed{false};
  parallel_for(cand.size(), threads ? threads : default_threads(), [&](std::size_t k) {
    const std::size_t i = cand[k];
    ByteBuffer buf;
    auto r = a.read(orig[i], buf, 1, std::max<std::uint64_t>(kDefaultMemberCap, orig[i].length));
    if (!r) {
      errors[k] = r.error();
      failed = true;
      return;
    }
    same[i] = buf == files[i].data;
  });
  if (failed)
    for (auto& e : errors)
      if (!e.message.empty()) return e;
  EditPlan p;
  p.threads = threads;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (i < orig.size()) {
      if (same[i]) continue;
      p.replace.push_back({.name = std::string(orig[i].name), .data = std::move(files[i].data)});
    } else {
      p.add.push_back({.name = files[i].name, .data = std::move(files[i].data), .compression = extra});
    }
  }
  return p;
}

Result<void> write_checked(const fs::path& target, ByteView bytes, bool force,
                           const std::function<Result<void>(ByteView)>& check) {
  std::error_code ec;
  if (!force && fs::symlink_status(target, ec).type() != fs::file_type::not_found)
    return io_error(target.string(), "already exists (use --force to overwrite)");
  // Unnamed where the file system allows, else "OUT.assay-edit-<pid>-<start>-XXXXXX", removed on
  // Ctrl-C and by the next run after a kill (core/temp_file.h).
  ASSAY_TRY(TempFile tmp, TempFile::create(target, TempStyle::beside));
  ASSAY_CHECK(tmp.write(bytes));
  ASSAY_CHECK(tmp.finish());
  {
    ASSAY_TRY(MappedFile back, MappedFile::open(tmp.path()));
    if (!std::equal(back.bytes().begin(), back.bytes().end(), bytes.begin(), bytes.end()))
      return io_error(target.string(), "the written file does not read back as written; nothing was changed");
    if (check) ASSAY_CHECK(check(back.bytes()));
  }
  return tmp.commit(/*replace=*/true);
}

Result<void> write_checked_stream(const fs::path& target, bool force, const std::function<Result<void>(const EditOutput&)>& produce,
                                  const std::function<Result<void>(ByteView)>& check) {
  std::error_code ec;
  if (!force && fs::symlink_status(target, ec).type() != fs::file_type::not_found)
    return io_error(target.string(), "already exists (use --force to overwrite)");
  ASSAY_TRY(TempFile tmp, TempFile::create(target, TempStyle::beside));
  {
    // A second descriptor on the temporary for the header written last (pwrite at 0).
    const int fd = ::open(tmp.path().c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return io_error(target.string(), fmt::format("cannot reopen the temporary: {}", std::strerror(errno)));
    struct Close {
      int fd;
      ~Close() { ::close(fd); }
    } close_fd{fd};
    const EditOutput out{[&](ByteView b) { return tmp.write(b); },
                         [&](std::uint64_t at, ByteView b) -> Result<void> {
                           for (std::uint64_t done = 0; done < b.size();) {
                             const ssize_t k = ::pwrite(fd, b.data() + done, b.size() - done, static_cast<off_t>(at + done));
                             if (k < 0 && errno == EINTR) continue;
                             if (k <= 0) return io_error(target.string(), fmt::format("writing failed ({}); nothing was changed", std::strerror(k < 0 ? errno : ENOSPC)));
                             done += static_cast<std::uint64_t>(k);
                           }
                           return {};
                         }};
    ASSAY_CHECK(produce(out));
  }
  ASSAY_CHECK(tmp.finish());
  {
    ASSAY_TRY(MappedFile back, MappedFile::open(tmp.path()));
    if (check) ASSAY_CHECK(check(back.bytes()));
  }
  return tmp.commit(/*replace=*/true);
}


Result<Json> edit_format(const Input& in, const EditRequest& req) {
  if (in.is_directory) return usage_error(in.name + " is a folder, not an igArchive");
  ASSAY_TRY(fs::path target, edit_target(in, req));
  Diagnostics diags;
  ASSAY_TRY(Archive a, open_strict(in.bytes, in.name, &diags));
  EditPlan plan;
  plan.threads = req.read.threads;
  plan.progress = req.progress;
  std::optional<Compression> comp;
  if (auto it = req.read.family.find("compression"); it != req.read.family.end()) {
    comp = compression_from_string(it->second);
    if (!comp) return usage_error("--compression must be lzma, deflate, lz4, none or stored");
  }
  for (const EditChange& c : req.changes) {
    fs::path file;  // the FILE given, when the CLI left the data to us (formats/edit_data.h)
    if (auto it = req.read.family.find(edit_source_key(c.name)); c.data.empty() && it != req.read.family.end()) file = it->second;
    switch (c.op) {
      // The FILE given is read block by block as it is encoded.
      case EditOp::replace: plan.replace.push_back({.name = c.name, .data = c.data, .compression = comp, .file = file}); break;
      case EditOp::add: plan.add.push_back({.name = c.name, .data = c.data, .compression = comp, .file = file}); break;
      case EditOp::remove: plan.remove.push_back(c.name); break;
    }
  }
  const std::uint64_t n = a.files().size() + plan.add.size() - plan.remove.size();
  EditResult r;
  ASSAY_CHECK(write_checked_stream(
      target, req.force || req.in_place,
      [&](const EditOutput& out) -> Result<void> {
        ASSAY_TRY(r, edit_archive(a, plan, out));
        return {};
      },
      [&](ByteView b) {
        // The read-back walks the new files' blocks in order: pages of the mapped temporary behind
        // it are dropped every 16 MiB, so its RSS stays bounded too (read-only file mapping: the
        // pages are only read again from the file).
        std::uint64_t dropped = 0;
        const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
        return check_edited(b, plan, n, req.read.threads, [&](std::uint64_t upto) {
          upto = upto / page * page;
          if (upto < dropped + (std::uint64_t{16} << 20) || upto > b.size()) return;
          ::madvise(const_cast<std::uint8_t*>(b.data()) + dropped, upto - dropped, MADV_DONTNEED);
          dropped = upto;
        });
      }));
  return edit_json(in.name, target.string(), req.in_place, n, r);
}

}  // namespace assay::igarchive
