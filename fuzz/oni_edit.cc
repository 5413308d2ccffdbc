// libFuzzer target: `assay replace` on an Oni level (oni/edit.h edit_format) with hostile
// replacement bytes. The level is the sample set (write_sample_files: level0_Final.dat/.raw and
// oni-layouts.txt, our own writers) in a scratch folder; byte 0 picks the instance (ZANMwalk,
// ZTEXbrick, TXMPbrick, ZLSTmenu), the rest is the FILE (.oni, PNG or raw instance bytes). An edit
// that succeeds must give a level file that opens and passes every per-file rule (spec: oni.md#oni-10-1).
#include <cstddef>
#include <cstdint>

#include "assay/formats/oni/edit.h"
#include "assay/formats/oni/oni.h"
#include "../src/formats/oni/family_parts.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  using namespace assay::oni;
  static const fs::path level = [] {
    const fs::path d = fuzz::fresh_dir("level");
    (void)write_sample_files(d);
    return d / "level0_Final.dat";
  }();
  static const char* const kNames[] = {"ZANMwalk", "ZTEXbrick", "TXMPbrick", "ZLSTmenu"};
  if (size == 0 || size > (256u << 10)) return 0;
  auto in = Input::open(level);
  if (!in) return 0;
  const fs::path out = fuzz::fresh_dir("out") / "level0_Final.dat";
  EditRequest req;
  req.output = out;
  req.force = true;
  req.changes.push_back({EditOp::replace, kNames[data[0] % 4], ByteBuffer(data + 1, data + size)});
  if (!edit_format(*in, req)) return 0;
  auto back = Input::open(out);
  if (!back) __builtin_trap();
  auto f = InstanceFile::open(back->bytes, "out");
  if (!f) __builtin_trap();  // the editor wrote a file that does not open
  Diagnostics d;
  f->validate(d, std::nullopt);
  if (d.has_errors()) __builtin_trap();
  return 0;
}
