// verify decodes every clump as extract does: a triangle naming a vertex past the geometry's
// count (extract exits 1 on it) is a verify error coded renderware.geometry, at the triangle.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "assay/core/bytes.h"
#include "assay/formats/renderware/writer.h"
#include "assay/ops.h"
#include "testing/testing.h"

namespace assay {
namespace {

namespace w = rw::writer;  // assay::rw::writer
using testing::quote_path;
using testing::run_cli;
using testing::TempDir;
using testing::write_file;

std::vector<const Diagnostic*> errors_coded(const Diagnostics& d, std::string_view code) {
  std::vector<const Diagnostic*> out;
  for (const Diagnostic& x : d.items())
    if (x.severity == Severity::error && x.where.code == code) out.push_back(&x);
  return out;
}

VerifyOutcome verify_bytes(ByteBuffer b, const char* name) {
  return verify_input(Input::from_buffer(name, std::move(b)), ContainerOptions{}, nullptr);
}

// The writer's one-geometry clump: its Geometry struct is {flags 2, 1 triangle, 3 vertices,
// 1 morph target} then (no prelit, no texture coordinates: spec renderware.md#rw-7-2) the
// triangle {v1 1, v0 0, material 0, v2 2}. v2 set to 7 names a vertex past the 3.
TEST(RwVerifyDecode, WriterClumpTriangleVertexPastTheCount) {
  ByteBuffer b = w::clump({});
  ASSERT_FALSE(verify_bytes(b, "m.dff").diags.has_errors());
  const std::uint8_t head[] = {2, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 2, 0};
  const auto at = std::search(b.begin(), b.end(), std::begin(head), std::end(head));
  ASSERT_NE(at, b.end());
  const auto triangle = static_cast<std::uint64_t>(at - b.begin()) + 16;
  b[triangle + 6] = 7;
  const VerifyOutcome v = verify_bytes(b, "m.dff");
  const auto geo = errors_coded(v.diags, "renderware.geometry");
  ASSERT_EQ(geo.size(), 1u);
  EXPECT_EQ(geo[0]->where.offset, triangle);
  EXPECT_NE(geo[0]->where.message.find("triangle vertex 7 of 3 vertices"), std::string::npos) << geo[0]->where.str();
  EXPECT_NE(geo[0]->where.structure.find("Clump 0"), std::string::npos) << geo[0]->where.str();
  EXPECT_NE(geo[0]->where.structure.find("Geometry 0"), std::string::npos) << geo[0]->where.str();
}

// The user's report: librw's checker.dff (288 triangles, 334 vertices) with byte 1979, the high
// byte of a triangle's vertex index, set to 1: that index becomes 369. verify said ok; extract
// failed. Both now exit 1, verify with the code.
TEST(RwVerifyDecode, CheckerDffOneByteChanged) {
  ASSAY_REQUIRE_SAMPLE(src, "renderware/librw/checker.dff");
  TempDir tmp;
  ByteBuffer b = testing::read_file(src);
  ASSERT_GT(b.size(), 1979u);
  ASSERT_EQ(b[1979], 0);
  b[1979] = 1;
  const auto f = tmp / "ck.dff";
  write_file(f, b);
  auto v = run_cli("verify --json " + quote_path(f));
  EXPECT_EQ(v.exit_code, 1) << v.out << v.err;
  const auto j = nlohmann::json::parse(v.out);
  bool found = false;
  for (const auto& p : j["files"][0]["problems"])
    if (p["code"] == "renderware.geometry" && p["severity"] == "error") {
      found = true;
      EXPECT_NE(p["message"].get<std::string>().find("triangle vertex 369 of 334 vertices"), std::string::npos) << p;
    }
  EXPECT_TRUE(found) << v.out;
  EXPECT_EQ(run_cli("extract " + quote_path(f) + " -o " + quote_path(tmp / "o")).exit_code, 1);
  EXPECT_EQ(run_cli("verify " + quote_path(src)).exit_code, 0);
}

}  // namespace
}  // namespace assay
