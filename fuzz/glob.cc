// libFuzzer target: glob_match / glob_any (core/glob.h), used by every `extract GLOB...` and
// the Warriors selector. Input: pattern NUL name. Must terminate quickly on any pattern (the
// -timeout of scripts/fuzz.sh catches exponential backtracking) and agree with simple facts:
// a pattern without * ? [ \ matches exactly itself; "*" matches everything.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "assay/core/glob.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = all.find('\0');
  const std::string_view pattern = all.substr(0, nul);
  const std::string_view name = nul == std::string_view::npos ? std::string_view{} : all.substr(nul + 1);
  const bool m = assay::glob_match(pattern, name);
  // (names holding a NUL are cut there by fnmatch; entry names are C strings in every format
  // except igArchive's length-less table, so that case is not asserted here)
  if (pattern.find_first_of("*?[\\") == std::string_view::npos && name.find('\0') == std::string_view::npos &&
      m != (pattern == name))
    __builtin_trap();
  if (!assay::glob_match("*", name)) __builtin_trap();
  (void)assay::glob_match(pattern, pattern);
  const std::vector<std::string> globs{std::string(pattern), std::string(name)};
  if (!assay::glob_any(globs, name) && m) __builtin_trap();
  if (!assay::glob_any({}, name)) __builtin_trap();
  return 0;
}
