// What a verb's --json prints (docs/cli.md), as a verb's report holds it: C++ callers read its
// text; the CLI, Python and the viewer read the value through the serialiser
// (src/formats/serialise.h), which is also where it is built.
#pragma once

#include <memory>
#include <string>

namespace assay {

struct JsonValue;  // src/formats/serialise.h

class JsonDocument {
 public:
  JsonDocument();  // {}
  ~JsonDocument();
  JsonDocument(const JsonDocument& o);
  JsonDocument& operator=(const JsonDocument& o);
  JsonDocument(JsonDocument&&) noexcept;
  JsonDocument& operator=(JsonDocument&&) noexcept;
  // The JSON text (indent < 0: one line).
  [[nodiscard]] std::string text(int indent = -1) const;
  [[nodiscard]] JsonValue& value() { return *value_; }
  [[nodiscard]] const JsonValue& value() const { return *value_; }

 private:
  std::unique_ptr<JsonValue> value_;
};

}  // namespace assay
