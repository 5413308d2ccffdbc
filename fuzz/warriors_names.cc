// libFuzzer target: the Warriors names-file parser (warriors/disc.h NameTable::load, from a
// file, as `--names FILE` reads it) and the names extract gives entries (entry_file_name), then
// `extract` of a disc folder with those names into a scratch root. Input: u16 names length, the
// names text, then a DIR/WAD pair as fuzz/warriors_dir.cc takes it (u16 DIR length, DIR, WAD).
// Checked: every hostile name stays under the root (no symlink, nothing outside).
#include <cstddef>
#include <cstdint>

#include "assay/options.h"
#include "assay/formats/warriors/disc.h"
#include "assay/ops.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  using namespace assay::warriors;
  if (size < 4 || size > (1u << 20)) return 0;
  const std::size_t names_len = std::min<std::size_t>(data[0] | (data[1] << 8), size - 2);
  const fs::path names_file = fuzz::scratch() / "names.txt";
  fuzz::write_bytes(names_file, data + 2, names_len);
  auto table = NameTable::load({names_file.string()});
  if (!table) return 0;
  // every name line (trimmed, not a comment, not a 0xHASH) is found again by its hash
  for (ByteView line : fuzz::split(ByteView(data + 2, names_len), "\n", 1u << 20)) {
    std::string_view l(reinterpret_cast<const char*>(line.data()), line.size());
    while (!l.empty() && (l.back() == '\r' || l.back() == ' ' || l.back() == '\t')) l.remove_suffix(1);
    while (!l.empty() && (l.front() == ' ' || l.front() == '\t')) l.remove_prefix(1);
    if (l.empty() || l.front() == '#' || parse_hash(l)) continue;
    if (table->find(name_hash(l)) == nullptr) __builtin_trap();
  }
  const ByteView rest(data + 2 + names_len, size - 2 - names_len);
  if (rest.size() < 2) return 0;
  const std::size_t dir_len = std::min<std::size_t>(rest[0] | (rest[1] << 8), rest.size() - 2);
  const fs::path disc = fuzz::fresh_dir("disc");
  fuzz::write_bytes(disc / "WARRIORS.DIR", rest.data() + 2, dir_len);
  fuzz::write_bytes(disc / "WARRIORS.WAD", rest.data() + 2 + dir_len, rest.size() - 2 - dir_len);
  auto in = Input::open(disc);
  if (!in || !looks_like_disc(*in)) return 0;
  if (auto d = Disc::open(*in)) {
    for (std::uint32_t i = 0; i < d->count() && i < 4096; ++i) {
      const DirEntry e = d->entry(i);
      (void)entry_label(e, *table);
      if (entry_file_name(e, *table).empty()) __builtin_trap();
    }
  }
  ReadOptions opt;
  opt.threads = 1;
  opt.names_files = {names_file.string()};
  const fs::path root = fuzz::fresh_dir("x");
  Diagnostics diags;
  ExtractOptions x;
  if (size & 1) x.globs = {"*.lua", "0x1234"};
  if (auto co = container_options(opt))
    if (auto c = assay::open(*in, *co, "warriors")) (void)extract(**c, x, OutputDir(root, false), diags);
  fuzz::check_contained(root);
  return 0;
}
