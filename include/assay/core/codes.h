// Problem codes named after a structure (docs/cli.md#codes), for families whose spec gives no rule
// ids: "<family>.<kebab structure>", lower case, with [..] indexes and words that do not start with
// a letter (numbers, "x1f"-style hex) left out ("file[3] block 2" -> "igarchive.file-block",
// "object[3] field 0x10" -> "igz.object-field"); "<family>.<fallback>" when nothing is left.
#pragma once

#include <string>
#include <string_view>

namespace assay {

std::string structure_code(std::string_view family, std::string_view structure, std::string_view fallback);

}  // namespace assay
