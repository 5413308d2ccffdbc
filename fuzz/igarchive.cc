// libFuzzer target: igArchive open + list + read every file + verify, and the cut-archive open.
// Decoded sizes are capped (1 MiB per member, 8 MiB per input) so the fuzzer explores parsing,
// not memory; every size is still checked by the reader before it allocates.
#include <cstddef>
#include <cstdint>

#include "assay/formats/igarchive/archive.h"
#include "assay/formats/igarchive/salvage.h"
#include "assay/formats/igarchive/verify.h"
#include "../src/formats/igarchive/json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  ByteView bytes(data, size);
  Diagnostics diags;
  auto a = igarchive::Archive::open(bytes, "fuzz", diags.sink());
  if (a) {
    std::uint64_t budget = 8u << 20;
    for (const auto& f : a->files()) {
      (void)a->find(f.name);
      (void)a->lookup(f.hash);
      if (f.length > budget) continue;
      ByteBuffer out;
      if (a->read(f, out, 1, 1u << 20)) budget -= f.length;
    }
  }
  // A cut archive: the intact files, the lost ones and their words (issue 29 item 4).
  if (auto s = igarchive::open_salvage(bytes, "fuzz", nullptr)) {
    (void)igarchive::cut_json(s->archive, s->cut);
    (void)igarchive::cut_findings(s->archive, s->cut);
  }
  if (size < (1u << 20)) {
    igarchive::VerifyOptions vo;
    vo.threads = 1;
    vo.member_cap = 1u << 20;
    Diagnostics v;
    igarchive::verify(bytes, "fuzz", vo, v);
  }
  return 0;
}
