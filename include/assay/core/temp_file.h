// Assay's temporaries (docs/cli.md#interrupted): unnamed where the file system
// allows, named and registered for the interrupt handler otherwise, and removed by the next run
// when a killed process left them.
//
// A file being written is first an unnamed temporary (open(dir, O_TMPFILE)), given its final name
// by linkat(/proc/self/fd/N) once complete: a process killed with SIGKILL leaves nothing. Where
// the file system or /proc does not allow it, the temporary is named after its owner:
//   ".assay-tmp-<pid>-<start>-XXXXXX"            extract and pack, in the target's folder
//   "<target>.assay-edit-<pid>-<start>-XXXXXX"   replace/add/remove, beside the output
// (<start>: the owner's start time in clock ticks since boot, /proc/<pid>/stat field 22, so a
// reused pid is told apart). Earlier versions named them ".assay-tmp-XXXXXX" and
// "<target>.assay-edit-XXXXXX".
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "assay/core/bytes.h"

namespace assay {

// A file name of assay's temporaries (".assay-tmp-*", "*.assay-edit-*"); `pack` never takes one.
bool is_assay_temporary(std::string_view filename);

// Removes the temporaries of assay's naming in `folder` (not below it) that no live process holds:
// the owner named in it has ended (no /proc/<pid>, or a different start time) and the file was
// last written before this process started; an old-style name without an owner when it was last
// written ten minutes before this process started. Only regular files are removed. Returns how
// many were removed; without /proc, none.
std::size_t remove_stale_temporaries(const std::filesystem::path& folder);

enum class TempStyle {
  hidden,  // ".assay-tmp-..." in the target's folder (AtomicFile)
  beside,  // "<target>.assay-edit-..." (edits)
};

// The low-level steps (AtomicFile and TempFile are built on them).
struct OpenedTemporary {
  int fd = -1;
  std::string name;  // empty: unnamed (O_TMPFILE); else registered for the interrupt handler
};
// Creates a temporary for `target` in its folder, opened read-write, mode 0600.
Result<OpenedTemporary> open_temporary(const std::filesystem::path& target, TempStyle style);
// Gives a complete temporary its final name: linkat for an unnamed one (fd open), rename for a
// named one (then unregistered). Without `replace` an existing target is refused ("exists (use
// --force to overwrite)") atomically.
Result<void> link_temporary(int fd, const std::string& name, const std::filesystem::path& target, bool replace,
                            TempStyle style);
// Removes a named temporary and forgets it (the caller closes fd).
void drop_temporary(const std::string& name);

// Test hooks, read from the environment (never set in normal use): ASSAY_DEBUG_NAMED_TEMP=1 makes
// every temporary a named one; ASSAY_DEBUG_SLOW_WRITE_MS=N sleeps N ms after each write to a
// temporary, so tests can interrupt a run in the middle.
void debug_slow_write();

// A temporary beside its target, written, read back through path() and then renamed into place.
class TempFile {
 public:
  // Mode: the target's when it exists, else 0666 less the umask.
  static Result<TempFile> create(const std::filesystem::path& target, TempStyle style = TempStyle::beside);
  TempFile() = default;
  TempFile(TempFile&& o) noexcept;
  TempFile& operator=(TempFile&& o) noexcept;
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile();  // removes the temporary unless committed

  Result<void> write(ByteView b);
  // Flushes to disk; the file stays open (an unnamed temporary lives as long as its descriptor).
  Result<void> finish();
  // Into place (see link_temporary), then closed.
  Result<void> commit(bool replace = true);
  // Where the bytes can be read back: the temporary's name, or /proc/self/fd/N.
  [[nodiscard]] const std::filesystem::path& path() const { return read_path_; }
  [[nodiscard]] bool unnamed() const { return fd_ >= 0 && name_.empty(); }

 private:
  void discard() noexcept;
  int fd_ = -1;
  std::string name_;
  std::filesystem::path target_, read_path_;
  TempStyle style_ = TempStyle::beside;
};

}  // namespace assay
