// Where layouts come from: --exe, --layouts, or oni-layouts.txt beside the input (docs/cli.md).
#include <fmt/format.h>

#include <optional>
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

static LayoutSource own(LayoutSet s) { return LayoutSource(std::make_shared<const LayoutSet>(std::move(s))); }

static Result<LayoutSource> from_text(std::string_view text, const std::string& display, Diagnostics* warnings) {
  ASSAY_TRY(LayoutSet s, parse_layouts_file(text, display, warnings));
  return own(std::move(s));
}

// --exe or --layouts when one is given (docs/cli.md); nullopt: neither.
static std::optional<Result<LayoutSource>> given_layouts(const std::map<std::string, std::string>& family, Diagnostics* warnings) {
  if (auto it = family.find("exe"); it != family.end() && !it->second.empty()) {
    auto s = from_exe(it->second, warnings);
    if (!s) return Result<LayoutSource>(std::move(s).error());
    return Result<LayoutSource>(own(std::move(*s)));
  }
  if (auto it = family.find("layouts"); it != family.end() && !it->second.empty()) {
    const std::filesystem::path file = it->second;
    auto text = read_text_file(file);
    if (!text) return Result<LayoutSource>(std::move(text).error());
    return from_text(*text, file.filename().string(), warnings);
  }
  return std::nullopt;
}

Result<LayoutSource> layouts_for(const std::map<std::string, std::string>& family, const std::filesystem::path& dir,
                                 Diagnostics* warnings) {
  if (auto g = given_layouts(family, warnings)) return std::move(*g);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(dir / kLayoutsBeside, ec)) return LayoutSource{};  // built-in
  ASSAY_TRY(std::string text, read_text_file(dir / kLayoutsBeside));
  return from_text(text, kLayoutsBeside, warnings);
}

Result<LayoutSource> layouts_for(const std::map<std::string, std::string>& family, const std::optional<Input>& beside,
                                 Diagnostics* warnings) {
  if (auto g = given_layouts(family, warnings)) return std::move(*g);
  if (!beside) return LayoutSource{};  // built-in
  const ByteView b = beside->bytes;
  return from_text(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()), kLayoutsBeside, warnings);
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
