// A validator for the subset of JSON Schema that docs/schema/*.json use: type (one or a list;
// "integer" = a number without fraction), enum, required, properties, additionalProperties
// (false), items, minimum, $comment. Any other keyword is reported, so the subset stays honest.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace assay::testing {

// Appends "PATH: what is wrong" for every violation of `schema` by `doc`.
void validate_schema(const nlohmann::json& schema, const nlohmann::json& doc, std::vector<std::string>& errors,
                     const std::string& path = "$");
// docs/schema/<verb>.json
nlohmann::json load_schema(const std::string& verb);
// The rules of docs/cli.md#json the schema language cannot say: no number above 2^53 in
// magnitude, no empty string (missing values are null).
void check_normalised(const nlohmann::json& doc, std::vector<std::string>& errors, const std::string& path = "$");

}  // namespace assay::testing
