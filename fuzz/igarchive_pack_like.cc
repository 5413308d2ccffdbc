// libFuzzer target: `pack igarchive --like ORIGINAL` with a hostile original (igarchive/pack.h
// files_like, writer.h options_like/entries_like/write_archive). The original is extracted to a
// scratch folder as a user would (the igarchive record's extract), repacked like the original
// (LZMA effort 0, one thread), and the new archive must open and give back every file's bytes.
// With byte 0 odd, the first entry's file is replaced by a symlink to a file outside the folder:
// its content must not end up in the archive (issue 15 item 3).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "assay/ops.h"
#include "assay/options.h"
#include "assay/formats/igarchive/pack.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  using namespace assay::igarchive;
  if (size == 0 || size > (256u << 10)) return 0;
  auto orig = Archive::open(ByteView(data, size), "original");
  if (!orig) return 0;
  std::uint64_t total = 0;
  for (const auto& f : orig->files()) total += f.length;
  if (total > (1u << 20) || orig->files().size() > 512) return 0;
  const fs::path dir = fuzz::fresh_dir("like"), outside = fuzz::fresh_dir("outside");
  assay::ContainerOptions co;
  co.threads = 1;
  co.igarchive.member_cap = 1u << 20;
  Diagnostics diags;
  auto c = open(Input::from_buffer("original", ByteBuffer(data, data + size)), co, "igarchive");
  if (!c) return 0;
  auto x = extract(**c, {}, OutputDir(dir, false), diags);
  if (!x || !x->failed.empty()) return 0;
  static constexpr std::string_view kSecret = "SECRET-FROM-OUTSIDE-THE-FOLDER";
  if ((data[0] & 1) && !orig->files().empty()) {
    fuzz::write_bytes(outside / "secret", kSecret.data(), kSecret.size());
    if (auto rel = sanitize_relative_path(orig->files()[0].name)) {
      std::error_code ec;
      fs::remove(dir / *rel, ec);
      if (!ec) fs::create_symlink(outside / "secret", dir / *rel, ec);
    }
  }
  auto files = files_like(*orig, dir, Compression::lzma);
  if (!files) return 0;
  for (const auto& w : *files)
    if (std::string_view(reinterpret_cast<const char*>(w.data.data()), w.data.size()) == kSecret)
      __builtin_trap();  // followed a symlink out of the folder
  WriterOptions o = options_like(*orig);
  o.threads = 1;
  o.lzma_preset = 0;
  auto packed = write_archive(*files, o);
  if (!packed) return 0;
  auto again = Archive::open(*packed, "repacked");
  if (!again || again->files().size() != files->size()) __builtin_trap();  // wrote what it cannot read
  for (const auto& w : *files) {
    const FileEntry* e = again->find(w.name);
    if (e == nullptr) continue;  // names equal under the flags (case-insensitive) find the first
    ByteBuffer back;
    if (!again->read(*e, back, 1, 1u << 20) || back != w.data) __builtin_trap();  // lost bytes
  }
  return 0;
}
