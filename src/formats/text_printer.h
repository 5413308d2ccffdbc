// Internal: the FieldPrinter behind the text of `assay info` (docs/cli.md#info): one "key: value"
// line per field, an object as "key:" with its fields indented two spaces, an array of objects as
// "key: (N)" and one JSON line per item, any other array as one JSON line. Values follow the JSON
// printer's rules (integers above 2^53 as 0x..., empty text and null as "-"); text is escaped for
// the terminal (docs/cli.md#escaping).
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "formats/serialise.h"
#include "assay/printer.h"
#include "json_printer.h"

namespace assay::detail {

class TextPrinter final : public FieldPrinter {
 public:
  explicit TextPrinter(std::ostream& out) : out_(out) {}
  void null(std::string_view key) override;
  void boolean(std::string_view key, bool v) override;
  void integer(std::string_view key, std::int64_t v) override;
  void unsigned_integer(std::string_view key, std::uint64_t v) override;
  void real(std::string_view key, double v) override;
  void string(std::string_view key, std::string_view v) override;
  void begin_object(std::string_view key) override;
  void end_object() override;
  void begin_array(std::string_view key) override;
  void end_array() override;

 private:
  // A value printed inside an array goes to the array being collected; else to its own line.
  void value(std::string_view key, Json v);
  void line(std::string_view key, const std::string& text);

  std::ostream& out_;
  std::string indent_;
  std::string array_key_;          // the outermost array being collected
  Json array_;                     // its items, printed when it ends
  std::unique_ptr<JsonPrinter> collect_;  // into array_ while collecting
  unsigned depth_in_array_ = 0;    // arrays and objects open inside the collected array
};

// A value as one table cell or "key: value" line: text escaped for the terminal, null as "-",
// anything else as its JSON.
std::string scalar_text(const Json& v);

}  // namespace assay::detail
