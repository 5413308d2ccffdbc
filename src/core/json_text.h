// Internal: the JSON rule of assay/core/text.h (docs/cli.md#escaping) on JSON values.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "assay/core/text.h"

namespace assay {

// Applies the JSON rule to every string in `j` (in place). Returns true when anything changed.
bool make_json_utf8(nlohmann::ordered_json& j);
// j.dump(indent) after the JSON rule (the tree is copied only when it needs a change); never throws
// on string content.
[[nodiscard]] std::string dump_json(const nlohmann::ordered_json& j, int indent = -1);

}  // namespace assay
