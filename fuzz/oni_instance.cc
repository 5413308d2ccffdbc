// Fuzz target: an Oni instance file (VR31/VR32) opened, validated, walked with the sample
// layouts, linked alone, and exported in memory-free mode (list/info paths).
#include <cstdint>
#include <cstddef>

#include "assay/formats/oni/oni.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay::oni;
  static const LayoutSet layouts = [] {
    auto s = parse_layouts_file(sample_layouts_text(), "samples");
    return s.ok() ? std::move(*s) : LayoutSet{};
  }();
  const assay::ByteView b(data, size);
  auto f = load_file("", b, nullptr, &layouts);
  if (!f->opened) return 0;
  std::vector<const LoadedFile*> set{f.get()};
  (void)resolve_links(set, 0);
  for (std::uint32_t i = 0; i < f->file.instance_count(); ++i) {
    (void)f->file.name(i);
    if (auto n = f->file.name(i); n && !n->empty()) (void)f->file.find(*n);
  }
  return 0;
}
