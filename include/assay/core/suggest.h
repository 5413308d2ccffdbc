// "Did you mean": the one nearest-word rule for mistyped verbs, options, entry names and globs.
// The CLI's cli::closest is this function.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "assay/core/glob.h"

namespace assay {

// The closest of `known` to `word`: edit distance at most 2 and smaller than the word (a word
// that is the start of a known one counts as distance 1), the first of equals; "" when none.
std::string closest_word(std::string_view word, const std::vector<std::string>& known);

// A selector that selects something from `spellings` (the entries' names and paths) and is close
// to `selector`, a name or glob that selected nothing; "" when none is close. Compared as globs
// compare (core/glob.h: `\` is `/`, case folded with opt.fold_case), tried in this order:
//  - a name: the same name in another case (any container), else the closest spelling;
//  - a glob: one `/`-separated literal part replaced by the closest folder or file name
//    (`texture/*` -> `textures/*`), else its longest literal run replaced by the closest run of as
//    many characters, give or take one, in a spelling (`*.igzz` -> `*.igz`, `*wvae*` -> `*wave*`).
// Names are shown with `/`; a glob's replaced part as the spelling has it (lower case when folded).
std::string suggest_selector(std::string_view selector, const std::vector<std::string>& spellings, GlobOptions opt);

}  // namespace assay
