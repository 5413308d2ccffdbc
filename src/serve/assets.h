// The page's files (src/serve/web/*), embedded at build time by src/serve/assets.cmake.
#pragma once

#include <string_view>

namespace assay::serve {

struct Asset {
  std::string_view path;  // "/index.html", "/app.js", ...
  std::string_view mime;
  std::string_view data;
};

// The asset served at `path` ("/" is "/index.html"), or nullptr.
const Asset* find_asset(std::string_view path);

}  // namespace assay::serve
