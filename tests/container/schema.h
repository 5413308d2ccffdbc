// A validator for the subset of JSON Schema (draft 2020-12) that docs/schema/*.json use: type
// (one or a list; "integer" = a number without fraction), enum, required, properties,
// additionalProperties (false or a schema), patternProperties, items, minimum, pattern
// (ECMAScript, on strings only), $ref to a sibling file ("problem.json"), the boolean schemas
// true/false, $comment. Any other keyword is reported, so the subset stays honest.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace assay::testing {

// Appends "PATH: what is wrong" for every violation of `schema` by `doc`.
void validate_schema(const nlohmann::json& schema, const nlohmann::json& doc, std::vector<std::string>& errors,
                     const std::string& path = "$");
// docs/schema/<verb>.json (a discarded value when the file is missing or not JSON).
nlohmann::json load_schema(const std::string& verb);
// The rules of docs/cli.md#json the schema language cannot say: no number above 2^53 in
// magnitude, no empty string (missing values are null).
void check_normalised(const nlohmann::json& doc, std::vector<std::string>& errors, const std::string& path = "$");
// A problem (an object with severity, message and code) whose message names a rule ("V13: ..."
// at the start or "... (R5)" at the end) has that rule as its code.
void check_problem_codes(const nlohmann::json& doc, std::vector<std::string>& errors, const std::string& path = "$");
// docs/cli.md#escaping: an object member holding U+FFFD (a string that was not UTF-8) has a
// sibling "<key>_bytes".
void check_escaped(const nlohmann::json& doc, std::vector<std::string>& errors, const std::string& path = "$");
// The four checks above for the output of `verb` (the schema docs/schema/<verb>.json).
std::vector<std::string> schema_problems(const std::string& verb, const nlohmann::json& doc);
// "$.a[3].b[0]: ..." -> "$.a[].b[]: ...": one violation per place whatever the array index.
std::string without_indices(const std::string& error);

// A verb's output that breaks a rule of docs/cli.md#json today (issue 11 item 4), found by these
// tests: the verb's code is not the tests' to change. `where` is the JSON path without array
// indices, `what` a piece of the validator's message. Remove the line when the verb is fixed: a
// listed violation that no longer occurs fails the test that covers the schema.
struct KnownViolation {
  std::string schema, where, what, fix;
};
const std::vector<KnownViolation>& known_violations();

// Checks documents against one schema: a violation not in known_violations() is a test failure
// (with `context`, e.g. the command line). With `expect_known`, ~SchemaLedger fails for each known
// violation of the schema that none of the documents showed (it is fixed: remove it from the
// list); the tests over our own fixtures set it, those over optional real samples do not.
class SchemaLedger {
 public:
  explicit SchemaLedger(std::string schema, bool expect_known = true)
      : schema_(std::move(schema)), expect_known_(expect_known) {}
  ~SchemaLedger();
  SchemaLedger(const SchemaLedger&) = delete;
  SchemaLedger& operator=(const SchemaLedger&) = delete;
  void check(const nlohmann::json& doc, const std::string& context);

 private:
  std::string schema_;
  bool expect_known_;
  std::vector<bool> seen_ = std::vector<bool>(known_violations().size());
};

}  // namespace assay::testing
