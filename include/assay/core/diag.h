// Diagnostics: non-fatal findings go through a sink (LLVM's warning-callback pattern), so
// `verify` collects every problem while `extract` stops at the first fatal one.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "assay/core/error.h"

namespace assay {

enum class Severity : std::uint8_t { note, warning, error };
std::string_view to_string(Severity s);

struct Diagnostic {
  Severity severity = Severity::error;
  Error where;  // structure, offset and message; kind is ignored
};

using DiagSink = std::function<void(Diagnostic)>;

// Collects diagnostics; the usual sink for `verify`.
class Diagnostics {
 public:
  void add(Diagnostic d) { items_.push_back(std::move(d)); }
  void error(Error e) { add({Severity::error, std::move(e)}); }
  void warning(Error e) { add({Severity::warning, std::move(e)}); }
  void note(Error e) { add({Severity::note, std::move(e)}); }
  [[nodiscard]] DiagSink sink() {
    return [this](Diagnostic d) { add(std::move(d)); };
  }
  [[nodiscard]] const std::vector<Diagnostic>& items() const { return items_; }
  [[nodiscard]] std::size_t count(Severity s) const;
  [[nodiscard]] bool has_errors() const { return count(Severity::error) != 0; }
  void append(const Diagnostics& other);

 private:
  std::vector<Diagnostic> items_;
};

}  // namespace assay
