#include "assay/core/output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>
#include <vector>

#include "assay/core/temp_file.h"
#include "assay/core/text.h"

namespace assay {

namespace fs = std::filesystem;

Result<std::string> sanitize_relative_path(std::string_view name, bool* changed) {
  std::vector<std::string> parts;
  std::string cur;
  auto flush = [&] {
    if (!cur.empty() && cur != "." && cur != "..") parts.push_back(cur);
    cur.clear();
  };
  for (char c : name) {
    if (c == '/' || c == '\\') {
      flush();
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
      cur += '_';
    } else {
      cur += c;
    }
  }
  flush();
  // Drive letters ("C:") leading the path are dropped, every one of them ("C:\\D:\\x" is "x",
  // so sanitising is idempotent; found by fuzz/sanitize_path); a colon elsewhere is kept.
  auto is_drive = [](const std::string& p) {
    return p.size() == 2 && p[1] == ':' && std::isalpha(static_cast<unsigned char>(p[0]));
  };
  std::size_t drives = 0;
  while (drives < parts.size() && is_drive(parts[drives])) ++drives;
  parts.erase(parts.begin(), parts.begin() + static_cast<std::ptrdiff_t>(drives));
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += '/';
    out += p;
  }
  if (changed) *changed = out != name;
  if (out.empty())
    return make_error("output", "entry name", kNoOffset,
                      "name '" + std::string(name) + "' has no safe path component");
  return out;
}

AtomicFile::AtomicFile(AtomicFile&& o) noexcept
    : fd_(o.fd_), buf_(std::move(o.buf_)), target_(std::move(o.target_)), temp_(std::move(o.temp_)), force_(o.force_) {
  o.fd_ = -1;
  o.temp_.clear();
}

AtomicFile& AtomicFile::operator=(AtomicFile&& o) noexcept {
  if (this != &o) {
    discard();
    fd_ = o.fd_;
    buf_ = std::move(o.buf_);
    target_ = std::move(o.target_);
    temp_ = std::move(o.temp_);
    force_ = o.force_;
    o.fd_ = -1;
    o.temp_.clear();
  }
  return *this;
}

AtomicFile::~AtomicFile() { discard(); }

// An unnamed temporary (temp_ empty) vanishes with its descriptor; a named one is removed and
// forgotten by the interrupt handler (core/temp_file.h).
void AtomicFile::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  buf_.clear();
  drop_temporary(temp_.string());
  temp_.clear();
}

namespace {
// OutputDir sweeps each folder once per run (prepare_relative) and turns off the per-file sweep
// of AtomicFile::create meanwhile (the header stays as it was).
thread_local bool t_swept_by_output_dir = false;
}  // namespace

namespace {

// What is at `target` before writing: nothing, or a file --force may replace.
Result<void> check_target(const fs::path& target, bool force) {
  struct stat st {};
  if (::lstat(target.c_str(), &st) != 0) return {};
  if (S_ISLNK(st.st_mode)) return io_error(target.string(), "refusing to write through a symlink");
  if (!force) return io_error(target.string(), "exists (use --force to overwrite)");
  if (S_ISDIR(st.st_mode)) return io_error(target.string(), "is a directory");
  return {};
}

constexpr std::size_t kWriteBuffer = std::size_t{64} << 10, kDirectWrite = std::size_t{4} << 10;

}  // namespace

// Unnamed where the file system allows (mode 0644 less the umask), else
// ".assay-tmp-<pid>-<start>-XXXXXX" (mode 0644). An unnamed temporary meets an existing target
// at linkat, which refuses it without --force, so only --force and a named temporary look first:
// a small file costs open, write, linkat and close.
Result<AtomicFile> AtomicFile::create(const fs::path& target, bool force) {
  if (!t_swept_by_output_dir) remove_stale_temporaries(target.has_parent_path() ? target.parent_path() : fs::path("."));
  ASSAY_TRY(OpenedTemporary t, open_temporary(target, TempStyle::hidden));
  if (force || !t.name.empty()) {
    if (auto ok = check_target(target, force); !ok) {
      ::close(t.fd);
      drop_temporary(t.name);
      return ok.error();
    }
  }
  if (!t.name.empty()) ::fchmod(t.fd, 0644);
  AtomicFile a;
  a.fd_ = t.fd;
  a.temp_ = t.name;
  a.target_ = target;
  a.force_ = force;
  return a;
}

namespace {
// All of `data` to `fd`, through short writes and EINTR.
bool write_all(int fd, ByteView data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data = data.subspan(static_cast<std::size_t>(n));
  }
  return true;
}
}  // namespace

Result<void> AtomicFile::flush() {
  if (buf_.empty()) return {};
  const bool ok = write_all(fd_, buf_);
  buf_.clear();
  if (!ok) return io_error(target_.string(), std::string("write failed: ") + std::strerror(errno));
  return {};
}

// Small writes gather in the buffer; a larger one (a whole file, usually) goes straight to the
// file after what is gathered, without a copy.
Result<void> AtomicFile::write(ByteView data) {
  if (fd_ < 0) return io_error(target_.string(), "file is not open");
  if (buf_.size() + data.size() > kWriteBuffer || data.size() >= kDirectWrite) ASSAY_CHECK(flush());
  if (data.size() >= kDirectWrite) {
    if (!write_all(fd_, data)) return io_error(target_.string(), std::string("write failed: ") + std::strerror(errno));
  } else {
    if (buf_.capacity() == 0) buf_.reserve(kWriteBuffer);
    buf_.insert(buf_.end(), data.begin(), data.end());
  }
  debug_slow_write();
  return {};
}

Result<void> AtomicFile::commit() {
  if (fd_ < 0) return io_error(target_.string(), "file is not open");
  // A full disk shows here or at close: report the errno.
  auto flushed = flush();
  bool ok = flushed.ok();
  int err = ok ? 0 : errno;
  // An unnamed temporary is linked into place while its descriptor is open; a named one renamed.
  // Without --force an existing target is refused atomically (linkat, RENAME_NOREPLACE).
  Result<void> linked;
  if (ok && temp_.empty()) linked = link_temporary(fd_, {}, target_, force_, TempStyle::hidden);
  if (::close(fd_) != 0 && ok) ok = false, err = errno;
  fd_ = -1;
  if (!flushed) return flushed;
  if (!linked) return linked;
  if (!ok) return io_error(target_.string(), std::string("write failed: ") + std::strerror(err));
  if (!temp_.empty()) {
    ASSAY_CHECK(link_temporary(-1, temp_.string(), target_, force_, TempStyle::hidden));
    temp_.clear();
  }
  return {};
}

Result<void> write_file_atomic(const fs::path& path, ByteView data, bool force) {
  ASSAY_TRY(AtomicFile f, AtomicFile::create(path, force));
  ASSAY_CHECK(f.write(data));
  return f.commit();
}

struct OutputDir::Claims {
  std::mutex mu;
  std::set<std::string> files, dirs;  // relative paths claimed in this run
  std::set<std::string> swept;        // folders cleared of stale temporaries
  bool root_made = false;             // the root folder exists (made once per run)
  std::function<void(const PathCollision&)> sink;
  std::size_t collisions = 0;
};

namespace {

// "b.igz" -> "b~2.igz", "b" -> "b~2", ".cfg" -> ".cfg~2" (the suffix goes before the extension).
std::string with_suffix(const std::string& path, unsigned n) {
  const std::size_t slash = path.rfind('/');
  const std::size_t base = slash == std::string::npos ? 0 : slash + 1;
  std::size_t dot = path.rfind('.');
  if (dot == std::string::npos || dot <= base) dot = path.size();
  return path.substr(0, dot) + "~" + std::to_string(n) + path.substr(dot);
}

}  // namespace

OutputDir::OutputDir(fs::path root, bool force)
    : root_(std::move(root)), force_(force), claims_(std::make_shared<Claims>()) {}

void OutputDir::on_collision(std::function<void(const PathCollision&)> sink) {
  std::lock_guard lk(claims_->mu);
  claims_->sink = std::move(sink);
}

std::size_t OutputDir::collisions() const {
  std::lock_guard lk(claims_->mu);
  return claims_->collisions;
}

Result<std::string> OutputDir::claim(std::string_view name) const {
  ASSAY_TRY(std::string rel, sanitize_relative_path(name));
  std::unique_lock lk(claims_->mu);
  Claims& c = *claims_;
  std::string cur;
  std::size_t start = 0;
  for (;;) {
    const std::size_t slash = rel.find('/', start);
    const bool last = slash == std::string::npos;
    std::string cand = cur + (cur.empty() ? "" : "/") + rel.substr(start, last ? std::string::npos : slash - start);
    // A folder cannot take a file's path; a file takes neither a file's nor a folder's path.
    auto taken = [&](const std::string& p) { return c.files.count(p) != 0 || (last && c.dirs.count(p) != 0); };
    if (taken(cand)) {
      unsigned n = 2;
      while (taken(with_suffix(cand, n))) ++n;
      cand = with_suffix(cand, n);
    }
    if (last) {
      c.files.insert(cand);
      if (cand != rel) {
        ++c.collisions;
        PathCollision pc{std::string(name), rel, cand};
        if (c.sink) c.sink(pc);
        else
          std::fprintf(stderr, "assay: %s: same path as an earlier entry after sanitising (%s); written as %s\n",
                       escape_terminal(pc.name).c_str(), escape_terminal(pc.wanted).c_str(),
                       escape_terminal(pc.used).c_str());
      }
      return cand;
    }
    c.dirs.insert(cand);
    cur = std::move(cand);
    start = slash + 1;
  }
}

Result<fs::path> OutputDir::prepare(std::string_view name) const {
  ASSAY_TRY(std::string rel, sanitize_relative_path(name));
  return prepare_relative(rel);
}

Result<fs::path> OutputDir::prepare_relative(const std::string& rel) const {
  bool root_made = false;  // the root is made once per run
  {
    std::lock_guard lk(claims_->mu);
    root_made = claims_->root_made;
  }
  if (!root_made) {
    std::error_code ec;
    fs::create_directories(root_, ec);
    if (ec) return io_error(root_.string(), "cannot create output folder: " + ec.message());
    std::lock_guard lk(claims_->mu);
    claims_->root_made = true;
  }
  fs::path cur = root_;
  const fs::path relp(rel);
  for (auto it = relp.begin(); it != relp.end(); ++it) {
    if (std::next(it) == relp.end()) break;  // the file itself
    cur /= *it;
    struct stat st {};
    if (::lstat(cur.c_str(), &st) == 0) {
      if (S_ISLNK(st.st_mode)) return io_error(cur.string(), "refusing to write through a symlink");
      if (!S_ISDIR(st.st_mode)) return io_error(cur.string(), "exists and is not a folder");
    } else if (::mkdir(cur.c_str(), 0755) != 0 && errno != EEXIST) {
      return io_error(cur.string(), std::string("cannot create folder: ") + std::strerror(errno));
    }
  }
  // The folder written in, once per run: temporaries a killed run left there are removed (also
  // under --skip-existing, whose check comes through here).
  bool first = false;
  {
    std::lock_guard lk(claims_->mu);
    first = claims_->swept.insert(cur.string()).second;
  }
  if (first) remove_stale_temporaries(cur);
  return root_ / relp;
}

Result<AtomicFile> OutputDir::open(std::string_view name) const {
  ASSAY_TRY(std::string rel, claim(name));
  ASSAY_TRY(fs::path p, prepare_relative(rel));
  t_swept_by_output_dir = true;  // prepare_relative swept the folder
  auto f = AtomicFile::create(p, force_);
  t_swept_by_output_dir = false;
  return f;
}

Result<void> OutputDir::write(std::string_view name, ByteView data) const {
  ASSAY_TRY(AtomicFile f, open(name));
  ASSAY_CHECK(f.write(data));
  return f.commit();
}

}  // namespace assay
