// libFuzzer target: sanitize_relative_path, the one gate every extracted name passes
// (core/output.h). Properties checked on every success: non-empty, relative, no "." / ".." /
// empty components, no backslash, no control character, no drive prefix, and sanitising the
// result again changes nothing (idempotent).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "assay/core/output.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view name(reinterpret_cast<const char*>(data), size);
  bool changed = false;
  auto r = assay::sanitize_relative_path(name, &changed);
  if (!r) return 0;
  const std::string& s = *r;
  if (s.empty() || s.front() == '/' || s.back() == '/') __builtin_trap();
  if (!changed && s != name) __builtin_trap();  // `changed` must tell the truth
  for (unsigned char c : s)
    if (c < 0x20 || c == 0x7F || c == '\\') __builtin_trap();
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t end = std::min(s.find('/', start), s.size());
    const std::string_view comp(s.data() + start, end - start);
    if (comp.empty() || comp == "." || comp == "..") __builtin_trap();
    // (only a bare "X:" is a drive here; "C:foo", drive-relative on Windows, is kept by design)
    if (start == 0 && comp.size() == 2 && comp[1] == ':' &&
        ((comp[0] | 0x20) >= 'a' && (comp[0] | 0x20) <= 'z'))
      __builtin_trap();  // "C:" survived as the first component
    start = end + 1;
  }
  bool again_changed = true;
  auto again = assay::sanitize_relative_path(s, &again_changed);
  if (!again || *again != s || again_changed) __builtin_trap();
  return 0;
}
