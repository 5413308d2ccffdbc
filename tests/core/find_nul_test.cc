// core find_nul: the first zero byte of a bounded range, eight bytes a step.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "assay/core/bytes.h"

namespace {

using assay::find_nul;

// A zero at every position 0..40 of a 41-byte buffer whose other bytes are 0x80 and 0x01 (the
// bytes a borrow-based zero test confuses with zero), searched over every length.
TEST(FindNul, FindsTheFirstZeroAtEveryPositionAndLength) {
  for (std::size_t z = 0; z <= 40; ++z) {
    std::string b(41, '\0');
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<char>(i % 2 ? 0x80 : 0x01);
    b[z] = 0;
    if (z + 1 < b.size()) b[z + 1] = 0;  // a second zero after the first changes nothing
    for (std::size_t n = 0; n <= b.size(); ++n) {
      const char* got = find_nul(b.data(), n);
      if (z < n) {
        EXPECT_EQ(got, b.data() + z) << "zero at " << z << ", length " << n;
      } else {
        EXPECT_EQ(got, nullptr) << "zero at " << z << " outside length " << n;
      }
    }
  }
}

TEST(FindNul, NoZeroInAnyByteValue) {
  std::string b;
  for (int v = 1; v < 256; ++v) b.push_back(static_cast<char>(v));
  EXPECT_EQ(find_nul(b.data(), b.size()), nullptr);
  b.push_back('\0');
  EXPECT_EQ(find_nul(b.data(), b.size()), b.data() + 255);
}

// Reads stay inside the range: the last bytes before a page end, found and not found (ASan
// reports a read past a heap buffer of exactly n bytes).
TEST(FindNul, ReadsOnlyTheRange) {
  for (std::size_t n = 0; n < 20; ++n) {
    auto buf = std::make_unique<char[]>(n == 0 ? 1 : n);
    for (std::size_t i = 0; i < n; ++i) buf[i] = 'a';
    EXPECT_EQ(find_nul(buf.get(), n), nullptr);
    if (n > 0) {
      buf[n - 1] = 0;
      EXPECT_EQ(find_nul(buf.get(), n), buf.get() + n - 1);
    }
  }
}

}  // namespace
