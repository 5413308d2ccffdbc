// libFuzzer target: the Format records' `extract` (RenderWare texture naming and PNG export,
// Oni .oni export and TXMP export, Warriors loose-container chunk naming, igz) into a
// scratch folder, with and without --mips and with a glob. The Oni layouts are the samples'
// (written beside the scratch root). Checked: nothing outside the root, no symlink, no leftover
// temporary.
#include <cstddef>
#include <cstdint>

#include "assay/formats/format.h"
#include "assay/formats/oni/oni.h"
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
  const Format* f = identify_format(in);
  // igArchive has its own target (igarchive_extract) with a member cap; its record would write
  // up to 1 GiB per member
  if (f == nullptr || f->extract == nullptr || f->name == "igarchive") return 0;
  ReadOptions opt;
  opt.threads = 1;
  opt.family["layouts"] = layouts.string();
  if (size & 2) opt.family.emplace("textures", std::string(1, '1'));  // oni: TXMP export, not .oni files
  ExtractOptions x;
  x.mips = size & 1;
  if (size & 4) x.globs = {"*a*"};
  const fs::path root = fuzz::fresh_dir("x");
  Diagnostics d;
  (void)f->extract(in, opt, x, OutputDir(root, false), d);
  fuzz::check_contained(root);
  return 0;
}
