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

Result<LayoutSource> layouts_for(const std::map<std::string, std::string>& family, const std::filesystem::path& dir,
                                 Diagnostics* warnings) {
  auto own = [](LayoutSet s) { return LayoutSource(std::make_shared<const LayoutSet>(std::move(s))); };
  if (auto it = family.find("exe"); it != family.end() && !it->second.empty()) {
    ASSAY_TRY(LayoutSet s, from_exe(it->second, warnings));
    return own(std::move(s));
  }
  std::filesystem::path file;
  if (auto it = family.find("layouts"); it != family.end() && !it->second.empty()) {
    file = it->second;
  } else {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(dir / kLayoutsBeside, ec)) return LayoutSource{};  // built-in
    file = dir / kLayoutsBeside;
  }
  ASSAY_TRY(std::string text, read_text_file(file));
  ASSAY_TRY(LayoutSet s, parse_layouts_file(text, file.filename().string(), warnings));
  return own(std::move(s));
}

std::string builtin_layouts_file(std::optional<TemplateSet> only) {
  std::string s = "# assay layouts v1\n";
  if (!only) {
    s += fmt::format("# source: built in from oni-templates.txt: retail v1.0 (0x{:016x}) and v1.1 (0x{:016x}); BINA, OSBD, TXMP "
                     "and SNDD have one line per set\n", kChecksumV10, kChecksumV11);
    const LayoutSet& v10 = builtin_layouts(TemplateSet::v10);
    for (const CompiledLayout& c : v10.all()) s += format_layout_line(c.layout) + "\n";
    for (const CompiledLayout& c : builtin_layouts(TemplateSet::v11).all())
      if (v10.find(c.tag(), c.checksum()) == nullptr) s += format_layout_line(c.layout) + "\n";
    return s;
  }
  const bool v10 = *only == TemplateSet::v10;
  const LayoutSet& set = builtin_layouts(*only);
  s += fmt::format("# source: built in from oni-templates.txt: retail {} set (0x{:016x}), {} templates\n", v10 ? "v1.0" : "v1.1",
                   v10 ? kChecksumV10 : kChecksumV11, set.all().size());
  for (const CompiledLayout& c : set.all()) s += format_layout_line(c.layout) + "\n";
  return s;
}

Result<std::string> layouts_text_from_exe(const std::filesystem::path& exe) {
  ASSAY_TRY(MappedFile m, MappedFile::open(exe));
  ASSAY_TRY(std::vector<Layout> ls, extract_layouts_from_exe(m.bytes(), exe.filename().string()));
  return format_layouts_file(ls, fmt::format("Oni.exe, {} templates", ls.size()));
}

}  // namespace assay::oni
