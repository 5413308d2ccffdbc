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

}  // namespace assay::oni
