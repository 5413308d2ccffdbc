// Where layouts come from: --exe, --layouts, or oni-layouts.txt beside the input (docs/cli.md).
#include <fmt/format.h>

#include <system_error>

#include "assay/core/mapped_file.h"
#include "assay/formats/oni/oni.h"

namespace assay::oni {

static Result<LayoutSet> from_exe(const std::filesystem::path& exe, Diagnostics* warnings) {
  ASSAY_TRY(MappedFile m, MappedFile::open(exe));
  ASSAY_TRY(std::vector<Layout> ls, extract_layouts_from_exe(m.bytes(), exe.filename().string()));
  LayoutSet set;
  set.source = "Oni.exe";
  for (auto& l : ls) ASSAY_CHECK(set.add(std::move(l), warnings));
  return set;
}

Result<LayoutSet> layouts_for(const std::map<std::string, std::string>& family, const std::filesystem::path& dir,
                              Diagnostics* warnings) {
  if (auto it = family.find("exe"); it != family.end() && !it->second.empty()) return from_exe(it->second, warnings);
  std::filesystem::path file;
  if (auto it = family.find("layouts"); it != family.end() && !it->second.empty()) {
    file = it->second;
  } else {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(dir / kLayoutsBeside, ec)) return LayoutSet{};
    file = dir / kLayoutsBeside;
  }
  ASSAY_TRY(std::string text, read_text_file(file));
  return parse_layouts_file(text, file.filename().string(), warnings);
}

Result<std::string> layouts_text_from_exe(const std::filesystem::path& exe) {
  ASSAY_TRY(MappedFile m, MappedFile::open(exe));
  ASSAY_TRY(std::vector<Layout> ls, extract_layouts_from_exe(m.bytes(), exe.filename().string()));
  return format_layouts_file(ls, fmt::format("Oni.exe, {} templates", ls.size()));
}

std::string oni_file_name(std::string_view full) {
  std::string s;
  for (char ch : full) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c >= 0x7F || std::string_view("\\/:*?\"<>|%").find(ch) != std::string_view::npos)
      s += fmt::format("%{:02X}", c);
    else
      s += ch;
  }
  if (!s.empty() && s[0] == '.') s = "%2E" + s.substr(1);  // never "." or ".."
  return s + ".oni";
}

std::string oni_name_from_file(std::string_view stem) {
  std::string s;
  auto hexv = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (std::size_t i = 0; i < stem.size(); ++i) {
    if (stem[i] == '%' && i + 2 < stem.size() + 0 && hexv(stem[i + 1]) >= 0 && hexv(stem[i + 2]) >= 0) {
      s += static_cast<char>(hexv(stem[i + 1]) * 16 + hexv(stem[i + 2]));
      i += 2;
    } else {
      s += stem[i];
    }
  }
  return s;
}

}  // namespace assay::oni
