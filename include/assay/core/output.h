// Safe output: entry names become sanitised relative paths under one root, files are written
// to a temporary name and renamed into place, nothing is overwritten without --force, and no
// write goes through a symlink (libarchive's secure-extraction bar).
#pragma once

#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

#include "assay/core/bytes.h"

namespace assay {

// Turns an entry name from a file into a safe relative path: backslashes become '/', empty,
// "." and ".." components and a leading drive ("C:") are dropped, control characters become
// '_'. Fails (ErrorKind::data) when nothing is left. `changed` tells whether the name was altered.
Result<std::string> sanitize_relative_path(std::string_view name, bool* changed = nullptr);

// A file being written: bytes go to "<name>.assay-tmp-XXXXXX" beside the target; commit()
// renames it into place; destruction without commit() removes the temporary.
class AtomicFile {
 public:
  static Result<AtomicFile> create(const std::filesystem::path& target, bool force);
  AtomicFile() = default;
  AtomicFile(AtomicFile&&) noexcept;
  AtomicFile& operator=(AtomicFile&&) noexcept;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  Result<void> write(ByteView data);
  Result<void> commit();
  [[nodiscard]] const std::filesystem::path& target() const { return target_; }

 private:
  void discard() noexcept;
  std::FILE* f_ = nullptr;
  std::filesystem::path target_, temp_;
  bool force_ = false;
};

// Writes a whole buffer atomically to an explicit path (pack output, `-o FILE`).
Result<void> write_file_atomic(const std::filesystem::path& path, ByteView data, bool force);

// The `-o DIR` of extract: every path is checked to stay under the root.
class OutputDir {
 public:
  OutputDir(std::filesystem::path root, bool force) : root_(std::move(root)), force_(force) {}
  [[nodiscard]] const std::filesystem::path& root() const { return root_; }
  [[nodiscard]] bool force() const { return force_; }

  // Sanitises `name`, creates parent folders (refusing symlinks on the way) and returns the
  // absolute target path under the root.
  Result<std::filesystem::path> prepare(std::string_view name) const;
  Result<AtomicFile> open(std::string_view name) const;
  Result<void> write(std::string_view name, ByteView data) const;

 private:
  std::filesystem::path root_;
  bool force_;
};

}  // namespace assay
