#include "assay/core/glob.h"

#include <fnmatch.h>

namespace assay {

bool glob_match(std::string_view pattern, std::string_view name) {
  // fnmatch without FNM_PATHNAME: '*' matches '/' too, which is what users expect for entry names.
  return ::fnmatch(std::string(pattern).c_str(), std::string(name).c_str(), 0) == 0;
}

bool glob_any(const std::vector<std::string>& globs, std::string_view name) {
  if (globs.empty()) return true;
  for (const auto& g : globs)
    if (glob_match(g, name)) return true;
  return false;
}

}  // namespace assay
