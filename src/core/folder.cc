#include "assay/core/folder.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "assay/core/temp_file.h"

namespace assay {

namespace fs = std::filesystem;

namespace {

class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  Fd& operator=(Fd&& o) noexcept {
    std::swap(fd_, o.fd_);
    return *this;
  }
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  [[nodiscard]] int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

Error errno_error(const fs::path& p, std::string_view what) {
  const int e = errno;
  if (e == ELOOP) return io_error(p.string(), "is a symlink; pack reads regular files only and never follows links");
  if (e == ENOENT) return io_error(p.string(), std::string(what) + ": it vanished (" + std::strerror(e) + ")");
  return io_error(p.string(), std::string(what) + ": " + std::strerror(e));
}

Error not_regular(const fs::path& p, unsigned mode) {
  return io_error(p.string(), std::string("is ") + std::string(file_kind_text(mode)) +
                                  "; pack reads regular files only (remove it or replace it with a copy)");
}

constexpr int kDirFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
constexpr int kFileFlags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;

Result<void> walk(int dir_fd, const fs::path& shown, const std::string& rel,
                  const std::function<bool(const std::string&)>& skip_dir, std::vector<std::string>& out) {
  Fd fd(::openat(dir_fd, ".", kDirFlags));
  if (fd.get() < 0) return errno_error(shown, "cannot open the folder");
  DIR* d = ::fdopendir(fd.get());
  if (d == nullptr) return errno_error(shown, "cannot read the folder");
  fd.release();
  std::vector<std::string> names;
  errno = 0;
  while (const dirent* de = ::readdir(d)) {
    const std::string n = de->d_name;
    // assay's own temporaries (".assay-tmp-*", "*.assay-edit-*") are never packed.
    if (n != "." && n != ".." && !is_assay_temporary(n)) names.push_back(n);
  }
  const int read_errno = errno;
  std::sort(names.begin(), names.end());
  Result<void> r;
  for (const auto& n : names) {
    const fs::path p = shown / n;
    const std::string r_rel = rel.empty() ? n : rel + "/" + n;
    struct stat st {};
    if (::fstatat(::dirfd(d), n.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      r = errno_error(p, "cannot stat");
      break;
    }
    if (S_ISREG(st.st_mode)) {
      out.push_back(r_rel);
    } else if (S_ISDIR(st.st_mode)) {
      if (skip_dir && skip_dir(r_rel)) continue;
      Fd sub(::openat(::dirfd(d), n.c_str(), kDirFlags));
      if (sub.get() < 0) {
        r = errno_error(p, "cannot open the folder");
        break;
      }
      r = walk(sub.get(), p, r_rel, skip_dir, out);
      if (!r) break;
    } else {
      r = not_regular(p, st.st_mode);
      break;
    }
  }
  ::closedir(d);
  if (r && read_errno != 0) {
    errno = read_errno;
    return errno_error(shown, "cannot read the folder");
  }
  return r;
}

// Reads an open regular file whole; fails when it changes meanwhile.
Result<ByteBuffer> read_open_file(int fd, const fs::path& shown) {
  struct stat before {};
  if (::fstat(fd, &before) != 0) return errno_error(shown, "cannot stat");
  if (!S_ISREG(before.st_mode)) return not_regular(shown, before.st_mode);
  ByteBuffer data(static_cast<std::size_t>(before.st_size));
  std::size_t got = 0;
  while (got < data.size()) {
    const ssize_t n = ::read(fd, data.data() + got, data.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno_error(shown, "read failed");
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  std::uint8_t extra = 0;
  ssize_t more;
  do more = ::read(fd, &extra, 1);
  while (more < 0 && errno == EINTR);
  struct stat after {};
  if (::fstat(fd, &after) != 0) return errno_error(shown, "cannot stat");
  if (got != data.size() || more > 0 || after.st_size != before.st_size ||
      after.st_mtim.tv_sec != before.st_mtim.tv_sec || after.st_mtim.tv_nsec != before.st_mtim.tv_nsec)
    return io_error(shown.string(), "changed while it was being read (" + std::to_string(before.st_size) +
                                        " bytes when opened); not packed");
  return data;
}

}  // namespace

std::string_view file_kind_text(unsigned mode) {
  if (S_ISLNK(mode)) return "a symlink";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISREG(mode)) return "a regular file";
  return "not a regular file";
}

Result<std::vector<std::string>> regular_files_under(const fs::path& dir,
                                                     const std::function<bool(const std::string&)>& skip_dir) {
  Fd root(::open(dir.c_str(), kDirFlags));
  if (root.get() < 0) {
    struct stat st {};
    if (errno == ENOTDIR || (::lstat(dir.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)))
      return io_error(dir.string(), "is not a folder");
    if (errno == ENOENT) return io_error(dir.string(), "cannot open the folder: no such folder");  // not "vanished"
    return errno_error(dir, "cannot open the folder");
  }
  std::vector<std::string> out;
  ASSAY_CHECK(walk(root.get(), dir, "", skip_dir, out));
  std::sort(out.begin(), out.end());
  return out;
}

Result<ByteBuffer> read_file_beneath(const fs::path& root, std::string_view rel) {
  Fd cur(::open(root.c_str(), kDirFlags));
  if (cur.get() < 0 && errno == ENOENT) return io_error(root.string(), "cannot open the folder: no such folder");
  if (cur.get() < 0) return errno_error(root, "cannot open the folder");
  fs::path shown = root;
  std::vector<std::string> parts;
  for (std::size_t i = 0; i <= rel.size();) {
    const std::size_t j = std::min(rel.find('/', i), rel.size());
    const std::string part(rel.substr(i, j - i));
    if (part == "..") return io_error((root / std::string(rel)).string(), "leaves the folder");
    if (!part.empty() && part != ".") parts.push_back(part);
    i = j + 1;
  }
  if (parts.empty()) return io_error(root.string(), "no file name");
  for (std::size_t k = 0; k + 1 < parts.size(); ++k) {
    shown /= parts[k];
    Fd next(::openat(cur.get(), parts[k].c_str(), kDirFlags));
    if (next.get() < 0) {
      struct stat st {};
      if (::fstatat(cur.get(), parts[k].c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(st.st_mode))
        return not_regular(shown, st.st_mode);
      return errno_error(shown, "cannot open the folder");
    }
    cur = std::move(next);
  }
  shown /= parts.back();
  Fd f(::openat(cur.get(), parts.back().c_str(), kFileFlags));
  if (f.get() < 0) return errno_error(shown, "cannot open");
  return read_open_file(f.get(), shown);
}

Result<ByteBuffer> read_regular_file(const fs::path& path) {
  Fd f(::open(path.c_str(), kFileFlags));
  if (f.get() < 0) return errno_error(path, "cannot open");
  return read_open_file(f.get(), path);
}

Result<FileBytes> FileBytes::read(const fs::path& path) {
  ASSAY_TRY(ByteBuffer b, read_regular_file(path));
  return FileBytes{std::make_shared<const ByteBuffer>(std::move(b))};
}

}  // namespace assay
