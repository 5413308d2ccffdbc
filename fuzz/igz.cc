// libFuzzer target for the igz reader: open, decode every fixup, build the object graph,
// verify, and the JSON views (spec: alchemy.md#verify-igz). Must never crash or allocate from
// an unchecked count.
#include <cstddef>
#include <cstdint>

#include "assay/formats/igz/graph.h"
#include "../src/formats/igz/json.h"
#include "formats/serialise.h"
#include "core/json_text.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  const ByteView bytes(data, size);
  for (unsigned ps : {0u, 8u}) {  // from the platform, and forced 64-bit
    Diagnostics d;
    igz::verify(bytes, igz::OpenOptions{ps}, d);
  }
  (void)igz::list_json(bytes, {});
  Diagnostics d;
  (void)igz::dump_json(bytes, {}, d);
  return 0;
}
