// `fuzz_replay TARGET PATH...`: replays every file of the given folders (or files) through the
// named fuzz target, for the normal test run. Exit 0 when all inputs ran (a crash aborts the
// process), 2 for an unknown target.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "fuzz_targets.h"

namespace {

const FuzzTarget* find_target(const char* name) {
  for (const FuzzTarget* t = kFuzzTargets; t->name; ++t)
    if (std::strcmp(t->name, name) == 0) return t;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  const FuzzTarget* target = argc > 1 ? find_target(argv[1]) : nullptr;
  if (!target) {
    std::fprintf(stderr, "usage: fuzz_replay TARGET PATH...; targets:");
    for (const FuzzTarget* t = kFuzzTargets; t->name; ++t) std::fprintf(stderr, " %s", t->name);
    std::fprintf(stderr, "\n");
    return 2;
  }
  std::size_t n = 0;
  auto run = [&](const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::vector<char> buf((std::istreambuf_iterator<char>(f)), {});
    target->run(reinterpret_cast<const std::uint8_t*>(buf.data()), buf.size());
    ++n;
  };
  for (int i = 2; i < argc; ++i) {
    std::error_code ec;
    if (fs::is_directory(argv[i], ec)) {
      for (const auto& e : fs::recursive_directory_iterator(argv[i]))
        if (e.is_regular_file()) run(e.path());
    } else if (fs::exists(argv[i], ec)) {
      run(argv[i]);
    }
  }
  target->run(nullptr, 0);
  std::printf("replayed %zu inputs through %s\n", n, target->name);
  return 0;
}
