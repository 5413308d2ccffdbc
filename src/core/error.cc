#include "assay/core/error.h"

#include <fmt/format.h>

namespace assay {

std::string Error::str() const {
  std::string s;
  if (!file.empty()) s += file + ": ";
  if (!format.empty()) s += format + ": ";
  if (!structure.empty()) s += structure;
  if (offset != kNoOffset) s += fmt::format(" at 0x{:x}", offset);
  if (!structure.empty() || offset != kNoOffset) s += ": ";
  s += message;
  return s;
}

Error Error::in_file(std::string_view name) const {
  Error e = *this;
  if (e.file.empty()) e.file = std::string(name);
  return e;
}

Error Error::with_code(std::string_view id) const {
  Error e = *this;
  e.code = std::string(id);
  return e;
}

Error make_error(std::string_view format, std::string_view structure, std::uint64_t offset,
                 std::string message) {
  Error e;
  e.kind = ErrorKind::data;
  e.format = std::string(format);
  e.structure = std::string(structure);
  e.offset = offset;
  e.message = std::move(message);
  return e;
}

Error io_error(std::string_view file, std::string message) {
  Error e;
  e.kind = ErrorKind::io;
  e.file = std::string(file);
  e.message = std::move(message);
  return e;
}

Error usage_error(std::string message) {
  Error e;
  e.kind = ErrorKind::usage;
  e.message = std::move(message);
  return e;
}

}  // namespace assay
