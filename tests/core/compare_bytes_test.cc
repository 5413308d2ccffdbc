// core compare_bytes: byte-wise three-way comparison, eight bytes a step, against the order the
// bytes define (unsigned bytes, then length), worked out by hand for each case.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "assay/core/bytes.h"

namespace {

using assay::compare_bytes;

int sign(int v) { return (v > 0) - (v < 0); }

TEST(CompareBytes, OrderOfHandPickedPairs) {
  struct Case {
    std::string a, b;
    int want;
  };
  const Case cases[] = {
      {"", "", 0},
      {"", "A", -1},
      {"ZANMa10_1234", "ZANMa10_1234", 0},
      {"ZANMa10_1234", "ZANMa10_1235", -1},   // differs after the first eight bytes
      {"ZANMa10_1234", "ZANMa10_123", 1},     // a prefix sorts first
      {"ZANMa0_9", "ZANMa10_1", -1},          // differs inside the first eight: '0' < '1'
      {"TXMPabcdefgh", "TXMPabcdefgH", 1},    // 'h' (0x68) > 'H' (0x48) in the last byte
      {std::string("ab\x80", 3), "ab\x01", 1},  // bytes compare unsigned: 0x80 > 0x01
      {std::string("abcdefgh\xff" "z", 10), std::string("abcdefgh\x7f" "z", 10), 1},
      {"abcdefghijklmnop", "abcdefghijklmnoq", -1},  // the second eight-byte step decides
  };
  for (const Case& c : cases) {
    EXPECT_EQ(sign(compare_bytes(c.a, c.b)), c.want) << c.a << " vs " << c.b;
    EXPECT_EQ(sign(compare_bytes(c.b, c.a)), -c.want) << c.b << " vs " << c.a;
  }
}

// Every difference position and length up to 20: the sign is that of the first differing byte.
TEST(CompareBytes, FirstDifferenceDecidesAtEveryPosition) {
  for (std::size_t n = 1; n <= 20; ++n)
    for (std::size_t at = 0; at < n; ++at) {
      std::string a(n, 'q'), b(n, 'q');
      a[at] = static_cast<char>(0x90);  // above 'q' as an unsigned byte, below it as a signed char
      EXPECT_EQ(sign(compare_bytes(a, b)), 1) << n << " " << at;
      EXPECT_EQ(sign(compare_bytes(b, a)), -1) << n << " " << at;
    }
}

}  // namespace
