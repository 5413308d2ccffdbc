// Shell-style globs to select entries: `*`, `?`, `[...]`; `*` also crosses `/`.
// Names as users type them: `/` and `\` are the same separator in the pattern
// and in the name (so `\` is never an escape: `[*]` matches a literal `*`), and a container whose
// names compare without case (Container::case_insensitive(), e.g. an igArchive with flag bit 0)
// matches with `fold_case`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace assay {

struct GlobOptions {
  bool fold_case = false;  // ASCII letters compare without case
};

bool glob_match(std::string_view pattern, std::string_view name);
bool glob_match(std::string_view pattern, std::string_view name, GlobOptions opt);
// True when `globs` is empty or any glob matches.
bool glob_any(const std::vector<std::string>& globs, std::string_view name);
bool glob_any(const std::vector<std::string>& globs, std::string_view name, GlobOptions opt);
// True when `s` holds a glob character (`*`, `?`, `[`); otherwise it is an exact name.
bool has_glob_chars(std::string_view s);
// `s` as globs compare it: `\` becomes `/`, and lower case with fold_case.
std::string glob_normalise(std::string_view s, GlobOptions opt);

}  // namespace assay
