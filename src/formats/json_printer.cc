// The JSON printer (json_printer.h).
#include "json_printer.h"

#include "formats/serialise.h"

namespace assay::detail {

JsonPrinter::JsonPrinter(Json& root) {
  if (root.is_null()) root = Json::object();
  open_.push_back(&root);
}

Json* JsonPrinter::put(std::string_view key, Json v) {
  Json& at = *open_.back();
  if (at.is_array()) {
    at.push_back(std::move(v));
    return &at.back();
  }
  auto& obj = at.get_ref<Json::object_t&>();
  return &obj.emplace(std::string(key), std::move(v)).first->second;  // an existing key stays
}

// Scalars take normalise_json's rules (docs/cli.md#json), the same as a value built as JSON.
void JsonPrinter::null(std::string_view key) { put(key, nullptr); }
void JsonPrinter::boolean(std::string_view key, bool v) { put(key, v); }
void JsonPrinter::integer(std::string_view key, std::int64_t v) { json(key, v); }
void JsonPrinter::unsigned_integer(std::string_view key, std::uint64_t v) { json(key, v); }
void JsonPrinter::real(std::string_view key, double v) { put(key, v); }
void JsonPrinter::string(std::string_view key, std::string_view v) { json(key, std::string(v)); }
void JsonPrinter::begin_object(std::string_view key) { open_.push_back(put(key, Json::object())); }
void JsonPrinter::end_object() { open_.pop_back(); }
void JsonPrinter::begin_array(std::string_view key) { open_.push_back(put(key, Json::array())); }
void JsonPrinter::end_array() { open_.pop_back(); }
void JsonPrinter::json(std::string_view key, Json v) { put(key, normalise_json(std::move(v))); }

void print_json(FieldPrinter& p, std::string_view key, const Json& v) {
  if (auto* jp = dynamic_cast<JsonPrinter*>(&p)) return jp->json(key, v);
  switch (v.type()) {
    case Json::value_t::object:
      p.begin_object(key);
      print_json_fields(p, v);
      return p.end_object();
    case Json::value_t::array:
      p.begin_array(key);
      for (const Json& x : v) print_json(p, "", x);
      return p.end_array();
    case Json::value_t::boolean: return p.boolean(key, v.get<bool>());
    case Json::value_t::number_integer: return p.integer(key, v.get<std::int64_t>());
    case Json::value_t::number_unsigned: return p.unsigned_integer(key, v.get<std::uint64_t>());
    case Json::value_t::number_float: return p.real(key, v.get<double>());
    case Json::value_t::string: return p.string(key, v.get_ref<const std::string&>());
    default: return p.null(key);
  }
}

void print_json_fields(FieldPrinter& p, const Json& fields) {
  for (auto it = fields.begin(); it != fields.end(); ++it) print_json(p, it.key(), it.value());
}

}  // namespace assay::detail

namespace assay {

JsonDocument::JsonDocument() : value_(std::make_unique<JsonValue>(JsonValue{Json::object()})) {}
JsonDocument::~JsonDocument() = default;
JsonDocument::JsonDocument(const JsonDocument& o) : value_(std::make_unique<JsonValue>(*o.value_)) {}
JsonDocument& JsonDocument::operator=(const JsonDocument& o) {
  if (this != &o) value_ = std::make_unique<JsonValue>(*o.value_);
  return *this;
}
JsonDocument::JsonDocument(JsonDocument&&) noexcept = default;
JsonDocument& JsonDocument::operator=(JsonDocument&&) noexcept = default;
std::string JsonDocument::text(int indent) const { return dump_json(value_->json, indent); }

JsonDocument make_document(Json j) {
  JsonDocument d;
  json_of(d) = std::move(j);
  return d;
}

}  // namespace assay
