#include "schema.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <regex>

#include <gtest/gtest.h>

namespace assay::testing {

namespace {

bool has_type(const nlohmann::json& v, const std::string& t) {
  if (t == "null") return v.is_null();
  if (t == "boolean") return v.is_boolean();
  if (t == "string") return v.is_string();
  if (t == "integer") return v.is_number_integer() || v.is_number_unsigned();
  if (t == "number") return v.is_number();
  if (t == "object") return v.is_object();
  if (t == "array") return v.is_array();
  return false;
}

// Each schema file is read once per test binary ($ref resolves to the same files many times).
const nlohmann::json& cached_schema(const std::string& file) {
  static std::map<std::string, nlohmann::json> cache;
  auto it = cache.find(file);
  if (it == cache.end()) {
    std::ifstream f(std::string(ASSAY_SOURCE_DIR) + "/docs/schema/" + file);
    it = cache.emplace(file, nlohmann::json::parse(f, nullptr, false)).first;
  }
  return it->second;
}

void validate_object(const nlohmann::json& schema, const nlohmann::json& doc, std::vector<std::string>& errors,
                     const std::string& path) {
  if (schema.contains("required"))
    for (const auto& k : schema["required"])
      if (!doc.contains(k.get<std::string>())) errors.push_back(path + ": missing '" + k.get<std::string>() + "'");
  const nlohmann::json props = schema.value("properties", nlohmann::json::object());
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    const std::string sub = path + "." + it.key();
    bool matched = false;
    if (schema.contains("patternProperties"))
      for (const auto& [re, sub_schema] : schema["patternProperties"].items())
        if (std::regex_search(it.key(), std::regex(re))) {
          matched = true;
          validate_schema(sub_schema, it.value(), errors, sub);
        }
    if (props.contains(it.key())) {
      validate_schema(props[it.key()], it.value(), errors, sub);
    } else if (matched) {
      continue;
    } else if (schema.contains("additionalProperties")) {
      const auto& extra = schema["additionalProperties"];
      if (extra == false) errors.push_back(path + ": unexpected field '" + it.key() + "'");
      else validate_schema(extra, it.value(), errors, sub);
    }
  }
}

}  // namespace

void validate_schema(const nlohmann::json& schema, const nlohmann::json& doc, std::vector<std::string>& errors,
                     const std::string& path) {
  if (schema.is_boolean()) {  // true: anything; false: nothing (a field that must not be there)
    if (schema == false) errors.push_back(path + ": not allowed here");
    return;
  }
  static const std::vector<std::string> known = {"$comment", "$ref",  "type",    "enum",  "required", "properties",
                                                 "additionalProperties", "patternProperties", "items", "minimum", "pattern"};
  for (auto it = schema.begin(); it != schema.end(); ++it)
    if (std::find(known.begin(), known.end(), it.key()) == known.end())
      errors.push_back(path + ": schema keyword '" + it.key() + "' is outside the supported subset");
  if (schema.contains("$ref")) {
    const nlohmann::json& target = cached_schema(schema["$ref"].get<std::string>());
    if (target.is_discarded()) errors.push_back(path + ": $ref " + schema["$ref"].dump() + " names no schema file");
    else validate_schema(target, doc, errors, path);
  }
  if (schema.contains("type")) {
    const auto& t = schema["type"];
    bool ok = false;
    if (t.is_string()) ok = has_type(doc, t.get<std::string>());
    else
      for (const auto& x : t) ok = ok || has_type(doc, x.get<std::string>());
    if (!ok) {
      errors.push_back(path + ": " + doc.dump() + " is not of type " + t.dump());
      return;
    }
  }
  if (schema.contains("enum")) {
    bool found = false;
    for (const auto& x : schema["enum"]) found = found || x == doc;
    if (!found) errors.push_back(path + ": " + doc.dump() + " is not one of " + schema["enum"].dump());
  }
  if (schema.contains("minimum") && doc.is_number() && doc.get<double>() < schema["minimum"].get<double>())
    errors.push_back(path + ": " + doc.dump() + " is below the minimum");
  if (schema.contains("pattern") && doc.is_string() &&
      !std::regex_search(doc.get<std::string>(), std::regex(schema["pattern"].get<std::string>())))
    errors.push_back(path + ": " + doc.dump() + " does not match " + schema["pattern"].dump());
  if (doc.is_object()) validate_object(schema, doc, errors, path);
  if (doc.is_array() && schema.contains("items"))
    for (std::size_t i = 0; i < doc.size(); ++i)
      validate_schema(schema["items"], doc[i], errors, path + "[" + std::to_string(i) + "]");
}

nlohmann::json load_schema(const std::string& verb) { return cached_schema(verb + ".json"); }

void check_normalised(const nlohmann::json& doc, std::vector<std::string>& errors, const std::string& path) {
  constexpr std::uint64_t kMax = std::uint64_t{1} << 53;
  if (doc.is_number_unsigned() && doc.get<std::uint64_t>() > kMax) errors.push_back(path + ": integer above 2^53");
  if (doc.is_number_integer() && !doc.is_number_unsigned()) {
    const std::int64_t v = doc.get<std::int64_t>();
    if (v > static_cast<std::int64_t>(kMax) || v < -static_cast<std::int64_t>(kMax)) errors.push_back(path + ": integer above 2^53");
  }
  if (doc.is_string() && doc.get_ref<const std::string&>().empty()) errors.push_back(path + ": empty string (use null)");
  if (doc.is_object())
    for (auto it = doc.begin(); it != doc.end(); ++it) check_normalised(it.value(), errors, path + "." + it.key());
  if (doc.is_array())
    for (std::size_t i = 0; i < doc.size(); ++i) check_normalised(doc[i], errors, path + "[" + std::to_string(i) + "]");
}

void check_problem_codes(const nlohmann::json& doc, std::vector<std::string>& errors, const std::string& path) {
  if (doc.is_object() && doc.contains("severity") && doc.contains("message") && doc.contains("code") &&
      doc["message"].is_string()) {
    // The rule id a message names: "V13: ..." at the start or "... (R5)" at the end.
    static const std::regex rule(R"(^([A-Z]{1,4}[0-9]+):|\(([A-Z]{1,4}[0-9]+)\)$)");
    std::smatch m;
    const std::string& message = doc["message"].get_ref<const std::string&>();
    if (std::regex_search(message, m, rule)) {
      const std::string id = m[1].matched ? m[1].str() : m[2].str();
      if (doc["code"] != id) errors.push_back(path + ".code: " + doc["code"].dump() + ", but the message names rule " + id);
    }
  }
  if (doc.is_object())
    for (auto it = doc.begin(); it != doc.end(); ++it) check_problem_codes(it.value(), errors, path + "." + it.key());
  if (doc.is_array())
    for (std::size_t i = 0; i < doc.size(); ++i) check_problem_codes(doc[i], errors, path + "[" + std::to_string(i) + "]");
}

void check_escaped(const nlohmann::json& doc, std::vector<std::string>& errors, const std::string& path) {
  static const std::string kReplacement = "\xEF\xBF\xBD";  // U+FFFD
  if (doc.is_object())
    for (auto it = doc.begin(); it != doc.end(); ++it) {
      if (it.value().is_string() && it.value().get_ref<const std::string&>().find(kReplacement) != std::string::npos &&
          !doc.contains(it.key() + "_bytes"))
        errors.push_back(path + "." + it.key() + ": U+FFFD without " + it.key() + "_bytes (docs/cli.md#escaping)");
      check_escaped(it.value(), errors, path + "." + it.key());
    }
  if (doc.is_array())
    for (std::size_t i = 0; i < doc.size(); ++i) check_escaped(doc[i], errors, path + "[" + std::to_string(i) + "]");
}

std::vector<std::string> schema_problems(const std::string& verb, const nlohmann::json& doc) {
  std::vector<std::string> errors;
  const nlohmann::json& schema = load_schema(verb);
  if (schema.is_discarded()) return {"docs/schema/" + verb + ".json is missing or not JSON"};
  validate_schema(schema, doc, errors);
  check_normalised(doc, errors);
  check_problem_codes(doc, errors);
  check_escaped(doc, errors);
  return errors;
}

std::string without_indices(const std::string& error) {
  const std::size_t colon = error.find(": ");
  const std::string where = error.substr(0, colon);
  return std::regex_replace(where, std::regex(R"(\[[0-9]+\])"), "[]") +
         (colon == std::string::npos ? "" : error.substr(colon));
}

}  // namespace assay::testing

namespace assay::testing {

const std::vector<KnownViolation>& known_violations() {
  static const std::vector<KnownViolation> list = {
      // None left (issue 11 item 4 fixed them all); add a line only for a rule a verb breaks again.
  };
  return list;
}

void SchemaLedger::check(const nlohmann::json& doc, const std::string& context) {
  const auto& known = known_violations();
  for (const std::string& e : schema_problems(schema_, doc)) {
    const std::string at = without_indices(e);
    bool listed = false;
    for (std::size_t i = 0; i < known.size() && !listed; ++i) {
      const auto& k = known[i];
      if (k.schema != schema_ || at.rfind(k.where + ": ", 0) != 0 || at.find(k.what) == std::string::npos) continue;
      seen_[i] = true;
      listed = true;
    }
    if (!listed) ADD_FAILURE() << "docs/schema/" << schema_ << ".json: " << context << ": " << e;
  }
}

SchemaLedger::~SchemaLedger() {
  if (!expect_known_ || ::testing::Test::HasFatalFailure() || ::testing::Test::IsSkipped()) return;
  const auto& known = known_violations();
  for (std::size_t i = 0; i < known.size(); ++i)
    if (known[i].schema == schema_ && !seen_[i])
      ADD_FAILURE() << "docs/schema/" << schema_ << ".json: the known violation '" << known[i].where << ": "
                    << known[i].what << "' (" << known[i].fix
                    << ") no longer occurs: remove it from known_violations() (tests/container/schema.cc)";
}

}  // namespace assay::testing
