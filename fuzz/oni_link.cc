// libFuzzer target: multi-level linking (oni/level_set.h): a level0_Final.dat, a level1_X.dat
// and optionally level0_Final.raw, separated by "ONIFUZZSPLIT", written to a scratch folder and
// checked as `assay oni check` does (check_level_set: load, walk, resolve links of level 0 alone
// and of level 0 + level 1), then linked again by hand with resolve_links.
#include <cstddef>
#include <cstdint>

#include "assay/formats/oni/oni.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  using namespace assay::oni;
  static const LayoutSet layouts = [] {
    auto s = parse_layouts_file(sample_layouts_text(), "samples");
    return s.ok() ? std::move(*s) : LayoutSet{};
  }();
  if (size > (256u << 10)) return 0;
  const fs::path dir = fuzz::fresh_dir("levels");
  static const char* const names[] = {"level0_Final.dat", "level1_X.dat", "level0_Final.raw"};
  int k = 0;
  for (ByteView part : fuzz::split(ByteView(data, size), "ONIFUZZSPLIT", 3))
    fuzz::write_bytes(dir / names[k++], part.data(), part.size());
  if (auto r = check_level_set({dir}, layouts, 1)) {
    if (r->ok() && r->levels.empty()) __builtin_trap();
  }
  auto l0 = load_file(dir / names[0], &layouts);
  auto l1 = load_file(dir / names[1], &layouts);
  if (!l0->opened || !l1->opened) return 0;
  const std::vector<const LoadedFile*> set{l0.get(), l1.get()};
  const auto handles = resolve_links(set, 1);
  if (handles.size() != l1->links.size()) __builtin_trap();
  for (std::uint32_t h : handles) {
    if (h == kUnresolved || h == kBadHandle) continue;
    const std::uint32_t slot = h >> 24, index = h & 0xFFFFFF;
    if (slot > 1 || index >= set[slot]->file.instance_count()) __builtin_trap();  // a handle to nowhere
  }
  return 0;
}
