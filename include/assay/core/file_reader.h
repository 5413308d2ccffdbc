// A regular file read in pieces: pread at any offset, from any thread, so a
// multi-GiB file is streamed through an encoder block by block instead of being held whole (or
// mapped: a mapping takes address space as large as the file, which `ulimit -v` counts).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

#include "assay/core/bytes.h"

namespace assay {

class FileReader {
 public:
  // Opens a regular file read-only (a folder, FIFO or device is refused: ErrorKind::io).
  static Result<FileReader> open(const std::filesystem::path& path);

  [[nodiscard]] std::uint64_t size() const noexcept { return size_; }
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }
  // Exactly out.size() bytes from `offset` (thread-safe). A file that got shorter since open is
  // an I/O error naming it.
  Result<void> read(std::uint64_t offset, std::span<std::uint8_t> out) const;
  // The first min(n, size()) bytes: a header checked before the rest is read.
  Result<ByteBuffer> head(std::uint64_t n) const;
  // The whole file when it is at most `cap` bytes; else a usage error naming the size and cap.
  Result<ByteBuffer> read_all(std::uint64_t cap) const;

 private:
  struct Fd;
  std::shared_ptr<Fd> fd_;
  std::uint64_t size_ = 0;
  std::filesystem::path path_;
};

}  // namespace assay
