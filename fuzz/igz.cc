// libFuzzer target for the igz reader: open, decode every fixup, build the object graph,
// verify, and the dump through the JSON and text printers (spec: alchemy.md#verify-igz). Must never crash or allocate from
// an unchecked count.
#include <cstddef>
#include <cstdint>

#include <sstream>

#include "assay/formats/igz/dump.h"
#include "formats/json_printer.h"
#include "formats/text_printer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  const ByteView bytes(data, size);
  for (unsigned ps : {0u, 8u}) {  // from the platform, and forced 64-bit
    Diagnostics d;
    igz::verify(bytes, igz::OpenOptions{ps}, d);
  }
  Diagnostics d;
  if (auto x = igz::read_dump(bytes, {}, d.sink())) {  // `igz dump`, through both printers
    (void)detail::printed_json([&](FieldPrinter& p) { igz::print_dump(*x, p); });
    std::ostringstream text;
    detail::TextPrinter tp(text);
    igz::print_dump(*x, tp);
  }
  return 0;
}
