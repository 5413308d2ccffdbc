// Fixtures the igz tests share: a sample file from our writer, and every reader entry point over
// one input.
#pragma once

#include <gtest/gtest.h>

#include "../../../src/formats/igz/json.h"
#include "assay/formats/igz/writer.h"
#include "formats/serialise.h"

namespace assay::igz::fixtures {

// build_sample's file for (version, byte order, platform); empty (and a test failure) on error.
inline ByteBuffer sample(std::uint32_t version = 9, Endian e = Endian::big, std::uint32_t platform = 9) {
  auto b = build_sample({version, e, platform});
  EXPECT_TRUE(b.ok());
  return b.ok() ? *b : ByteBuffer{};
}

// Every reader entry point over one input; none may crash. Returns verify's error count.
inline std::size_t exercise(ByteView b) {
  Diagnostics d;
  verify(b, {}, d);
  (void)info_json(b, {});
  (void)list_json(b, {});
  Diagnostics d2;
  (void)dump_json(b, {}, d2);
  return d.count(Severity::error);
}

}  // namespace assay::igz::fixtures
