// Reading a folder for `pack`: only regular files inside the folder are read. A symlink (to a
// file or a folder, inside or outside), a FIFO, a socket or a device is refused with an error
// naming it, never followed and never opened (so a FIFO cannot block the pack), and a file that
// vanishes or changes while it is read fails the pack cleanly.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "assay/core/bytes.h"

namespace assay {

// The regular files under `dir` as sorted relative paths with '/' separators. Folders for which
// `skip_dir(relative path)` returns true are not entered. Errors (ErrorKind::io) name the first
// entry that is not a regular file or folder, or a folder that cannot be read.
Result<std::vector<std::string>> regular_files_under(
    const std::filesystem::path& dir, const std::function<bool(const std::string&)>& skip_dir = {});

// The bytes of `root`/`rel`, opened one component at a time without following any symlink
// (O_NOFOLLOW), without blocking (O_NONBLOCK), and only when it is a regular file (fstat).
// Fails when the file vanished, or when its size or modification time changes while it is read.
Result<ByteBuffer> read_file_beneath(const std::filesystem::path& root, std::string_view rel);

// The same for one explicit path: the last component must not be a symlink.
Result<ByteBuffer> read_regular_file(const std::filesystem::path& path);

// A pack input read whole by read_regular_file, with MappedFile's bytes() so a family that mapped
// its pack inputs switches by changing the type name: a file that shrinks while it is packed is
// then a clean error instead of a SIGBUS, and a FIFO is refused instead of blocking. `data` is shared so it can own a view (Input::owner, a loader's owner).
struct FileBytes {
  std::shared_ptr<const ByteBuffer> data;
  [[nodiscard]] ByteView bytes() const noexcept { return data ? ByteView(*data) : ByteView(); }
  static Result<FileBytes> read(const std::filesystem::path& path);
};

// What the file at `mode` (a stat st_mode) is, in words: "a symlink", "a FIFO", ...
std::string_view file_kind_text(unsigned mode);

}  // namespace assay
