// libFuzzer target: the Format records' `extract` (RenderWare texture naming and PNG export,
// Oni .oni export and TXMP export, Warriors loose-container chunk naming, igz) into a
// scratch folder, with and without --mips and with a glob. The Oni layouts are the samples'
// (written beside the scratch root). Checked: nothing outside the root, no symlink, no leftover
// temporary.
#include <cstddef>
#include <cstdint>

#include "assay/options.h"
#include "assay/family.h"
#include "assay/formats/oni/oni.h"
#include "assay/ops.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  static const fs::path layouts = [] {
    const auto p = fuzz::scratch() / "oni-layouts.txt";
    const std::string t = oni::sample_layouts_text();
    fuzz::write_bytes(p, t.data(), t.size());
    return p;
  }();
  if (size > (1u << 20)) return 0;
  const Input in = Input::from_buffer("level0_Final.dat", ByteBuffer(data, data + size));
  const Family* f = identify_family(in);
  // igArchive has its own target (igarchive_extract) with a member cap; its container would write
  // up to 1 GiB per member
  if (f == nullptr || f->name == "igarchive") return 0;
  ReadOptions opt;
  opt.threads = 1;
  opt.family["layouts"] = layouts.string();
  if (size & 2) opt.family.emplace("textures", std::string(1, '1'));  // oni: TXMP export, not .oni files
  ExtractOptions x;
  x.mips = size & 1;
  if (size & 4) x.globs = {"*a*"};
  const fs::path root = fuzz::fresh_dir("x");
  Diagnostics d;
  if (auto co = container_options(opt))
    if (auto c = open(in, *co, f->name)) (void)extract(**c, x, OutputDir(root, false), d);
  fuzz::check_contained(root);
  return 0;
}
