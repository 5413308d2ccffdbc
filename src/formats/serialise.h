// The one serialiser (docs/cli.md#json, docs/schema/*.json): the JSON of info, list and verify
// from what the families print (Container::print_info, print_details), and the value behind a
// verb's JsonDocument. Internal to the library and its front ends (the CLI, Python, the viewer):
// no public header names Json.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "assay/container.h"
#include "assay/document.h"
#include "assay/family.h"
#include "core/json_text.h"

namespace assay {

using Json = nlohmann::ordered_json;

struct JsonValue {
  Json json;
};
inline Json& json_of(JsonDocument& d) { return d.value().json; }
inline const Json& json_of(const JsonDocument& d) { return d.value().json; }
JsonDocument make_document(Json j);
// A family's edit that builds its report as JSON, as Family::edit takes it.
template <Result<Json> (*Edit)(const Input&, const EditRequest&)>
Result<JsonDocument> edit_document(const Input& in, const EditRequest& req) {
  ASSAY_TRY(Json j, Edit(in, req));
  return make_document(std::move(j));
}

// Integers above 2^53 become "0x..." strings, empty strings become null (recursively).
Json normalise_json(Json j);
Json entry_json(const Container& c, const Entry& e);
// The family's fields of `e` alone (print_details), as entry_json prints them.
Json details_json(const Container& c, const Entry& e);
// {"format", ...print_info()}
Result<Json> info_json(const Container& c);
// {"format", ...print_list_fields(), "entries": [...]} (entries matching `globs`, all when empty).
Json list_json(const Container& c, const std::vector<std::string>& globs = {});
// The same with the entries at `chosen` (indices into entries()).
Json list_json(const Container& c, std::span<const std::size_t> chosen);
// {"severity", "code", "structure", "offset", "message"}; code is the rule id when the message
// starts with one ("V13: ...") or ends with one ("... (R5)"), else null.
Json problem_json(const Diagnostic& d);
// One file of `verify --json`: {"file", "format", "ok", "errors", "warnings", "problems"}.
Json verify_json(std::string_view file, std::optional<std::string_view> format, const Diagnostics& d);

}  // namespace assay
