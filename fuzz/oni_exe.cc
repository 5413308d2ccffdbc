// libFuzzer target: the Oni.exe PE parser behind `--exe` (src/formats/oni/exe.cc,
// extract_layouts_from_exe; spec: oni.md#oni-4-5): PE headers, sections, VA mapping, the
// start-up code scan, the template table and every layout. A success must give layouts that
// compile, go into a LayoutSet and survive the layouts-file text round trip.
#include <cstddef>
#include <cstdint>

#include "assay/formats/oni/layout.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay::oni;
  auto ls = extract_layouts_from_exe(assay::ByteView(data, size), "Oni.exe");
  if (!ls) return 0;
  LayoutSet set;
  for (const auto& l : *ls) {
    if (!compile_layout(l.code)) __builtin_trap();  // the parser kept a layout that does not compile
    (void)set.add(l);
  }
  const std::string text = format_layouts_file(*ls, "fuzz");
  (void)parse_layouts_file(text, "fuzz");
  return 0;
}
