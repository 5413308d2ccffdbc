// Errors of the checked record and table views (include/assay/core/record.h).
#include "assay/core/record.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

namespace assay::detail {

Error record_decode_mismatch(const ByteReader& r, std::string_view structure, std::uint64_t offset,
                             std::size_t size, std::size_t consumed) {
  return r.error(structure, offset,
                 fmt::format("internal: record decode consumed 0x{:x} bytes of its 0x{:x}", consumed, size));
}

Error table_too_large(const ByteReader& r, std::string_view structure, std::uint64_t offset,
                      std::uint64_t count, std::size_t size) {
  std::uint64_t total = 0;
  if (!mul_ok(count, size, total))
    return r.error(structure, offset,
                   fmt::format("{} records of 0x{:x} bytes overflow a 64-bit size", count, size));
  return r.error(structure, offset,
                 fmt::format("{} records of 0x{:x} bytes need 0x{:x} bytes but only 0x{:x} remain "
                             "(data ends at 0x{:x})",
                             count, size, total, offset <= r.size() ? r.size() - offset : 0,
                             r.base() + r.size()));
}

Error table_index(const ByteReader& r, std::string_view structure, std::uint64_t offset,
                  std::uint64_t index, std::uint64_t count) {
  return r.error(structure, offset,
                 fmt::format("index {} is outside the table of {} records", index, count));
}

void record_outside(std::uint64_t size, std::uint64_t at, std::uint64_t bytes) noexcept {
  std::fprintf(stderr, "assay: internal: a record of %llu bytes at 0x%llx lies outside %llu bytes\n",
               static_cast<unsigned long long>(size), static_cast<unsigned long long>(at), static_cast<unsigned long long>(bytes));
  std::abort();
}

void table_index_violation(std::string_view structure, std::uint64_t index, std::uint64_t count) noexcept {
  std::fprintf(stderr, "assay: internal: %.*s[%llu] read outside the table of %llu records\n",
               static_cast<int>(structure.size()), structure.data(), static_cast<unsigned long long>(index),
               static_cast<unsigned long long>(count));
  std::abort();
}

}  // namespace assay::detail
