#include "json_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>

#include "assay/core/text.h"

namespace assay::model {

void JsonWriter::newline() {
  if (indent_ < 0) return;
  out_ += '\n';
  out_.append(first_.size() * static_cast<std::size_t>(indent_), ' ');
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (first_.empty()) return;
  if (!first_.back()) out_ += ',';
  first_.back() = false;
  newline();
}

JsonWriter& JsonWriter::key(std::string_view k) {
  before_value();
  quoted(k);
  out_ += indent_ < 0 ? ":" : ": ";
  after_key_ = true;
  return *this;
}

void JsonWriter::open(char c) {
  before_value();
  out_ += c;
  first_.push_back(true);
}

void JsonWriter::close(char c) {
  const bool empty = first_.back();
  first_.pop_back();
  if (!empty) newline();
  out_ += c;
}

void JsonWriter::string(std::string_view s) {
  before_value();
  quoted(s);
}

// Plain text (printable ASCII without '"' or '\\', most names) is copied whole.
void JsonWriter::quoted(std::string_view s) {
  const bool plain = std::all_of(s.begin(), s.end(), [](char ch) {
    const auto u = static_cast<unsigned char>(ch);
    return u >= 0x20 && u < 0x80 && ch != '"' && ch != '\\';
  });
  out_ += '"';
  if (plain) {
    out_ += s;
  } else {
    const std::string fixed = valid_utf8(s) ? std::string(s) : utf8_replace_invalid(s);
    for (char ch : fixed) {
      const auto u = static_cast<unsigned char>(ch);
      if (ch == '"' || ch == '\\') out_ += '\\', out_ += ch;
      else if (ch == '\n') out_ += "\\n";
      else if (ch == '\t') out_ += "\\t";
      else if (ch == '\r') out_ += "\\r";
      else if (u < 0x20) fmt::format_to(std::back_inserter(out_), "\\u{:04x}", u);
      else out_ += ch;
    }
  }
  out_ += '"';
}

void JsonWriter::number(double v) {
  before_value();
  if (!std::isfinite(v)) v = 0;
  if (v == std::floor(v) && std::fabs(v) < 1e15) fmt::format_to(std::back_inserter(out_), "{}", static_cast<std::int64_t>(v));
  else fmt::format_to(std::back_inserter(out_), "{}", v);
}

void JsonWriter::number(std::uint64_t v) {
  before_value();
  fmt::format_to(std::back_inserter(out_), "{}", v);
}

void JsonWriter::number(std::int64_t v) {
  before_value();
  fmt::format_to(std::back_inserter(out_), "{}", v);
}

void JsonWriter::boolean(bool v) {
  before_value();
  out_ += v ? "true" : "false";
}

void JsonWriter::raw(std::string_view json) {
  before_value();
  out_ += json;
}

}  // namespace assay::model
