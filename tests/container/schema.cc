#include "schema.h"

#include <fstream>

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

}  // namespace

void validate_schema(const nlohmann::json& schema, const nlohmann::json& doc, std::vector<std::string>& errors,
                     const std::string& path) {
  static const std::vector<std::string> known = {"$comment", "type",  "enum",    "required",
                                                 "properties", "additionalProperties", "items", "minimum"};
  for (auto it = schema.begin(); it != schema.end(); ++it)
    if (std::find(known.begin(), known.end(), it.key()) == known.end())
      errors.push_back(path + ": schema keyword '" + it.key() + "' is outside the supported subset");
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
  if (doc.is_object()) {
    if (schema.contains("required"))
      for (const auto& k : schema["required"])
        if (!doc.contains(k.get<std::string>())) errors.push_back(path + ": missing '" + k.get<std::string>() + "'");
    const nlohmann::json props = schema.value("properties", nlohmann::json::object());
    for (auto it = doc.begin(); it != doc.end(); ++it) {
      if (props.contains(it.key())) validate_schema(props[it.key()], it.value(), errors, path + "." + it.key());
      else if (schema.contains("additionalProperties") && schema["additionalProperties"] == false)
        errors.push_back(path + ": unexpected field '" + it.key() + "'");
    }
  }
  if (doc.is_array() && schema.contains("items"))
    for (std::size_t i = 0; i < doc.size(); ++i)
      validate_schema(schema["items"], doc[i], errors, path + "[" + std::to_string(i) + "]");
}

nlohmann::json load_schema(const std::string& verb) {
  std::ifstream f(std::string(ASSAY_SOURCE_DIR) + "/docs/schema/" + verb + ".json");
  return nlohmann::json::parse(f, nullptr, false);
}

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

}  // namespace assay::testing
