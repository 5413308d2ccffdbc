// Every igArchive problem carries a stable code (docs/cli.md#codes): over byte flips and cuts of
// an archive built by our writer, verify (the path `assay verify` takes) gives no problem without
// a code; a cut archive's findings carry the cut codes.
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "assay/container.h"
#include "assay/ops.h"
#include "helpers.h"
#include "testing/testing.h"

namespace assay::igarchive {
namespace {

using assay::testing::TempDir;
using assay::testing::write_file;

// The pattern of docs/schema/problem.json's `code`, restricted to this family's ids.
bool is_family_code(const std::string& code) {
  static const std::regex re("^(igarchive\\.[a-z0-9-]+|unrecognised)$");
  return std::regex_match(code, re);
}

ByteBuffer fixture() {
  std::vector<WriterFile> files;
  files.push_back({"a/one.igz", "", test::text(3000, 1), Compression::lzma});
  files.push_back({"b/two.bin", "", test::noise(2000, 2), Compression::deflate});
  files.push_back({"three.txt", "", test::text(500, 3), Compression::stored});
  return test::build(files, {});
}

TEST(IgArchiveCodes, EveryVerifyProblemHasAFamilyCode) {
  const ByteBuffer good = fixture();
  TempDir dir;
  std::size_t problems = 0;
  auto check = [&](const ByteBuffer& b, const std::string& what) {
    write_file(dir / "x.arc", b);
    auto v = verify_file((dir / "x.arc").string(), {}, nullptr);
    ASSERT_TRUE(v.ok()) << what;
    for (const Diagnostic& d : v->diags.items()) {
      ++problems;
      EXPECT_TRUE(is_family_code(d.where.code)) << what << ": '" << d.where.code << "' " << d.where.str();
    }
  };
  for (std::size_t at = 0; at < good.size(); at += 7) {
    ByteBuffer b = good;
    b[at] ^= 0x5A;
    check(b, "flip at " + std::to_string(at));
  }
  for (std::size_t n = 0; n < good.size(); n += 97) check(ByteBuffer(good.begin(), good.begin() + n), "cut at " + std::to_string(n));
  EXPECT_GT(problems, 100u);  // the sweep found problems to check
}

TEST(IgArchiveCodes, CutArchiveFindingsCarryTheCutCodes) {
  const ByteBuffer good = fixture();
  // Cut before the name table (written last) and inside the data: names and some files are lost.
  const Archive a = test::open_ok(good);
  std::uint64_t last = 0;
  for (const FileEntry& f : a.files()) last = std::max<std::uint64_t>(last, f.offset);
  const ByteBuffer cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(last + 1));
  auto c = open(Input::from_buffer("cut.arc", cut), {}, "igarchive");
  ASSERT_TRUE(c.ok()) << c.error().str();
  Diagnostics findings;
  (*c)->extract_findings(findings);
  std::set<std::string> codes;
  for (const Diagnostic& d : findings.items()) {
    EXPECT_EQ(d.severity, Severity::error);
    codes.insert(d.where.code);
  }
  EXPECT_TRUE(codes.count("igarchive.names-lost"));
  EXPECT_TRUE(codes.count("igarchive.file-lost"));
  EXPECT_TRUE(codes.count("igarchive.cut"));
}

}  // namespace
}  // namespace assay::igarchive
