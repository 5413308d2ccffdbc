// libFuzzer target: threaded igArchive extraction into a scratch folder, as the igarchive record's
// extract does it: core's per-entry loop (container.h extract_entries) writing each member with
// igarchive/extract.h write_member, here with two threads, a small decode window so members span
// several windows, and hostile logical names. Checked after every run: nothing outside the root, no
// symlink, no leftover temporary (a broken member leaves no partial file), and every selected
// member is either written as one file or named as not extracted.
#include <cstddef>
#include <cstdint>

#include "assay/container.h"
#include "assay/ops.h"
#include "assay/formats/igarchive/extract.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  namespace fs = std::filesystem;
  const Input in = Input::from_buffer("fuzz", ByteBuffer(data, data + size));
  auto a = igarchive::Archive::open(in.bytes, "fuzz");
  if (!a) return 0;
  std::uint64_t total = 0;
  for (const auto& f : a->files()) total += f.length;
  if (total > (4u << 20)) return 0;  // explore parsing, not the disk
  ContainerOptions co;
  co.threads = 2;
  auto c = open(in, co, "igarchive");
  if (!c || (*c)->entries().size() != a->files().size()) return 0;
  const fs::path root = fuzz::fresh_dir("x");
  igarchive::MemberSettings s;
  s.window = 0x10000;
  s.member_cap = 1u << 20;
  const WriteItem write = [&](std::size_t i, const OutputDir& out, unsigned threads) {
    igarchive::MemberSettings t = s;
    t.threads = threads;  // 2 for a large member, 1 for small ones written side by side
    return igarchive::write_member(*a, a->files()[i], out, t);
  };
  ExtractOptions x;
  if (size & 1) x.globs = {"*.igz", "?a*"};
  const ExtractStats st = extract_entries(**c, x, OutputDir(root, false), write);
  fuzz::check_contained(root);
  if (st.files + st.failed.size() != st.selected || st.selected > a->files().size()) __builtin_trap();
  return 0;
}
