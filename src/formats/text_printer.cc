// The text printer (text_printer.h).
#include "text_printer.h"

#include <fmt/format.h>

#include "assay/core/text.h"
#include "json_printer.h"

namespace assay::detail {

template <class Print>
void TextPrinter::value(std::string_view key, const Print& print) {
  if (collect_) return print(*collect_);
  Json v;
  JsonPrinter p(v);
  print(p);  // one member: the JSON printer's rules decide the value
  const Json& x = v.begin().value();
  line(key, x.is_string() ? escape_terminal(x.get<std::string>()) : x.is_null() ? "-" : dump_json(x));
}

void TextPrinter::line(std::string_view key, const std::string& text) {
  out_ << indent_ << escape_terminal(key) << ": " << text << '\n';
}

void TextPrinter::null(std::string_view key) { value(key, [&](FieldPrinter& p) { p.null(key); }); }
void TextPrinter::boolean(std::string_view key, bool v) { value(key, [&](FieldPrinter& p) { p.boolean(key, v); }); }
void TextPrinter::integer(std::string_view key, std::int64_t v) { value(key, [&](FieldPrinter& p) { p.integer(key, v); }); }
void TextPrinter::unsigned_integer(std::string_view key, std::uint64_t v) {
  value(key, [&](FieldPrinter& p) { p.unsigned_integer(key, v); });
}
void TextPrinter::real(std::string_view key, double v) { value(key, [&](FieldPrinter& p) { p.real(key, v); }); }
void TextPrinter::string(std::string_view key, std::string_view v) { value(key, [&](FieldPrinter& p) { p.string(key, v); }); }

void TextPrinter::begin_object(std::string_view key) {
  if (collect_) {
    ++depth_in_array_;
    return collect_->begin_object(key);
  }
  out_ << indent_ << escape_terminal(key) << ":\n";
  indent_ += "  ";
}

void TextPrinter::end_object() {
  if (collect_) {
    --depth_in_array_;
    return collect_->end_object();
  }
  indent_.resize(indent_.size() - 2);
}

void TextPrinter::begin_array(std::string_view key) {
  if (collect_) {
    ++depth_in_array_;
    return collect_->begin_array(key);
  }
  array_key_ = std::string(key);
  array_ = Json::array();
  collect_ = std::make_unique<JsonPrinter>(array_);
}

void TextPrinter::end_array() {
  if (depth_in_array_ > 0) {
    --depth_in_array_;
    return collect_->end_array();
  }
  collect_.reset();
  if (!array_.empty() && array_.front().is_object()) {
    out_ << indent_ << escape_terminal(array_key_) << ": (" << array_.size() << ")\n";
    for (const Json& item : array_) out_ << indent_ << "  " << dump_json(item) << '\n';
  } else {
    line(array_key_, dump_json(array_));
  }
}

}  // namespace assay::detail
