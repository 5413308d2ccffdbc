#include "assay/core/text.h"

#include <fmt/format.h>

#include <cstdint>
#include <vector>
#include "core/json_text.h"

namespace assay {

namespace {

// Length of the well-formed UTF-8 sequence at s[i], or 0 when the byte at i starts none
// (Unicode 15, table 3-7).
std::size_t utf8_seq_len(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<std::uint8_t>(s[i + k]); };
  const std::uint8_t c = b(0);
  const std::size_t left = s.size() - i;
  auto cont = [&](std::size_t k, std::uint8_t lo = 0x80, std::uint8_t hi = 0xBF) {
    return k < left && b(k) >= lo && b(k) <= hi;
  };
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c == 0xE0) return cont(1, 0xA0) && cont(2) ? 3 : 0;
  if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) return cont(1) && cont(2) ? 3 : 0;
  if (c == 0xED) return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0;
  if (c == 0xF0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c == 0xF4) return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

bool json_is_clean(const nlohmann::ordered_json& j) {
  if (j.is_string()) return valid_utf8(j.get_ref<const std::string&>());
  if (j.is_array()) {
    for (const auto& v : j)
      if (!json_is_clean(v)) return false;
  } else if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      if (!valid_utf8(it.key()) || !json_is_clean(it.value())) return false;
  }
  return true;
}

}  // namespace

bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_seq_len(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string utf8_replace_invalid(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_seq_len(s, i);
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++i;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string hex_bytes(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size() * 2);
  for (char ch : s) {
    const auto c = static_cast<std::uint8_t>(ch);
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

std::string escape_terminal(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_seq_len(s, i);
    const auto c = static_cast<std::uint8_t>(s[i]);
    const bool c1 = n == 2 && c == 0xC2 && static_cast<std::uint8_t>(s[i + 1]) < 0xA0;  // U+0080..U+009F
    if (n == 1 && c >= 0x20 && c != 0x7F) {
      out += static_cast<char>(c);
    } else if (n > 1 && !c1) {
      out.append(s.substr(i, n));
    } else if (c1) {
      out += fmt::format("\\u{:04x}", static_cast<std::uint8_t>(s[i + 1]));
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == 0x1B) {
      out += "\\e";
    } else {
      out += fmt::format("\\x{:02x}", c);
    }
    i += n == 0 ? 1 : n;
  }
  return out;
}

bool make_json_utf8(nlohmann::ordered_json& j) {
  if (j.is_string()) {
    auto& s = j.get_ref<std::string&>();
    if (valid_utf8(s)) return false;
    s = utf8_replace_invalid(s);
    return true;
  }
  if (j.is_array()) {
    bool changed = false;
    for (auto& v : j) changed |= make_json_utf8(v);
    return changed;
  }
  if (!j.is_object() || json_is_clean(j)) return false;
  // Rebuild the object in order: fixed keys, replaced strings followed by their "_bytes".
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string key = valid_utf8(it.key()) ? it.key() : utf8_replace_invalid(it.key());
    nlohmann::ordered_json v = std::move(it.value());
    if (v.is_string() && !valid_utf8(v.get_ref<const std::string&>())) {
      const std::string raw = v.get<std::string>();
      out[key] = utf8_replace_invalid(raw);
      out[key + "_bytes"] = hex_bytes(raw);
      continue;
    }
    make_json_utf8(v);
    out[key] = std::move(v);
  }
  j = std::move(out);
  return true;
}

std::string dump_json(const nlohmann::ordered_json& j, int indent) {
  using EH = nlohmann::ordered_json::error_handler_t;
  if (json_is_clean(j)) return j.dump(indent, ' ', false, EH::replace);
  nlohmann::ordered_json copy = j;
  make_json_utf8(copy);
  return copy.dump(indent, ' ', false, EH::replace);
}

}  // namespace assay
