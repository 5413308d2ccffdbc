// Unnamed temporaries where possible, named and registered ones otherwise, and the next run's
// removal of those a killed process left (core/temp_file.h).
#include "assay/core/temp_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include "assay/core/interrupt.h"

namespace assay {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kHidden = ".assay-tmp-";
constexpr std::string_view kBeside = ".assay-edit-";
constexpr std::size_t kRandomChars = 6;

// The wall-clock time this process started using the library ("older than the run").
const std::time_t kRunStart = std::time(nullptr);

// /proc/<pid>/stat field 22 (start time in clock ticks since boot); 0 when unreadable.
unsigned long long start_ticks(long pid) {
  std::ifstream f(pid == 0 ? std::string("/proc/self/stat") : fmt::format("/proc/{}/stat", pid));
  std::string line;
  if (!f || !std::getline(f, line)) return 0;
  const auto paren = line.rfind(')');  // the command name may hold spaces and parentheses
  if (paren == std::string::npos) return 0;
  std::istringstream rest(line.substr(paren + 1));
  std::string field;
  for (int i = 3; i <= 22; ++i)
    if (!(rest >> field)) return 0;
  unsigned long long v = 0;
  std::from_chars(field.data(), field.data() + field.size(), v);
  return v;
}

// "<pid>-<start>-", made again in a forked child (its pid differs).
std::string owner_tag() {
  static std::mutex mu;
  static pid_t pid = 0;
  static std::string tag;
  std::lock_guard lk(mu);
  if (pid != ::getpid()) pid = ::getpid(), tag = fmt::format("{}-{}-", pid, start_ticks(0));
  return tag;
}

bool env_set(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' && std::string_view(v) != "0";
}

bool named_only() { return env_set("ASSAY_DEBUG_NAMED_TEMP"); }  // read each time: tests switch it

// linkat through /proc/self/fd needs /proc.
bool proc_fd_available() {
  static const bool v = ::access("/proc/self/fd", X_OK) == 0;
  return v;
}

std::string random_chars() {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  thread_local std::minstd_rand rng(static_cast<unsigned>(
      std::chrono::steady_clock::now().time_since_epoch().count() ^ std::hash<std::thread::id>()(std::this_thread::get_id())));
  std::string s(kRandomChars, 'A');
  for (char& c : s) c = kAlphabet[rng() % (sizeof kAlphabet - 1)];
  return s;
}

fs::path folder_of(const fs::path& target) { return target.has_parent_path() ? target.parent_path() : fs::path("."); }

std::string temporary_name(const fs::path& target, TempStyle style) {
  const std::string tail = owner_tag() + random_chars();
  if (style == TempStyle::hidden) return (folder_of(target) / (std::string(kHidden) + tail)).string();
  return (folder_of(target) / (target.filename().string() + std::string(kBeside) + tail)).string();
}

Error errno_error(const fs::path& target, const char* what, int err) {
  return io_error(target.string(), fmt::format("{}: {}", what, std::strerror(err)));
}

bool all_alnum(std::string_view s) {
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) return false;
  return true;
}

// What a temporary's name says about its owner.
struct Owner {
  bool ours = false;    // a name of assay's making
  bool legacy = false;  // without an owner (earlier versions)
  long pid = 0;
  unsigned long long start = 0;
};

Owner owner_of(std::string_view name) {
  Owner o;
  std::string_view tail;
  if (name.substr(0, kHidden.size()) == kHidden) tail = name.substr(kHidden.size());
  else if (const auto at = name.rfind(kBeside); at != std::string_view::npos && at > 0) tail = name.substr(at + kBeside.size());
  else return o;
  if (tail.size() == kRandomChars) {
    o.ours = o.legacy = all_alnum(tail);
    return o;
  }
  // <pid>-<start>-XXXXXX
  const char* p = tail.data();
  const char* end = tail.data() + tail.size();
  auto r1 = std::from_chars(p, end, o.pid);
  if (r1.ec != std::errc() || r1.ptr == end || *r1.ptr != '-' || o.pid <= 0) return o;
  auto r2 = std::from_chars(r1.ptr + 1, end, o.start);
  if (r2.ec != std::errc() || r2.ptr == end || *r2.ptr != '-') return o;
  const std::string_view rnd(r2.ptr + 1, static_cast<std::size_t>(end - r2.ptr - 1));
  o.ours = rnd.size() == kRandomChars && all_alnum(rnd);
  return o;
}

bool alive(const Owner& o) {
  if (o.pid == ::getpid()) return true;
  const unsigned long long start = start_ticks(o.pid);
  if (start == 0) {  // no such process (or unreadable: then keep it)
    struct stat st {};
    return ::stat(fmt::format("/proc/{}", o.pid).c_str(), &st) == 0;
  }
  return o.start == 0 || start == o.start;
}

}  // namespace

bool is_assay_temporary(std::string_view filename) {
  return filename.substr(0, kHidden.size()) == kHidden || filename.find(kBeside) != std::string_view::npos;
}

std::size_t remove_stale_temporaries(const fs::path& folder) {
  if (!proc_fd_available()) return 0;  // without /proc no owner can be checked
  const int dfd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dfd < 0) return 0;
  DIR* d = ::fdopendir(dfd);
  if (d == nullptr) {
    ::close(dfd);
    return 0;
  }
  std::size_t removed = 0;
  while (const dirent* de = ::readdir(d)) {
    const std::string_view n = de->d_name;
    if (!is_assay_temporary(n)) continue;
    const Owner o = owner_of(n);
    if (!o.ours) continue;
    struct stat st {};
    if (::fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) continue;
    const bool stale = o.legacy ? st.st_mtime + 600 < kRunStart : st.st_mtime <= kRunStart && !alive(o);
    if (stale && ::unlinkat(dfd, de->d_name, 0) == 0) ++removed;
  }
  ::closedir(d);
  return removed;
}

Result<OpenedTemporary> open_temporary(const fs::path& target, TempStyle style) {
  const fs::path dir = folder_of(target);
  if (!named_only() && proc_fd_available()) {
    const int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);  // not seen until linked
    if (fd >= 0) return OpenedTemporary{fd, {}};
    // EOPNOTSUPP, EISDIR (a kernel without O_TMPFILE), EINVAL: a named one below.
  }
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string name = temporary_name(target, style);
    SignalShield shield;  // registered before it exists, so an interruption removes it
    ASSAY_CHECK(register_temporary(name));
    const int fd = ::open(name.c_str(), O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd >= 0) return OpenedTemporary{fd, name};
    const int err = errno;
    unregister_temporary(name);
    if (err != EEXIST) return errno_error(target, "cannot create", err);
  }
  return io_error(target.string(), "cannot create a temporary file beside it");
}

Result<void> link_temporary(int fd, const std::string& name, const fs::path& target, bool replace, TempStyle style) {
  if (!name.empty()) {  // named: rename, refusing an existing target atomically without `replace`
    const int r = replace ? ::rename(name.c_str(), target.c_str())
                          : ::renameat2(AT_FDCWD, name.c_str(), AT_FDCWD, target.c_str(), RENAME_NOREPLACE);
    int err = r == 0 ? 0 : errno;
    if (!replace && (err == EINVAL || err == ENOSYS)) {  // a file system without RENAME_NOREPLACE
      struct stat st {};
      err = ::lstat(target.c_str(), &st) == 0 ? EEXIST : ::rename(name.c_str(), target.c_str()) == 0 ? 0 : errno;
    }
    if (err == EEXIST) return io_error(target.string(), "exists (use --force to overwrite)");
    if (err != 0) return errno_error(target, "rename failed", err);
    unregister_temporary(name);
    return {};
  }
  const std::string proc = fmt::format("/proc/self/fd/{}", fd);
  if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, target.c_str(), AT_SYMLINK_FOLLOW) == 0) return {};
  if (errno != EEXIST) return errno_error(target, "cannot link the file into place", errno);
  if (!replace) return io_error(target.string(), "exists (use --force to overwrite)");
  // Replacing: a name beside it for a moment, then renamed over the target.
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string tmp = temporary_name(target, style);
    {
      SignalShield shield;
      ASSAY_CHECK(register_temporary(tmp));
      if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, tmp.c_str(), AT_SYMLINK_FOLLOW) != 0) {
        const int err = errno;
        unregister_temporary(tmp);
        if (err == EEXIST) continue;
        return errno_error(target, "cannot link the file into place", err);
      }
    }
    if (::rename(tmp.c_str(), target.c_str()) != 0) {
      const int err = errno;
      drop_temporary(tmp);
      return errno_error(target, "rename failed", err);
    }
    unregister_temporary(tmp);
    return {};
  }
  return io_error(target.string(), "cannot create a temporary file beside it");
}

void drop_temporary(const std::string& name) {
  if (name.empty()) return;
  ::unlink(name.c_str());
  unregister_temporary(name);
}

void debug_slow_write() {
  static const long ms = [] {
    const char* v = std::getenv("ASSAY_DEBUG_SLOW_WRITE_MS");
    return v != nullptr ? std::strtol(v, nullptr, 10) : 0L;
  }();
  if (ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

// ---- TempFile ----

Result<TempFile> TempFile::create(const fs::path& target, TempStyle style) {
  remove_stale_temporaries(folder_of(target));
  ASSAY_TRY(OpenedTemporary t, open_temporary(target, style));
  TempFile f;
  f.fd_ = t.fd;
  f.name_ = std::move(t.name);
  f.target_ = target;
  f.style_ = style;
  f.read_path_ = f.name_.empty() ? fs::path(fmt::format("/proc/self/fd/{}", f.fd_)) : fs::path(f.name_);
  struct stat st {};
  if (::stat(target.c_str(), &st) == 0) {
    ::fchmod(f.fd_, st.st_mode & 07777);
  } else {
    const mode_t m = ::umask(0);
    ::umask(m);
    ::fchmod(f.fd_, 0666 & ~m);
  }
  return f;
}

TempFile::TempFile(TempFile&& o) noexcept { *this = std::move(o); }

TempFile& TempFile::operator=(TempFile&& o) noexcept {
  if (this != &o) {
    discard();
    fd_ = std::exchange(o.fd_, -1);
    name_ = std::exchange(o.name_, {});
    target_ = std::move(o.target_);
    read_path_ = std::exchange(o.read_path_, {});
    style_ = o.style_;
  }
  return *this;
}

TempFile::~TempFile() { discard(); }

void TempFile::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  drop_temporary(name_);
  name_.clear();
}

Result<void> TempFile::write(ByteView b) {
  if (fd_ < 0) return io_error(target_.string(), "file is not open");
  std::uint64_t off = 0;
  while (off < b.size()) {
    const ssize_t k = ::write(fd_, b.data() + off, std::min<std::uint64_t>(b.size() - off, 1u << 30));
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0)
      return io_error(target_.string(), fmt::format("writing failed ({}); nothing was changed", std::strerror(k < 0 ? errno : ENOSPC)));
    off += static_cast<std::uint64_t>(k);
  }
  debug_slow_write();
  return {};
}

Result<void> TempFile::finish() {
  if (fd_ < 0) return io_error(target_.string(), "file is not open");
  if (::fsync(fd_) != 0 && errno != EINVAL)
    return io_error(target_.string(), fmt::format("writing failed ({}); nothing was changed", std::strerror(errno)));
  return {};
}

Result<void> TempFile::commit(bool replace) {
  if (fd_ < 0) return io_error(target_.string(), "file is not open");
  ASSAY_CHECK(link_temporary(fd_, name_, target_, replace, style_));
  name_.clear();  // in place: nothing to remove
  const int r = ::close(fd_);
  fd_ = -1;
  if (r != 0 && errno != EINTR) return errno_error(target_, "close failed", errno);
  return {};
}

}  // namespace assay
