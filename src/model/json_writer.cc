#include "json_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <iterator>

#include "assay/core/text.h"

namespace assay::model {

namespace {

// Printable ASCII without '"' or '\\': what is copied between quotes as it is.
constexpr std::array<bool, 256> kPlain = [] {
  std::array<bool, 256> t{};
  for (int c = 0x20; c < 0x80; ++c) t[c] = c != '"' && c != '\\';
  return t;
}();

bool plain(std::string_view s) {
  for (char ch : s)
    if (!kPlain[static_cast<unsigned char>(ch)]) return false;
  return true;
}

// Appends `parts` to `out` with one size change (keys and numbers: most of a glTF's text).
template <class... Parts>
void append(std::string& out, const Parts&... parts) {
  const std::size_t at = out.size();
  out.resize(at + (std::string_view(parts).size() + ...));
  char* p = out.data() + at;
  ((std::memcpy(p, std::string_view(parts).data(), std::string_view(parts).size()), p += std::string_view(parts).size()), ...);
}

// The decimal text of an integer, as fmt's "{}" writes it.
template <class Int>
void append_int(std::string& out, Int v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  append(out, std::string_view(buf, static_cast<std::size_t>(r.ptr - buf)));
}

}  // namespace

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
  first_.back() = 0;
  newline();
}

JsonWriter& JsonWriter::key(std::string_view k) {
  before_value();
  const std::string_view colon = indent_ < 0 ? std::string_view(":") : std::string_view(": ");
  if (plain(k)) append(out_, "\"", k, "\"", colon);
  else quoted(k), out_ += colon;
  after_key_ = true;
  return *this;
}

void JsonWriter::open(char c) {
  before_value();
  out_ += c;
  first_.push_back(1);
}

void JsonWriter::close(char c) {
  const bool empty = first_.back() != 0;
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
  if (plain(s)) {
    append(out_, "\"", s, "\"");
    return;
  }
  out_ += '"';
  {
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
  if (v == std::floor(v) && std::fabs(v) < 1e15) append_int(out_, static_cast<std::int64_t>(v));
  else {
    char buf[48];  // the shortest text of a double is at most 24 characters
    const char* end = fmt::format_to(buf, "{}", v);
    append(out_, std::string_view(buf, static_cast<std::size_t>(end - buf)));
  }
}

void JsonWriter::number(std::uint64_t v) {
  before_value();
  append_int(out_, v);
}

void JsonWriter::number(std::int64_t v) {
  before_value();
  append_int(out_, v);
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
