// Fixtures the igz tests share: a sample file from our writer, and every reader entry point over
// one input.
#pragma once

#include <gtest/gtest.h>

#include <sstream>

#include "assay/formats/igz/dump.h"
#include "assay/formats/igz/writer.h"
#include "formats/json_printer.h"
#include "formats/text_printer.h"

namespace assay::igz::fixtures {

// build_sample's file for (version, byte order, platform); empty (and a test failure) on error.
inline ByteBuffer sample(std::uint32_t version = 9, Endian e = Endian::big, std::uint32_t platform = 9) {
  auto b = build_sample({version, e, platform});
  EXPECT_TRUE(b.ok());
  return b.ok() ? *b : ByteBuffer{};
}

// `igz dump --json`'s document of `b` (problems to `d`).
inline Result<Json> dump_document(ByteView b, Diagnostics& d) {
  ASSAY_TRY(const Dump x, read_dump(b, {}, d.sink()));
  return assay::detail::printed_json([&](FieldPrinter& p) { print_dump(x, p); });
}

// Every reader entry point over one input; none may crash. Returns verify's error count.
inline std::size_t exercise(ByteView b) {
  Diagnostics d;
  verify(b, {}, d);
  Diagnostics d2;
  (void)dump_document(b, d2);
  if (auto x = read_dump(b, {}, d2.sink())) {  // the text printer over the same dump
    std::ostringstream out;
    assay::detail::TextPrinter p(out);
    print_dump(*x, p);
  }
  return d.count(Severity::error);
}

}  // namespace assay::igz::fixtures
