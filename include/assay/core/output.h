// Safe output: entry names become sanitised relative paths under one root, files are written
// to a temporary name and renamed into place, nothing is overwritten without --force, and no
// write goes through a symlink (libarchive's secure-extraction bar).
#pragma once

#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "assay/core/bytes.h"

namespace assay {

// Turns an entry name from a file into a safe relative path: backslashes become '/', empty,
// "." and ".." components and a leading drive ("C:") are dropped, control characters become
// '_'. Fails (ErrorKind::data) when nothing is left. `changed` tells whether the name was altered.
Result<std::string> sanitize_relative_path(std::string_view name, bool* changed = nullptr);

// A file being written: bytes go to an unnamed temporary in the target's folder (O_TMPFILE,
// linked into place by commit()), or where that is not available to ".assay-tmp-PID-START-XXXXXX"
// (core/temp_file.h; a short name, so a target of up to NAME_MAX bytes works), renamed by
// commit(); destruction without commit() removes the temporary.
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
  Result<void> flush();
  int fd_ = -1;
  ByteBuffer buf_;  // small writes gather here (no stdio: no fcntl, fstat or split writes)
  std::filesystem::path target_, temp_;
  bool force_ = false;
};

// Writes a whole buffer atomically to an explicit path (pack output, `-o FILE`).
Result<void> write_file_atomic(const std::filesystem::path& path, ByteView data, bool force);

// Two entries whose names sanitise to the same path (`a/b`, `a\b`, `./a/b`, `a//b`), or a file
// named like a folder another entry needs: the later one is written under another name.
struct PathCollision {
  std::string name;    // the entry's own name
  std::string wanted;  // the sanitised path an earlier entry already took
  std::string used;    // the path it was written to
};

// The `-o DIR` of extract: every path is checked to stay under the root. Within one OutputDir
// (and its copies) no two entries are merged: open()/write() claim their path, and a path taken
// earlier in the run gets the suffix "~N" (N = 2, 3, ...) before the extension of the component
// that collides ("a/b.igz" -> "a/b~2.igz"; a folder "a" taken by a file -> "a~2/..."),
// reported through on_collision (default: one line on stderr). docs/cli.md#collisions.
class OutputDir {
 public:
  OutputDir(std::filesystem::path root, bool force);
  [[nodiscard]] const std::filesystem::path& root() const { return root_; }
  [[nodiscard]] bool force() const { return force_; }

  // Sanitises `name`, creates parent folders (refusing symlinks on the way) and returns the
  // absolute target path under the root.
  Result<std::filesystem::path> prepare(std::string_view name) const;
  // Claims the entry's path for this run (see above) and opens/writes it.
  Result<AtomicFile> open(std::string_view name) const;
  Result<void> write(std::string_view name, ByteView data) const;
  // The relative path `name` gets in this run, claiming it (thread-safe).
  Result<std::string> claim(std::string_view name) const;

  void on_collision(std::function<void(const PathCollision&)> sink);
  [[nodiscard]] std::size_t collisions() const;

 private:
  struct Claims;
  Result<std::filesystem::path> prepare_relative(const std::string& rel) const;
  std::filesystem::path root_;
  bool force_;
  std::shared_ptr<Claims> claims_;
};

}  // namespace assay
