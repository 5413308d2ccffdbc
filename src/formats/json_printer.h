// Internal: the FieldPrinter that builds the --json value (docs/cli.md#json): integers above 2^53
// become "0x..." strings and empty strings null as they are printed (normalise_json's rules), and
// a key an object already holds keeps its first value (an entry's own fields come first).
#pragma once

#include <string_view>
#include <vector>

#include "formats/serialise.h"
#include "assay/printer.h"

namespace assay::detail {

class JsonPrinter final : public FieldPrinter {
 public:
  // Prints into `root` (an object or an array; null becomes an object).
  explicit JsonPrinter(Json& root);
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
  // A value built as JSON (normalised), under `key`.
  void json(std::string_view key, Json v);

 private:
  Json* put(std::string_view key, Json v);
  std::vector<Json*> open_;  // the object or array being printed into, innermost last
};

// Prints a JSON value through any printer: into a JsonPrinter directly, else value by value.
void print_json(FieldPrinter& p, std::string_view key, const Json& v);
// Each member of the object `fields` as a field of the printer's current object.
void print_json_fields(FieldPrinter& p, const Json& fields);

// What `print(FieldPrinter&)` prints, as a JSON value (a typed report's --json).
template <class F>
Json printed_json(F&& print) {
  Json j;
  JsonPrinter p(j);
  print(p);
  return j;
}

}  // namespace assay::detail
