// The text printer (text_printer.h).
#include "text_printer.h"

#include <fmt/format.h>

#include "assay/core/text.h"

namespace assay::detail {

std::string scalar_text(const Json& v) {
  if (v.is_string()) return escape_terminal(v.get_ref<const std::string&>());
  if (v.is_null()) return "-";
  return dump_json(v);
}

namespace {

// Hashes, checksums and file ids print in hex in the text form (docs/cli.md: JSON has numbers).
bool is_hash_key(std::string_view k) {
  return k == "hash" || k.ends_with("_hash") || k == "checksum" || k.ends_with("_checksum") || k == "file_id";
}

Json hash_text(std::string_view key, Json v) {
  if (!is_hash_key(key) || !v.is_number_integer()) return v;
  const auto n = v.get<std::uint64_t>();
  return n <= 0xFFFFFFFFu ? fmt::format("0x{:08x}", n) : fmt::format("0x{:x}", n);
}

}  // namespace

void TextPrinter::value(std::string_view key, Json v) {
  v = hash_text(key, std::move(v));
  if (collect_) return collect_->json(key, std::move(v));
  line(key, scalar_text(normalise_json(std::move(v))));  // the JSON printer's rules decide the value
}

void TextPrinter::line(std::string_view key, const std::string& text) {
  out_ << indent_ << escape_terminal(key) << ": " << text << '\n';
}

void TextPrinter::null(std::string_view key) { value(key, nullptr); }
void TextPrinter::boolean(std::string_view key, bool v) { value(key, v); }
void TextPrinter::integer(std::string_view key, std::int64_t v) { value(key, v); }
void TextPrinter::unsigned_integer(std::string_view key, std::uint64_t v) { value(key, v); }
void TextPrinter::real(std::string_view key, double v) { value(key, v); }
void TextPrinter::string(std::string_view key, std::string_view v) { value(key, std::string(v)); }

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
