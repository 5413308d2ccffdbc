// What a family says about a file or an entry, as typed calls (llvm-readobj's ScopedPrinter): the
// JSON printer (--json, docs/schema/) and the text printer consume the same calls, so a family
// prints its fields once, from its typed records, when they are asked for.
//
//   void print_details(const Entry& e, FieldPrinter& p) const override {
//     p.field("width", w).field("height", h).field("format", name);
//     p.begin_object("data"); p.field("offset", off); p.end_object();
//   }
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace assay {

class FieldPrinter {
 public:
  virtual ~FieldPrinter() = default;
  // One value under `key` (inside an array the key is ignored: pass "").
  virtual void null(std::string_view key) = 0;
  virtual void boolean(std::string_view key, bool v) = 0;
  virtual void integer(std::string_view key, std::int64_t v) = 0;
  virtual void unsigned_integer(std::string_view key, std::uint64_t v) = 0;
  virtual void real(std::string_view key, double v) = 0;
  virtual void string(std::string_view key, std::string_view v) = 0;
  virtual void begin_object(std::string_view key) = 0;
  virtual void end_object() = 0;
  virtual void begin_array(std::string_view key) = 0;
  virtual void end_array() = 0;

  // The overload for T: bool, integers, floating point, text, std::optional (null when empty),
  // std::vector (an array).
  template <class T>
  FieldPrinter& field(std::string_view key, const T& v) {
    if constexpr (std::is_same_v<T, bool>) {
      boolean(key, v);
    } else if constexpr (std::is_same_v<T, std::nullptr_t>) {
      null(key);
    } else if constexpr (std::is_enum_v<T>) {
      static_assert(!std::is_enum_v<T>, "print an enum by its name");
    } else if constexpr (std::signed_integral<T>) {
      integer(key, v);
    } else if constexpr (std::unsigned_integral<T>) {
      unsigned_integer(key, v);
    } else if constexpr (std::floating_point<T>) {
      real(key, static_cast<double>(v));
    } else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
      string(key, std::string_view(v));
    } else if constexpr (is_optional<T>::value) {
      if (v) field(key, *v); else null(key);
    } else {
      begin_array(key);
      for (const auto& x : v) field("", x);
      end_array();
    }
    return *this;
  }

 private:
  template <class T> struct is_optional : std::false_type {};
  template <class T> struct is_optional<std::optional<T>> : std::true_type {};
};

}  // namespace assay
