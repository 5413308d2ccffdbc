// Fuzz target: one WAD entry through the classifier, the strict checks and the chunk loader with
// every handler model (spec: warriors.md#wr-5-4, #wr-8).
#include <cstddef>
#include <cstdint>

#include "assay/formats/warriors/chunks.h"
#include "assay/formats/warriors/classify.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay::warriors;
  static const HandlerTable table = HandlerTable::standard();
  const assay::ByteView b(data, size);
  (void)classify_entry(b);
  (void)check_exact_resource(b);
  (void)check_exact_pack(b);
  (void)load_container(b, table);
  LoadOptions grouped;
  grouped.shape = ContainerShape::grouped;
  (void)load_container(b, table, grouped);
  return 0;
}
