#include "assay/core/glob.h"

#include <fnmatch.h>

namespace assay {

std::string glob_normalise(std::string_view s, GlobOptions opt) {
  std::string out(s);
  for (char& c : out) {
    if (c == '\\') c = '/';
    else if (opt.fold_case && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool glob_match(std::string_view pattern, std::string_view name, GlobOptions opt) {
  // fnmatch without FNM_PATHNAME: '*' matches '/' too, which is what users expect for entry names.
  // Both sides are normalised ('\' -> '/', ASCII case folded when asked), so FNM_NOESCAPE: a '\'
  // the user typed is a separator, never an escape.
  return ::fnmatch(glob_normalise(pattern, opt).c_str(), glob_normalise(name, opt).c_str(), FNM_NOESCAPE) == 0;
}

bool glob_match(std::string_view pattern, std::string_view name) { return glob_match(pattern, name, GlobOptions{}); }

bool glob_any(const std::vector<std::string>& globs, std::string_view name, GlobOptions opt) {
  if (globs.empty()) return true;
  for (const auto& g : globs)
    if (glob_match(g, name, opt)) return true;
  return false;
}

bool glob_any(const std::vector<std::string>& globs, std::string_view name) { return glob_any(globs, name, GlobOptions{}); }

bool has_glob_chars(std::string_view s) { return s.find_first_of("*?[") != std::string_view::npos; }

}  // namespace assay
