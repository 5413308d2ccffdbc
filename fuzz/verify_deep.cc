// libFuzzer target: `verify --deep` (container.h verify_deep): the outer container's
// verify, then every inner file verified with its own format on two threads, diagnostics in entry
// order. Inputs are capped at 1 MiB; a decompression bomb inside shows up as an OOM/rss finding
// (issue 15 item 6: memory bounded for the whole process).
#include <cstddef>
#include <cstdint>

#include "assay/container.h"
#include "assay/options.h"
#include "assay/formats/oni/oni.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  static const ReadOptions opt = [] {
    ReadOptions o;
    o.threads = 2;
    o.deep = true;
    const auto p = fuzz::scratch() / "oni-layouts.txt";
    const std::string t = oni::sample_layouts_text();
    fuzz::write_bytes(p, t.data(), t.size());
    o.family["layouts"] = p.string();
    return o;
  }();
  static const ContainerOptions copt = *container_options(opt);
  if (size > (1u << 20)) return 0;
  const Input in = Input::from_buffer("fuzz.arc", ByteBuffer(data, data + size));
  auto c = open(in, copt);
  if (!c) return 0;
  Diagnostics d;
  (*c)->verify(d);
  verify_deep(**c, d, DeepOptions{1, 2, false});
  for (const auto& x : d.items()) (void)x.where.str();
  return 0;
}
