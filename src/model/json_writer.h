// A JSON text written front to back (RFC 8259): objects and arrays opened and closed in order,
// commas and (with indent >= 0) newlines placed by the writer. The glTF writer's document is
// mostly numbers; building it as a JSON value first cost more than the model's decoding.
// Strings that are not valid UTF-8 have each bad byte replaced by U+FFFD (core/text.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace assay::model {

class JsonWriter {
 public:
  explicit JsonWriter(int indent = -1) : indent_(indent) { out_.reserve(4096); }

  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }
  // The member name; the next value or open belongs to it.
  JsonWriter& key(std::string_view k);

  void string(std::string_view s);
  void number(double v);  // the shortest text that reads back as v; non-finite as 0
  void number(std::uint64_t v);
  void number(std::int64_t v);
  void number(int v) { number(static_cast<std::int64_t>(v)); }
  void number(unsigned v) { number(static_cast<std::uint64_t>(v)); }
  void boolean(bool v);
  // Text that is already JSON (one whole value).
  void raw(std::string_view json);

  template <class Range>
  void numbers(const Range& r) {
    begin_array();
    for (const auto& v : r) number(v);
    end_array();
  }

  [[nodiscard]] std::string& text() noexcept { return out_; }

 private:
  void open(char c);
  void close(char c);
  void before_value();
  void quoted(std::string_view s);
  void newline();

  int indent_;
  std::string out_;
  std::vector<std::uint8_t> first_;  // per open container: 1 while no member is written yet
  bool after_key_ = false;
};

}  // namespace assay::model
