// FileReader: pread in pieces (core/file_reader.h).
#include "assay/core/file_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

namespace assay {

struct FileReader::Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

Result<FileReader> FileReader::open(const std::filesystem::path& path) {
  FileReader r;
  r.path_ = path;
  r.fd_ = std::make_shared<Fd>();
  r.fd_->fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (r.fd_->fd < 0) return io_error(path.string(), std::strerror(errno));
  struct stat st {};
  if (::fstat(r.fd_->fd, &st) != 0) return io_error(path.string(), std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return io_error(path.string(), "not a regular file");
  r.size_ = static_cast<std::uint64_t>(st.st_size);
  return r;
}

Result<void> FileReader::read(std::uint64_t offset, std::span<std::uint8_t> out) const {
  if (!range_ok(offset, out.size(), size_))
    return io_error(path_.string(), fmt::format("read of 0x{:x} bytes at 0x{:x} past its end (0x{:x})", out.size(), offset, size_));
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::pread(fd_->fd, out.data() + done, std::min<std::size_t>(out.size() - done, std::size_t{1} << 30),
                              static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return io_error(path_.string(), std::strerror(errno));
    if (n == 0) return io_error(path_.string(), "the file got shorter while it was read");
    done += static_cast<std::size_t>(n);
  }
  return {};
}

Result<ByteBuffer> FileReader::head(std::uint64_t n) const {
  ByteBuffer b(static_cast<std::size_t>(std::min(n, size_)));
  ASSAY_CHECK(read(0, b));
  return b;
}

Result<ByteBuffer> FileReader::read_all(std::uint64_t cap) const {
  if (size_ > cap)
    return usage_error(fmt::format("{} is {} bytes; at most {} bytes are taken here", path_.string(), size_, cap));
  return head(size_);
}

}  // namespace assay
