// Error and Result<T>: every fallible reader function returns one of these.
// An Error names the file, the format, the structure, the offset and what went wrong,
// so a user can open a hex editor at the right place.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace assay {

// What kind of failure: drives the CLI exit code (data -> 1, io/usage -> 2).
enum class ErrorKind : std::uint8_t { data, io, usage, unsupported };

inline constexpr std::uint64_t kNoOffset = ~std::uint64_t{0};

struct Error {
  ErrorKind kind = ErrorKind::data;
  std::string file;       // display name of the input, may be empty
  std::string format;     // "igarchive", "renderware", ...
  std::string structure;  // "header", "file-info[3]", ...
  std::uint64_t offset = kNoOffset;
  std::string message;
  // A stable id for the kind of problem (docs/cli.md#codes): the spec's rule id where there is
  // one ("V13", "R5"), else "<family>.<what>" ("igarchive.toc-bounds"); "" when none is known.
  std::string code;

  // "file: format: structure at 0x1234: message"
  [[nodiscard]] std::string str() const;
  // Returns a copy with the file name filled in when it was empty.
  [[nodiscard]] Error in_file(std::string_view name) const;
  // Returns a copy with `code` set.
  [[nodiscard]] Error with_code(std::string_view id) const;
};

Error make_error(std::string_view format, std::string_view structure, std::uint64_t offset,
                 std::string message);
Error io_error(std::string_view file, std::string message);
Error usage_error(std::string message);

// A minimal expected-like type (std::expected is not usable with clang 14 + libstdc++ 12).
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  [[nodiscard]] bool ok() const noexcept { return v_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const& { return std::get<1>(v_); }
  Error&& error() && { return std::get<1>(std::move(v_)); }

 private:
  std::variant<T, Error> v_;
};

struct Ok {};  // Result<Ok> for functions that return nothing on success
template <>
class [[nodiscard]] Result<void> : public Result<Ok> {
 public:
  Result() : Result<Ok>(Ok{}) {}
  Result(Ok) : Result<Ok>(Ok{}) {}       // NOLINT
  Result(Error e) : Result<Ok>(std::move(e)) {}  // NOLINT
};

#define ASSAY_CAT2(a, b) a##b
#define ASSAY_CAT(a, b) ASSAY_CAT2(a, b)

// ASSAY_TRY(auto x, expr);  declares x from a Result or returns its error.
#define ASSAY_TRY(decl, expr)                                              \
  auto ASSAY_CAT(assay_try_, __LINE__) = (expr);                           \
  if (!ASSAY_CAT(assay_try_, __LINE__).ok())                               \
    return std::move(ASSAY_CAT(assay_try_, __LINE__)).error();             \
  decl = std::move(ASSAY_CAT(assay_try_, __LINE__)).value()

// ASSAY_CHECK(expr); for Result<void>/Result<Ok>: returns the error if any.
#define ASSAY_CHECK(expr)                                                  \
  do {                                                                     \
    auto assay_chk_ = (expr);                                              \
    if (!assay_chk_.ok()) return std::move(assay_chk_).error();            \
  } while (0)

}  // namespace assay
