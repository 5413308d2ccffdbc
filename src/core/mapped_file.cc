#include "assay/core/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace assay {

namespace {
Error errno_error(const std::filesystem::path& p, std::string_view what) {
  return io_error(p.string(), std::string(what) + ": " + std::strerror(errno));
}
}  // namespace

Result<MappedFile> MappedFile::open(const std::filesystem::path& path) {
  // O_NONBLOCK: a FIFO opens at once (and is refused below) instead of waiting for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return errno_error(path, "cannot open");
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    auto e = errno_error(path, "cannot stat");
    ::close(fd);
    return e;
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return io_error(path.string(), S_ISFIFO(st.st_mode) ? "not a regular file (a FIFO)"
                                   : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "not a regular file (a device)"
                                                                                 : "not a regular file");
  }
  MappedFile m;
  m.path_ = path;
  m.size_ = static_cast<std::size_t>(st.st_size);
  if (m.size_ > 0) {
    void* p = ::mmap(nullptr, m.size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      auto e = errno_error(path, "cannot map");
      ::close(fd);
      return e;
    }
    m.data_ = static_cast<const std::uint8_t*>(p);
  }
  ::close(fd);
  return m;
}

MappedFile::MappedFile(MappedFile&& o) noexcept
    : data_(o.data_), size_(o.size_), path_(std::move(o.path_)) {
  o.data_ = nullptr;
  o.size_ = 0;
}

MappedFile& MappedFile::operator=(MappedFile&& o) noexcept {
  if (this != &o) {
    this->~MappedFile();
    new (this) MappedFile(std::move(o));
  }
  return *this;
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(const_cast<std::uint8_t*>(data_), size_);
  data_ = nullptr;
}

Result<std::string> read_text_file(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return errno_error(path, "cannot open");  // "cannot open: No such file or directory"
  std::ostringstream ss;
  ss << f.rdbuf();
  if (f.bad()) return io_error(path.string(), "read failed");
  return ss.str();
}

}  // namespace assay
