// Which Oni layouts a command uses (spec: oni.md#oni-5): from options, a file beside the input,
// Oni.exe or the built-in sets.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include "assay/core/diag.h"
#include "assay/core/input.h"
#include "assay/formats/oni/layout.h"

namespace assay::oni {

inline constexpr const char* kLayoutsBeside = "oni-layouts.txt";

// Layouts from family options: "exe" (Oni.exe) wins over "layouts" (a layouts file); without
// either, `oni-layouts.txt` in `dir` when present; otherwise the built-in sets, picked per file by
// its header checksum.
Result<LayoutSource> layouts_for(const std::map<std::string, std::string>& family, const std::filesystem::path& dir,
                                 Diagnostics* warnings = nullptr);
// The same with `oni-layouts.txt` as the opener took it from the input's siblings (none: built-in).
Result<LayoutSource> layouts_for(const std::map<std::string, std::string>& family, const std::optional<Input>& beside,
                                 Diagnostics* warnings = nullptr);
// `assay oni layouts`: the built-in table as a layouts file (spec: oni.md#oni-5-1): every line of
// both sets, or one set's 114 lines.
std::string builtin_layouts_file(std::optional<TemplateSet> only);
// `assay oni layouts --exe Oni.exe`: the layouts file text (spec: oni.md#oni-5-2).
Result<std::string> layouts_text_from_exe(const std::filesystem::path& exe);

}  // namespace assay::oni
