// Every igz problem carries a stable code (docs/cli.md#codes): over byte flips and cuts of a file
// built by our writer, verify (the path `assay verify` takes) gives no problem without a code.
#include <gtest/gtest.h>

#include <regex>

#include "assay/ops.h"
#include "igz_testing.h"
#include "testing/testing.h"

namespace assay::igz {
namespace {

using assay::testing::TempDir;
using assay::testing::write_file;

bool is_family_code(const std::string& code) {
  static const std::regex re("^(igz\\.[a-z0-9-]+|unrecognised)$");
  return std::regex_match(code, re);
}

TEST(IgzCodes, EveryVerifyProblemHasAFamilyCode) {
  const ByteBuffer good = fixtures::sample();
  ASSERT_FALSE(good.empty());
  TempDir dir;
  std::size_t problems = 0;
  auto check = [&](const ByteBuffer& b, const std::string& what) {
    write_file(dir / "x.igz", b);
    auto v = verify_file((dir / "x.igz").string(), {}, nullptr);
    ASSERT_TRUE(v.ok()) << what;
    for (const Diagnostic& d : v->diags.items()) {
      ++problems;
      EXPECT_TRUE(is_family_code(d.where.code)) << what << ": '" << d.where.code << "' " << d.where.str();
    }
  };
  const std::size_t step = std::max<std::size_t>(1, good.size() / 400);
  for (std::size_t at = 0; at < good.size(); at += step) {
    ByteBuffer b = good;
    b[at] ^= 0x5A;
    check(b, "flip at " + std::to_string(at));
  }
  for (std::size_t n = 0; n < good.size(); n += std::max<std::size_t>(1, good.size() / 50))
    check(ByteBuffer(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n)), "cut at " + std::to_string(n));
  EXPECT_GT(problems, 50u);
}

}  // namespace
}  // namespace assay::igz
