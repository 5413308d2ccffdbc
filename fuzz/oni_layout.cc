// Fuzz target: the layout byte code and the layouts file. The first byte picks the path:
// even = the bytes as a layout (compiled, then walked over the rest of the input);
// odd = the bytes as layouts-file text.
#include <cstdint>
#include <cstddef>
#include <string_view>

#include "assay/formats/oni/layout.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay::oni;
  if (size == 0) return 0;
  const assay::ByteView rest(data + 1, size - 1);
  if (data[0] % 2 == 1) {
    (void)parse_layouts_file(std::string_view(reinterpret_cast<const char*>(rest.data()), rest.size()), "fuzz");
    return 0;
  }
  // Split: first half layout, second half instance bytes.
  const std::size_t n = rest.size() / 2;
  auto cc = compile_layout(rest.first(n), data[0] & 2);
  if (!cc.ok()) return 0;
  CompiledLayout l;
  l.code = std::move(*cc);
  l.layout.flags = data[0] >> 2;
  std::vector<FieldRef> refs;
  (void)walk_instance(l, rest.subspan(n), refs);
  return 0;
}
