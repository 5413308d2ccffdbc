// Shell-style globs to select entries: `*`, `?`, `[...]`; `*` also crosses `/`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace assay {

bool glob_match(std::string_view pattern, std::string_view name);
// True when `globs` is empty or any glob matches.
bool glob_any(const std::vector<std::string>& globs, std::string_view name);

}  // namespace assay
