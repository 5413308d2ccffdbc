// Where an edit writes (`replace|add|remove FILE (-o OUT | --in-place)`), one rule for every family
// whose result is one file: --in-place rewrites the input (a plain file on disk, never an inner
// file or a folder), else OUT, refused when it is the input. The write itself is temp-then-rename.
#pragma once

#include <filesystem>

#include "assay/container.h"

namespace assay {

Result<std::filesystem::path> edit_target(const Input& in, const EditRequest& req);

}  // namespace assay
