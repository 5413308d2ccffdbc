// libFuzzer target: OutputDir + AtomicFile into a scratch folder (core/output.h), the path every
// extract writes through. Input: byte 0 = flags (bit 0 --force, bit 1 plant a symlink "link"
// pointing outside the root, bit 2 plant a regular file "file"), then entry names separated by
// '\n' (at most 16), each written with its own name as content. Checked: nothing outside the
// root changes, no symlink is followed, no temporary is left, and every write that succeeded is
// its own file holding its bytes (item 4: names colliding after sanitising are never merged
// silently, with or without --force).
#include <cstddef>
#include <cstdint>
#include <string>

#include "assay/core/output.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  namespace fs = std::filesystem;
  if (size == 0 || size > 8192) return 0;
  const std::uint8_t flags = data[0];
  const bool force = flags & 1;
  const fs::path root = fuzz::fresh_dir("out"), outside = fuzz::fresh_dir("outside");
  if (flags & 2) fs::create_directory_symlink(outside, root / "link");
  if (flags & 4) fuzz::write_bytes(root / "file", "f", 1);
  const OutputDir dir(root, force);
  std::size_t ok_count = 0;
  std::uint64_t ok_bytes = 0;
  for (ByteView part : fuzz::split(ByteView(data + 1, size - 1), "\n", 16)) {
    const std::string name(reinterpret_cast<const char*>(part.data()), part.size());
    // An entry named like a temporary cannot be told from a leftover one by check_contained
    // (fuzz finding of the long run: "..assay-tmp-" in a name); such inputs are not judged.
    if (name.find(".assay-tmp-") != std::string::npos) return 0;
    auto ok = dir.write(name, part);
    if (!ok) continue;
    if (!sanitize_relative_path(name)) __builtin_trap();  // written although no safe component
    ++ok_count, ok_bytes += part.size();
  }
  // every successful write is its own file with its own bytes: nothing merged or overwritten
  // within the run (the planted "file" may be overwritten with --force: not counted then)
  if (!((flags & 4) && force)) {
    std::size_t files = 0;
    std::uint64_t bytes = 0;
    for (const auto& e : fs::recursive_directory_iterator(root))
      if (e.is_regular_file() && !e.is_symlink() && (!(flags & 4) || e.path() != root / "file"))
        ++files, bytes += e.file_size();  // "file" is skipped only when it was planted (fuzz finding: "file/" written)
    if (files != ok_count || bytes != ok_bytes) __builtin_trap();
  }
  if (!fs::is_empty(outside)) __builtin_trap();  // followed the planted symlink
  if (flags & 2) fs::remove(root / "link");
  fuzz::check_contained(root);
  return 0;
}
