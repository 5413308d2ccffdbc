// One family library linked alone, without the registry (tests/CMakeLists.txt builds this once per
// family with ASSAY_FAMILY naming its descriptor): it links only if the family needs nothing of
// src/formats/ beyond the container layer, then writes the family's demo files with its own
// writers and opens each with the family's own open().
#include <cstdio>
#include <filesystem>

#include "assay/family.h"

int main(int argc, char** argv) {
  const assay::Family& family = ASSAY_FAMILY;
  if (argc != 2) return 2;
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  auto names = family.write_samples(dir);
  if (!names) return std::fprintf(stderr, "%s: samples: %s\n", family.name.data(), names.error().str().c_str()), 1;
  int opened = 0;
  for (const std::string& n : *names) {
    auto in = assay::Input::open((dir / n).string());
    if (!in) continue;  // a companion file (.raw, .wad) is opened with its main file
    const auto siblings = assay::folder_siblings(*in);
    const assay::ContainerOptions opt;
    auto c = family.open(assay::OpenContext{std::move(*in), opt, *siblings});
    if (c) ++opened;
  }
  std::printf("%s: %d of %zu demo files opened\n", family.name.data(), opened, names->size());
  return opened > 0 ? 0 : 1;
}
