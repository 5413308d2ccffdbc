// Shared helpers for the fuzz targets (not a target itself: only fuzz/*.cc are globbed).
// A per-process scratch folder for targets that must go through the file system (extract,
// pack, ISO reading), a check that nothing was written outside it, and JSON serialisation.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "assay/core/bytes.h"
#include "assay/core/text.h"
#include "core/json_text.h"

namespace fs = std::filesystem;  // for the targets

namespace assay::fuzz {

// One scratch folder per process (libFuzzer forks no workers here; -jobs gives each its own).
inline const fs::path& scratch() {
  static const fs::path root = [] {
    std::string tmpl = (fs::temp_directory_path() / "assay-fuzz-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) std::abort();
    static const std::string keep = tmpl;
    std::atexit([] {
      std::error_code ec;
      fs::remove_all(keep, ec);
    });
    return fs::path(tmpl);
  }();
  return root;
}

// An empty folder `name` under the scratch folder (removed and made again).
inline fs::path fresh_dir(std::string_view name) {
  const fs::path p = scratch() / name;
  std::error_code ec;
  fs::remove_all(p, ec);
  fs::create_directories(p);
  return p;
}

inline void write_bytes(const fs::path& p, const void* data, std::size_t n) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
  if (!f) std::abort();
}

// Every path under `root` is a regular file or folder (never a symlink, FIFO, device) and its
// canonical form stays under root: a violation is a finding (trap).
inline void check_contained(const fs::path& root) {
  const std::string base = fs::canonical(root).string() + "/";
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const auto st = it->symlink_status();
    if (!fs::is_regular_file(st) && !fs::is_directory(st)) __builtin_trap();
    const std::string c = fs::weakly_canonical(it->path()).string();
    if (c.compare(0, base.size(), base) != 0) __builtin_trap();
    // a leftover temporary (".assay-tmp-XXXXXX", core/output.h) means a broken entry left a
    // partial file behind
    if (it->path().filename().string().rfind(".assay-tmp-", 0) == 0) __builtin_trap();
  }
}

// Serialises as the CLI prints (core/text.h dump_json: strings that are not UTF-8 get U+FFFD plus
// a "<key>_bytes" hex sibling, issue 15 item 1), indented and compact. It must never throw, must
// give valid UTF-8, and the text must parse back as JSON; the text printer's terminal escaping
// (escape_terminal) must leave no control character at all.
template <class JsonT>
inline std::size_t dump_all(const JsonT& j) {
  std::size_t n = 0;
  for (int indent : {2, -1}) {
    const std::string text = assay::dump_json(j, indent);
    if (!assay::valid_utf8(text)) __builtin_trap();
    const auto back = nlohmann::ordered_json::parse(text);  // throws (a finding) on malformed output
    if (back.is_discarded()) __builtin_trap();
    n += text.size();
    for (unsigned char c : assay::escape_terminal(text))
      if (c < 0x20 || c == 0x7f) __builtin_trap();
  }
  return n;
}

// Splits `data` at each occurrence of `sep` (at most `max` parts; the last keeps the rest).
inline std::vector<ByteView> split(ByteView data, std::string_view sep, std::size_t max) {
  std::vector<ByteView> out;
  std::size_t start = 0;
  const std::string_view s(reinterpret_cast<const char*>(data.data()), data.size());
  while (out.size() + 1 < max) {
    const std::size_t at = s.find(sep, start);
    if (at == std::string_view::npos) break;
    out.push_back(data.subspan(start, at - start));
    start = at + sep.size();
  }
  out.push_back(data.subspan(start));
  return out;
}

}  // namespace assay::fuzz
