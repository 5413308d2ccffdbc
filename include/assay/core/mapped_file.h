// Read-only memory-mapped files. The mapping owns the bytes every reader views.
#pragma once

#include <filesystem>
#include <memory>

#include "assay/core/bytes.h"

namespace assay {

class MappedFile {
 public:
  // Maps the whole file read-only (an empty file gives an empty view). I/O errors are ErrorKind::io.
  static Result<MappedFile> open(const std::filesystem::path& path);

  MappedFile() = default;
  MappedFile(MappedFile&&) noexcept;
  MappedFile& operator=(MappedFile&&) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  [[nodiscard]] ByteView bytes() const noexcept { return {data_, size_}; }
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

 private:
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  std::filesystem::path path_;
};

// Reads a whole small file into memory (names lists, layouts files).
Result<std::string> read_text_file(const std::filesystem::path& path);

}  // namespace assay
