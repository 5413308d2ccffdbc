#include "assay/core/codes.h"

#include <cctype>

namespace assay {

std::string structure_code(std::string_view family, std::string_view structure, std::string_view fallback) {
  std::string word, out;
  auto flush = [&] {
    const bool letter = !word.empty() && std::isalpha(static_cast<unsigned char>(word[0])) &&
                        !(word.size() > 1 && word[0] == 'x' && std::isdigit(static_cast<unsigned char>(word[1])));
    if (letter) out += (out.empty() ? "" : "-") + word;
    word.clear();
  };
  int depth = 0;
  for (char c : structure) {
    if (c == '[') ++depth, flush();
    else if (c == ']') depth = depth > 0 ? depth - 1 : 0;
    else if (depth == 0 && std::isalnum(static_cast<unsigned char>(c)))
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (depth == 0) flush();
  }
  flush();
  return std::string(family) + "." + (out.empty() ? std::string(fallback) : out);
}

}  // namespace assay
